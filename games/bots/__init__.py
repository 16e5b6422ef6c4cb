"""Bots: each picks a move for one seat from that seat's ``SeatView`` alone.

A bot never sees a ``GameState``: it knows its own hand and what is on the table, like
the person whose seat it fills. The caller passes the ``random.Random`` so that a server
or the arena can seed it; no bot touches global randomness.

People choose bots by level, named for how they play rather than how they work:
``easy`` (greedy that sometimes misses), ``normal`` (greedy) and ``hard`` (search). The
older kinds ``random`` and ``greedy`` stay, for tables and records made before levels.

May import: the engine only (pyproject.toml's contracts hold it apart from the site).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable

from games.engine.moves import Move
from games.engine.view import SeatView

from . import easy, greedy, learned, search, uniform

LEVELS = ("easy", "normal", "hard")
BOT_KINDS = ("random", "greedy", "search", *LEVELS)
# Kinds whose thinking is heavy enough to run in another process (games.bots.pool).
SEARCHING = frozenset({"search", "hard"})

_POLICIES: dict[str, Callable[[SeatView, random.Random], Move]] = {
    "random": uniform.choose,
    "greedy": greedy.choose,
    "search": search.choose,
    "easy": easy.choose,
    "normal": greedy.choose,
    "hard": search.choose,
}

# Hard's budget by kind, and variants of it for benches and the arena only (never offered on
# the site): Hard with the learned discard model (games.bots.learned) in its rollouts and in
# its choice of candidate discards, as it plays (hard-learned), in one of the two only, or
# in neither (hard-plain: Hard before the model).
_BUDGETS: dict[str, search.Budget] = {
    "search": search.DEFAULT_BUDGET,
    "hard": search.DEFAULT_BUDGET,
    "hard-learned": dataclasses.replace(
        search.DEFAULT_BUDGET, learned_rollouts=True, learned_order=True
    ),
    "hard-rollouts": dataclasses.replace(
        search.DEFAULT_BUDGET, learned_rollouts=True, learned_order=False
    ),
    "hard-order": dataclasses.replace(
        search.DEFAULT_BUDGET, learned_rollouts=False, learned_order=True
    ),
    "hard-plain": dataclasses.replace(
        search.DEFAULT_BUDGET, learned_rollouts=False, learned_order=False
    ),
    "hard-tuned": dataclasses.replace(search.DEFAULT_BUDGET, own_tuned=True),
}
TRIAL_KINDS = ("hard-learned", "hard-rollouts", "hard-order", "hard-plain", "hard-tuned")


def _with_budget(budget: search.Budget) -> Callable[[SeatView, random.Random], Move]:
    return lambda view, rng: search.choose_with(view, rng, budget)


_POLICIES.update({kind: _with_budget(_BUDGETS[kind]) for kind in TRIAL_KINDS})
# Greedy by the tuned rules of thumb (greedy.TUNED) alone, for benches.
_POLICIES["greedy-tuned"] = lambda view, rng: greedy.choose(view, rng, greedy.TUNED)
TRIAL_KINDS += ("greedy-tuned",)


def model_version(kind: str | None) -> str | None:
    """The version of the learned model a ``kind`` bot plays with, or None if it uses none
    (a game record names it, docs/record.md)."""
    budget = _BUDGETS.get(kind or "")
    if budget is None or not (budget.learned_rollouts or budget.learned_order):
        return None
    return learned.default_model().version


def choose(kind: str, view: SeatView, rng: random.Random) -> Move:
    """The move a ``kind`` bot makes in ``view``; one of ``view.legal``."""
    if kind not in _POLICIES:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}")
    if not isinstance(view, SeatView):
        raise TypeError(f"a bot plays from a SeatView, not a {type(view).__name__}")
    if not view.legal:
        raise ValueError("this seat has no move to make now")
    return _POLICIES[kind](view, rng)


def bot_seed(seed: str, seq: int, seat: int) -> int:
    """The seed of a bot's randomness for its move after ``seq`` moves, in seat ``seat``
    of the game dealt from ``seed``: the same game gives the same moves, and a hash of the
    secret seed tells nobody anything about the deal."""
    digest = hashlib.sha256(f"tongits-bot/{seed}/{seq}/{seat}".encode()).digest()
    return int.from_bytes(digest[:16], "big")
