"""Cards named in the reader's language: the engine names them in English ("10 of
diamonds", ``games.engine.cards.label``) and stays free of Django; the pages and the
table's sockets name them here, at the boundary."""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, gettext, pgettext_lazy

from games.engine.cards import label

RANK_NAMES = (
    pgettext_lazy("card rank", "ace"), "2", "3", "4", "5", "6", "7", "8", "9", "10",
    pgettext_lazy("card rank", "jack"), pgettext_lazy("card rank", "queen"),
    pgettext_lazy("card rank", "king"),
)  # fmt: skip
SUIT_NAMES = (
    pgettext_lazy("card suit", "clubs"),
    pgettext_lazy("card suit", "diamonds"),
    pgettext_lazy("card suit", "hearts"),
    pgettext_lazy("card suit", "spades"),
)
FACE_DOWN = pgettext_lazy("card", "a card face down")


def card_name(card: int) -> str:
    """The card's name in the active language: "10 of diamonds", "10 ng diyamante"."""
    return name_in(card, get_language())


@lru_cache(maxsize=52 * 4)
def name_in(card: int, language: str | None) -> str:
    """The card's name in ``language``, which must be the active one (it keys the cache)."""
    if not language or language == "en":
        return label(card)
    return gettext("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[card % 13],
        "suit": SUIT_NAMES[card // 13],
    }


def names(cards) -> str:
    language = get_language()
    return ", ".join(name_in(card, language) for card in cards)
