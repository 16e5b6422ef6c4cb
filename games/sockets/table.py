"""The table's WebSocket: one per watcher of a game, seated or not.

Thin on purpose: who may watch, what a seat sees and what an action means live in
games/table/rendering.py and games/play/actions.py; moves go through games/play/moves.py.
A group event only says "game N is at rev R"; each socket renders its own seat's view.

Cheap per move, because a crowd plays: the process loads a game once per rev for all
its sockets (``games.play.live.snapshots``; the process that made the move loads nothing),
renders a seat's board once per rev for all sockets of that seat, on the event loop
(no database, no thread), and each socket sends only the parts of the board that
changed since its last frame. Database work (a move, a load) runs on a small pool of
threads (games/play/live/db.py), so the round trips of many tables overlap.

Table talk shares the socket, never the moves' path: ``chat_…`` frames and ``chat.message``
events go to games/social/chat/live.py, whose frames are made from the message alone.

No board is made from an event that does not fit (another game's, no version, or a move
not following the position held, see ``games.play.live.news``): the database answers.
Frames are counted and events kept to their kinds by ``guard.GuardedSocket``.

Size: one consumer class, a socket's whole life (connect, frames, the game's events, the
arena's next game, its person's first board); what each step does lives elsewhere already.
"""

from __future__ import annotations

import asyncio
import logging

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts.languages import of_socket
from accounts.sockets import SessionBoundSockets
from games.play import actions, after_game, first_board
from games.play.errors import ServiceError, StaleMove
from games.play.live import snapshots, watch
from games.play.live.auth import identify
from games.play.live.db import in_db_thread, on_arrival
from games.play.live.news import apply_news
from games.play.live.snapshots import Snapshot
from games.play.ratelimit import SLOW_DOWN
from games.play.telling import LAYER_DOWN, game_group
from games.series import pages as series_pages
from games.social import presence
from games.social import services as social
from games.social.chat import live as chat
from games.social.chat.models import ChatMessage
from games.sockets import lobby
from games.sockets.guard import GuardedSocket, whole
from games.table import rendering, spectators
from games.tournaments import services as tournaments

log = logging.getLogger(__name__)

# "Service restart": the page's socket reconnects by itself, and its first frame is the
# whole board, so whatever was missed meanwhile is healed.
RECONNECT = 1012
WATCHING = gettext_lazy("You are watching this table: log in and take a seat to play.")


class GameConsumer(GuardedSocket, SessionBoundSockets, AsyncWebsocketConsumer):
    events = GuardedSocket.events | {
        "game.update", "arena.next", "chat.message", "chat.blocked", "chat.unblocked",
        "chat.muted", "chat.unmuted", "social.changed",
    }  # fmt: skip
    counted = False  # in the person's presence (games/social/presence.py)
    invited: int | None = None  # the private game play's hooks let it watch unseated
    ended = False  # and told that their game ended
    over = False  # the last board sent was of a finished game
    left: int | None = None  # the game this socket went on from
    waits: int | None = None  # a waiting table's tournament, until its first game comes
    unseen = False  # no friend to tell of this person's games, as the socket opened

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except LAYER_DOWN as e:
            # One line per socket, not a traceback: every socket of the worker sees it.
            log.warning("Table socket closed for a reconnect: channel layer: %s", e)
            watch.forget(self)
            try:
                await send({"type": "websocket.close", "code": RECONNECT})
            except Exception:  # the client may be gone already
                pass

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """Every frame of this socket (boards, messages, the table's talk). A frame on its
        way when the person leaves (a page closed just after it opened, a phone gone) finds
        the connection closed: nothing to tell then and nothing to log as an error. The
        disconnect that follows cleans up as always; a raised error would have ended this
        consumer before it, leaving its groups and its person's presence behind."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            pass

    async def connect(self) -> None:
        self.game_id: int = self.scope["url_route"]["kwargs"]["game_id"]
        await self.begin()
        # Join before loading, so no move falls between the load and the first event.
        # Anyone may watch a public table or a game of bots, logged in or not.
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        snap = await snapshots.current(self.game_id, on_arrival)
        code = spectators.refusal_code(snap, self.user)
        if code not in (None, spectators.NOT_FOUND) and await on_arrival(self.is_invited)():
            # A private tournament's game, watched by someone who may see the tournament.
            self.invited = self.game_id
            code = None
        if code is not None:
            await self.leave()
            await self.close(code=code)
            return
        if self.user.is_authenticated:
            await self.chat.join()  # the blocks and mutes they make meanwhile
        await self.count_present()
        watch.add(self)
        await self.send_board(snap, whole=True)  # every (re)connect heals whatever was missed

    async def begin(self) -> None:
        """What every table socket sets up first: its person, its language, its state,
        the handshake accepted and bound to its session."""
        # Every frame is in the watcher's language: made active once, for this socket's
        # task (a context variable), not switched to and back at every frame.
        self.language = of_socket(self.scope)
        translation.activate(self.language)
        self.group = ""
        self.rev = -1  # the rev of the last board this socket sent
        self.seq = -1  # and its seq
        self.sent: dict[str, int] = {}  # a hash of each part as last sent, without its data-seq
        self.boarded = 0  # the game whose first board this socket has said its person had
        self.lock = asyncio.Lock()  # one frame at a time, whoever asks (events, the watch)
        self.chat = chat.TableChat(self)  # the table's talk (games/social/chat/live.py)
        # Accept, then close: a refused handshake makes htmx's ws extension retry forever,
        # while a 44xx close after accepting stops it. Accepted before the person is looked
        # up, so that a busy worker's handshake never waits on the database (a handshake
        # that waited past the server's timeout was dropped unanswered: live/auth.py).
        await self.accept()
        # The user itself, not channels' lazy stand-in for it: every frame asks who it is.
        self.user = await identify(self.scope)
        await self.bind_session()  # closed when its session ends (accounts/sockets.py)

    async def count_present(self) -> None:
        if self.user.is_authenticated and settings.TONGITS_SOCKET_PRESENCE:
            # Here, for their friends: online, or playing. Before the first frame, so the
            # page is counted once it shows the table.
            self.counted = True
            status = await on_arrival(presence.connected)(self.user.pk)
            # Nobody to tell of their games (no friend yet): going on to a game asks
            # nothing more (a crowd's start is 999 of them); a friend made resets it.
            self.unseen = status == presence.UNSEEN
            presence.keep_beating()  # so a crash of this worker heals

    def is_invited(self) -> bool:
        """(On a database thread: reading the session may query.)"""
        return spectators.invited_to(self.game_id, self.user, self.scope.get("session"))

    async def disconnect(self, code: int) -> None:
        await self.leave()
        if self.counted:
            self.counted = False
            await on_arrival(presence.disconnected)(self.user.pk)

    async def leave(self) -> None:
        watch.forget(self)
        group, self.group = self.group, ""
        self.waits = None
        try:
            await self.chat.leave()  # (a waiting table's socket has only this group)
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)
        except LAYER_DOWN as e:
            # The group's entry expires by itself (the layer's group_expiry).
            log.warning("Could not leave %s: channel layer: %s", group, e)

    async def slow_down(self) -> None:
        await self.send_message(SLOW_DOWN)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # (Counted already against the socket's budget of frames: guard.GuardedSocket.)
        if not self.user.is_authenticated:
            said = chat.watcher_frame(text_data)
            if said is not None:  # the talk so far, which anyone watching may read
                await self.chat.receive(said)
                return
            # A watcher without an account has no seat to act from: told so, nothing done.
            await self.send(text_data=rendering.message_frame(WATCHING, self.seq))
            return
        try:
            data = actions.frame_data(text_data)
            if chat.is_chat(data):  # a message, never a move: nothing of the game changes
                await self.chat.receive(data)
                return
            if data.get("action") == actions.AGAIN:
                await self.play_again()
                return
            await in_db_thread(actions.perform)(self.game_id, self.user, data)
        except StaleMove as e:
            snap = await in_db_thread(snapshots.fresh)(self.game_id)
            await self.send_board(snap, whole=True, message=e.message)
        except ServiceError as e:
            await self.send_message(e.message)
        else:
            # At once, not only when the group event comes round: the mover sees the
            # result without waiting on the channel layer (the event is then skipped).
            # The move's own process keeps its snapshot, so this takes no query.
            snap = snapshots.cached(self.game_id)
            if snap is not None and snap.rev > self.rev:
                await self.send_board(snap)

    async def send_message(self, message: str) -> None:
        """Only the message box, for this socket: a refusal belongs to the move it answers,
        so the box is marked as sent with it and the next board clears it."""
        shown = rendering.message_frame(message, self.seq)
        self.sent["messages"] = hash(shown)
        await self.send(text_data=shown)

    async def game_update(self, event: dict) -> None:
        rev = event.get("rev")
        if self.left is not None and event.get("game") == self.left:
            return  # the game this socket left (Play again): nothing of it is shown now
        if event.get("game", self.game_id) != self.game_id or not whole(rev):
            # Not this game's (the last game's, come after the socket went on, or another
            # site's), or no version: nothing in it is used; the database says.
            await self.reread()
            return
        if rev > self.rev:
            # The first of this process's sockets of the game to hear of a move makes the
            # new snapshot from the move itself, if the move fits; the others find it made.
            snap = apply_news(self.game_id, rev, event.get("news"))
            await self.send_board(snap, min_rev=rev)
        if self.user.is_authenticated and not self.ended:
            snap = snapshots.cached(self.game_id)
            if snap is not None and snap.is_over:
                self.ended = True
                # The game ended: its people are no longer playing, for their friends,
                # and may now accept a challenge. Of a person with no friend to tell (as in
                # ``go_on``) the look would only ask whether they have one now, at every
                # seat of every game's end; a friend made meanwhile says so
                # (``social_changed``).
                if self.counted and not self.unseen:
                    await in_db_thread(presence.recheck)(self.user.pk)
                if snap.seat_of(self.user.pk) is not None:
                    await self.send_news(challenges_only=True)

    async def reread(self) -> None:
        """This socket's board as the database has it (only the parts that changed)."""
        if self.group:
            await self.send_board(await snapshots.reloaded(self.game_id))

    async def arena_next(self, event: dict) -> None:
        """The arena dealt this person's next game (games/tournaments/services.py). A
        socket still at their last game of it goes on to the new one: it leaves the old
        game's group, joins the new one's and sends its whole board, and the page follows
        (static/js/table.js). Between an arena's games a person loads no page and opens no
        socket, which is most of what a table cost the workers between games. A socket at
        any other game (a second tab watching a friend, say) stays where it is."""
        game_id = event.get("game")
        if not whole(game_id):
            await self.reread()
            return
        if event.get("after") == self.game_id and not self.over:
            # The last game's end first: its final board may still be on its way to this
            # socket (this process's sockets hear a move from a task of their own), and
            # once the socket has gone on, a board of the last game is no longer sent.
            await self.send_board(await in_db_thread(snapshots.fresh)(self.game_id))
        await self.go_on(game_id, after=event.get("after"))

    async def play_again(self) -> None:
        """Play again pressed on the finished table's result, over this socket (the page's
        form posts it only when the socket is down): the same service as the POST
        (games/play/after_game.py), then the socket goes on to the next table as an
        arena's does, and the page follows (static/js/table.js). A person's next game
        then costs no POST, no table page and no socket handshake."""
        after = self.game_id
        following = await in_db_thread(_press_again)(after, self.user)
        if following is not None:
            await self.go_on(following, after=after)

    async def go_on(self, game_id: int, *, after: object) -> None:
        """This socket leaves the game ``after`` for ``game_id`` and sends its whole board
        there, led by the new game's number for the page; nothing if it is at another
        game by now."""
        async with self.lock:  # the event and the check (below) may both bring it
            if after != self.game_id or game_id == self.game_id:
                return
            if not (self.group or self.waits):  # closed, or closing
                return
            group = game_group(game_id)
            await self.channel_layer.group_add(group, self.channel_name)
            if self.group:  # (a waiting table's socket is at no game yet)
                await self.channel_layer.group_discard(self.group, self.channel_name)
            watch.forget(self)
            self.waits = None
            self.left = self.game_id  # its news still on the way is not this socket's
            self.game_id, self.group = game_id, group
            self.rev = self.seq = -1
            self.sent = {}
            self.ended = False
            watch.add(self)
        snap = await snapshots.current(game_id)
        if snap is None or spectators.refusal_code(snap, self.user) is not None:
            await self.close(code=4403)  # never: the pairing seated this person there
            return
        if self.counted and not self.unseen:
            await in_db_thread(presence.recheck)(self.user.pk)  # playing again
        await self.send_board(snap, whole=True, next_game=True)
        await self.chat.start_empty()  # a new game's talk: none yet

    @property
    def awaits_next(self) -> bool:
        """At a finished game, logged in: perhaps an arena's, its next game dealt."""
        return self.over and self.user.is_authenticated and bool(self.group)

    async def social_changed(self, event: dict) -> None:
        """The person's challenges or friend requests changed (games/social/services.py,
        on their tables' group): the page's news again, which no card is part of."""
        self.unseen = False  # a friend made, perhaps: their games are told from now on
        await self.send_news(event.get("go"))

    async def send_news(self, go: int | None = None, *, challenges_only: bool = False) -> None:
        """``challenges_only``: only if a challenge waits (its Accept may be offered now)."""
        html = await in_db_thread(self.render_news)(go, challenges_only)
        if html:
            await self.send(text_data=html)

    def render_news(self, go: int | None, challenges_only: bool) -> str:
        if challenges_only and not (
            social.any_challenge_pending(self.user.pk)  # (no query built: almost always no)
            and social.challenges_for(self.user.pk).exists()
        ):
            return ""
        with translation.override(self.language):  # on a database thread: set it there
            return lobby.news_html(self.user.pk, lobby.csrf_token(self.scope), go)

    async def chat_message(self, event: dict) -> None:
        if _chat_line_fits(event):  # (a line missing is no harm: the log is only added to)
            await self.chat.event(event)

    async def chat_blocked(self, event: dict) -> None:
        if whole(event.get("blocked")):
            await self.chat.blocked_now(event)

    async def chat_unblocked(self, event: dict) -> None:
        if whole(event.get("unblocked")):
            await self.chat.unblocked_now(event)

    async def chat_muted(self, event: dict) -> None:
        await self.chat.muted_now(event)

    async def chat_unmuted(self, event: dict) -> None:
        await self.chat.unmuted_now(event)

    async def send_board(
        self,
        snap: Snapshot | None = None,
        *,
        min_rev: int = 0,
        whole: bool = False,
        message: str = "",
        next_game: bool = False,
    ) -> None:
        """Send this watcher's board at ``min_rev`` or later: only the parts that changed
        since the last frame (``whole``: all of them)."""
        async with self.lock:
            if snap is not None and snap.pk != self.game_id:
                return  # a board of the last game, come after the socket went on
            if snap is None or snap.rev < min_rev:
                snap = await snapshots.snapshot(self.game_id, min_rev)
            if snap is None:
                await self.close(code=4404)
                return
            if snap.rev <= self.rev and not whole:
                return  # this socket has it already (or something newer)
            try:
                table = spectators.table_for(snap, self.user, invited=self.invited == self.game_id)
            except PermissionDenied:
                await self.close(code=4403)
                return
            if translation.get_language() == self.language:
                frame = self.frame(table, whole, message, next_game)
            else:  # called from another task (the socket check, games.play.live.watch)
                with translation.override(self.language):
                    frame = self.frame(table, whole, message, next_game)
            if frame:
                await self.send(text_data=frame)
            seat = self.first_board(snap)
        if seat is not None:
            # Their turn clock starts with it (games/play/clock.py): one statement a seat.
            await on_arrival(first_board.board_sent)(snap.pk, seat)

    def first_board(self, snap: Snapshot) -> int | None:
        """The seat of this socket's person if it has just sent them their first board of
        a game in play (their turn clock waits for it), else None."""
        if self.boarded == snap.pk or not self.user.is_authenticated or not snap.dealt:
            return None
        self.boarded = snap.pk
        seat = snap.seat_of(self.user.pk)
        return None if seat is None or snap.is_over else seat.index

    def frame(
        self, table: rendering.Table, whole: bool, message: str, next_game: bool = False
    ) -> str:
        """The parts that differ from what this socket last sent (none: ""), and the
        status part with them, which carries the version."""
        parts = rendering.socket_parts(table)
        snap = table.game
        self.rev, self.seq = snap.rev, snap.seq
        self.over = snap.is_over
        self.chat.see(snap)
        if whole:
            self.sent = {}
        changed = []
        for name, (_, bare) in parts.items():
            if name == "messages" and message:
                shown = rendering.message_frame(message, snap.seq)
                bare = hash(shown)
            if self.sent.get(name) != bare:
                changed.append(name)
                self.sent[name] = bare
        if not changed:
            return ""
        if rendering.ALWAYS not in changed:
            changed.insert(0, rendering.ALWAYS)
        out = [parts[name][0] for name in changed]
        if message:
            out[changed.index("messages")] = shown
        if next_game:  # first, so the page knows its new game before the board lands
            out.insert(0, rendering.next_game_part(snap.pk))
        return rendering.stamp("".join(out))


def _press_again(game_id: int, user) -> int | None:
    """(On a database thread.) Play again from a socket: the next game's id, or None when
    there is none to go to (a series' hand, whose next hand the series' page deals). A
    refusal is the POST's (ServiceError)."""
    if series_pages.url_of_hand(game_id):
        return None
    return after_game.play_again(game_id, user).pk


def _chat_line_fits(event: dict) -> bool:
    """A ``chat.message`` event with every field its frames use, each of its type."""
    seat, user = event.get("seat"), event.get("user")
    return (
        whole(event.get("id"))
        and event.get("room") in ChatMessage.Room.values
        and event.get("kind") in ChatMessage.Kind.values
        and (seat is None or (type(seat) is int and 0 <= seat <= 2))
        and (user is None or whole(user))
        and type(event.get("name")) is str
        and type(event.get("body")) is str
    )


async def _next_games_lost(sockets: list) -> None:
    """At each socket check (games/play/live/watch.py): a socket left at a person's last
    game of an arena whose next game is being played goes on to it. Its ``arena.next``
    event was lost (Redis restarted), or the page was opened after the pairing: without
    this the person would watch a finished table while the clock plays their new one."""
    waiting = [s for s in sockets if getattr(s, "awaits_next", False)]
    if not waiting:
        return
    found = await in_db_thread(tournaments.next_games)([(s.user.pk, s.game_id) for s in waiting])
    for socket in waiting:
        game_id = found.get((socket.user.pk, socket.game_id))
        if game_id is not None:
            event = {"type": "arena.next", "after": socket.game_id, "game": game_id}
            await socket.arena_next(event)


watch.also(_next_games_lost)
