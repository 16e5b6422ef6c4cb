"""Cards (R1): codes like ``TD``, points, and 52-bit masks of cards.

A card is an int ``suit * 13 + rank`` with ranks ``A23456789TJQK`` (0..12) and suits
``CDHS`` (0..3), so the cards of one suit are 13 consecutive bits of a mask: a run is a
block of consecutive bits, which is the whole reason for this layout.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_BITS = 0x1FFF  # the 13 bits of one suit

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_INDEX = {code: i for i, code in enumerate(CODES)}
POINTS: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(DECK_SIZE))
# Masks of the four cards of each rank, for sets.
RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
ACES = RANK_MASKS[0]

# Points of every subset of one suit, so a hand's points are four table lookups.
_SUIT_POINTS = [0] * (1 << 13)
for _m in range(1, 1 << 13):
    _low = (_m & -_m).bit_length() - 1
    _SUIT_POINTS[_m] = _SUIT_POINTS[_m & (_m - 1)] + min(_low + 1, 10)


class InvalidCardError(ValueError):
    """Card text that is not exactly a rank and a suit, like ``TD``."""


def parse_card(text: object) -> int:
    """Parse an exact card code (``"TD"``; not ``"10D"`` or ``"td"``)."""
    if isinstance(text, str) and text in _INDEX:
        return _INDEX[text]
    raise InvalidCardError(f"{text!r} is not a card")


def rank_of(card: int) -> int:
    return card % 13


def suit_of(card: int) -> int:
    return card // 13


def code(card: int) -> str:
    return CODES[card]


def label(card: int) -> str:
    """The accessible name of a card: ``"10 of diamonds"``."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def short(card: int) -> str:
    """How people read a card on screen: ``"10♦"`` (R1 shows ``T`` as ``10``)."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def bit(card: int) -> int:
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, by suit then rank."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def by_rank(cards: Iterable[int]) -> list[int]:
    """Cards sorted by rank, then suit (the hand's alternative order)."""
    return sorted(cards, key=lambda c: (c % 13, c // 13))


def codes_of(mask: int) -> list[str]:
    return [CODES[c] for c in cards_of(mask)]


def mask_of_codes(codes: Iterable[str]) -> int:
    return mask_of(parse_card(c) for c in codes)


def points(mask: int) -> int:
    """Sum of card points (R1) over a mask."""
    return (
        _SUIT_POINTS[mask & SUIT_BITS]
        + _SUIT_POINTS[(mask >> 13) & SUIT_BITS]
        + _SUIT_POINTS[(mask >> 26) & SUIT_BITS]
        + _SUIT_POINTS[mask >> 39]
    )


def describe(mask: int) -> str:
    """Codes joined for messages: ``"7C, 7D, 7S"``."""
    return ", ".join(codes_of(mask))
