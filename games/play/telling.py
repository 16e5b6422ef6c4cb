"""Telling sockets: what play sends after a change, never before its commit.

A change is told with ``transaction.on_commit`` (robust: a channel layer that is down never
turns a saved move into an error). A game's event carries only its id and revision: each
socket renders its own seat's view, so no rendered hand is ever sent to a group. The
groups: a game's (``game_group``), the lobby's, and a person's table sockets
(``person_tables_group``). ``_changed`` tells a change that is not a move (a seat taken, a
player back); ``_notify_previous_table`` tells the finished table whose next game this is.

Tests and the clock replace ``notify_game`` here by name: every module of play calls it as
``telling.notify_game``."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.models import Game
from games.play.live import publish, rows, watch
from games.play.live.layer import drops_own_events

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# The channel layer (Redis) went away, or did not answer in time.
LAYER_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def person_tables_group(user_id: int) -> str:
    """The channel group of one person's table sockets: the blocks they make (the chat)
    and an arena's next game (games/sockets/table.py) reach each of them."""
    return f"person-{user_id}-tables"


def notify_game(game_id: int, rev: int, news: dict[str, Any] | None = None) -> None:
    """Tell every socket of the game that it is now at ``rev``; each renders its own view
    (from its process's snapshot of that rev, loaded once for all of them). ``news`` is
    what a move changed, so that other processes need not load it (see
    ``games.play.live.news``)."""
    message = {"type": "game.update", "game": game_id, "rev": rev}
    if news is not None:
        message["news"] = news
    _tell(game_group(game_id), message, game_id)


def notify_group(group: str, message: dict) -> None:
    """Tell ``group`` (a person's own sockets, say) ``message`` after the commit, on the
    event loop's own Redis connection when it can (``publish``, echoed to this process's
    sockets too); never raises (see ``_tell``)."""
    transaction.on_commit(lambda: _tell(group, message, echo=True), robust=True)


def notify_lobby() -> None:
    """Tell the lobby's sockets that its list of tables changed."""
    _tell(LOBBY_GROUP, {"type": "lobby.update"})


def _tell(group: str, message: dict, game_id: int | None = None, *, echo: bool = False) -> None:
    """Send ``message`` to ``group``. Never raises: while the channel layer is down the
    event is dropped with a warning (the change itself is saved, and pages and sockets
    catch up by themselves)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is not None:
        # A database thread of a running server: the event loop sends it, and the thread
        # goes on to its next piece of work instead of waiting for Redis.
        loop.call_soon_threadsafe(_send_soon, layer, group, message, game_id, echo)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except LAYER_DOWN as e:
        _not_told(group, e)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that handed this thread its work (asgiref records it), if it is
    running and this is not its own thread."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None


_sending: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


def _send_soon(layer, group: str, message: dict, game_id: int | None, echo: bool = False) -> None:
    # A game's event is written at once, not waited for; this process's sockets of the
    # game hear it from here, not back from Redis. Any other (a person's, the lobby's) is
    # written at once too, and heard back. Through the layer's group_send each took the
    # layer's one lock for a round trip to Redis, which every socket's subscribe also
    # waits for: at a game end and a new table each, an overloaded worker (issue 52) had
    # 100 of them queued there ahead of the handshakes' subscribes.
    if game_id is not None and publish.publish(layer, group, message):
        if drops_own_events(layer):
            watch.tell(game_id, message)
        return
    if game_id is None and publish.publish(layer, group, message, echo=True):
        return
    task = asyncio.ensure_future(_send(layer, group, message))
    _sending.add(task)
    task.add_done_callback(_sending.discard)


async def _send(layer, group: str, message: dict) -> None:
    try:
        await layer.group_send(group, message)
    except LAYER_DOWN as e:
        _not_told(group, e)


def _not_told(group: str, error: Exception) -> None:
    # The move is saved; the table's sockets catch up by themselves within seconds
    # (games.play.live.watch), or get the whole board when they reconnect.
    log.warning("Could not tell %s of a change: %s", group, error)


def _notify_lobby_on_commit() -> None:
    transaction.on_commit(notify_lobby, robust=True)


# --- Changes that are not moves ----------------------------------------------------------


def _notify_previous_table(game: Game, *, forget: bool = False) -> None:
    """The finished table(s) whose next game this is show its seats as they are now
    (whoever came by the lobby or a link instead of its button); with ``forget``, they
    offer Play again anew (this table was called off before its deal).

    After the commit, in statements of their own: the caller holds this table's lock, and
    Play again locks the finished table first, then this one; taking the finished table's
    row here would take the two locks in the other order (a deadlock on PostgreSQL)."""
    game_id = game.pk

    def tell() -> None:
        # One statement: only the tables whose next game this still is (with ``forget``,
        # not one that Play again has meanwhile pointed at a newer table).
        for pk, rev in rows.bump_previous(game_id, forget=forget):
            notify_game(pk, rev)

    transaction.on_commit(tell, robust=True)


def _changed(game: Game) -> None:
    """A change watchers see that is not a move: a new rev, and the table told after the
    commit."""
    # In the database, not from the row in hand: the same transaction may have moved the
    # rev on already (the table before the next one, told of a seat taken there).
    # One statement, its new rev returned.
    game.rev = rows.bump_rev(game.pk)
    game_id, rev = game.pk, game.rev
    transaction.on_commit(lambda: notify_game(game_id, rev), robust=True)
