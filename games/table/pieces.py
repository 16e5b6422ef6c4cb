"""The pieces every board is drawn from: a card's face and its markup, a seat's panel.

Below the board's HTML (board_html.py and the board_*.py it lists), its context
(rendering.py) and the template tags (cards.py), which all use them, so that none of those
imports another round a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from games.engine.cards import by_rank, code, label, short
from games.words.card_names import name_in

# --- Cards --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Face:
    """A face-up card as templates show it. Made only by ``face()``, once per card and
    place, so a face is its own identity: every board looks its cards up in the caches
    of their markup, and compares them, by identity (no Python-level hash or equality)."""

    code: str  # "TD": data-card and form values
    label: str  # "10 of diamonds": the engine's English name (pages say ``card_name``)
    short: str  # "10♦": what people read
    suit: str  # "d": for the colour
    order: int = 0  # place in the hand when sorted by rank

    @property
    def rank(self) -> str:
        return self.short[:-1]

    @property
    def symbol(self) -> str:
        return self.short[-1]

    @property
    def card(self) -> int:
        return _CARD_OF[self.code]


_CARD_OF = {code(card): card for card in range(52)}


@cache  # never forgets: a card and place have one Face (52 x 15 at most)
def face(card: int, order: int = 0) -> Face:
    return Face(code(card), label(card), short(card), code(card)[1].lower(), order)


def hand_faces(hand: tuple[int, ...]) -> list[Face]:
    """The hand by suit then rank, each card knowing its place in rank order (for CSS)."""
    rank_order = {card: i for i, card in enumerate(by_rank(hand))}
    return [face(card, rank_order[card]) for card in hand]


@lru_cache(maxsize=52 * 13 * 2 * 2)
def hand_card(f: Face, in_meld: bool, lang: str | None) -> SafeString:
    """One card of the player's hand: a checkbox named for the card (made once per card,
    place and language, since every board of every seat shows them). Its name is its only
    text for a screen reader (the words it is named by are hidden from reading on their
    own: issue 48, each card was heard twice). ``in_meld``: a meld
    of the hand uses it (the hint marks it). ``lang``: the active language."""
    in_a_meld = gettext(", in a meld") if in_meld else ""
    return format_html(
        '<li style="--by-rank: {}"><label class="card hand-card suit-{}{}" data-card="{}">'
        '<input type="checkbox" name="cards" value="{}" id="card-{}" aria-labelledby="name-{}">'
        '<span class="card-face card-index" aria-hidden="true"><span>{}</span><span>{}</span>'
        '</span><span class="card-pip" aria-hidden="true">{}</span>'
        '<span class="visually-hidden" id="name-{}" aria-hidden="true">{}{}</span></label></li>',
        f.order, f.suit, " in-meld" if in_meld else "", f.code, f.code, f.code, f.code, f.rank,
        f.symbol, f.symbol, f.code, name_in(f.card, lang),
        format_html('<span class="meld-hint">{}</span>', in_a_meld) if in_meld else "",
    )  # fmt: skip


def faces(cards: tuple[int, ...] | list[int]) -> list[Face]:
    return [face(card) for card in cards]


def card_in(face: Face, size: str, lang: str | None) -> SafeString:
    """``card`` in ``lang``, the active language, for callers that have it already."""
    return _card(face, size, lang)


@lru_cache(maxsize=52 * 4 * 2)  # a card looks the same on every board: made once per size
def _card(face: Face, size: str, lang: str | None) -> SafeString:
    return format_html(
        '<span class="card suit-{}{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="card-face" aria-hidden="true"><span class="card-rank">{}</span>'
        '<span class="card-suit">{}</span></span></span>',
        face.suit,
        f" card-{size}" if size else "",
        face.code,
        name_in(face.card, lang),
        face.rank,
        face.symbol,
    )


# --- A seat's panel ---------------------------------------------------------------------


@dataclass
class SeatPanel:
    index: int
    name: str
    is_me: bool
    cards: int = 0
    opened: bool = False
    blocked: bool = False
    away: bool = False
    bot: bool = False
    dealer: bool = False
    turn: bool = False
    deadline: str = ""  # ISO time the person's clock runs out (away or not)
    seconds_left: int = 0
    thinking: bool = False  # a bot's turn: it moves after its short pause
    answer: str = ""
    melds: list[dict[str, Any]] = field(default_factory=list)
    last_turn: str = ""  # what the seat did on its last turn, in words (HTML)
    block_note: str = ""  # why it may not call Draw (R5)
