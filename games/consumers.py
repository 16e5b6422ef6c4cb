"""The table's WebSocket consumer: PLACEHOLDER, being written."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class GameConsumer(AsyncWebsocketConsumer):
    pass
