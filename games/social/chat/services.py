"""Chat's database work, called from the table socket's database threads: check, store,
mute, report, and the talk so far. Every refusal is a ChatRefused with a message for the
person, and changes nothing."""

from __future__ import annotations

import unicodedata
import zlib
from datetime import timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from accounts.models import display_name_for
from games.models import Game
from games.play.telling import notify_group, person_tables_group
from games.social.chat import presets, rules
from games.social.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from games.social.services import blocked_ids
from games.words.text import lazy_message, storable

HISTORY = 100  # the newest messages a table's drawer gets when it connects

ONLY_PRESETS = gettext_lazy(
    "Only the phrases and emotes can be sent at this table: free text is for private, "
    "unrated tables of friends."
)
UNKNOWN_PRESET = gettext_lazy("There is no such phrase or emote.")
EMPTY = gettext_lazy("Write a message first.")
NOT_TEXT = gettext_lazy("That message holds characters that are not text.")
NO_SUCH_MESSAGE = gettext_lazy("There is no such message at this table.")
NOT_YOURSELF = gettext_lazy("You cannot mute yourself.")
TOO_FAST = gettext_lazy("You are sending messages too fast: wait a few seconds.")
WINDOW = 10.0  # seconds: at most rules.per_ten_seconds() messages of a person in it
# The first key of the transaction-scoped lock a person's sends take turns on (the second
# is their id): a name of its own among PostgreSQL's advisory locks, as a signed 32 bits.
SENDS_LOCK = zlib.crc32(b"tongits-chat-sends") - 2**31
REPORTED = gettext_lazy("Reported: staff will read the message with this table's talk. Thank you.")


class ChatRefused(Exception):
    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


def too_long(limit: int) -> Any:
    return lazy_message(
        lambda: gettext("A message may be at most %(limit)s characters long.") % {"limit": limit}
    )


def _visible(text: str) -> str:
    """``text`` without the characters that show nothing: controls (but NUL, refused as
    not text below) and invisible format characters (a zero-width space, a soft hyphen, a
    word joiner), which hid a word from the filter inside it ("fu\u200bck"). A zero-width
    joiner stays between two symbols, where it joins an emoji, not inside a word."""
    out = []
    for i, c in enumerate(text):
        kind = unicodedata.category(c)
        if kind == "Cc" and c != "\x00":
            continue
        if kind == "Cf":
            inside_word = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
            if c != "\u200d" or inside_word:
                continue
        out.append(c)
    return "".join(out)


def check_text(text: Any) -> str:
    """A free text as it may be stored (stripped), or ChatRefused: before any query."""
    if not isinstance(text, str):
        raise ChatRefused(EMPTY)
    text = " ".join(_visible(text).split())  # one line: no spacing to draw with
    if not text:
        raise ChatRefused(EMPTY)
    if len(text) > rules.max_length():
        raise ChatRefused(too_long(rules.max_length()))
    if not storable(text):
        raise ChatRefused(NOT_TEXT)
    return text


def silenced_until(user_id: int) -> Any:
    silence = (
        ChatSilence.objects.filter(user_id=user_id, until__gt=timezone.now())
        .order_by("-until")
        .first()
    )
    return silence.until if silence else None


def say(
    game_id: int, user: AbstractBaseUser, *, preset: str = "", text: str = "", shown: str = ""
) -> dict[str, Any]:
    """Store a message (a preset key, or a free text checked by ``check_text`` and
    ``shown`` as filtered) and return the event every socket of the table is told."""
    until = silenced_until(user.pk)
    if until is not None:
        when = timezone.localtime(until)
        raise ChatRefused(
            lazy_message(
                lambda: (
                    gettext("Staff have silenced your chat until %(until)s.")
                    % {"until": date_format(when, "DATETIME_FORMAT")}
                )
            )
        )
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        raise ChatRefused(NO_SUCH_MESSAGE)
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if preset:
        if not presets.is_preset(preset):
            raise ChatRefused(UNKNOWN_PRESET)
        kind, body, shown = ChatMessage.Kind.PRESET, preset, ""
    else:
        if not rules.free_text_allowed(game, user.pk):
            raise ChatRefused(ONLY_PRESETS)
        kind, body = ChatMessage.Kind.TEXT, check_text(text)
    with transaction.atomic():
        _take_turn(user.pk)
        # The person's, at every table: another tab, socket or worker starts no new count.
        since = timezone.now() - timedelta(seconds=WINDOW)
        if ChatMessage.objects.filter(user=user, created_at__gt=since).count() >= (
            rules.per_ten_seconds()
        ):
            raise ChatRefused(TOO_FAST)
        message = ChatMessage.objects.create(
            game=game,
            user=user,
            name=display_name_for(user),
            seat=seat.index if seat else None,
            room=ChatMessage.Room.PLAYERS if seat else ChatMessage.Room.WATCHERS,
            kind=kind,
            body=body,
            shown=shown,
        )
    return event(message)


def _take_turn(user_id: int) -> None:
    """Hold, until the transaction ends, the lock this person's sends take turns on: a
    burst from ten tabs counted the same few messages at once and stored all ten. Not the
    user's row: a seat's join locks its game, then that row, and a message stored locks
    its game's row against changes of key (a deadlock waiting to happen). SQLite, for
    local runs, takes one writer at a time anyway (settings: IMMEDIATE transactions)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [SENDS_LOCK, user_id % 2**31])


def may_write(game_id: int, user: AbstractBaseUser) -> None:
    """ChatRefused unless ``user`` may send free text at this table (asked before the
    word filter's work, and again as it is stored)."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None or not rules.free_text_allowed(game, user.pk):
        raise ChatRefused(ONLY_PRESETS)


def event(message: ChatMessage) -> dict[str, Any]:
    """What a table's sockets are told of a message: no more than the drawer shows."""
    return {
        "type": "chat.message",
        "id": message.pk,
        "room": message.room,
        "seat": message.seat,
        "name": message.name,
        "user": message.user_id,
        "kind": message.kind,
        "body": message.body if message.kind == ChatMessage.Kind.PRESET else message.shown,
    }


def history(game_id: int, user_id: int | None, watchers_too: bool) -> list[dict[str, Any]]:
    """The newest messages of the table, oldest first: the players' always, the
    watchers' only for a watcher or once the game is over; none from people this person
    muted or blocked."""
    rows = ChatMessage.objects.filter(game_id=game_id)
    if not watchers_too:
        rows = rows.filter(room=ChatMessage.Room.PLAYERS)
    if user_id is not None:
        rows = rows.exclude(user_id__in=muted_ids(user_id))
    newest = list(rows.order_by("-created_at", "-pk")[:HISTORY])
    return [event(m) for m in reversed(newest)]


def muted_ids(user_id: int) -> set[int]:
    """Whose talk this person does not see: those they muted, and those they blocked
    (blocking stops a person's chat to you, as it stops their requests and challenges)."""
    muted = set(ChatMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))
    return muted | blocked_ids(user_id)


def muted_any_sql(user_id: int) -> tuple[str, list]:
    """Whether this person muted anyone, as one SQL boolean for a select list (the table
    page's drawer lists them only if so; tongits_site/person_facts.py)."""
    return f"EXISTS (SELECT 1 FROM {ChatMute._meta.db_table} m WHERE m.user_id = %s)", [user_id]


def _row_id(value: Any) -> int:
    """A row's id from a frame: a whole number a database column can hold, as a number
    or digits. JSON also brings floats, ``Infinity`` and numbers too large for any column,
    which must be refused before ``int()`` or a query fails on them."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63:
        return value
    raise ChatRefused(NO_SUCH_MESSAGE)


def _message(game_id: int, message_id: Any, watchers_too: bool) -> ChatMessage:
    pk = _row_id(message_id)
    rows = ChatMessage.objects.filter(game_id=game_id, pk=pk)
    if not watchers_too:
        rows = rows.filter(room=ChatMessage.Room.PLAYERS)
    found = rows.first()
    if found is None:
        raise ChatRefused(NO_SUCH_MESSAGE)
    return found


def mute(game_id: int, user: AbstractBaseUser, message_id: Any, watchers_too: bool) -> tuple:
    """Mute the author of a message of this table for ``user``: (their id, their name)."""
    message = _message(game_id, message_id, watchers_too)
    if message.user_id is None:
        raise ChatRefused(NO_SUCH_MESSAGE)
    if message.user_id == user.pk:
        raise ChatRefused(NOT_YOURSELF)
    ChatMute.objects.get_or_create(user=user, muted_id=message.user_id)
    # Every table socket of this person hears it (another tab, another worker): each
    # stops showing the muted person's talk, not only the socket that asked.
    notify_group(person_tables_group(user.pk), {"type": "chat.muted", "muted": message.user_id})
    return message.user_id, message.name


def unmute(user: AbstractBaseUser, muted_id: Any) -> int:
    pk = _row_id(muted_id)
    ChatMute.objects.filter(user=user, muted_id=pk).delete()
    notify_group(person_tables_group(user.pk), {"type": "chat.unmuted", "unmuted": pk})
    return pk


def report(game_id: int, user: AbstractBaseUser, message_id: Any, watchers_too: bool) -> None:
    """Report a message this person could see; reporting it twice counts once."""
    message = _message(game_id, message_id, watchers_too)
    try:
        with transaction.atomic():
            ChatReport.objects.get_or_create(message=message, reporter=user)
    except IntegrityError:  # the same report, at the same moment, from another tab
        pass


def transcript(game_id: int, reader_id: int | None = None) -> list[ChatMessage]:
    """Everything said at a table, both rooms, in order: for the replay and staff. With
    ``reader_id``, none from people that person muted or blocked, as at the table."""
    rows = ChatMessage.objects.filter(game_id=game_id)
    if reader_id is not None:
        rows = rows.exclude(user_id__in=muted_ids(reader_id))
    return list(rows.select_related("user"))


def open_reports() -> list[ChatReport]:
    return list(
        ChatReport.objects.filter(handled=False)
        .select_related("message", "reporter", "message__game")
        .order_by("-created_at", "-pk")[:50]
    )
