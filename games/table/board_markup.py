"""What the table's parts made in Python share: escaping, the seats' fixed words in the
active language, a seat's turn clock and the size of the memos of parts.

The parts themselves are in ``board_felt`` (the felt, the status bar and the opponents'
panels), ``board_hand`` (the seat's hand as a form) and ``board_result`` (the result
screen); ``board_html`` lists them for the template tag and the sockets. Every value from
outside goes through ``esc`` (escaped unless it is already HTML we made, such as a
sentence with its cards); numbers and ids are ours.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext, pgettext

# Distinct parts kept at most by each memo of made parts (panels, melds, rendering.py's).
MEMO_SIZE = 300


def esc(value: Any) -> str:
    """``value`` for HTML: as it is if it is markup already, else escaped (exactly as
    Django's ``escape``, without its wrapper for lazy strings on every call)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(value if type(value) is str else str(value))


@lru_cache(maxsize=8)
def seat_words(lang: str | None) -> dict[str, str]:
    """The parts' fixed words in ``lang``, which must be the active language."""
    return {
        "players": escape(gettext("Players")),
        "last_turn": gettext("Last turn:"),
        "thinking": gettext("thinking…"),
        "time_left": gettext("Time left:"),
        "away": pgettext("term", "away"),
        "your_melds": escape(gettext("Your melds")),
        "no_melds": gettext("No melds on the table yet."),
    }


@lru_cache(maxsize=256)
def cards_left(n: int, lang: str | None) -> str:
    return ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}


@lru_cache(maxsize=512)
def _seconds(n: int, lang: str | None) -> str:
    # A correspondence table's clock, hours or days away, in days and hours or hours and
    # minutes (the page counts down only its last hour, in seconds).
    if n >= 86400:
        return gettext("%(d)s d %(h)s h") % {"d": n // 86400, "h": n % 86400 // 3600}
    if n >= 3600:
        return gettext("%(h)s h %(m)s min") % {"h": n // 3600, "m": n % 3600 // 60}
    return gettext("%(s)s s") % {"s": n}


def oob(v: Mapping[str, Any], how: str = "true") -> str:
    return f' hx-swap-oob="{how}"' if v.get("oob") else ""


def clock(p: Any, now: str, lang: str | None = None) -> str:
    """A seat's turn clock: "thinking…" for a bot, else the time left
    (the page counts it down from ``data-deadline``, correcting its own clock by
    ``data-now``, the server's time of sending)."""
    lang = lang or get_language()
    if p.thinking:
        return f'<span class="clock thinking">{seat_words(lang)["thinking"]}</span>'
    if not p.deadline:
        return ""
    return (
        f'<span class="clock" data-deadline="{esc(p.deadline)}" data-now="{esc(now)}">'
        f'<span class="visually-hidden">{seat_words(lang)["time_left"]} </span>'
        f'<span class="clock-time">{_seconds(p.seconds_left, lang)}</span></span>'
    )
