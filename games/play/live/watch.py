"""A check that no socket stays behind its game for long.

A group event can be lost: Redis restarted between the commit and the send, or a slow
socket's channel overflowed. Every few seconds each process asks the database, in one
query, for the rev of every game its sockets watch, and a socket that is behind gets the
board it missed as if the event had come.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from games.models import Game
from games.play.live.db import in_db_thread

log = logging.getLogger(__name__)

CHECK_SECONDS = 3.0


class Watcher(Protocol):
    game_id: int
    rev: int

    async def game_update(self, event: dict) -> None: ...


_sockets: dict[int, set[Watcher]] = {}
_task: asyncio.Task | None = None
_also: list = []  # more checks of the same sockets, each ``async fn(sockets)``


def also(check: object) -> None:
    """Run ``check`` (an async callable given every watched socket) at each check too: a
    layer above this one (an arena's sockets waiting for their next game) heals its own
    lost events with the same beat."""
    if check not in _also:
        _also.append(check)


def add(socket: Watcher) -> None:
    """Watch ``socket`` until ``forget``; starts this process's check if it is not running."""
    global _task
    _sockets.setdefault(socket.game_id, set()).add(socket)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_check_forever(), name="tongits-socket-watch")


def forget(socket: Watcher) -> None:
    sockets = _sockets.get(getattr(socket, "game_id", None))
    if sockets is None:
        return
    sockets.discard(socket)
    if not sockets:
        del _sockets[socket.game_id]


async def _check_forever() -> None:
    while _sockets:
        await asyncio.sleep(CHECK_SECONDS)
        try:
            await check()
        except Exception:  # the database may be restarting: try again next time
            log.exception("The socket check failed.")


# The revs the previous check read: a socket is behind only if it has not reached the
# rev its game had then. A move committed a moment ago has its event on the way, and
# loading the game ahead of it would be work done twice at every busy table.
_seen: dict[int, int] = {}


async def check(*, now: bool = False) -> int:
    """Bring every socket that is behind its game since the previous check up to date
    (``now``: behind at all); return how many were."""
    global _seen
    if not _sockets:
        _seen = {}
        return 0
    revs = await in_db_thread(_revs)(list(_sockets))
    due, _seen = (revs if now else _seen), revs
    behind = [
        (socket, game_id, revs[game_id])
        for game_id, sockets in list(_sockets.items())
        for socket in list(sockets)
        if due.get(game_id, -1) > socket.rev
    ]
    for socket, game_id, rev in behind:
        await _update(socket, {"type": "game.update", "game": game_id, "rev": rev})
    if _also:
        every = [socket for sockets in list(_sockets.values()) for socket in list(sockets)]
        for more in _also:
            await more(every)
    return len(behind)


async def _update(socket: Watcher, event: dict) -> None:
    try:
        await socket.game_update(event)
    except Exception:  # a socket closing as we speak: its disconnect forgets it
        log.warning("Could not bring a socket of game %s up to date.", socket.game_id)


def tell(game_id: int, event: dict) -> None:
    """Hand ``event`` to this process's sockets of the game, on the event loop, as if the
    channel layer had brought it (a layer that does not bring a process its own events,
    games/play/live/layer.py)."""
    sockets = _sockets.get(game_id)
    if sockets:
        task = asyncio.get_running_loop().create_task(_tell_each(list(sockets), event))
        _telling.add(task)
        task.add_done_callback(_telling.discard)


_telling: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


async def _tell_each(sockets: list[Watcher], event: dict) -> None:
    for socket in sockets:
        await _update(socket, event)


def _revs(game_ids: list[int]) -> dict[int, int]:
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "rev"))
