"""Deals (R2) from a seed: the only randomness in the engine, and it is given."""

from __future__ import annotations

import random

from .cards import DECK_SIZE, mask_of
from .state import GameState


def deal_from_seed(seed: int, dealer: int | None = None) -> tuple[int, list[list[int]], list[int]]:
    """(dealer, hands, stock) for a seed: dealer 13 cards, others 12, 15 in the stock.

    The site draws the seed with ``secrets``; tests pass any int. The same seed always
    gives the same deal, which is what lets a game's seed be revealed and checked.
    ``dealer`` is given when the rules outside one game name it (a series: the winner of
    the hand before deals); the seed still shuffles the deck the same way.
    """
    rng = random.Random(seed)
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    drawn = rng.randrange(3)
    if dealer is None:
        dealer = drawn
    elif dealer not in (0, 1, 2):
        raise ValueError(f"no seat {dealer!r} can deal")
    hands: list[list[int]] = [[], [], []]
    pos = 0
    for seat in range(3):
        size = 13 if seat == dealer else 12
        hands[seat] = deck[pos : pos + size]
        pos += size
    return dealer, hands, deck[pos:]


def new_game(seed: int, variants: frozenset[str] = frozenset()) -> GameState:
    """The starting state of the game dealt from ``seed``."""
    dealer, hands, stock = deal_from_seed(seed)
    return GameState.new(dealer, [mask_of(h) for h in hands], tuple(stock), variants)
