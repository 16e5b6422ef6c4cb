"""What play tells the capabilities above it, without importing them: a game's end and
the server clock's tick. An app above play (tournaments, fair play) registers its callables here
from its ``AppConfig.ready``; play calls them.

- ``on_finish(fn)``: ``fn(game_id, seats, outcome, now, rated)`` runs in the transaction
  of the game's last move, under its row lock (keep it to a query or two; an error rolls
  the move back, as any bookkeeping of the end does). ``rated``: the table was rated and
  played here (not uploaded), as the game's row says.
- ``on_move(fn)``: ``fn(game, seats, now)`` runs in the transaction of every move, under
  the game's row lock, with the game's row as the move left it (``turn_seconds``,
  ``turn_seat``, ``seq``, ``status``) and its seats: keep it to no query for a live table
  (the correspondence tables queue their "your turn" after the commit).
- ``on_due(fn)``: ``fn(game_id, turn_seconds, now)`` is asked by the server clock before it
  moves for a game that fell due; True holds the move (the correspondence tables' vacation
  moved its deadline on). Keep it to no query for a live table.
- ``on_tick(fn)``: ``fn(now)`` runs on every server clock tick, after the due moves, in
  the clock's thread; an error is logged and the clock goes on.
- ``on_voided(fn)``: ``fn(game_ids)`` runs after fair play voided these finished games
  (tournaments make their standings again without them).
- ``on_sharing(fn)``: ``fn(user_ids)`` says which pairs of these accounts share a network
  address or a device, as ``[(low id, high id, (why, …)), …]`` (fair play answers). Play
  asks ``shared`` when people sit at a rated table; an arena's pairing asks ``veto``.
  With nobody registered, nobody shares anything.
- ``on_watch(fn)``: ``fn(game_id, user, session)`` says whether ``user`` may watch a
  private game without a seat at it (and replay it once it is over), which play and its
  tables cannot tell: a private tournament's game, to whoever may see the tournament
  (``session``: the browser's, where an invite link it opened is kept; may be None).
  With nobody registered, nobody may.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from itertools import combinations

log = logging.getLogger(__name__)

_finish: list[Callable] = []
_move: list[Callable] = []
_due: list[Callable] = []
_tick: list[Callable] = []
_sharing: list[Callable] = []
_voided: list[Callable] = []
_watch: list[Callable] = []


def on_finish(fn: Callable) -> None:
    if fn not in _finish:
        _finish.append(fn)


def on_move(fn: Callable) -> None:
    if fn not in _move:
        _move.append(fn)


def on_due(fn: Callable) -> None:
    if fn not in _due:
        _due.append(fn)


def on_tick(fn: Callable) -> None:
    if fn not in _tick:
        _tick.append(fn)


def on_voided(fn: Callable) -> None:
    if fn not in _voided:
        _voided.append(fn)


def on_sharing(fn: Callable) -> None:
    if fn not in _sharing:
        _sharing.append(fn)


def on_watch(fn: Callable) -> None:
    if fn not in _watch:
        _watch.append(fn)


def shared(user_ids: Iterable[int]) -> list[tuple[int, int, tuple[str, ...]]]:
    """The pairs of these accounts that share an address or a device (see on_sharing)."""
    ids = list(user_ids)
    found: dict[tuple[int, int], set[str]] = {}
    for fn in _sharing:
        for a, b, why in fn(ids):
            found.setdefault((a, b), set()).update(why)
    return [(a, b, tuple(sorted(why))) for (a, b), why in sorted(found.items())]


def veto(user_ids: Iterable[int]) -> Callable[[Sequence[int]], bool]:
    """A function that says whether a group of these accounts must not sit together at a
    rated table (two of them share an address or a device); asked once, now."""
    apart = {frozenset((a, b)) for a, b, _why in shared(user_ids)}

    def vetoed(group: Sequence[int]) -> bool:
        return any(frozenset(two) in apart for two in combinations(group, 2))

    return vetoed


def finished(game_id: int, seats, outcome, now: datetime, rated: bool) -> None:
    for fn in _finish:
        fn(game_id, seats, outcome, now, rated)


def moved(game, seats, now: datetime) -> None:
    for fn in _move:
        fn(game, seats, now)


def held_back(game_id: int, turn_seconds: int, now: datetime) -> bool:
    """Whether a registered app holds back the clock's move for this due game (see on_due)."""
    return any(fn(game_id, turn_seconds, now) for fn in _due)


def ticked(now: datetime) -> None:
    for fn in _tick:
        try:
            fn(now)
        except Exception:
            log.exception("A server clock hook (%s) failed.", getattr(fn, "__qualname__", fn))


def voided(game_ids: list[int]) -> None:
    for fn in _voided:
        fn(game_ids)


def may_watch(game_id: int, user, session=None) -> bool:
    """Whether ``user`` may watch private game ``game_id`` without a seat (see on_watch)."""
    return any(fn(game_id, user, session) for fn in _watch)
