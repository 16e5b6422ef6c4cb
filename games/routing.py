from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from games.sockets.arena import WaitingTableConsumer
from games.sockets.lobby import LobbyConsumer
from games.sockets.table import GameConsumer

websocket_urlpatterns = [
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    # An arena's waiting table, before its person's first game (games/sockets/arena.py).
    path("ws/arena/<int:tournament_id>/", WaitingTableConsumer.as_asgi()),
    # Last: any other path (a typo, a probe, /ws/game/abc/) has its handshake refused.
    # Without it Channels' router raises "No route found", which the server logs as an
    # ERROR with a whole traceback for each such request.
    re_path(r"", WebsocketDenier.as_asgi()),
]
