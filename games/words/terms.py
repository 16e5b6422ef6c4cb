"""``{% term "opened" %}``: a word of the game with its short explanation, shown on hover,
on keyboard focus and on tap, and a link to its rule on the How to play page."""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import NamedTuple

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

register = template.Library()


class Term(NamedTuple):
    anchor: str  # the section of the How to play page: a rule id, a variant, "bots"
    text: str


TERMS = {
    "opened": Term(
        "R6", _("Has a meld of their own on the table, face up or secret. Only an opened "
        "player can call Draw or fight one."),
    ),
    "not opened": Term(
        "R6", _("Has no meld on the table yet. Unless they open, they cannot call Draw or "
        "fight, and losing burns them."),
    ),
    "blocked": Term(
        "R5", _("Someone laid off on this player's meld: they cannot call Draw at the start "
        "of their next turn."),
    ),
    "burned": Term("R6", _("Lost without ever opening: pays the winner one chip more.")),
    "fight": Term(
        "R7", _("Answer a Draw call by comparing hand points: the lowest wins, and a fighter "
        "who ties the caller wins."),
    ),
    "fold": Term("R7", _("Answer a Draw call by giving up: the folder loses.")),
    "secret set": Term(
        "R4", _("Four of a kind laid face down. It opens its owner, nobody can lay off on "
        "it, and the winner gets 3 chips more for each."),
    ),
    "held melds free": Term(
        "held-melds-free", _("A variant: at the end, cards that form melds in a hand do not "
        "count towards its points."),
    ),
    "greedy bot": Term(
        "bots", _("A bot that plays to win: it opens early, keeps its points low and calls "
        "Draw when its hand looks lowest."),
    ),
    "easy bot": Term(
        "bots", _("A bot for learning the game: it plays like the Normal bot but now and "
        "then misses a meld or throws the wrong card."),
    ),
    "normal bot": Term(
        "bots", _("A bot that plays to win: it opens early, keeps its points low and calls "
        "Draw when its hand looks lowest."),
    ),
    "hard bot": Term(
        "bots", _("A bot that thinks ahead: it imagines where the cards it cannot see might "
        "be and plays out each choice to pick the one that wins most chips."),
    ),
    "random bot": Term(
        "bots", _("A bot that makes any legal move, each as likely as the next.")
    ),
    "dealer": Term("R2", _("Was dealt 13 cards and plays first, without drawing.")),
    "away": Term(
        "bots", _("Their turn clock ran out: the Normal bot plays for them until they come "
        "back."),
    ),
}  # fmt: skip
# Other spellings the pages show for the same terms.
ALIASES = {
    "fights": "fight",
    "folded": "fold",
    "folded (not opened)": "fold",
    "folds (not opened)": "fold",
    "secret sets": "secret set",
}
# The words as a page shows them, in the reader's language (the name in a template is
# the English word, which finds the term).
WORDS = {
    "opened": pgettext_lazy("term", "opened"),
    "not opened": pgettext_lazy("term", "not opened"),
    "blocked": pgettext_lazy("term", "blocked"),
    "burned": pgettext_lazy("term", "burned"),
    "fight": pgettext_lazy("term", "fight"),
    "fights": pgettext_lazy("term", "fights"),
    "fold": pgettext_lazy("term", "fold"),
    "folded": pgettext_lazy("term", "folded"),
    "folded (not opened)": pgettext_lazy("term", "folded (not opened)"),
    "folds (not opened)": pgettext_lazy("term", "folds (not opened)"),
    "secret set": pgettext_lazy("term", "secret set"),
    "secret sets": pgettext_lazy("term", "secret sets"),
    "held melds free": pgettext_lazy("term", "held melds free"),
    "Held melds free": pgettext_lazy("term", "Held melds free"),
    "greedy bot": pgettext_lazy("term", "greedy bot"),
    "easy bot": pgettext_lazy("term", "easy bot"),
    "normal bot": pgettext_lazy("term", "normal bot"),
    "hard bot": pgettext_lazy("term", "hard bot"),
    "random bot": pgettext_lazy("term", "random bot"),
    "Greedy bot": pgettext_lazy("term", "Greedy bot"),
    "Easy bot": pgettext_lazy("term", "Easy bot"),
    "Normal bot": pgettext_lazy("term", "Normal bot"),
    "Hard bot": pgettext_lazy("term", "Hard bot"),
    "Random bot": pgettext_lazy("term", "Random bot"),
    "dealer": pgettext_lazy("term", "dealer"),
    "away": pgettext_lazy("term", "away"),
}
MORE = _("More in How to play")
BADGES = {
    "": "term-word",
    "plain": "term-word badge",
    "warn": "term-word badge warn",
    "muted": "term-word badge muted",
}


def lookup(name: str) -> Term | None:
    key = name.strip().lower()
    return TERMS.get(ALIASES.get(key, key))


@register.simple_tag(takes_context=True)
def term(context, name: str, badge: str = "") -> SafeString:
    """``name`` as a button that explains it; an unknown name is shown as plain text.
    ``badge`` styles the button as a badge: "plain", "warn" or "muted"."""
    found = lookup(name)
    if found is None:
        return format_html("{}", name)
    # Numbered in page order within the part being made ("term_ns"): the same board
    # made again gets the same ids, and two parts never share one.
    namespace = context.get("term_ns", "")
    tip = (
        f"tip-{namespace}-{next(_counter(context))}"
        if namespace
        else f"tip-{next(_counter(context))}"
    )
    return SafeString(_markup(name, badge, get_language()).replace(TIP, tip))


TIP = "%%tip%%"


def term_html(name: str, badge: str, tip: str, lang: str | None = None) -> str:
    """The markup of ``{% term name badge %}`` with the tooltip id ``tip``, in the active
    language (``lang``: it, if the caller has it already), for the table's parts made in
    Python (games/table/board_felt.py, board_hand.py, board_result.py): no Tab stops."""
    if lookup(name) is None:
        return format_html("{}", name)
    return _table_markup(name, badge, lang or get_language()).replace(TIP, tip)


@lru_cache(maxsize=512)
def _table_markup(name: str, badge: str, lang: str | None) -> str:
    # At the table the words and badges are no Tab stops, nor is the link in their tip
    # (issue 48: ten Tabs to the hand, through every seat's badges): a tap or a click
    # still opens a tip and its link, a screen reader hears the tip as the word's
    # description, and How to play is in the table's Menu.
    return (
        _markup(name, badge, lang)
        .replace('<button type="button" ', '<button type="button" tabindex="-1" ', 1)
        .replace("<a href=", '<a tabindex="-1" href=', 1)
    )


@lru_cache(maxsize=512)
def _markup(name: str, badge: str, lang: str | None) -> str:
    # Made once per word, style and language (the active one): every board shows the
    # same few, many times over. Keyed by the name, not by the Term, whose lazy words
    # would be translated again only to be hashed.
    found = lookup(name)
    return format_html(
        '<span class="term"><button type="button" class="{}" aria-describedby="{}" '
        'aria-expanded="false">{}</button><span class="term-tip" role="tooltip" id="{}">{} '
        '<a href="{}#{}">{}</a></span></span>',
        BADGES.get(badge, "term-word"),
        TIP,
        WORDS.get(name, name),
        TIP,
        found.text,
        reverse("how_to_play"),
        found.anchor,
        MORE,
    )


def _counter(context) -> itertools.count:
    """Tooltip ids numbered in the order of the page, kept in the context's own base
    layer: the partials of one board share one context, so ids never repeat on a page,
    and a board made again the same way gets the same ids (no change to send)."""
    base = context.dicts[0]
    if "_term_ids" not in base:
        base["_term_ids"] = itertools.count(1)
    return base["_term_ids"]
