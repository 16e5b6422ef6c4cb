"""A seat's own hand arranged as a player would hold it, for the hand's Arrange button and
the card a tap on the discard pile throws when none is chosen.

Pure helpers over the engine's melds (not rules: no move depends on them). They read the
seat's own cards only, which its page shows anyway.
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.cards import CODES, POINTS, cards_of, mask_of
from games.engine.melds import best_arrangement, deadwood, is_set


def _rank(card: int) -> int:
    return card % 13


def _suit(card: int) -> int:
    return card // 13


def _near(a: int, b: int) -> bool:
    """Two cards a third would meld with: a pair of one rank, or two of a suit at most one
    rank apart between them (5 7 waits for the 6)."""
    if _rank(a) == _rank(b):
        return True
    return _suit(a) == _suit(b) and abs(_rank(a) - _rank(b)) <= 2


def _meld_order(meld: int) -> list[int]:
    """A set by suit, a run by rank (the same thing for a run: its cards share a suit)."""
    cards = cards_of(meld)
    return sorted(cards, key=_suit) if is_set(meld) else sorted(cards, key=_rank)


@lru_cache(maxsize=1024)
def arrange(hand: tuple[int, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The hand in groups, each ("meld" | "near" | "dead", its card codes): the melds of
    the arrangement that leaves the fewest points first, then pairs and nearly-runs among
    the rest, then the deadwood by rank."""
    melds, left = best_arrangement(mask_of(hand))
    groups: list[tuple[str, tuple[str, ...]]] = [
        ("meld", tuple(CODES[c] for c in _meld_order(m)))
        for m in sorted(melds, key=lambda m: _rank(cards_of(m)[0]))
    ]
    rest = sorted(cards_of(left), key=lambda c: (_rank(c), _suit(c)))
    while rest:
        card = rest.pop(0)
        partner = next((c for c in rest if _near(card, c)), None)
        if partner is None:
            continue
        rest.remove(partner)
        groups.append(("near", (CODES[card], CODES[partner])))
    near = {code for kind, codes in groups if kind == "near" for code in codes}
    by_rank = sorted(cards_of(left), key=lambda c: (_rank(c), _suit(c)))
    dead = [c for c in by_rank if CODES[c] not in near]
    if dead:
        groups.append(("dead", tuple(CODES[c] for c in dead)))
    return tuple(groups)


def arrangement_attr(hand: tuple[int, ...]) -> str:
    """``arrange`` as one attribute's value: "meld:7S 8S 9S|near:AC 2C|dead:KD"."""
    return "|".join(f"{kind}:{' '.join(codes)}" for kind, codes in arrange(hand))


@lru_cache(maxsize=1024)
def suggested_discard(hand: tuple[int, ...]) -> str:
    """The card whose leaving costs the hand least: the most deadwood gone, then the most
    points, then the highest card; "" for an empty hand."""
    mask = mask_of(hand)
    now = deadwood(mask)
    best = max(
        hand,
        key=lambda c: (now - deadwood(mask & ~(1 << c)), POINTS[c], _rank(c), c),
        default=None,
    )
    return CODES[best] if best is not None else ""
