"""The live lobby's WebSocket: when any table changes, each socket re-renders the lobby's
lists for its own user (their own games differ) and htmx swaps them in place."""

from __future__ import annotations

import re

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

from accounts.sockets import SessionBoundSockets
from games.services import LOBBY_GROUP
from games.views.lobby import lobby_context

# What Django's CSRF middleware accepts as a cookie's secret.
CSRF_SECRET = re.compile(r"[a-zA-Z0-9]{32}")
UNAUTHENTICATED = 4401


class LobbyConsumer(SessionBoundSockets, AsyncWebsocketConsumer):
    joined = False

    async def connect(self) -> None:
        # Accept before closing, so the browser sees our close code rather than a refusal.
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=UNAUTHENTICATED)
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        self.joined = True
        await self.bind_session()  # closed when its session ends (accounts/sockets.py)

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_update(self, event: dict) -> None:
        await self.send(text_data=await database_sync_to_async(self.render_lists)())

    def render_lists(self) -> str:
        context = lobby_context(self.scope["user"], self.origin())
        context["oob"] = True
        context["user"] = self.scope["user"]
        context["csrf_token"] = self.csrf_token()
        return render_to_string("games/lobby.html#lobby-lists", context).strip()

    def csrf_token(self) -> str:
        """A fresh mask of the browser's own CSRF secret, so the Join forms in the new
        lists post as well as the page's did (masking each time defeats BREACH)."""
        secret = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        if not CSRF_SECRET.fullmatch(secret):
            return ""
        request = HttpRequest()
        request.META["CSRF_COOKIE"] = secret
        return get_token(request)

    def origin(self) -> str:
        # The page's own origin, which SameOriginValidator (asgi.py) has already checked.
        headers = dict(self.scope.get("headers", []))
        return headers.get(b"origin", b"").decode("latin-1")
