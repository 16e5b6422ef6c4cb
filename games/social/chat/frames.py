"""Chat's socket frames, in the active language (each socket's own): a line for the
drawer's log, a bubble over the sender's seat, a note for the one person a chat frame
answers. Made only from a message's event (a preset key or filtered text, a name, a seat):
never from a game or a seat's view, so no frame of chat can hold a card.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from games.social.chat import presets

PRESET = "preset"
# Named here, not inside the f-strings below, where makemessages cannot see them.
WATCHING = _("(watching)")
MUTE = _("Mute")
REPORT = _("Report")
THIS_MESSAGE = _("this message")
UNMUTE = _("Unmute %(name)s")


def _words(ev: dict[str, Any]) -> tuple[str, str]:
    if ev["kind"] == PRESET:
        return presets.words(ev["body"])
    return ev["body"], ev["body"]


def line(ev: dict[str, Any], viewer_id: int | None) -> str:
    """One message in the drawer's log; mute and report for anyone else's, to a person
    with an account."""
    text, label = _words(ev)
    said = f'<span class="chat-text">{escape(text)}</span>'
    if label != text:
        said = (
            f'<span class="chat-text" role="img" aria-label="{escape(label)}">{escape(text)}</span>'
        )
    where = ""
    if ev["room"] == "watchers":
        where = f' <span class="chat-room">{escape(WATCHING)}</span>'
    tools = ""
    if viewer_id is not None and ev["user"] is not None and ev["user"] != viewer_id:
        name = escape(ev["name"])
        tools = (
            '<span class="chat-tools">'
            f'<button type="button" class="button-link chat-mute" ws-send name="chat_mute" '
            f'value="{ev["id"]}">{escape(MUTE)}'
            f'<span class="visually-hidden"> {name}</span></button> '
            f'<button type="button" class="button-link chat-report" ws-send name="chat_report" '
            f'value="{ev["id"]}">{escape(REPORT)}'
            f'<span class="visually-hidden"> {escape(THIS_MESSAGE)}</span></button>'
            "</span>"
        )
    return (
        f'<li class="chat-line chat-{ev["room"]}" data-id="{ev["id"]}" data-user="{ev["user"]}">'
        f'<span class="chat-name">{escape(ev["name"])}</span>{where}: {said}{tools}</li>'
    )


def bubble(ev: dict[str, Any]) -> str:
    """Shown briefly over the sender's seat (static/js/chat.js places and hides it)."""
    if ev["seat"] is None:
        return ""
    text, label = _words(ev)
    return (
        f'<div id="chat-bubble-{ev["seat"]}" class="chat-bubble" data-seat="{ev["seat"]}" '
        f'data-id="{ev["id"]}" hx-swap-oob="true" aria-hidden="true">{escape(text)}</div>'
    )


def message(ev: dict[str, Any], viewer_id: int | None) -> str:
    """A new message: its line at the end of the log, and its bubble."""
    return (
        f'<ol id="chat-log" hx-swap-oob="beforeend">{line(ev, viewer_id)}</ol>'
        f"{bubble(ev)}{unread() if ev['user'] != viewer_id else ''}"
    )


def unread() -> str:
    # The drawer's button shows a dot until it is opened (static/js/chat.js).
    return '<span id="chat-unread" class="chat-unread" hx-swap-oob="true" data-on="1"></span>'


def log(events: list[dict[str, Any]], viewer_id: int | None) -> str:
    """The whole log (a socket's first frame of chat, at every connect)."""
    lines = "".join(line(ev, viewer_id) for ev in events)
    # Its lines into the page's log, which keeps its own attributes (a live region, named).
    return f'<ol id="chat-log" hx-swap-oob="innerHTML">{lines}</ol>'


def note(text: str, *, unmute: tuple[int, str] | None = None) -> str:
    """A word for this one person, under the drawer's buttons (a refusal, a thank-you)."""
    extra = muted = ""
    if unmute is not None:
        muted = f' data-muted="{unmute[0]}"'
        user_id, name = unmute
        extra = (
            f' <button type="button" class="button-link" ws-send name="chat_unmute" '
            f'value="{user_id}">{escape(str(UNMUTE) % {"name": name})}</button>'
        )
    return (
        f'<p id="chat-note" class="chat-note" role="status" hx-swap-oob="true"{muted}>'
        f"{escape(text)}{extra}</p>"
    )
