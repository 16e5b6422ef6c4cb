"""The live benchmark (python -m bench.live): its clients read the frames the table really
sends, and a short run through real Daphne workers and sockets loses and doubles no move.

Only correctness is asserted here; the bench prints its timings for people to read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.live_frames import Board, choose, form_fields
from games.engine import seat_view
from games.engine.cards import CODES
from games.play.moves import game_state
from games.table import rendering

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_reads_a_seat_s_hand_and_buttons_from_the_frame_the_table_sends(
    alice, bob, carol, make_game
):
    game = make_game([alice, bob, carol], seed=11)
    state = game_state(game)
    turn = state.turn
    user = (alice, bob, carol)[turn]
    view = seat_view(state, turn)

    board = Board()
    board.apply(rendering.render_frame(rendering.load_table(game.pk, user)))
    hand = board.hand()

    assert board.seq == game.seq
    assert sorted(hand.cards) == sorted(CODES[c] for c in view.hand)
    assert set(hand.actions) == {move.type for move in view.legal}
    assert hand.hidden["seq"] == str(game.seq) and hand.hidden["client_move_id"]
    choice = choose(hand)
    assert choice["action"] in hand.actions
    sent = form_fields(hand, choice, f"http://testserver/games/{game.pk}/")
    assert sent["action"] == choice["action"] and "HEADERS" in sent


def test_the_bench_keeps_the_newest_version_of_each_part_and_ignores_older_ones(
    alice, bob, carol, make_game
):
    game = make_game([alice, bob, carol], seed=11)
    board = Board()
    board.apply(rendering.render_frame(rendering.load_table(game.pk, alice)))
    newer = '<div id="messages" data-seq="99" hx-swap-oob="true"><p>Hello</p></div>'
    older = rendering.message_frame("Too late.", 5)

    board.apply(newer)
    board.apply(older)

    assert board.message() == "Hello" and board.seq == 99
    assert board.hand() is not None and not board.finished()


def bench_options() -> list[str]:
    """A few tables for a few seconds, on the services the test run itself uses: PostgreSQL
    and Redis (two workers) when set, else SQLite and the in-memory layer (one worker)."""
    # Round-robin: a game's sockets on both workers, so its events cross between them.
    # Play again through the workers, as the site's people do (bench/live_pages.py).
    options = ["--tables", "3", "--think", "0", "--seconds", "4", "--route", "round-robin",
               "--play-again"]  # fmt: skip
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        options.append("--sqlite")
    redis = os.environ.get("REDIS_URL")
    options += ["--redis", redis, "--workers", "2"] if redis else ["--no-redis"]
    return options


@pytest.mark.slow
def test_a_short_live_run_loses_and_doubles_no_move_and_stops_by_itself():
    run = subprocess.run(
        [sys.executable, "-m", "bench.live", *bench_options()],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    output = run.stdout[-4000:] + run.stderr[-4000:]
    assert run.returncode == 0, output
    report = json.loads(run.stdout.strip().splitlines()[-1])

    assert report["moves"] > 0, output
    assert report["lost"] == report["doubled"] == report["unknown_logged"] == 0, output
    assert report["seats_behind"] == 0 and report["replay"]["exit"] == 0, output
    assert report["errors"] == 0, output
    # Its tables start at random points of their games, played through the service.
    assert report["started_mid_game"] and report["moves_before_start"] > 0, output
    # Their next games were made by Play again, sent over the tables' open sockets as the
    # page does, and played on those sockets (a refusal or a table not made would be
    # among the errors).
    assert report["games"] > 3, output


@pytest.mark.slow
def test_a_short_arena_run_seats_everyone_and_brings_next_games_over_the_open_sockets(
    tmp_path,
):
    """bench.live --arena --join-pages: nine people load the tournament's page and Join
    from it (its CSRF token), are paired at the start through its live part, and after a
    game the next one comes to the table's socket (no page between).
    Its timeline says, second by second, how many moves were timed and what the CPU did."""
    services = bench_options()[9:]  # the database and channel layer of this test run
    run = subprocess.run(
        [sys.executable, "-m", "bench.live", "--arena", "--join-pages", "--people", "9",
         "--think", "0.1",
         "--seconds", "30", "--logs", str(tmp_path), *services],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = run.stdout[-4000:] + run.stderr[-4000:]
    assert run.returncode == 0, output
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["people_boarded"] == 9 and report["first_tables"] == 3, output
    assert report["joined_through_pages"] and report["polls"]["join 302"] == 9, output
    assert report["polls"].get("over the socket", 0) > 0, output
    assert report["lost"] == report["doubled"] == report["unknown_logged"] == 0, output
    assert report["replay"]["exit"] == 0 and report["handshakes_failed"] == 0, output
    rows = (tmp_path / "timeline.csv").read_text().splitlines()
    assert rows[0].startswith("second,moves,p50_ms,p99_ms,workers_cpu_pct"), rows[:2]
    seconds = [[float(x) for x in row.split(",")] for row in rows[1:]]
    assert len(seconds) >= 25, rows  # a row a second from the start, for 30 s
    assert sum(row[1] for row in seconds) > 0, rows  # moves were timed, second by second
    assert all(row[4] >= 0 and row[6] > 0 for row in seconds), rows  # workers', machine's CPU
