"""Finding a Tongits (R3): a way to empty the hand this turn with melds, lay-offs and a
last discard, from the hand and the face-up melds alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from games.engine.cards import RANK_MASKS
from games.engine.melds import all_melds, layoff_options
from games.engine.moves import DISCARD, LAYOFF, MELD, SECRET


class Step(NamedTuple):
    type: str  # meld, secret, layoff or discard
    cards: int
    meld: int = -1  # the table meld a lay-off goes on


def plan_to_empty(hand: int, table: tuple[int, ...], may_discard: bool) -> tuple[Step, ...] | None:
    """Steps that empty ``hand``, the discard (if any) last; None when there are none.

    ``table`` holds the face-up melds by index, 0 for a secret set (nothing lays off on it).
    ``may_discard`` is False where no discard is left to make the last card go.
    """
    spare = 1 if may_discard else 0
    if (hand & ~_coverable(hand, table)).bit_count() > spare:
        return None  # most hands: some cards fit nowhere, so skip the search
    return _plan(hand, table, may_discard)


def _coverable(hand: int, table: tuple[int, ...]) -> int:
    cover = 0
    for meld in all_melds(hand):
        cover |= meld
    for cards in table:
        if cards:
            for option in layoff_options(cards, hand):
                cover |= option
    return cover


@lru_cache(maxsize=1 << 14)
def _plan(hand: int, table: tuple[int, ...], may_discard: bool) -> tuple[Step, ...] | None:
    if not hand:
        return ()
    if may_discard and hand.bit_count() == 1:
        return (Step(DISCARD, hand),)
    # The lowest card must go somewhere; branching on it alone visits each plan once.
    low = hand & -hand
    for meld in all_melds(hand):
        if meld & low:
            rest = _plan(hand & ~meld, table, may_discard)
            if rest is not None:
                return (Step(_meld_type(meld), meld), *rest)
    for index, cards in enumerate(table):
        for option in layoff_options(cards, hand) if cards else ():
            if option & low:
                grown = (*table[:index], cards | option, *table[index + 1 :])
                rest = _plan(hand & ~option, grown, may_discard)
                if rest is not None:
                    return (Step(LAYOFF, option, index), *rest)
    if may_discard:
        rest = _plan(hand ^ low, table, False)
        if rest is not None:
            return (*rest, Step(DISCARD, low))
    return None


def _meld_type(meld: int) -> str:
    # Four of a kind goes down secret: the same Tongits, plus the secret-set bonus (R10).
    low = (meld & -meld).bit_length() - 1
    return SECRET if meld == RANK_MASKS[low % 13] else MELD
