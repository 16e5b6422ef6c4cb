"""The Redis channel layer, with a connection pool that waits instead of failing.

redis-py's default pool raises ``MaxConnectionsError`` as soon as every connection is in
use. When a worker's sockets all close at once (a proxy restart, a mass disconnect),
each one's ``group_discard`` wants a connection at the same moment, and the ones that
fail leave their channels in the group. A blocking pool of a set size makes the burst
wait its turn (``timeout`` seconds at most) and bounds the connections each worker opens.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class PooledRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index: int) -> BlockingConnectionPool:
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
