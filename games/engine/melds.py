"""Meld maths (R4, R5) on card masks: sets, runs, lay-offs, the best arrangement."""

from __future__ import annotations

from functools import lru_cache

from .cards import POINTS, RANK_MASKS, points

# Start bits of a 3-run that stays inside one suit (ranks A..J as the low card).
_RUN3_STARTS = sum(((1 << 11) - 1) << (13 * s) for s in range(4))


def is_set(mask: int) -> bool:
    """3 or 4 cards of one rank."""
    if not 3 <= mask.bit_count() <= 4:
        return False
    rank = ((mask & -mask).bit_length() - 1) % 13
    return mask & ~RANK_MASKS[rank] == 0


def is_run(mask: int) -> bool:
    """3 or more consecutive cards of one suit, ace low (no wrapping past the king)."""
    if mask.bit_count() < 3:
        return False
    low = (mask & -mask).bit_length() - 1
    shifted = mask >> low
    # Contiguous bits, and the top one still in the low card's suit.
    return shifted & (shifted + 1) == 0 and (low % 13) + shifted.bit_length() <= 13


def is_meld(mask: int) -> bool:
    return is_set(mask) or is_run(mask)


def runs_in(hand: int) -> list[int]:
    """Every run (3+ cards) that can be made from the hand."""
    starts = hand & (hand >> 1) & (hand >> 2) & _RUN3_STARTS
    out = []
    while starts:
        low = starts & -starts
        starts ^= low
        start = low.bit_length() - 1
        run = 7 << start
        top = start + 3
        out.append(run)
        while top % 13 and hand >> top & 1:
            run |= 1 << top
            top += 1
            out.append(run)
    return out


def sets_in(hand: int) -> list[int]:
    """Every set (3 or 4 of a rank) that can be made from the hand."""
    out = []
    # Ranks held at least three times, from the four suits' 13-bit fields: most hands have
    # none, and the loop below visits only those that do.
    c, d, h, s = hand & 0x1FFF, hand >> 13 & 0x1FFF, hand >> 26 & 0x1FFF, hand >> 39
    ranks = (c & d & (h | s)) | (h & s & (c | d))
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        same = hand & RANK_MASKS[low.bit_length() - 1]
        count = same.bit_count()
        if count == 3:
            out.append(same)
        elif count == 4:
            out.append(same)
            rest = same
            while rest:
                low = rest & -rest
                rest ^= low
                out.append(same ^ low)
    return out


def all_melds(hand: int) -> list[int]:
    """Every meld (set or run) that can be made from the hand's cards."""
    return sets_in(hand) + runs_in(hand)


def four_of_a_kinds(hand: int) -> list[int]:
    return [m for m in RANK_MASKS if hand & m == m]


def layoff_options(meld: int, hand: int) -> list[int]:
    """Every non-empty group of hand cards that lays off on a face-up meld (R5)."""
    if is_set(meld):
        missing = RANK_MASKS[((meld & -meld).bit_length() - 1) % 13] & ~meld
        return [missing] if missing and hand & missing else []
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    suit_floor = low - low % 13
    below = []  # masks of 1, 2, ... cards just under the run
    acc, pos = 0, low - 1
    while pos >= suit_floor and hand >> pos & 1:
        acc |= 1 << pos
        below.append(acc)
        pos -= 1
    above = [0]
    acc, pos = 0, high + 1
    while pos < suit_floor + 13 and hand >> pos & 1:
        acc |= 1 << pos
        above.append(acc)
        pos += 1
    return [b | a for a in above for b in [0, *below] if b | a]


def take_options(hand: int, top: int) -> list[int]:
    """Every group of 2+ hand cards that makes a meld with the card ``top`` (R3)."""
    out = []
    same = hand & RANK_MASKS[top % 13]
    if same.bit_count() >= 2:
        out.extend(s for s in _subsets(same) if s.bit_count() >= 2)
    suit_floor = top - top % 13
    below, pos = [0], top - 1
    while pos >= suit_floor and hand >> pos & 1:
        below.append(below[-1] | 1 << pos)
        pos -= 1
    above, pos = [0], top + 1
    while pos < suit_floor + 13 and hand >> pos & 1:
        above.append(above[-1] | 1 << pos)
        pos += 1
    for i, b in enumerate(below):
        for j, a in enumerate(above):
            if i + j >= 2:
                out.append(a | b)
    return out


def _subsets(mask: int) -> list[int]:
    out, sub = [], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


# Both caches serve the many near-identical hands of one decision (a hand less each card
# in turn) and the small sub-hands of the search; hands of other games almost never recur.
# 8,192 entries keep all but 0.4% of the hits that 65,536 did (greedy bots, 300 games:
# 0.69 ms a move either way) in 3.7 MB instead of ~22 MB, which a server process filled
# over some 600 games (issue 7).
CACHE_SIZE = 1 << 13


@lru_cache(maxsize=CACHE_SIZE)
def deadwood(hand: int) -> int:
    """Fewest points left over after the best arrangement of the hand into melds.

    The held-melds-free variant scores a hand this way; bots use it to judge a hand.
    """
    return _best(hand)[0]


def best_arrangement(hand: int) -> tuple[list[int], int]:
    """The melds of an arrangement that leaves the fewest points, and the leftover mask."""
    _, melds = _best(hand)
    used = 0
    for meld in melds:
        used |= meld
    return list(melds), hand & ~used


@lru_cache(maxsize=CACHE_SIZE)
def _best(hand: int) -> tuple[int, tuple[int, ...]]:
    if not hand:
        return 0, ()
    # The lowest card is either left over or in some meld: branching on it alone covers
    # every arrangement exactly once, which keeps the search small.
    low = hand & -hand
    rest = hand ^ low
    best_points, best_melds = _best(rest)
    best_points += POINTS[low.bit_length() - 1]
    for meld in all_melds(hand):
        if meld & low:
            sub_points, sub_melds = _best(hand & ~meld)
            if sub_points < best_points:
                best_points, best_melds = sub_points, (meld, *sub_melds)
    return best_points, best_melds


def hand_points(hand: int, held_melds_free: bool = False) -> int:
    """A hand's points at the end (R9), or its deadwood under held-melds-free."""
    return deadwood(hand) if held_melds_free else points(hand)
