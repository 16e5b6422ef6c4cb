"""Par: what Hard scores in the daily seat on the day's deal, against the same two Normal
bots a person meets. Pure (the engine and the bots; no Django), so anyone can work it out
again from a revealed seed (``manage.py verify_deal --daily DATE``).

Every bot's randomness is the site's own (``games.bots.bot_seed``: the seed, the number of
moves so far and the seat), the same the server clock gives the bots of a person's daily
game. So Normal answers Hard's moves exactly as it would answer a person who made them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games import bots
from games.engine import apply, new_game, seat_view

SEAT = 0  # the person's seat at a daily table, and so Hard's for par
OPPONENTS = "normal"
PAR_KIND = "hard"


@dataclass(frozen=True)
class Par:
    chips: int
    moves: list[dict]  # the par game's log, as a record keeps it


def kinds() -> list[str]:
    """Each seat's bot for par: Hard in the daily seat, Normal in the others."""
    return [PAR_KIND if seat == SEAT else OPPONENTS for seat in range(3)]


def play(seed: int) -> Par:
    """Play the deal of ``seed`` with Hard in the daily seat: its chips and moves."""
    state = new_game(seed)
    by_seat = kinds()
    moves = []
    while state.outcome is None:
        rng = random.Random(bots.bot_seed(str(seed), state.ply, state.turn))
        move = bots.choose(by_seat[state.turn], seat_view(state, state.turn), rng)
        moves.append(move.to_dict())
        state = apply(state, move)
    return Par(state.outcome.chips[SEAT], moves)
