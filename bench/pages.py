"""``python -m bench.pages``: how fast the history pages are for a player with 1,000 games.

Seeds a fresh database (a temporary SQLite file, or ``BENCH_DATABASE_URL`` if set: it must
be an empty database) with ``manage.py seed_games``, then requests each page with Django's
test client and prints the median time and the number of queries per page. The last line
is one JSON object, for scripts. Target: every page under 100 ms, with a number of queries
that does not grow with the number of games.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

GAMES = 1000
RUNS = 15
TARGET_MS = 100


def main() -> int:
    scratch = tempfile.mkdtemp(prefix="tongits-bench-")
    default = f"sqlite:///{os.path.join(scratch, 'bench.sqlite3')}"
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", default)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tongits_site.settings")
    os.environ["TONGITS_CLOCK_IN_WORKERS"] = "0"
    try:
        return run()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run() -> int:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import Game

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    # Rated, with series among them: ratings, pots and series groups are on the pages.
    call_command("seed_games", user="bench", games=GAMES, seed=1, rated=True, series_every=10,
                 stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip
    seed_s = time.perf_counter() - started
    print(f"seed_games: {GAMES} games in {seed_s:.1f} s", file=sys.stderr)

    user = get_user_model().objects.get(username="bench")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    game = Game.objects.filter(seats__user=user).order_by("-seq", "pk").first()
    pages = {
        "history": "/games/mine/",
        "history_filtered": "/games/mine/?result=won&end=fought_draw&page=2",
        "profile": "/players/bench/",
        "leaderboard": "/leaderboard/",
        "replay": f"/games/{game.pk}/replay/?move={game.seq // 2}",
        "dashboard": "/staff/dashboard/",
    }
    result: dict[str, float | int] = {"games": GAMES, "seed_s": round(seed_s, 2)}
    for name, url in pages.items():
        ms, queries = measure(user, url)
        result[f"{name}_ms"], result[f"{name}_queries"] = round(ms, 1), queries
        flag = "" if ms < TARGET_MS else f"  (over {TARGET_MS} ms)"
        print(f"{name:18} {ms:7.1f} ms  {queries:3} queries  {url}{flag}")
    print(json.dumps(result))
    return 0


def measure(user: object, url: str) -> tuple[float, int]:
    """Median time over RUNS requests after a warm-up, and the queries of one request."""
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(user)
    # DEBUG (on, so that {% static %} needs no collectstatic) logs every query; each
    # request clears that log, which would confuse a capture that starts from a long one.
    reset_queries()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(captured)


if __name__ == "__main__":
    sys.exit(main())
