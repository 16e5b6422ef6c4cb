"""The channel layer of a production worker: channels_redis's pub/sub layer, except that a
worker does not hear its own game events back from Redis, and hears nothing that another
site (or anyone else who can write to the Redis server) publishes under this site's names.

A move's process tells its own sockets of the game at once (``watch.tell``), on its event
loop, after the commit. Through Redis the same event came back to it a moment later and
went through the subscription's reply parser, into each of those sockets' queues, through
each socket's receive, decoding and dispatch, only to be found old: about a twentieth of a
busy worker's CPU a move, and a round trip of delay for the other seats at its table.

So every event this process publishes carries its mark (``ORIGIN``, random per process),
and the subscription drops a message with that mark before it reaches any queue. Every
other worker's sockets hear it as before; everything else (other messages, groups,
subscriptions, a Redis restart) is channels_redis's own.

Redis pub/sub channels belong to the whole Redis server (the database number in the URL
does not separate them), so each site names its channels with its own prefix
(``TONGITS_CHANNEL_PREFIX``). A prefix is only a name, though: a second site configured
with the same one, or anything else that can publish on the server, would reach this
site's sockets. So every message is also sealed: its bytes follow an HMAC keyed by the
site's secret key and prefix, and the subscription drops, before any queue, a message
whose seal is not this site's (once per message per worker, about what msgpack's packing
of the same message costs). What passes was published by a process of this site; the
sockets still check that an event fits before they use it (games/sockets/).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

log = logging.getLogger(__name__)

# Put in every event this process publishes (games/play/live/publish.py). Hex, so its bytes in
# the serialized message are exactly these: a message holding them is this process's.
ORIGIN = secrets.token_hex(12)
SEAL_BYTES = 16  # of the HMAC-SHA256, in front of each message
SAY_EVERY = 60.0  # seconds between two warnings of messages dropped for their seal


class EchoFreeLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose messages are sealed with the site's key and whose
    subscriptions skip this process's own events and anything not sealed by this site.

    ``secret_key``: the site's own secret (settings.SECRET_KEY); ``origin``: this process's
    mark (another value makes a layer that stands for another worker, in tests)."""

    def __init__(self, *args, secret_key: str = "", origin: str = ORIGIN, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not secret_key:
            from django.conf import settings

            secret_key = settings.SECRET_KEY
        prefix = kwargs.get("prefix", "asgi")
        self._seal_key = hmac.digest(
            secret_key.encode(), b"tongits channel layer seal|" + prefix.encode(), "sha256"
        )
        self.origin = origin
        self._mark = origin.encode()
        self._said_at = -SAY_EVERY
        self.dropped = 0  # messages dropped for their seal (for tests and the curious)

    def serialize(self, message) -> bytes:
        body = super().serialize(message)
        return self._seal(body) + body

    def deserialize(self, message: bytes):
        return super().deserialize(message[SEAL_BYTES:])

    def _seal(self, body: bytes) -> bytes:
        return hmac.digest(self._seal_key, body, "sha256")[:SEAL_BYTES]

    def sealed_here(self, data: bytes) -> bool:
        """Whether ``data`` (a message as Redis delivered it) was sealed by this site."""
        if type(data) is not bytes or len(data) <= SEAL_BYTES:
            return False
        return hmac.compare_digest(data[:SEAL_BYTES], self._seal(data[SEAL_BYTES:]))

    def not_sealed(self, channel: object) -> None:
        self.dropped += 1
        now = time.monotonic()
        if now - self._said_at >= SAY_EVERY:
            self._said_at = now
            # Another site sharing this prefix, or someone writing to Redis: never a worker
            # of this site, whose messages all carry the seal.
            log.warning(
                "Dropped a channel layer message on %s not sealed by this site (%d so far).",
                channel, self.dropped,
            )  # fmt: skip

    def _get_layer(self):
        layer = self._layers.get(asyncio.get_running_loop())
        if layer is None:
            layer = super()._get_layer()
            layer._shards = [_EchoFreeShard(shard.host, layer) for shard in layer._shards]
        return layer


class _EchoFreeShard(RedisSingleShardConnection):
    """channels_redis's connection to Redis for one event loop, whose subscribes and
    unsubscribes go to Redis together: one command for all those asked for meanwhile.

    channels_redis sends each (un)subscribe on its own, each under the shard's one lock:
    a lock handed from waiter to waiter one event-loop turn at a time, and a send and a
    drain inside each. A worker offered more than it could serve (issue 52: 150 tables,
    450 sockets opening, each socket subscribing its channel and three or four groups,
    and Play again a new game's group) queued 100 to 300 of them there, each turn of the
    busy loop tens of milliseconds: a handshake (its channel's subscribe comes before it
    is accepted) waited past the server's opening-handshake timeout (5 s) and was dropped
    unanswered, and the next game's group took past the page's wait. Here each change is
    put in a list, in order, and one task takes the whole list at a time under the lock:
    every run of subscribes in it one SUBSCRIBE, every run of unsubscribes one
    UNSUBSCRIBE. A caller waits until its own change was sent, as before, so the more
    are asked for at once, the fewer turns each waits.

    And it is carried to its end whoever cancels the caller. A socket's channel is
    unsubscribed as its consumer ends: its receive, cancelled, unsubscribes before it
    re-raises. Daphne cancels a consumer whose client left ``application_close_timeout``
    before, and again every second until it has ended; a second cancel landing in that
    unsubscribe was logged by channels_redis as an ERROR with a traceback ("Unexpected
    exception while cleaning-up channel") and left the channel subscribed."""

    def __init__(self, host, channel_layer) -> None:
        super().__init__(host, channel_layer)
        self._changes: list[tuple[bool, str]] = []  # (subscribe?, channel), in order
        self._sent: asyncio.Future | None = None  # done once those changes are sent
        self._sending: asyncio.Task | None = None

    async def subscribe(self, channel):
        await self._change(True, channel)

    async def unsubscribe(self, channel):
        try:
            await self._change(False, channel)
        except asyncio.CancelledError:
            if GROUP_MARK in channel:  # a group's, left by group_discard: cancelled as ever
                raise
            # A socket's own channel is unsubscribed only by its receive, cleaning up after
            # its own cancellation, which it re-raises next; the change is sent anyway.

    async def _change(self, subscribe: bool, channel: str) -> None:
        self._changes.append((subscribe, channel))
        if self._sent is None:
            self._sent = asyncio.get_running_loop().create_future()
        sent = self._sent
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send_changes())
        await asyncio.shield(sent)

    async def _send_changes(self) -> None:
        while self._changes:
            changes, sent = self._changes, self._sent
            self._changes, self._sent = [], None
            try:
                async with self._lock:
                    self._ensure_redis()
                    self._ensure_receiver()
                    for subscribe, channels in _runs(changes):
                        await self._send(subscribe, channels)
            except asyncio.CancelledError:
                if sent is not None:
                    sent.cancel()
                raise
            except Exception as e:  # Redis down: each caller hears it, as from channels_redis
                if sent is not None and not sent.done():
                    sent.set_exception(e)
                    sent.exception()  # (read here: a caller may have been let go)
            else:
                if sent is not None and not sent.done():
                    sent.set_result(None)

    async def _send(self, subscribe: bool, channels: list[str]) -> None:
        if subscribe:
            new = [c for c in dict.fromkeys(channels) if c not in self._subscribed_to]
            if new:
                await self._pubsub.subscribe(*new)
                self._subscribed_to.update(new)
        else:
            gone = [c for c in dict.fromkeys(channels) if c in self._subscribed_to]
            if gone:
                await self._pubsub.unsubscribe(*gone)
                self._subscribed_to.difference_update(gone)

    def _receive_message(self, message):
        if message is not None:
            site = self.channel_layer.channel_layer  # the EchoFreeLayer of this loop's layer
            data = message["data"]
            if not site.sealed_here(data):
                site.not_sealed(message.get("channel"))
                return
            if site._mark in data:
                return  # published here: this process's sockets were told already
        super()._receive_message(message)


# In the name of a group's Redis channel, never of a socket's (channels_redis names them so).
GROUP_MARK = "__group__"


def _runs(changes: list[tuple[bool, str]]) -> list[tuple[bool, list[str]]]:
    """The changes, in order, as runs of subscribes and of unsubscribes."""
    runs: list[tuple[bool, list[str]]] = []
    for subscribe, channel in changes:
        if runs and runs[-1][0] == subscribe:
            runs[-1][1].append(channel)
        else:
            runs.append((subscribe, [channel]))
    return runs


def drops_own_events(layer) -> bool:
    return isinstance(layer, EchoFreeLayer)
