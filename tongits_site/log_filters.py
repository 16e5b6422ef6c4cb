"""Log records made plainer before they are written."""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

LAYER_DOWN = (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError)


class RedisHiccup(logging.Filter):
    """channels_redis's pub/sub receiver logs a whole traceback at ERROR when its
    connection to Redis drops (a restart, a failover), then reconnects by itself a second
    later; the sockets catch up meanwhile (games/live/watch.py). One line at WARNING
    says all of that; any other error it logs stays as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, LAYER_DOWN):
            record.msg = f"{record.getMessage()} (Redis connection: {exc}); reconnecting"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
