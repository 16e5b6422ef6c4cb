"""The channel layer of a production worker: channels_redis's pub/sub layer, except that a
worker does not hear its own game events back from Redis.

A move's process tells its own sockets of the game at once (``watch.tell``), on its event
loop, after the commit. Through Redis the same event came back to it a moment later and
went through the subscription's reply parser, into each of those sockets' queues, through
each socket's receive, decoding and dispatch, only to be found old: about a twentieth of a
busy worker's CPU a move, and a round trip of delay for the other seats at its table.

So every event this process publishes carries its mark (``ORIGIN``, random per process),
and the subscription drops a message with that mark before it reaches any queue. Every
other worker's sockets hear it as before; everything else (other messages, groups,
subscriptions, a Redis restart) is channels_redis's own.
"""

from __future__ import annotations

import asyncio
import secrets

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

# Put in every event this process publishes (games/play/live/publish.py). Hex, so its bytes in
# the serialized message are exactly these: a message holding them is this process's.
ORIGIN = secrets.token_hex(12)
_MARK = ORIGIN.encode()


class EchoFreeLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose subscriptions skip this process's own events."""

    def _get_layer(self):
        layer = self._layers.get(asyncio.get_running_loop())
        if layer is None:
            layer = super()._get_layer()
            layer._shards = [_EchoFreeShard(shard.host, layer) for shard in layer._shards]
        return layer


class _EchoFreeShard(RedisSingleShardConnection):
    def _receive_message(self, message):
        if message is not None:
            data = message["data"]
            if type(data) is bytes and _MARK in data:
                return  # published here: this process's sockets were told already
        super()._receive_message(message)


def drops_own_events(layer) -> bool:
    return isinstance(layer, EchoFreeLayer)
