"""Log records made plainer before they are written."""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

LAYER_DOWN = (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError)


class RedisHiccup(logging.Filter):
    """channels_redis's pub/sub receiver logs a whole traceback at ERROR when its
    connection to Redis drops (a restart, a failover), then reconnects by itself a second
    later; the sockets catch up meanwhile (games/play/live/watch.py). One line at WARNING
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


# A refusal's reason is a sentence; anything longer is cut here.
REASON_CHARS = 200


class RefusalsInOneLine(logging.Filter):
    """Django logs a 403 (PermissionDenied), a 400 from a bad request and every
    SuspiciousOperation (a refused admin lookup, a bad Host) with the exception's whole
    traceback, the last at ERROR. Those are what a visitor sent, not what the site got
    wrong: one WARNING line says the status, method, path and reason. The path only, never
    the query string, which may hold a token or a guess at a secret. 5xx keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        request = getattr(record, "request", None)
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or request is None or not isinstance(status, int):
            return True
        if not 400 <= status < 500:
            return True
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if len(reason) > REASON_CHARS:
            reason = reason[:REASON_CHARS] + "…"
        record.msg = "%s %s %s: %s"
        record.args = (status, request.method, _escaped(request.path), _escaped(reason))
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _escaped(text: str) -> str:
    # As Django escapes what it logs of a request: a newline in a path is no second line.
    return text.encode("unicode_escape").decode("ascii")
