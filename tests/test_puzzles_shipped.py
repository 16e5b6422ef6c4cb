"""The puzzles a fresh site ships with (games/puzzles/fixtures/shipped.json, issue 51): each
is its seeded bot game's seat view exactly, and its answer is the coach's best move with
its interval clear of a mark's line, judged again from the stored view with the other seed.

The coach's judgement takes seconds a puzzle, so the re-judging runs on a sample (every
``SAMPLE_EVERY``th puzzle); ``PUZZLES_CHECK_ALL=1`` judges every one."""

from __future__ import annotations

import os
from functools import cache

import pytest

from games.analysis.coach import FINE_MARKS, evaluate, thresholds
from games.engine import Move, apply, new_game, seat_view
from games.puzzles import mining, shipped
from games.puzzles.models import Puzzle
from games.puzzles.positions import THEMES, view_dict, view_of

ROWS = shipped.read()["puzzles"]
SAMPLE_EVERY = 10
SAMPLE = ROWS if os.environ.get("PUZZLES_CHECK_ALL") else ROWS[::SAMPLE_EVERY]


@cache
def game_moves(seed: int) -> list[dict]:
    return [m.to_dict() for _, m, _ in mining.bot_game(seed)]


def test_the_file_holds_the_puzzles_it_says_and_the_migration_loads_them(db):
    assert len(ROWS) == len({r["key"] for r in ROWS}) > 0
    assert Puzzle.objects.filter(key__startswith="bot/").count() == len(ROWS)


def test_each_shipped_puzzle_is_its_seats_view_of_its_seeded_game_and_nothing_more():
    for row in ROWS:
        _, seed, seq = row["key"].split("/")
        state = new_game(int(seed))
        for raw in game_moves(int(seed))[: int(seq) - 1]:
            state = apply(state, Move.from_dict(raw))
        assert row["played"] == game_moves(int(seed))[int(seq) - 1]
        assert row["view"] == view_dict(seat_view(state, row["played"]["seat"]))
        assert row["theme"] in THEMES and row["mark"]
        legal = row["view"]["legal"]
        assert row["answer"] in legal and row["answer"] != row["played"]
        assert len(row["also"]) + 1 <= len(legal) / 2  # at most half the moves are right
        for judged in ("first", "again"):
            f = row["figures"][judged]
            assert f["mark"] and f["loss_low"] >= thresholds(f["stake"], FINE_MARKS)[-1][1]


@pytest.mark.slow
@pytest.mark.parametrize("row", SAMPLE, ids=[r["key"] for r in SAMPLE])
def test_a_shipped_answer_is_the_coachs_best_move_judged_again_with_another_seed(row):
    view = view_of(row["view"])
    played, answer = Move.from_dict(row["played"]), Move.from_dict(row["answer"])
    seq = int(row["key"].split("/")[2])
    # The first judgement (the site's seeds) and the other seed's, from the stored view, on
    # the puzzles' scale (the coach's finer one, Inaccuracy included).
    for salt in (mining.FIRST_SALT, mining.RECHECK_SALT):
        e = evaluate(view, played, seq, mining.PUZZLE_BUDGET, salt)
        assert e.best == answer and e.mark and not e.close, (salt, e)
        assert e.loss_low >= thresholds(e.stake, FINE_MARKS)[-1][1]
