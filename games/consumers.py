"""The table's WebSocket: one per watcher of a game, seated or not.

Thin on purpose: who may watch, what a seat sees and what an action means live in
games/rendering.py and games/actions.py; moves go through games/services.py. A group
event only says "game N is at seq S"; each socket renders its own seat's view, so no
hand is ever sent to a group.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import SessionBoundSockets
from games import actions, rendering
from games.ratelimit import ADMIT, CLOSE, SLOW_DOWN, TOO_MANY_REQUESTS, WARN, FrameLimiter
from games.services import ServiceError, StaleMove, game_group


class GameConsumer(SessionBoundSockets, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.game_id: int = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = self.scope["user"]
        self.group = ""
        self.sent_seq = -1  # the seq of the last board this socket sent
        self.sent_key: tuple | None = None
        self.frames = FrameLimiter.from_settings()
        # Accept, then close: a refused handshake makes htmx's ws extension retry forever,
        # while a 44xx close after accepting stops it.
        await self.accept()
        await self.bind_session()  # closed when its session ends (accounts/sockets.py)
        code = await database_sync_to_async(rendering.refusal)(self.game_id, self.user)
        if code is not None:
            await self.close(code=code)
            return
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_board(snapshot=True)  # every (re)connect heals whatever was missed

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # First, before any parsing, thread or query: a flood costs next to nothing.
        verdict = self.frames.verdict()
        if verdict != ADMIT:
            if verdict == WARN:
                await self.send(text_data=rendering.message_frame(SLOW_DOWN, self.sent_seq))
            elif verdict == CLOSE:
                await self.close(code=TOO_MANY_REQUESTS)
            return
        try:
            data = actions.frame_data(text_data)
            await database_sync_to_async(actions.perform)(self.game_id, self.user, data)
        except StaleMove as e:
            await self.send_board(snapshot=True, message=e.message)
        except ServiceError as e:
            await self.send(text_data=rendering.message_frame(e.message, self.sent_seq))
        else:
            # At once, not only when the group event comes round: the mover sees the
            # result without waiting on the channel layer (the event is then skipped).
            await self.send_board()

    async def game_update(self, event: dict) -> None:
        if event["seq"] >= self.sent_seq:
            await self.send_board()

    async def send_board(self, *, snapshot: bool = False, message: str = "") -> None:
        frame = await database_sync_to_async(rendering.socket_frame)(
            self.game_id, self.user, message
        )
        # Skip what this socket already has: an older version, or the very same board.
        if not snapshot and (frame.seq < self.sent_seq or frame.key == self.sent_key):
            return
        self.sent_seq, self.sent_key = frame.seq, frame.key
        await self.send(text_data=frame.html)
