"""The live lobby's WebSocket: when any table changes, each socket re-renders the lobby's
lists for its own user (their own games differ) and htmx swaps them in place.

A busy site changes tables many times a second (every game that starts or ends), and a
render per socket per change would keep a worker busy with a crowd in the lobby. So the
changes are gathered: the first one starts a short wait, the changes that come meanwhile
join it, and then every lobby socket of the process renders once, on the database
threads (games/play/live/db.py), not on the one thread Channels gives all sockets.

Its frames share the table socket's budget (``guard.GuardedSocket``). A page says it is
hidden or shown again, and the socket writes that down once it has settled
(``AWAY_SETTLE_SECONDS``): hidden and shown again meanwhile (a glance at another tab, or a
script toggling) touches no row and tells no friend.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from contextlib import suppress
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from accounts.languages import of_socket
from accounts.sockets import SessionBoundSockets
from games.play.live.auth import identify
from games.play.live.db import in_db_thread, on_arrival
from games.play.telling import LAYER_DOWN, LOBBY_GROUP
from games.social import pages as social_pages
from games.social import presence
from games.social.news import News
from games.social.services import person_group
from games.sockets.guard import GuardedSocket, whole
from games.views.lobby import lobby_context

log = logging.getLogger(__name__)

# What Django's CSRF middleware accepts as a cookie's secret.
CSRF_SECRET = re.compile(r"[a-zA-Z0-9]{32}")
UNAUTHENTICATED = 4401
# How long the first change waits for others to join it before the lists are sent.
GATHER_SECONDS = 0.5
# How long a page's hidden or shown must last before its person's presence is changed.
AWAY_SETTLE_SECONDS = 1.0
# The pages a lobby socket may be of (?page=…).
LOBBY, FRIENDS, NEWS = "lobby", "friends", "news"


class LobbyConsumer(GuardedSocket, SessionBoundSockets, AsyncWebsocketConsumer):
    """Also the person's own socket for friends: it counts them as here (presence), hears
    their friends' presence and their own requests and challenges on ``person_group``,
    and takes one frame from the page, {"away": true|false}, when it is hidden or shown.

    ``?page=friends`` is the Friends page's (no lists of tables); ``?page=news`` is the
    one every other page opens (static/js/news.js): it hears only the person's news of
    challenges and requests, and counts nobody as here, as before it existed."""

    events = GuardedSocket.events | {"social.presence", "social.changed", "lobby.update"}
    joined = False
    person = ""
    counted = False  # in the person's presence (settings.TONGITS_SOCKET_PRESENCE)
    away = False  # as this socket last wrote it down (presence.set_away)
    wanted_away = False  # as its page last said
    settling: asyncio.Task | None = None  # the wait before writing it down
    writing = False  # that task is writing it down (it waited out the settle)
    leaving = False  # the socket is closing: nothing more is written down
    language: str | None = None  # the page's, found at the first friend's event
    _page: str | None = None  # see page()

    async def connect(self) -> None:
        # Accept before closing, so the browser sees our close code rather than a refusal.
        await self.accept()
        user = await identify(self.scope)  # after the handshake (games/play/live/auth.py)
        if user is None or not user.is_authenticated:
            await self.close(code=UNAUTHENTICATED)
            return
        if self.page() == LOBBY:  # the others have no lists of tables to refresh
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
            self.joined = True
            _sockets.add(self)
        await self.bind_session()  # closed when its session ends (accounts/sockets.py)
        self.person = person_group(user.pk)
        await self.channel_layer.group_add(self.person, self.channel_name)
        if settings.TONGITS_SOCKET_PRESENCE and self.page() != NEWS:
            self.counted = True
            await on_arrival(presence.connected)(user.pk)
            presence.keep_beating()  # so a crash of this worker heals
        if self.page() != LOBBY:
            # What changed between the page's render and joining the person's group (a
            # friend coming online, a challenge), or while a dropped socket was away, was
            # told to no one: the page's parts once more, now that nothing more can be
            # missed. The lobby's own friends part still has that gap.
            await self.send_if_open(await in_db_thread(self.render_social)(None))

    async def disconnect(self, code: int) -> None:
        await self.settled()
        _sockets.discard(self)
        if self.joined:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        if self.person:
            self.person, group = "", self.person
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_DOWN as e:  # the group's entry expires by itself
                log.warning("Could not leave %s: channel layer: %s", group, e)
        if self.counted:
            self.counted = False
            await on_arrival(presence.disconnected)(self.scope["user"].pk, self.away)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """{"away": true} when the page is hidden, false when it is back; anything else is
        ignored (this socket takes no other frame). Written down once it has settled."""
        try:
            away = json.loads(text_data or "").get("away")
        except (ValueError, AttributeError, RecursionError):  # "[[[[…" nested thousands deep
            return
        if not self.counted or self.leaving or not isinstance(away, bool):
            return
        self.wanted_away = away
        if away != self.away and self.settling is None:
            self.settling = asyncio.create_task(self.settle_away())

    async def settle_away(self) -> None:
        """Each ``AWAY_SETTLE_SECONDS``, the page's last word, while it changes anything:
        one write a second at most, however often the page says."""
        try:
            while True:
                await asyncio.sleep(AWAY_SETTLE_SECONDS)
                if self.leaving or self.wanted_away == self.away:
                    return
                self.writing, self.away = True, self.wanted_away
                await in_db_thread(presence.set_away)(self.scope["user"].pk, self.away)
                self.writing = False
        finally:
            self.settling, self.writing = None, False

    async def settled(self) -> None:
        """Before the socket is taken off the counts: a change still waiting is dropped
        (the page is gone), one being written is let finish, so the counts agree."""
        self.leaving = True
        task = self.settling
        if task is None:
            return
        if not self.writing:
            task.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await task

    async def social_presence(self, event: dict) -> None:
        """A friend's presence changed: its new status came with the event (no query).
        A page of news only shows no friend."""
        if self.page() == NEWS:
            return
        user, game, kind = event.get("user"), event.get("game"), event.get("kind")
        if not whole(user) or not (game is None or whole(game)) or type(kind) is not str:
            return  # not a presence this site sends: the next change shows the right one
        status = presence.Status(kind, game, bool(event.get("watchable")))
        if self.language is None:
            self.language = of_socket(self.scope)
        with translation.override(self.language):
            html = social_pages.presence_html(user, status)
        await self.send_if_open(html)

    async def social_changed(self, event: dict) -> None:
        """Their friends, requests or challenges changed: the page's parts again, and for
        a challenger whose challenge was accepted, the way to the table."""
        go = event.get("go")
        # A game's id (the way to the table a challenge was accepted at), or nothing: no
        # event sends a page anywhere else.
        await self.send_if_open(await in_db_thread(self.render_social)(go if whole(go) else None))

    async def reread(self) -> None:
        """The page's friends and requests as the database has them."""
        if self.person:
            await self.send_if_open(await in_db_thread(self.render_social)(None))

    async def send_if_open(self, text: str) -> None:
        # A friend's event may come while this socket closes (a page left, a crowd going
        # at once): nothing to tell then, and nothing to log as an error.
        try:
            await self.send(text_data=text)
        except Disconnected:
            pass

    def page(self) -> str:
        """The page this socket is of: the lobby's, Friends' or any other's (news only)."""
        if self._page is None:
            query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
            page = query.get("page", [LOBBY])[0]
            self._page = page if page in (FRIENDS, NEWS) else LOBBY
        return self._page

    def render_social(self, go: int | None) -> str:
        with translation.override(of_socket(self.scope)):
            user = self.scope["user"]
            token = csrf_token(self.scope)
            html = [news_html(user.pk, token, go)]
            page = self.page()
            if page != NEWS:
                if page == FRIENDS:
                    context, part = social_pages.friends_context(user), "friends-panel"
                else:
                    context, part = social_pages.lobby_friends_context(user), "lobby-friends"
                context.update(oob=True, user=user, csrf_token=token)
                html.append(render_to_string(f"social/parts.html#{part}", context).strip())
            return "\n".join(html)

    async def lobby_update(self, event: dict) -> None:
        # Every socket of the process hears the change; the first starts the refresh.
        _refresh_soon()

    async def send_lists(self) -> None:
        if self in _sockets:
            await self.send(text_data=await in_db_thread(self.render_lists)())

    def render_lists(self) -> str:
        with translation.override(of_socket(self.scope)):  # the page's own language
            return self._render_lists()

    def _render_lists(self) -> str:
        context = lobby_context(self.scope["user"], self.origin())
        context["oob"] = True
        context["user"] = self.scope["user"]
        context["csrf_token"] = csrf_token(self.scope)
        return render_to_string("games/lobby.html#lobby-lists", context).strip()

    def origin(self) -> str:
        # The page's own origin, which SameOriginValidator (asgi.py) has already checked.
        headers = dict(self.scope.get("headers", []))
        return headers.get(b"origin", b"").decode("latin-1")


def csrf_token(scope: dict) -> str:
    """A fresh mask of the browser's own CSRF secret, so the forms a socket sends (the
    lobby's Join, a toast's Accept) post as well as the page's did (masking each time
    defeats BREACH)."""
    secret = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    if not CSRF_SECRET.fullmatch(secret):
        return ""
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return get_token(request)


def news_html(user_id: int, token: str, go: int | None = None) -> str:
    """The person's news (games/social/news.py) as the frame that replaces a page's: for
    the socket of any page, the table's too. Called in the page's language."""
    context = {"news": News(user_id, go), "oob": True, "csrf_token": token}
    return render_to_string("social/news.html#feed", context).strip()


_sockets: set[LobbyConsumer] = set()
_dirty = False
_task: asyncio.Task | None = None


def _refresh_soon() -> None:
    global _dirty, _task
    _dirty = True
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_refresh(), name="tongits-lobby-refresh")


async def _refresh() -> None:
    """Send every lobby socket its lists, once for all the changes of a moment. A change
    that comes while the lists are made (it was committed before its event was sent,
    maybe after a render read the tables) makes another round."""
    global _dirty
    while _dirty:
        await asyncio.sleep(GATHER_SECONDS)
        _dirty = False
        sockets = list(_sockets)
        results = await asyncio.gather(*(s.send_lists() for s in sockets), return_exceptions=True)
        failed = sum(isinstance(r, Exception) for r in results)
        if failed:  # sockets closing as we speak, or the database restarting
            log.warning("The lobby's lists could not be sent to %s socket(s).", failed)
