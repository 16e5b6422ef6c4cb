"""Table talk on the pages: the table's drawer, the replay's transcript and the staff
dashboard's reports. Tags, so that the pages below this app (history's replay and
dashboard) show it without importing it."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from games.social.chat import presets, rules, services
from games.social.chat.models import ChatMute

register = template.Library()


@register.inclusion_tag("chat/drawer.html", takes_context=True)
def chat_drawer(context: template.Context) -> dict[str, Any]:
    user = context["request"].user
    signed_in = user.is_authenticated
    # What the table page knows already (two flags, never the game): a public table
    # never allows free text (rules.free_text_allowed), so it needs nothing more.
    known = context.get("chat_table")
    if known is not None and known["public"]:
        exists, free_text = True, False
        seated = signed_in and known["seated"]
    else:
        game = Game.objects.prefetch_related("seats").filter(pk=context["game_id"]).first()
        exists = game is not None
        seated = bool(game and signed_in and any(s.user_id == user.pk for s in game.seats.all()))
        free_text = bool(game and signed_in and rules.free_text_allowed(game, user.pk))
    choices = presets.choices()
    muted = []
    # Whether any was muted comes with the page's other facts of its person (one query).
    facts = getattr(context["request"], "person_facts", None)
    if signed_in and (facts is None or facts.user_id != user.pk or facts().muted_any):
        muted = list(ChatMute.objects.filter(user=user).select_related("muted")[:20])
    return {
        "can_chat": signed_in and exists,
        "seated": seated,
        "free_text": free_text,
        "max_length": rules.max_length(),
        "phrases": [c for c in choices if c["key"].startswith("p:")],
        "emotes": [c for c in choices if c["key"].startswith("e:")],
        "muted": muted,
    }


@register.inclusion_tag("chat/transcript.html", takes_context=True)
def chat_transcript(context: template.Context, game: Game) -> dict[str, Any]:
    """What was said at the table, for the game's own people (seated at it) and staff,
    once it is over; nothing for anyone else. A player does not see the talk of people
    they muted or blocked, as at the table; staff see it all."""
    user = context["request"].user
    seated = user.is_authenticated and any(s.user_id == user.pk for s in game.seats.all())
    own = user.is_authenticated and (user.is_staff or seated)
    reader = None if not user.is_authenticated or user.is_staff else user.pk
    lines = services.transcript(game.pk, reader) if own and game.is_over else []
    return {"lines": [_line(m) for m in lines]}


@register.inclusion_tag("chat/reports.html")
def chat_reports() -> dict[str, Any]:
    """The reports staff have not handled, each with its table's whole talk."""
    reports = services.open_reports()
    talk: dict[int, list] = {}
    for r in reports:
        game_id = r.message.game_id
        if game_id not in talk:
            talk[game_id] = [_line(m) for m in services.transcript(game_id)]
    return {"reports": [(r, talk[r.message.game_id]) for r in reports]}


def _line(message: Any) -> dict[str, Any]:
    if message.kind == "preset":
        text, label = presets.words(message.body)
    else:
        text = label = message.shown
    return {
        "message": message,
        "text": text,
        "label": label,
        "written": message.body if message.kind == "text" and message.body != message.shown else "",
    }
