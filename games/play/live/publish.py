"""A move's event on its way to the other workers: written to Redis, not waited for.

Every move publishes one event ("game N is at rev R", with the move) to the game's group.
Through channels_redis a publish takes the shard's lock (which every socket's subscribe and
unsubscribe also take), a connection from a pool, and a round trip that the sending task
waits out: about a tenth of a busy worker's CPU a move. The event needs none of that: the
move is committed already, nobody waits for the event to be delivered, and one lost is made
good by the sockets' own check (games/play/live/watch.py), exactly as when Redis is down.

So each event loop keeps one connection to Redis of its own that does nothing but PUBLISH:
a command is written at once, in order, and the replies (how many workers heard it) are
read as they come and only counted. The channel name and the bytes are the layer's own
(``RedisPubSubChannelLayer``), so the other workers' subscriptions receive exactly what
``group_send`` would have sent. Any other layer, or a layer configured in a way this does
not follow (several shards, a sentinel), goes through ``group_send`` as before.

While Redis cannot be reached an event is dropped with a warning (one a second at most),
and the connection is tried again at the next event, at most once a second.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections import deque
from typing import Any

from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection, parse_url

from games.play.live.layer import EchoFreeLayer, drops_own_events

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # between attempts to connect while Redis is down
QUEUED = 1000  # events held while the connection is being made; more are dropped
SAY_EVERY = 1.0  # seconds between two warnings of events not sent

_publishers: dict[tuple[asyncio.AbstractEventLoop, str], Publisher] = {}


def publish(layer: Any, group: str, message: dict[str, Any], *, echo: bool = False) -> bool:
    """Publish ``message`` to ``group`` on this event loop's own connection, without
    waiting; False if the layer is not one this can stand in for (the caller then uses
    ``group_send``). Call on the event loop. ``echo``: this process's own sockets of the
    group hear it back from Redis too (a person's group, which has no ``watch.tell``)."""
    address = _address(layer)
    if address is None:
        return False
    loop = asyncio.get_running_loop()
    publisher = _publishers.get((loop, address))
    if publisher is None:
        try:
            publisher = _publishers[(loop, address)] = Publisher(address, loop)
        except ValueError:  # an address only channels_redis itself understands
            return False
    if drops_own_events(layer) and not echo:  # this process's sockets are told without Redis
        message = {**message, "from": layer.origin}
    channel = layer._get_group_channel_name(group)
    publisher.publish(channel, layer.serialize(message), group)
    return True


def _address(layer: Any) -> str | None:
    """The Redis URL of the layer's one shard, if it is a pub/sub layer with one."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    if type(layer) not in (RedisPubSubChannelLayer, EchoFreeLayer):
        return None
    # (The layer's own __getattr__ would hand an unknown name to its per-loop layer.)
    found = layer.__dict__.get("_publish_address", False)
    if found is False:
        hosts = layer._kwargs.get("hosts") or []
        found = None
        if len(hosts) == 1:
            host = hosts[0]
            address = host.get("address") if isinstance(host, dict) else host
            if isinstance(address, str) and address.split(":", 1)[0] in _SCHEMES:
                found = address
        layer._publish_address = found
    return found


_SCHEMES = ("redis", "rediss", "unix")


class Publisher(asyncio.Protocol):
    """One connection that only publishes; see the module's docstring."""

    def __init__(self, address: str, loop: asyncio.AbstractEventLoop) -> None:
        self.address = address
        self.params = parse_url(address)  # host and port, or a socket's path; credentials
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.connecting: asyncio.Task | None = None
        self.tried_at = -RETRY_SECONDS
        self.queued: list[tuple[bytes, str]] = []
        self.waiting: deque[str] = deque()  # the group of each command not answered yet
        self.unread = b""
        self.said_at = -SAY_EVERY
        self.sent = 0  # events written (for tests and the curious)

    # --- Sending ------------------------------------------------------------------------

    def publish(self, channel: str, payload: bytes, group: str) -> None:
        command = _command(b"PUBLISH", channel.encode(), payload)
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(command)
            self.waiting.append(group)
            self.sent += 1
            return
        if self.connecting is None and time.monotonic() - self.tried_at >= RETRY_SECONDS:
            self.tried_at = time.monotonic()
            self.connecting = self.loop.create_task(self._connect())
        if self.connecting is not None and len(self.queued) < QUEUED:
            self.queued.append((command, group))
        else:
            self._not_told(group, "Redis is not reachable")

    async def _connect(self) -> None:
        try:
            params = self.params
            kind = params.get("connection_class")
            if kind is UnixDomainSocketConnection:
                await self.loop.create_unix_connection(lambda: self, params["path"])
            else:
                context = ssl.create_default_context() if kind is SSLConnection else None
                await self.loop.create_connection(
                    lambda: self, params.get("host", "localhost"), params.get("port", 6379),
                    ssl=context,
                )  # fmt: skip
        except (TimeoutError, OSError) as e:
            queued, self.queued = self.queued, []
            for _, group in queued:
                self._not_told(group, e)
        finally:
            self.connecting = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        params = self.params
        if params.get("password") is not None:
            auth = [b"AUTH"]
            if params.get("username"):
                auth.append(params["username"].encode())
            auth.append(params["password"].encode())
            transport.write(_command(*auth))  # type: ignore[attr-defined]
            self.waiting.append("")
        queued, self.queued = self.queued, []
        for command, group in queued:
            transport.write(command)  # type: ignore[attr-defined]
            self.waiting.append(group)
            self.sent += 1

    # --- Replies --------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        # Every reply to PUBLISH and AUTH is one line: ":<listeners>", "+OK" or "-<error>".
        lines = (self.unread + data).split(b"\r\n")
        self.unread = lines.pop()
        for line in lines:
            group = self.waiting.popleft() if self.waiting else ""
            if line.startswith(b"-"):
                self._not_told(group or "Redis", line[1:].decode(errors="replace"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.waiting:
            # Sent, perhaps heard: the sockets' check makes good whatever was not.
            log.warning(
                "Lost the connection to Redis with %d events unanswered: %s",
                len(self.waiting), exc or "closed",
            )  # fmt: skip
        self.waiting.clear()
        self.unread = b""

    def _not_told(self, group: str, error: object) -> None:
        now = time.monotonic()
        if now - self.said_at >= SAY_EVERY:
            self.said_at = now
            # The move is saved; the table's sockets catch up by themselves within seconds
            # (games.play.live.watch), or get the whole board when they reconnect.
            log.warning("Could not tell %s of a change: %s", group, error)


def _command(*parts: bytes) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)
