"""What correspondence games cost while they wait, and a move of one:
``python -m bench.correspondence [--games 100000] [--people 5000] [--moves 200]
[--postgres URL]``.

1. **Setup**, bulk-made (no service call per game): ``--games`` correspondence games in
   play, each with people and bots (two people and a bot, one person and two bots, or
   three people), a turn of 1 hour to 3 days, dealt from a seed of its own and a few to a
   dozen moves into its hand, made over simulated days (the moves are real: the engine and
   the bots played 256 hands, each game is one of them up to a person's turn), every clock
   running, none due. ``VACUUM ANALYZE`` after, as autovacuum would.
2. **Database size a game**: the games', seats' and moves' tables with their indexes,
   divided by the games.
3. **The clock's due query** at that size (``games.play.clock._due_games``, as every tick
   of every worker runs it, its SQL read from the connection): with nothing due, and with
   50 games due, ``--rounds`` rounds of 60 round trips from this process (the median and
   p95 of each round and of all), 60 times inside PostgreSQL (``EXPLAIN ANALYZE``'s
   execution time, median and p95), and the plan PostgreSQL chose; the machine's load
   is printed beside them.
4. **Worker CPU a move, notifications included**: ``--moves`` people's turns (half with a
   push device at a stand-in push service on 127.0.0.1, half by email through Django's
   locmem backend), each through ``moves.submit_move`` as from the page, the bots'
   answers by the server clock (``clock.run_due``, at once at a correspondence table),
   then the background worker's tasks (whose turn it is, the wording, the encryption
   and the POST, or the email). This process's CPU (``time.process_time``) over all of
   it, divided by the moves made (people's and bots'); PostgreSQL's own CPU is not in it.
   The person's choice of move (the engine and a bot, standing in for a person at their
   page) is not timed.

PostgreSQL as in production: a database of its own on ``--postgres``'s server, dropped at
the end (``bench.worker_site``, shared with ``bench.notifications``). The last line printed
is a JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import time
from datetime import timedelta

from bench.worker_site import add_postgres, on_own_database, quantile_ms, site_keys

TURNS = (3600, 12 * 3600, 24 * 3600, 72 * 3600)
SHAPES = (("p", "p", "b"), ("p", "b", "b"), ("p", "p", "p"), ("b", "p", "p"))
TEMPLATES = 256
BATCH = 5000


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.correspondence", description=__doc__)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--people", type=int, default=5000)
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--rounds", type=int, default=5, help="rounds of the due query's timing")
    add_postgres(p)
    return p.parse_args(argv)


# --- Setup ---------------------------------------------------------------------------------


def templates(n: int, rng: random.Random) -> list[dict]:
    """Hands played by the engine and the greedy bot up to a person's turn, a few to a
    dozen moves in: the deal, the moves' payloads, whose turn it is."""
    from games import bots
    from games.engine import apply, deal_from_seed, new_game, seat_view
    from games.engine.cards import CODES

    made = []
    while len(made) < n:
        seed = rng.getrandbits(128)
        shape = SHAPES[len(made) % len(SHAPES)]
        dealer, hands, stock = deal_from_seed(seed)
        state = new_game(seed)
        moves, want = [], rng.randint(3, 12)
        while state.outcome is None and (len(moves) < want or shape[state.turn] != "p"):
            move = bots.choose("greedy", seat_view(state, state.turn), rng)
            state = apply(state, move)
            moves.append(move.to_dict())
        if state.outcome is not None:
            continue
        deal = {
            "dealer": dealer,
            "hands": [[CODES[c] for c in hand] for hand in hands],
            "stock": [CODES[c] for c in stock],
        }
        made.append({"seed": seed, "shape": shape, "deal": deal, "moves": moves,
                     "turn": state.turn, "dealer": dealer})  # fmt: skip
    return made


def people(n: int) -> list:
    from django.contrib.auth import get_user_model

    from accounts.models import Profile

    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"c{i}", email=f"c{i}@example.com", password="!") for i in range(n)],
        batch_size=BATCH,
    )
    users = list(User.objects.filter(username__startswith="c").order_by("pk"))
    Profile.objects.bulk_create([Profile(user=u) for u in users], batch_size=BATCH)
    return users


def setup(games: int, n_people: int, rng: random.Random) -> float:
    """The waiting games, bulk-made; the seconds it took."""
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Game, Move, Seat

    started = time.perf_counter()
    users = people(n_people)
    hands = templates(min(TEMPLATES, games), rng)
    now = timezone.now()
    for first in range(0, games, BATCH):
        batch, plans = [], []
        for i in range(first, min(games, first + BATCH)):
            t = hands[i % len(hands)]
            turn = TURNS[i % len(TURNS)]
            # Made days ago, each move some hours after the last; the turn now running
            # began within the first half of its time, so no clock falls due during the
            # run (half an hour at least is left).
            began = now - timedelta(seconds=rng.uniform(0, turn * 0.5))
            made_at = began - timedelta(hours=rng.uniform(1, 24) * len(t["moves"]))
            seed = str(t["seed"])
            batch.append(Game(
                status=Game.Status.PLAYING, public=False, turn_seconds=turn, rated=True,
                seed=seed, commitment=Game.commit_to(seed), deal=t["deal"], dealer=t["dealer"],
                started_at=made_at, seq=len(t["moves"]), rev=len(t["moves"]) + 1,
                turn_seat=t["turn"], turn_started_at=began, last_move_at=began,
                due_at=began + timedelta(seconds=turn),
            ))  # fmt: skip
            plans.append(t)
        with transaction.atomic():
            Game.objects.bulk_create(batch, batch_size=BATCH)
            seats, moves = [], []
            for game, t in zip(batch, plans, strict=True):
                sitting = rng.sample(users, 3)
                for index, kind in enumerate(t["shape"]):
                    if kind == "p":
                        seats.append(Seat(game=game, index=index, user=sitting[index]))
                    else:
                        seats.append(Seat(game=game, index=index, bot_kind="normal"))
                for seq, payload in enumerate(t["moves"], start=1):
                    bot = t["shape"][payload["seat"]] == "b"
                    moves.append(
                        Move(
                            game=game, seq=seq, seat=payload["seat"], payload=payload, by_server=bot
                        )  # fmt: skip
                    )
            Seat.objects.bulk_create(seats, batch_size=BATCH)
            Move.objects.bulk_create(moves, batch_size=BATCH)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


# --- Measures ------------------------------------------------------------------------------


def size_per_game(games: int) -> dict:
    from django.db import connection

    sizes = {}
    with connection.cursor() as cursor:
        for table in ("games_game", "games_seat", "games_move"):
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            sizes[table] = cursor.fetchone()[0]
    total = sum(sizes.values())
    return {"bytes_per_game": round(total / games), "tables_bytes": sizes}


def _the_clocks_sql(now) -> str:
    """The due query exactly as the clock sends it (``clock._due_games``, with the first
    board's grace as configured), read from the connection: the SQL PostgreSQL is asked to
    explain is the one timed from this process."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.play import clock

    with CaptureQueriesContext(connection) as seen:
        clock._due_games(now, clock.MOVES_PER_RUN, set())
    return seen.captured_queries[-1]["sql"]


def due_query(rounds: int = 5, repeat: int = 60) -> dict:
    """The clock's due query with nothing due and with 50 due: ``rounds`` rounds of
    ``repeat`` round trips from this process (each round's median and p95, and those of
    all of them), and ``repeat`` times inside PostgreSQL (``EXPLAIN ANALYZE``'s execution
    time: the server's own, apart from the round trip and this process's share of a busy
    machine), and the plan PostgreSQL chose."""
    from django.db import connection
    from django.utils import timezone

    from games.models import Game
    from games.play import clock

    def round_trips() -> dict:
        now = timezone.now()
        each = []
        for _ in range(rounds):
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                clock._due_games(now, clock.MOVES_PER_RUN, set())
                times.append((time.perf_counter() - t) * 1000)
            each.append(times)
        every = [t for times in each for t in times]
        return {
            "p50_ms": quantile_ms(every, 50), "p95_ms": quantile_ms(every, 95),
            "rounds_p50_ms": [quantile_ms(times, 50) for times in each],
            "rounds_p95_ms": [quantile_ms(times, 95) for times in each],
        }  # fmt: skip

    def in_the_database() -> dict:
        sql = _the_clocks_sql(timezone.now())
        found = []
        with connection.cursor() as cursor:
            for _ in range(repeat):
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
                found.append(cursor.fetchone()[0][0]["Execution Time"])
        return {"p50_ms": quantile_ms(found, 50), "p95_ms": quantile_ms(found, 95)}

    nothing = {"round_trip": round_trips(), "in_postgres": in_the_database()}
    # 50 games fall due: the query reads those and no more.
    due = list(Game.objects.order_by("?").values_list("pk", flat=True)[:50])
    past = timezone.now() - timedelta(seconds=1)
    kept = dict(Game.objects.filter(pk__in=due).values_list("pk", "due_at"))
    Game.objects.filter(pk__in=due).update(due_at=past)
    some = {"round_trip": round_trips(), "in_postgres": in_the_database()}
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + _the_clocks_sql(timezone.now()))
        plan = [row[0] for row in cursor.fetchall()]
    for pk, due_at in kept.items():
        Game.objects.filter(pk=pk).update(due_at=due_at)
    return {"none_due": nothing, "fifty_due": some, "rounds": rounds, "repeat": repeat,
            "plan": plan}  # fmt: skip


def turns(n: int, rng: random.Random) -> dict:
    """n people's moves with everything after them (see the module); CPU a move."""
    from django.core import mail
    from django.core.management import call_command
    from django.utils import timezone

    from games import bots
    from games.engine import replay, seat_view
    from games.models import Game, Move, Seat
    from games.notifications import push
    from games.play import clock, moves
    from tests.notifications.support import Browser, PushEndpoint

    mail.outbox = []
    endpoint = PushEndpoint()
    try:
        chosen = list(
            Seat.objects.filter(
                user__isnull=False, game__status=Game.Status.PLAYING, index=_turn_seat()
            ).select_related("user", "game")[: n * 3]
        )
        rng.shuffle(chosen)
        picked, seen, busy = [], set(), set()
        for seat in chosen:  # one turn per game and per person
            if seat.game_id in seen or seat.user_id in busy:
                continue
            seen.add(seat.game_id)
            busy.add(seat.user_id)
            picked.append(seat)
            if len(picked) == n:
                break
        users = {s.user_id for s in Seat.objects.filter(game_id__in=[s.game_id for s in picked])
                 if s.user_id}  # fmt: skip
        for i, user_id in enumerate(sorted(users)):
            if i % 2 == 0:  # every other person has a phone that allowed push
                push.keep(user_id, Browser().subscription(endpoint.url(f"/u{user_id}")), "b")
        first = Move.objects.order_by("-pk").values_list("pk", flat=True).first()
        cpu = wall = 0.0
        for seat in picked:  # the person's whole turn: draw, melds, discard
            while True:
                # The person's choice, made as a person would from their page: not timed,
                # and from the engine alone (the services' caches stay as they were).
                game = Game.objects.get(pk=seat.game_id)
                if game.status != Game.Status.PLAYING or game.turn_seat != seat.index:
                    break
                state = replay(game.record()).state
                move = bots.choose("greedy", seat_view(state, seat.index), rng).to_dict()
                c, w = time.process_time(), time.perf_counter()
                moves.submit_move(game.pk, seat.user, move, expected_seq=game.seq)
                cpu, wall = cpu + time.process_time() - c, wall + time.perf_counter() - w
        c, w = time.process_time(), time.perf_counter()
        later = timezone.now() + timedelta(seconds=5)
        while clock.run_due(later):  # the bots answer at once
            pass
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload",
                     "--interval", "0", stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip
        cpu, wall = cpu + time.process_time() - c, wall + time.perf_counter() - w
        # Every move made meanwhile, wherever (a clock that fell due elsewhere would show).
        made = Move.objects.filter(pk__gt=first or 0).count()
        pushes, emails = len(endpoint.received), len(mail.outbox)
    finally:
        endpoint.stop()
    return {
        "people_moves": len(picked), "moves": made, "pushes": pushes, "emails": emails,
        "cpu_ms_per_move": round(cpu * 1000 / max(1, made), 2),
        "wall_ms_per_move": round(wall * 1000 / max(1, made), 2),
    }  # fmt: skip


def _turn_seat():
    from django.db.models import F

    return F("game__turn_seat")


def run(games: int, n_people: int, n_moves: int, seed: int = 50, rounds: int = 5) -> dict:
    import logging

    from django.conf import settings

    site_keys()
    settings.TONGITS_BOT_PAUSE = (0.0, 0.0)
    for name in ("django_tasks", "django_tasks_db"):  # a line a task would be timed too
        logging.getLogger(name).setLevel(logging.WARNING)
    rng = random.Random(seed)
    result = {"games": games, "setup_s": round(setup(games, n_people, rng), 1)}
    result.update(size_per_game(games))
    result["load_before_due_query"] = _load()
    result["due_query"] = due_query(rounds=rounds)
    result["move"] = turns(n_moves, rng)
    result["load_after"] = _load()
    return result


def _load() -> list[float]:
    """The machine's load (1, 5 and 15 minutes), printed beside the figures."""
    return [round(x, 2) for x in os.getloadavg()]


def _due_lines(due: dict) -> list[str]:
    lines = []
    for key, words in (("none_due", "nothing due"), ("fifty_due", "50 due")):
        trip, db = due[key]["round_trip"], due[key]["in_postgres"]
        lines.append(
            f"  {words}: round trip p50 {trip['p50_ms']} ms, p95 {trip['p95_ms']} ms "
            f"({due['rounds']} rounds of {due['repeat']}: p50 "
            f"{', '.join(map(str, trip['rounds_p50_ms']))} ms; p95 "
            f"{', '.join(map(str, trip['rounds_p95_ms']))} ms); in PostgreSQL "
            f"(EXPLAIN ANALYZE, {due['repeat']} times) p50 {db['p50_ms']} ms, p95 {db['p95_ms']} ms"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = on_own_database(
        args.postgres,
        lambda: run(args.games, args.people, args.moves, rounds=args.rounds),
        TONGITS_CLOCK_IN_WORKERS="0",
    )
    due, move = result["due_query"], result["move"]
    print(f"{result['games']} waiting games made in {result['setup_s']} s")
    print(f"database: {result['bytes_per_game']} bytes a game (games, seats, moves, indexes)")
    load = result["load_before_due_query"]
    print(f"the clock's due query at {result['games']} games (load {load}):")
    print("\n".join(_due_lines(due)))
    print("  plan: " + " / ".join(line.strip() for line in due["plan"] if "Scan" in line))
    print(
        f"a move: {move['cpu_ms_per_move']} ms of worker CPU ({move['moves']} moves, "
        f"{move['people_moves']} by people, {move['pushes']} pushes, {move['emails']} emails; "
        f"wall {move['wall_ms_per_move']} ms a move)"
    )
    print(f"load after: {result['load_after']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
