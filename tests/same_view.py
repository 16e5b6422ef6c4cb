"""A deal the seat to act cannot tell from the real one: the honesty checks of the bot
(tests/test_search.py) and the coach (tests/test_analysis.py) play from both."""

from __future__ import annotations

import random

from games.engine import GameState
from games.engine.cards import cards_of, mask_of


def same_view_other_deal(state: GameState, seed: int) -> GameState:
    """Another state that the seat to act sees exactly as in ``state``: the other hands and
    the stock reshuffled (secret sets kept)."""
    me = state.turn
    hidden = [c for s in range(3) if s != me for c in cards_of(state.hands[s])]
    hidden += state.stock[state.stock_pos :]
    random.Random(seed).shuffle(hidden)
    other = state.copy()
    at = 0
    for s in range(3):
        if s != me:
            count = state.hands[s].bit_count()
            other.hands[s] = mask_of(hidden[at : at + count])
            at += count
    other.stock, other.stock_pos = tuple(hidden[at:]), 0
    return other
