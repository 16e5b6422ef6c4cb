"""Chat on the table's socket (games/sockets/table.py): the socket hands over every frame
with a ``chat_…`` field and every ``chat.message`` event of its game's group.

Kept off the moves' path: a chat frame costs one database trip on the same threads as a
move (two for free text, and its word filter, a quarter of a millisecond), is limited per
socket and per person (``TONGITS_CHAT_PER_10_SECONDS``, the latter counted in the stored
messages under a lock of the person's, so no other tab, table, socket or worker starts a
new count), and its frames are made from the message alone. A watcher's message reaches
a seated person's socket only once the game is over: each socket knows from its last
board whether its person is seated and whether the game is over, and drops the event
before sending. A person's mutes and blocks reach all of their table sockets at once.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from games.play.live.db import in_db_thread, on_arrival
from games.play.telling import person_tables_group
from games.social.chat import frames, rules, services, wordfilter
from games.social.chat.services import TOO_FAST, WINDOW, ChatRefused

LOG_IN = gettext_lazy("Log in to chat.")
NOT_UNDERSTOOD = gettext_lazy("That chat message was not understood.")


def is_chat(data: dict[str, Any]) -> bool:
    return any(isinstance(key, str) and key.startswith("chat_") for key in data)


def watcher_frame(text: str | None) -> dict[str, Any] | None:
    """A chat frame from a socket without an account (None: not one): it may ask for the
    talk so far, and is told to log in for anything else."""
    if not text or "chat_" not in text:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and is_chat(data) else None


def _start(game_id: int, user_id: int | None, watchers_too: bool) -> tuple[list, set[int]]:
    muted = services.muted_ids(user_id) if user_id is not None else set()
    return services.history(game_id, user_id, watchers_too), muted


class TableChat:
    """One socket's side of its table's talk."""

    def __init__(self, consumer: Any) -> None:
        self.socket = consumer
        self.sent: deque[float] = deque()
        self.muted: set[int] = set()
        self.blocked: set[int] = set()  # blocked while this socket is open (not in muted)
        self.group = ""  # the person's table sockets' group, for the blocks and mutes they make
        self.seated = False
        self.over = False

    @property
    def user_id(self) -> int | None:
        user = self.socket.user
        return user.pk if user.is_authenticated else None

    @property
    def watchers_too(self) -> bool:
        """Whether this socket may be sent what watchers say: a watcher, or anyone once
        the game is over."""
        return not self.seated or self.over

    def see(self, snap: Any) -> None:
        """Called with every board this socket sends: who it is at the table now."""
        self.seated = snap.seat_of(self.user_id) is not None
        self.over = snap.is_over

    async def start(self) -> None:
        """The talk so far: the page asks for it each time its socket opens
        (static/js/chat.js), so a reconnect heals what it missed; the connect itself
        costs nothing more than before."""
        if self.socket.game_id is None:  # a waiting table's socket, at no game yet
            await self.start_empty()
            return
        events, muted = await on_arrival(_start)(
            self.socket.game_id, self.user_id, self.watchers_too
        )
        self.muted = muted | self.blocked
        await self.socket.send(text_data=frames.log(events, self.user_id))

    async def start_empty(self) -> None:
        """A new game's talk, which has none yet: the log emptied, without a query (the
        socket went on to the arena's next game, games/sockets/table.py)."""
        await self.socket.send(text_data=frames.log([], self.user_id))

    async def join(self) -> None:
        """Hear the blocks and mutes this person makes while the socket is open (in
        another tab, on another page): the talk they stop stops at once, not at the
        next connect."""
        if self.user_id is not None:
            self.group = person_tables_group(self.user_id)
            await self.socket.channel_layer.group_add(self.group, self.socket.channel_name)

    async def leave(self) -> None:
        if self.group:
            group, self.group = self.group, ""
            await self.socket.channel_layer.group_discard(group, self.socket.channel_name)

    async def blocked_now(self, ev: dict[str, Any]) -> None:
        """A ``chat.blocked`` event: this person blocked ``ev["blocked"]``. Nothing more
        of theirs is sent, and the talk so far comes again without their lines."""
        self.blocked.add(int(ev["blocked"]))
        await self.start()

    async def unblocked_now(self, ev: dict[str, Any]) -> None:
        """A ``chat.unblocked`` event: this person unblocked ``ev["unblocked"]``, whose
        talk comes through again (sent after the commit: the talk so far is read anew)."""
        self.blocked.discard(int(ev["unblocked"]))
        await self.start()

    async def muted_now(self, ev: dict[str, Any]) -> None:
        """A ``chat.muted`` event: this person muted ``ev["muted"]`` (in this tab or any
        other). A socket that did not know yet sends the talk so far again without them;
        the one that asked knows already and has said so."""
        muted = int(ev["muted"])
        if muted not in self.muted:
            self.muted.add(muted)
            await self.start()

    async def unmuted_now(self, ev: dict[str, Any]) -> None:
        """A ``chat.unmuted`` event: the other tabs show their talk again (read anew, so a
        person also blocked stays hidden)."""
        unmuted = int(ev["unmuted"])
        if unmuted in self.muted:
            self.muted.discard(unmuted)
            await self.start()

    async def event(self, ev: dict[str, Any]) -> None:
        if ev["room"] == "watchers" and not self.watchers_too:
            return  # never to a seated person before the end
        if ev["user"] is not None and (ev["user"] in self.muted or ev["user"] in self.blocked):
            return
        if translation.get_language() != self.socket.language:
            with translation.override(self.socket.language):
                shown = frames.message(ev, self.user_id)
        else:
            shown = frames.message(ev, self.user_id)
        await self.socket.send(text_data=shown)

    def _allowed(self) -> bool:
        now = time.monotonic()
        while self.sent and now - self.sent[0] > WINDOW:
            self.sent.popleft()
        if len(self.sent) >= rules.per_ten_seconds():
            return False
        self.sent.append(now)
        return True

    async def receive(self, data: dict[str, Any]) -> None:
        if "chat_history" in data:
            await self.start()
            return
        if self.user_id is None:
            await self.note(LOG_IN)
            return
        if not self._allowed():
            await self.note(TOO_FAST)
            return
        game_id, user = self.socket.game_id, self.socket.user
        try:
            if "chat_preset" in data:
                preset = data["chat_preset"]
                if not isinstance(preset, str) or not preset:
                    raise ChatRefused(services.UNKNOWN_PRESET)
                ev = await in_db_thread(services.say)(game_id, user, preset=preset)
            elif "chat_text" in data:
                text = services.check_text(data["chat_text"])
                await in_db_thread(services.may_write)(game_id, user)
                shown = wordfilter.clean(text)  # python -m bench.chat: < 1 ms
                ev = await in_db_thread(services.say)(game_id, user, text=text, shown=shown)
            elif "chat_mute" in data:
                muted = await in_db_thread(services.mute)(
                    game_id, user, data["chat_mute"], self.watchers_too
                )
                self.muted.add(muted[0])
                said = gettext("You will not see what %(name)s says.") % {"name": muted[1]}
                await self.note(said, unmute=muted)
                return
            elif "chat_unmute" in data:
                unmuted = await in_db_thread(services.unmute)(user, data["chat_unmute"])
                self.muted.discard(unmuted)
                await self.note(gettext("Unmuted: new messages are shown again."))
                return
            elif "chat_report" in data:
                await in_db_thread(services.report)(
                    game_id, user, data["chat_report"], self.watchers_too
                )
                await self.note(services.REPORTED)
                return
            else:
                raise ChatRefused(NOT_UNDERSTOOD)
        except ChatRefused as e:
            await self.note(e.message)
            return
        await self.note("")  # clears a refusal shown before
        await self.socket.channel_layer.group_send(self.socket.group, ev)

    async def note(self, text: Any, *, unmute: tuple[int, str] | None = None) -> None:
        await self.socket.send(text_data=frames.note(str(text), unmute=unmute))
