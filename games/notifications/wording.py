"""Each kind of notice put into words in the active language, with the page a tap opens.

A notice's facts are ids, names, chip counts and at most one card: the discard that made
it someone's turn, which lies face up on the pile for everyone to see. Worded here, in the
worker, in the recipient's language (``translation.override``), never stored as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.urls import reverse
from django.utils.translation import gettext, ngettext

from games.engine.cards import parse_card, short
from games.models import BOT_NAMES

from .models import Kind


@dataclass(frozen=True)
class Words:
    title: str  # a push's title, an email's subject
    body: str  # a push's text under it
    path: str  # the page a tap (or the email's link) opens
    tag: str  # a newer notice of the same tag replaces the older one on the device


# How long a push service keeps a message for a device that is off: past this it is news
# no more (a challenge expires after ten minutes; a digest goes by email). One that
# stands longer (a correspondence challenge: days) is kept until it ends (delivery._ttl).
TTL = {
    Kind.YOUR_TURN: timedelta(days=1),
    Kind.GAME_ENDED: timedelta(days=1),
    Kind.CHALLENGE: timedelta(minutes=10),
    Kind.FRIEND_REQUEST: timedelta(days=7),
    Kind.DIGEST: timedelta(days=1),
}


def _table(facts: dict) -> str:
    return gettext("Table %(number)s") % {"number": facts["table"]}


def _name(facts: dict) -> str:
    if facts.get("bot"):
        return f"{gettext(BOT_NAMES.get(facts['bot'], facts['bot']))} {facts['bot_seat']}"
    return facts["name"]


def _your_turn(facts: dict) -> Words:
    title = gettext("Your turn at %(table)s") % {"table": _table(facts)}
    body = ""
    if facts.get("discard"):
        card = short(parse_card(facts["discard"]))
        body = gettext("%(name)s discarded %(card)s") % {"name": _name(facts), "card": card}
    path = reverse("table", args=[facts["table"]])
    return Words(title, body, path, f"table-{facts['table']}")


def _game_ended(facts: dict) -> Words:
    chips = int(facts.get("chips") or 0)
    table = _table(facts)
    if chips > 0:
        text = ngettext(
            "Your game at %(table)s ended: you won %(chips)s chip",
            "Your game at %(table)s ended: you won %(chips)s chips",
            chips,
        )
    elif chips < 0:
        text = ngettext(
            "Your game at %(table)s ended: you lost %(chips)s chip",
            "Your game at %(table)s ended: you lost %(chips)s chips",
            -chips,
        )
    else:
        text = gettext("Your game at %(table)s ended: no chips won or lost")
    title = text % {"table": table, "chips": abs(chips)}
    path = reverse("table", args=[facts["table"]])
    return Words(title, "", path, f"table-{facts['table']}")


def _challenge(facts: dict) -> Words:
    title = gettext("%(name)s challenges you") % {"name": facts["name"]}
    if facts.get("ante"):
        body = gettext("A series, ante %(ante)s") % {"ante": facts["ante"]}
    else:
        body = gettext("One hand")
    if facts.get("correspondence"):
        body = f"{body}; {gettext('a correspondence table')}"
    return Words(title, body, reverse("friends"), f"challenge-{facts['by']}")


def _friend_request(facts: dict) -> Words:
    title = gettext("%(name)s asks to be your friend") % {"name": facts["name"]}
    return Words(title, "", reverse("friends"), f"friend-{facts['by']}")


def _digest(facts: dict) -> Words:
    count = int(facts["count"])
    title = ngettext("%(count)s game waits for you", "%(count)s games wait for you", count) % {
        "count": count
    }
    tables = ", ".join(gettext("Table %(number)s") % {"number": t} for t in facts["tables"])
    return Words(title, tables, reverse("lobby"), "digest")


WORDERS = {
    Kind.YOUR_TURN: _your_turn,
    Kind.GAME_ENDED: _game_ended,
    Kind.CHALLENGE: _challenge,
    Kind.FRIEND_REQUEST: _friend_request,
    Kind.DIGEST: _digest,
}


def words(kind: str, facts: dict) -> Words:
    """The notice in words, in the active language."""
    return WORDERS[Kind(kind)](facts)


def sentence(w: Words) -> str:
    """Title and body as one line: "Your turn at Table 812 (Lola Nena discarded 7♥)"."""
    return f"{w.title} ({w.body})" if w.body else w.title
