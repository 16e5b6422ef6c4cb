from __future__ import annotations

from django.urls import path

from games.consumers import GameConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
