"""Moves: one small immutable value type that round-trips through a record's dict.

One ``Move`` type with a ``type`` field rather than a class per move type: a NamedTuple is
the cheapest immutable value Python has, and legal-move generation makes many of them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import InvalidCardError, bit, cards_of, codes_of, parse_card

DRAW, TAKE, MELD, SECRET, LAYOFF, DISCARD, CALL, FOLD, FIGHT = (
    "draw", "take", "meld", "secret", "layoff", "discard", "call", "fold", "fight",
)  # fmt: skip
MOVE_TYPES = (DRAW, TAKE, MELD, SECRET, LAYOFF, DISCARD, CALL, FOLD, FIGHT)
_WITH_CARDS = (TAKE, MELD, SECRET, LAYOFF)


class InvalidMoveError(ValueError):
    """A move that is malformed: not an object, an unknown type, a bad seat or card."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid now; the message names the rule."""


class Move(NamedTuple):
    """A move by ``seat``. ``cards`` is a mask (the one card for a discard)."""

    type: str
    seat: int
    cards: int = 0
    meld: int = -1

    @property
    def card(self) -> int:
        """The discarded card."""
        return self.cards.bit_length() - 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.type == DISCARD:
            out["card"] = codes_of(self.cards)[0]
        elif self.type in _WITH_CARDS:
            if self.type == LAYOFF:
                out["meld"] = self.meld
            out["cards"] = codes_of(self.cards)
        return out

    @classmethod
    def from_dict(cls, data: object) -> Move:
        """Parse a record's move; raises InvalidMoveError for anything malformed."""
        if not isinstance(data, dict):
            raise InvalidMoveError("a move must be a JSON object")
        kind = data.get("type")
        if kind not in MOVE_TYPES:
            raise InvalidMoveError(f"unknown move type {kind!r}")
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat <= 2:
            raise InvalidMoveError(f"bad seat {seat!r}")
        if kind == DISCARD:
            return cls(kind, seat, bit(_card(data.get("card"), "card")))
        if kind not in _WITH_CARDS:
            return cls(kind, seat)
        cards = _card_mask(data.get("cards"))
        if kind != LAYOFF:
            return cls(kind, seat, cards)
        meld = data.get("meld")
        if type(meld) is not int or meld < 0:
            raise InvalidMoveError("'meld' must be a meld number")
        return cls(kind, seat, cards, meld)

    @classmethod
    def discard(cls, seat: int, card: int) -> Move:
        return cls(DISCARD, seat, bit(card))

    def __str__(self) -> str:
        return " ".join([f"seat {self.seat}", self.type, *codes_of(self.cards)])

    def card_list(self) -> list[int]:
        return cards_of(self.cards)


def _card(value: object, key: str) -> int:
    try:
        return parse_card(value)
    except InvalidCardError:
        raise InvalidMoveError(f"'{key}' must be a card") from None


def _card_mask(value: object) -> int:
    if not isinstance(value, list):
        raise InvalidMoveError("'cards' must be a list of cards")
    mask = 0
    for item in value:
        try:
            card = parse_card(item)
        except InvalidCardError:
            raise InvalidMoveError("'cards' must be a list of cards") from None
        if mask >> card & 1:
            raise InvalidMoveError("a card is listed twice")
        mask |= 1 << card
    return mask
