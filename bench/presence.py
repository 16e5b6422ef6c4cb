"""How fast a friend's presence reaches their friends (issue 27).

``python -m bench.presence [--people 1000] [--friends 50] [--workers 2] [--changes 200]``

N people, each logged in, each with a lobby socket open (spread round-robin over the
workers, as a load balancer would), each the friend of ``--friends`` others (a ring: the
25 before and the 25 after). Once every socket is open and the pushes of their arrival
have settled, ``--changes`` people, one every ``--interval`` seconds, each say their page
was hidden (the frame social.js sends); every one of their friends' sockets must receive
that friend's presence as Away. The latency of each delivery is from the moment the frame
was sent to the moment a friend's socket received it, on any worker. Prints p50, p95,
p99 and the max, and the last line is a JSON object (target: p99 < 1 s for 1,000
people on 2 workers).

PostgreSQL and Redis as in production: a database of its own on ``--postgres``'s server
(dropped at the end), the channel layer on ``--redis``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake

from bench.live_server import DEFAULT_REDIS, BenchSite, Workers, bench_site, server_url_from
from bench.live_site import make_people

FRAME = re.compile(r'id="presence-(\d+)" class="presence presence-(\w+)"')


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.presence", description=__doc__)
    p.add_argument("--people", type=int, default=1000)
    p.add_argument("--friends", type=int, default=50, help="each person's friends (even)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--changes", type=int, default=200)
    p.add_argument("--interval", type=float, default=0.05, help="seconds between changes")
    p.add_argument("--postgres", default=server_url_from(os.environ.get("DATABASE_URL")))
    p.add_argument("--redis", default=os.environ.get("REDIS_URL", DEFAULT_REDIS))
    return p.parse_args(argv)


def befriend_ring(ids: list[int], friends: int) -> int:
    """Each person the friend of the ``friends // 2`` after them (and so of as many
    before): accepted friendships, made in bulk."""
    from django.utils import timezone

    from games.social.models import Friendship

    now, n, half = timezone.now(), len(ids), friends // 2
    rows = [
        Friendship(from_user_id=ids[i], to_user_id=ids[(i + k) % n], accepted_at=now)
        for i in range(n)
        for k in range(1, half + 1)
    ]
    Friendship.objects.bulk_create(rows, batch_size=5000)
    return len(rows)


def friends_of(index: int, n: int, friends: int) -> list[int]:
    half = friends // 2
    return [(index + k) % n for k in range(-half, half + 1) if k]


class Run:
    def __init__(self, opts: argparse.Namespace, workers: Workers, people) -> None:
        self.opts, self.workers, self.people = opts, workers, people
        self.index = {uid: i for i, (uid, _) in enumerate(people)}
        self.sockets: list = [None] * len(people)
        self.sent_at: dict[int, float] = {}  # subject's user id -> when their frame went
        self.latencies: list[float] = []
        self.last_frame = time.monotonic()
        self.frames = 0
        self.retries = 0

    async def open_all(self) -> None:
        slots = asyncio.Semaphore(20)

        async def open_one(i: int) -> None:
            worker = self.workers.items[i % len(self.workers.items)]
            for attempt in range(5):  # a worker busy with the arrivals may drop a handshake
                try:
                    async with slots:
                        ws = await connect(
                            f"ws://127.0.0.1:{worker.port}/ws/lobby/",
                            origin=f"http://127.0.0.1:{worker.port}",
                            additional_headers={"Cookie": self.people[i][1]},
                            open_timeout=60, max_size=None,
                        )  # fmt: skip
                    break
                except (OSError, InvalidHandshake):
                    self.retries += 1
                    await asyncio.sleep(1 + attempt)
            else:
                raise RuntimeError(f"socket {i} could not connect")
            self.sockets[i] = ws
            asyncio.get_running_loop().create_task(self.listen(ws))

        await asyncio.gather(*(open_one(i) for i in range(len(self.people))))

    async def listen(self, ws) -> None:
        try:
            async for frame in ws:
                now = time.perf_counter()
                self.last_frame = time.monotonic()
                self.frames += 1
                for uid, kind in FRAME.findall(frame):
                    sent = self.sent_at.get(int(uid))
                    if kind == "away" and sent is not None:
                        self.latencies.append(now - sent)
        except Exception:  # closed at the end
            pass

    async def settle(self, quiet: float = 2.0, limit: float = 300) -> float:
        start = time.monotonic()
        while time.monotonic() - self.last_frame < quiet:
            if time.monotonic() - start > limit:
                break
            await asyncio.sleep(0.2)
        return time.monotonic() - start

    async def measure(self) -> int:
        n, changes = len(self.people), min(self.opts.changes, len(self.people))
        step = max(1, n // changes)
        subjects = [i * step % n for i in range(changes)]
        for i in subjects:
            uid = self.people[i][0]
            self.sent_at[uid] = time.perf_counter()
            await self.sockets[i].send(json.dumps({"away": True}))
            await asyncio.sleep(self.opts.interval)
        return len(subjects) * self.opts.friends

    async def run(self) -> dict:
        t = time.monotonic()
        await self.open_all()
        opened = time.monotonic() - t
        settled = await self.settle()
        print(
            f"{len(self.people)} sockets open in {opened:.1f} s ({self.retries} handshakes "
            f"retried), settled in {settled:.1f} s"
        )
        expected = await self.measure()
        deadline = time.monotonic() + 30
        while len(self.latencies) < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for ws in self.sockets:
            await ws.close()
        return report(self.opts, self.latencies, expected)


def pct(ordered: list[float], q: float) -> float | None:
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def report(opts, latencies: list[float], expected: int) -> dict:
    ordered = sorted(latencies)
    ms = {f"p{q}_ms": round(pct(ordered, q) * 1000, 1) if ordered else None for q in (50, 95, 99)}
    return {
        "people": opts.people, "friends": opts.friends, "workers": opts.workers,
        "changes": opts.changes, "deliveries": len(latencies), "expected": expected,
        **ms, "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
        "ok": len(latencies) == expected and bool(ordered) and ordered[
            min(len(ordered) - 1, int(0.99 * len(ordered)))
        ] < 1.0,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    with bench_site("presence", opts.postgres, opts.redis) as site:
        try:
            return run_presence(opts, site)
        except BaseException:
            for worker in site.workers.items:  # why, from the workers' side
                log = worker.log
                tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
                print(f"--- worker {worker.index} log, last lines:\n{tail}", file=sys.stderr)
            raise


def run_presence(opts: argparse.Namespace, site: BenchSite) -> int:
    site.setup_django()
    workers = site.workers
    people = make_people(opts.people)
    made = befriend_ring([uid for uid, _ in people], opts.friends)
    print(f"{opts.people} people, {made} friendships; starting {opts.workers} worker(s)")
    workers.start(opts.workers, site.env)
    result = asyncio.run(Run(opts, workers, people).run())
    problems = workers.log_problems()
    result["worker_errors"] = len(problems)
    for line in problems[:5]:
        print(line)
    print(
        f"presence to every online friend: p50 {result['p50_ms']} ms, p95 "
        f"{result['p95_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms "
        f"({result['deliveries']} of {result['expected']} deliveries)"
    )
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
