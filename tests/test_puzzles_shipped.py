"""The puzzles a fresh site ships with (games/puzzles/fixtures/shipped.json, issue 51): each
is its seeded bot game's seat view exactly, and its answer is the coach's best move with
its interval clear of a mark's line, judged again from the stored view with the other seed.

The coach's judgement takes seconds a puzzle, so CI re-judges a fixed sample whatever the
file's size (``SAMPLE``: for each theme, the puzzle cheapest to judge again, by the
deals its two judgements took); ``PUZZLES_CHECK_ALL=1`` judges every one. Each seed's
game is replayed once for all its puzzles."""

from __future__ import annotations

import os
from collections import defaultdict
from hashlib import sha256

import pytest

from games.analysis.coach import DEFAULT_BUDGET, FINE_MARKS, evaluate, thresholds
from games.engine import Move, apply, new_game, seat_view
from games.puzzles import mining, shipped
from games.puzzles.models import Puzzle
from games.puzzles.positions import THEMES, view_dict, view_of

ROWS = shipped.read()["puzzles"]


def sample(rows: list[dict]) -> list[dict]:
    """One puzzle a theme: the one cheapest to judge again (``rollouts``), of those the one
    whose key hashes lowest. Most settled in 128 deals (``Budget.mark_worlds``), so the
    sample costs about the same whatever the file holds."""
    chosen = {}
    for row in sorted(rows, key=lambda r: (rollouts(r), sha256(r["key"].encode()).digest())):
        chosen.setdefault(row["theme"], row)
    return [chosen[t] for t in THEMES if t in chosen]


def rollouts(row: dict) -> int:
    """About how many deals both judgements play out: every legal move in the first 12,
    then the finalists (three and the move played) in the rest."""
    legal, first = len(row["view"]["legal"]), DEFAULT_BUDGET.first_worlds
    worlds = (row["figures"][j]["worlds"] for j in ("first", "again"))
    return sum(
        first * legal + (n - first) * min(legal, DEFAULT_BUDGET.finalists + 1) for n in worlds
    )


SAMPLE = ROWS if os.environ.get("PUZZLES_CHECK_ALL") else sample(ROWS)


def test_the_file_holds_the_puzzles_it_says_and_the_migration_loads_them(db):
    assert len(ROWS) == len({r["key"] for r in ROWS}) > 0
    assert Puzzle.objects.filter(key__startswith="bot/").count() == len(ROWS)


def test_each_shipped_puzzle_is_its_seats_view_of_its_seeded_game_and_nothing_more():
    by_seed: dict[int, dict[int, dict]] = defaultdict(dict)
    for row in ROWS:
        _, seed, seq = row["key"].split("/")
        by_seed[int(seed)][int(seq)] = row
    for seed, rows in by_seed.items():
        state, last = new_game(seed), max(rows)
        for _, move, seq in mining.bot_game(seed)[:last]:
            if seq in rows:
                row = rows.pop(seq)
                assert row["played"] == move.to_dict()
                assert row["view"] == view_dict(seat_view(state, move.seat))
                assert row["theme"] in THEMES and row["mark"]
                legal = row["view"]["legal"]
                assert row["answer"] in legal and row["answer"] != row["played"]
                assert len(row["also"]) + 1 <= len(legal) / 2  # at most half the moves are right
                for judged in ("first", "again"):
                    f = row["figures"][judged]
                    assert f["mark"] and f["loss_low"] >= thresholds(f["stake"], FINE_MARKS)[-1][1]
            state = apply(state, move)
        assert not rows, f"seed {seed}: moves {sorted(rows)} are not in its game"


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
