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

register = template.Library()


class Term(NamedTuple):
    anchor: str  # the section of the How to play page: a rule id, a variant, "bots"
    text: str


TERMS = {
    "opened": Term(
        "R6", "Has a meld of their own on the table, face up or secret. Only an opened "
        "player can call Draw or fight one.",
    ),
    "not opened": Term(
        "R6", "Has no meld on the table yet. Unless they open, they cannot call Draw or "
        "fight, and losing burns them.",
    ),
    "blocked": Term(
        "R5", "Someone laid off on this player's meld: they cannot call Draw at the start "
        "of their next turn.",
    ),
    "burned": Term("R6", "Lost without ever opening: pays the winner one chip more."),
    "fight": Term(
        "R7", "Answer a Draw call by comparing hand points: the lowest wins, and a fighter "
        "who ties the caller wins.",
    ),
    "fold": Term("R7", "Answer a Draw call by giving up: the folder loses."),
    "secret set": Term(
        "R4", "Four of a kind laid face down. It opens its owner, nobody can lay off on it, "
        "and the winner gets 3 chips more for each.",
    ),
    "held melds free": Term(
        "held-melds-free", "A variant: at the end, cards that form melds in a hand do not "
        "count towards its points.",
    ),
    "greedy bot": Term(
        "bots", "A bot that plays to win: it opens early, keeps its points low and calls "
        "Draw when its hand looks lowest.",
    ),
    "easy bot": Term(
        "bots", "A bot for learning the game: it plays like the Normal bot but now and then "
        "misses a meld or throws the wrong card.",
    ),
    "normal bot": Term(
        "bots", "A bot that plays to win: it opens early, keeps its points low and calls "
        "Draw when its hand looks lowest.",
    ),
    "hard bot": Term(
        "bots", "A bot that thinks ahead: it imagines where the cards it cannot see might be "
        "and plays out each choice to pick the one that wins most chips.",
    ),
    "random bot": Term("bots", "A bot that makes any legal move, each as likely as the next."),
    "dealer": Term("R2", "Was dealt 13 cards and plays first, without drawing."),
    "away": Term(
        "bots", "Their turn clock ran out: the greedy bot plays for them until they come back.",
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
    return SafeString(_markup(name, badge, found).replace(TIP, tip))


TIP = "%%tip%%"


@lru_cache(maxsize=256)
def _markup(name: str, badge: str, found: Term) -> str:
    # Made once per word and style: every board shows the same few, many times over.
    return format_html(
        '<span class="term"><button type="button" class="{}" aria-describedby="{}" '
        'aria-expanded="false">{}</button><span class="term-tip" role="tooltip" id="{}">{} '
        '<a href="{}#{}">More in How to play</a></span></span>',
        BADGES.get(badge, "term-word"),
        TIP,
        name,
        TIP,
        found.text,
        reverse("how_to_play"),
        found.anchor,
    )


def _counter(context) -> itertools.count:
    """Tooltip ids numbered in the order of the page, kept in the context's own base
    layer: the partials of one board share one context, so ids never repeat on a page,
    and a board made again the same way gets the same ids (no change to send)."""
    base = context.dicts[0]
    if "_term_ids" not in base:
        base["_term_ids"] = itertools.count(1)
    return base["_term_ids"]
