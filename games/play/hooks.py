"""What play tells the capabilities above it, without importing them: a game's end and
the server clock's tick. An app above play (tournaments, fair play) registers its callables here
from its ``AppConfig.ready``; play calls them.

- ``on_finish(fn)``: ``fn(game_id, seats, outcome, now)`` runs in the transaction of the
  game's last move, under its row lock (keep it to a query or two; an error rolls the move
  back, as any bookkeeping of the end does).
- ``on_tick(fn)``: ``fn(now)`` runs on every server clock tick, after the due moves, in
  the clock's thread; an error is logged and the clock goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

log = logging.getLogger(__name__)

_finish: list[Callable] = []
_tick: list[Callable] = []


def on_finish(fn: Callable) -> None:
    if fn not in _finish:
        _finish.append(fn)


def on_tick(fn: Callable) -> None:
    if fn not in _tick:
        _tick.append(fn)


def finished(game_id: int, seats, outcome, now: datetime) -> None:
    for fn in _finish:
        fn(game_id, seats, outcome, now)


def ticked(now: datetime) -> None:
    for fn in _tick:
        try:
            fn(now)
        except Exception:
            log.exception("A server clock hook (%s) failed.", getattr(fn, "__qualname__", fn))
