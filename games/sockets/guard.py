"""What every socket of the site shares: a budget of frames, and events that cannot hurt it.

Frames. Every frame a page sends is counted against one token bucket per socket
(``games.play.ratelimit``: ``TONGITS_SOCKET_FRAMES_PER_SECOND``, ``_BURST``,
``_DROPPED_MAX``) before it is decoded, so a flood costs next to nothing; frames beyond it
are dropped, and a socket that keeps on is closed with 4429. The table's and the lobby's
sockets both take frames through here: a socket that takes frames cannot forget to count.

Events. A message that comes through the channel layer is not a frame, whatever its type
says: only the server's own messages (the browser's frames, its connect and disconnect)
are dispatched as ``websocket.*``; an event is dispatched only if its kind is one the
socket takes (``events``). The channel layer passes only this site's messages
(games/play/live/layer.py), yet one may still not fit: an old game's, a previous
release's, or malformed. Each handler checks what it uses; one that fails all the same is
logged by its kind (a message might name a card) and answered by ``reread``, which takes
the socket's state from the database again. A socket never ends for an event: a consumer
that raises is closed, and an event goes to every watcher of a game at once.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from games.play.ratelimit import ADMIT, CLOSE, TOO_MANY_REQUESTS, WARN, FrameLimiter
from games.play.telling import LAYER_DOWN

log = logging.getLogger(__name__)


class _FromServer(dict):
    """A message from the socket's own connection (a frame, its opening or its end), as
    opposed to one from the channel layer."""


def whole(value: Any) -> bool:
    """A whole number as an event's ids and versions are (not a bool, a float or text)."""
    return type(value) is int and 0 <= value < 2**63


class GuardedSocket:
    """Mixin for the site's WebSocket consumers, before ``AsyncWebsocketConsumer``."""

    # The event kinds this socket takes (each handled by the method of its name).
    events: ClassVar[frozenset[str]] = frozenset({"auth.ended", "auth.check"})
    frames: FrameLimiter | None = None

    async def __call__(self, scope, receive, send):
        async def from_server() -> dict:
            return _FromServer(await receive())

        await super().__call__(scope, from_server, send)

    async def dispatch(self, message: dict) -> None:
        # Channels closes old database connections before every handler, a trip to its one
        # database thread per message; these handlers use the database only through
        # threads that see to their own connections (games/play/live/db.py, or
        # database_sync_to_async).
        if type(message) is _FromServer:
            await getattr(self, message["type"].replace(".", "_"))(message)
            return
        kind = message.get("type")
        if kind not in self.events:
            log.warning("A socket was sent an event it does not take (%.40r): ignored.", kind)
            return
        try:
            await getattr(self, kind.replace(".", "_"))(message)
        except LAYER_DOWN:
            raise
        except Exception as e:
            why = type(e).__name__
            log.warning("A %s event did not fit its socket (%s): read again.", kind, why)
            await self.reread_safely()

    async def reread_safely(self) -> None:
        try:
            await self.reread()
        except LAYER_DOWN:
            raise
        except Exception as e:  # the database restarting: the socket's own check heals it
            log.warning("A socket could not read its state again (%s).", type(e).__name__)

    async def reread(self) -> None:
        """Take what this socket shows from the database again, after an event that did
        not fit it."""

    async def websocket_receive(self, message: dict) -> None:
        # First, before any parsing, thread or query: a flood costs next to nothing.
        if self.frames is None:
            self.frames = FrameLimiter.from_settings()
        verdict = self.frames.verdict()
        if verdict == ADMIT:
            await super().websocket_receive(message)
        elif verdict == WARN:
            await self.slow_down()
        elif verdict == CLOSE:
            await self.close(code=TOO_MANY_REQUESTS)

    async def slow_down(self) -> None:
        """Say that frames are being dropped, where the page has room to (once per run)."""
