"""What a notification costs the background worker: ``python -m bench.notifications
[--notices N] [--postgres URL]``.

N people (default 400), half with a device that allowed push (a real P-256 key pair and
auth secret each), half with email only, are each told one event (a friend request), and
the worker's delivery (``delivery.deliver_now``: reading the notice, wording it in the
person's language, the delivery row, then for push the encryption for the device's keys,
the VAPID signature and the POST to a push endpoint on 127.0.0.1, for email the message
and Django's locmem backend) is timed for each, by wall and by this thread's CPU (the
endpoint's own work runs in another thread and is not counted). Prints p50 and p95 of
each, and the last line is a JSON object. A shortcut, labelled as such: the push service
is a local stand-in answering 201 at once, so the wall time holds no network.

PostgreSQL as in production: a database of its own on ``--postgres``'s server, dropped at
the end (SQLite in a scratch folder when no server is given), made by ``bench.worker_site``
as for ``bench.correspondence``.
"""

from __future__ import annotations

import argparse
import json
import time

from bench.worker_site import add_postgres, on_own_database, quantile_ms


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.notifications", description=__doc__)
    p.add_argument("--notices", type=int, default=400)
    add_postgres(p)
    return p.parse_args(argv)


def people(n: int, endpoint) -> tuple[list, int]:
    """n people, every other one with a push device; the one who asks them all."""
    from django.contrib.auth import get_user_model

    from games.notifications import push
    from tests.notifications.support import Browser

    User = get_user_model()
    asker = User.objects.create_user("asker", "asker@example.com")
    made = []
    for i in range(n):
        person = User.objects.create_user(f"p{i}", f"p{i}@example.com")
        if i % 2 == 0:
            push.keep(person.pk, Browser().subscription(endpoint.url(f"/p{i}")), "bench")
        made.append(person)
    return made, asker.pk


def measure(n: int) -> dict:
    from django.core import mail
    from django.utils import timezone

    from games.notifications import delivery, notices
    from games.notifications.models import Notice
    from tests.notifications.support import PushEndpoint

    mail.outbox = []
    endpoint = PushEndpoint()
    try:
        made, asker = people(n, endpoint)
        for i, person in enumerate(made):
            notices.tell(person, "friend_request", f"bench:{i}", name="asker", by=asker)
        times: dict[str, list[tuple[float, float]]] = {"push": [], "email": []}
        for notice in Notice.objects.order_by("pk").select_related("user"):
            way = "push" if int(notice.user.username[1:]) % 2 == 0 else "email"
            wall, cpu = time.perf_counter(), time.thread_time()
            delivery.deliver_now(notice.pk, timezone.now())
            times[way].append((time.perf_counter() - wall, time.thread_time() - cpu))
        assert len(endpoint.received) == len(times["push"]), "a push went missing"
        assert len(mail.outbox) == len(times["email"]), "an email went missing"
    finally:
        endpoint.stop()
    return {way: summary(rows) for way, rows in times.items()}


def summary(rows: list[tuple[float, float]]) -> dict:
    def ms(values: list[float], q: int) -> float:
        return quantile_ms(values, q, scale=1000)

    walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
    return {
        "n": len(rows),
        "wall_p50_ms": ms(walls, 50), "wall_p95_ms": ms(walls, 95),
        "cpu_p50_ms": ms(cpus, 50), "cpu_p95_ms": ms(cpus, 95),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = on_own_database(args.postgres, lambda: measure(args.notices))
    for way, row in result.items():
        print(
            f"{way}: {row['n']} delivered; worker CPU p50 {row['cpu_p50_ms']} ms, "
            f"p95 {row['cpu_p95_ms']} ms; wall p50 {row['wall_p50_ms']} ms, "
            f"p95 {row['wall_p95_ms']} ms"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
