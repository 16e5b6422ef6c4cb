"""Bots: each picks a move for one seat from that seat's ``SeatView`` alone.

A bot never sees a ``GameState``: it knows its own hand and what is on the table, like
the person whose seat it fills. The caller passes the ``random.Random`` so that a server
or the arena can seed it; no bot touches global randomness.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.moves import Move
from games.engine.view import SeatView

from . import greedy, search, uniform

BOT_KINDS = ("random", "greedy", "search")

_POLICIES: dict[str, Callable[[SeatView, random.Random], Move]] = {
    "random": uniform.choose,
    "greedy": greedy.choose,
    "search": search.choose,
}


def choose(kind: str, view: SeatView, rng: random.Random) -> Move:
    """The move a ``kind`` bot makes in ``view``; one of ``view.legal``."""
    if kind not in _POLICIES:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}")
    if not isinstance(view, SeatView):
        raise TypeError(f"a bot plays from a SeatView, not a {type(view).__name__}")
    if not view.legal:
        raise ValueError("this seat has no move to make now")
    return _POLICIES[kind](view, rng)
