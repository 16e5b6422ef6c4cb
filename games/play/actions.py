"""A person's action at the table, from a socket frame or a POST: parse it, then make the
one service call. Shared by the table's consumer and its POST fallback so both accept
exactly the same fields and give the same answers."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.play import moves
from games.play.errors import BadMove
from games.play.moves import MoveResult
from games.words.text import all_encodable, lazy_message, storable

BACK = "back"
# Play again, from the finished table's socket (games/sockets/table.py): no move.
AGAIN = "again"
NO_CARDS = ("draw", "call", "fold", "fight")
WITH_CARDS = ("take", "meld", "secret", "layoff")
ACTIONS = (*NO_CARDS, *WITH_CARDS, "discard", BACK)
# What to ask for when an action arrives without the selection it needs. The messages
# are lazy: the socket or page that says it puts it in its reader's language.
CHOOSE = {
    "take": _("Choose the cards from your hand to meld with the discard, then Take discard."),
    "meld": _("Choose the cards to meld first."),
    "secret": _("Choose the four cards of your secret set first."),
    "layoff": _("Choose the cards to lay off first."),
    "discard": _("Choose one card to discard."),
}
MAX_CLIENT_MOVE_ID = 64  # Move.client_move_id's column


def frame_data(text: str | None) -> dict[str, Any]:
    """The fields of a socket frame (htmx's ws-send sends the form as a JSON object)."""
    try:
        data = json.loads(text or "")
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested thousands deep
        raise BadMove(_("That message was not understood: it is not JSON.")) from None
    if not isinstance(data, dict) or _too_deep(data):
        raise BadMove(_("That message was not understood: it is not a form."))
    # Before anything reaches a query, or is echoed back in a message.
    if not all_encodable(data):
        raise BadMove(_("That message was not understood: it holds characters that are not text."))
    return data


FORM_DEPTH = 3  # a form holds text, numbers and lists of them: {"cards": ["7H"]}


def _too_deep(data: dict[str, Any]) -> bool:
    """Whether a parsed frame nests deeper than a form does. Read without recursion: a
    frame nested some 930 deep passed json.loads, then overflowed the stack of the checks
    after it (json.dumps), which closed the socket with no word to its person."""
    level = [data]
    for _depth in range(FORM_DEPTH):
        level = [
            inner
            for value in level
            for inner in (value.values() if isinstance(value, dict) else value)
            if isinstance(inner, (dict, list))
        ]
        if not level:
            return False
    return True


def post_data(post: QueryDict) -> dict[str, Any]:
    """The same fields from a form POST (cards may repeat)."""
    data: dict[str, Any] = {key: post.get(key) for key in ("action", "meld", "seq")}
    data["client_move_id"] = post.get("client_move_id")
    data["cards"] = post.getlist("cards")
    return {key: value for key, value in data.items() if value not in (None, "")}


def parse_action(data: dict[str, Any]) -> tuple[dict[str, Any], int | None, str | None]:
    """(move payload, expected seq, client move id) from the action form's fields.

    Raises BadMove for anything malformed; whether the move is legal is the engine's call.
    """
    action = data.get("action")
    if action is None:
        raise BadMove(_("Choose an action: press one of the buttons under your hand."))
    if action not in ACTIONS:
        shown = repr(str(action)[:20])
        raise BadMove(lazy_message(lambda: gettext("Unknown action %s.") % shown))
    expected_seq = _optional_int(data.get("seq"), "seq")
    client_move_id = _client_move_id(data.get("client_move_id"))
    return _payload(action, data), expected_seq, client_move_id


def _payload(action: str, data: dict[str, Any]) -> dict[str, Any]:
    if action in NO_CARDS or action == BACK:
        return {"type": action}
    cards = _cards(data.get("cards"))
    if action == "discard":
        if len(cards) != 1:
            raise BadMove(CHOOSE["discard"])
        return {"type": action, "card": cards[0]}
    if not cards:
        raise BadMove(CHOOSE[action])
    if action != "layoff":
        return {"type": action, "cards": cards}
    meld = _optional_int(data.get("meld"), "meld")
    if meld is None:
        raise BadMove(_("Choose the meld on the table to lay off on."))
    return {"type": action, "cards": cards, "meld": meld}


def _cards(value: object) -> list[str]:
    # One checked checkbox arrives as a string, several as a list.
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise BadMove(_("The chosen cards were not understood."))


def _optional_int(value: object, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise BadMove(_not_a_number(name))
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise BadMove(_not_a_number(name))


def _not_a_number(name: str):
    return lazy_message(lambda: gettext("The field %s must be a number.") % repr(name))


def _client_move_id(value: object) -> str | None:
    if value is None or value == "":
        return None
    # No NUL nor lone surrogate: a database refuses them in a text column, even in a query.
    if isinstance(value, str) and len(value) <= MAX_CLIENT_MOVE_ID and storable(value):
        return value
    raise BadMove(_("The form's move id was not understood; reload the page."))


def perform(
    game_id: int, user: AbstractBaseUser | AnonymousUser, data: dict[str, Any]
) -> MoveResult | None:
    """Parse and make the person's move (None for "back"). Raises ServiceError.

    Any well-formed action from a person whose seat is away means they are back, even if
    the move itself turns out illegal.
    """
    payload, expected_seq, client_move_id = parse_action(data)
    if payload["type"] == BACK:
        moves.mark_back(game_id, user)
        return None
    # An away seat comes back inside the move's own transaction, under the game's lock,
    # so the clock cannot mark it away again in between.
    return moves.submit_move(
        game_id, user, payload, expected_seq=expected_seq, client_move_id=client_move_id
    )
