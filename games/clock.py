"""The server clock: no game waits forever.

Bots move after a short pause and a person whose turn clock runs out is played for
(``services.play_due`` makes each such move). Something has to call it when a game falls
due: each ASGI worker runs ``clock_loop`` as a background task (started by
``ClockStarter`` on the process's first connection), and ``manage.py clock`` runs the same
loop on its own. Several clocks may run at once: ``play_due`` locks the game row and checks
``due_at`` again, so a move is never made twice.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games import services
from games.models import ClockBeat, Game, Seat

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
RETRY_SECONDS = 1.0  # after a tick failed
BEAT_NAME = "worker"
# A beat older than this means no clock ran for a while (the site was down or restarting):
# turn deadlines that passed meanwhile were nobody's fault, so they are extended.
DOWNTIME = timedelta(seconds=5)
# All database work of one Channels process shares one thread with the pages and sockets,
# so a tick makes at most this many moves; the rest wait a quarter of a second.
MOVES_PER_RUN = 50
# A game whose move failed is left alone this long, so a broken game cannot fill the log
# four times a second.
FAILURE_BACKOFF = timedelta(seconds=5)

# game id -> (its seq when its move failed, when to try again)
_failed: dict[int, tuple[int, datetime]] = {}


def run_due(now: datetime | None = None, *, limit: int = MOVES_PER_RUN) -> int:
    """Make every move the server owes at ``now`` (bots whose pause has passed, people
    whose turn clock ran out), at most ``limit``; return how many were made."""
    now = now or timezone.now()
    made = 0
    done: set[int] = set()  # games with nothing more to do in this run
    while made < limit:
        due = _due_games(now, limit, exclude=done)
        if not due:
            break
        for game_id, seq in due:
            if made >= limit:
                break
            if _play(game_id, seq, now):
                made += 1
            else:
                done.add(game_id)
    return made


def _due_games(now: datetime, limit: int, exclude: set[int]) -> list[tuple[int, int]]:
    # Ids only, without locks: play_due takes the lock and checks again, so a game that
    # another clock has just played is skipped there.
    games = Game.objects.filter(status=Game.Status.PLAYING, due_at__lte=now)
    games = games.exclude(pk__in=exclude)
    return list(games.order_by("due_at").values_list("pk", "seq")[:limit])


def _play(game_id: int, seq: int, now: datetime) -> bool:
    failed = _failed.get(game_id)
    if failed is not None and failed[0] == seq and now < failed[1]:
        return False
    try:
        result = services.play_due(game_id, now)
    except Exception:
        log.exception("The server clock could not move for game %s at move %s.", game_id, seq)
        _failed[game_id] = (seq, now + FAILURE_BACKOFF)
        return False
    _failed.pop(game_id, None)
    return result is not None


# --- Beats and downtime -------------------------------------------------------------------


def beat(now: datetime) -> datetime | None:
    """Record that a clock runs at ``now``; return the previous beat (None: the first)."""
    with transaction.atomic():
        row = ClockBeat.objects.select_for_update().filter(name=BEAT_NAME).first()
        if row is None:
            try:
                with transaction.atomic():
                    ClockBeat.objects.create(name=BEAT_NAME, beat_at=now)
            except IntegrityError:  # another clock beat first: it is not downtime
                return now
            return None
        previous = row.beat_at
        if previous < now:  # a clock given a time in the past never winds the beat back
            row.beat_at = now
            row.save(update_fields=["beat_at"])
        return previous


def extend_deadlines(now: datetime) -> int:
    """Give every person whose turn clock ran out while no clock ran a fresh turn clock
    from ``now``; return how many turns were extended. Bots and away seats are not
    waited for: their moves simply happen."""
    person_to_move = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("turn_seat"), bot_kind="", away=False
    )
    overdue = Game.objects.filter(
        Exists(person_to_move), status=Game.Status.PLAYING, due_at__lte=now
    ).values_list("pk", "seq", "turn_seconds")
    extended = 0
    for game_id, seq, seconds in overdue:
        extended += _extend(game_id, seq, now, now + timedelta(seconds=seconds))
    return extended


def _extend(game_id: int, seq: int, now: datetime, due_at: datetime) -> int:
    # Only if the game has not moved since it was listed: a move sets its own clock.
    with transaction.atomic():
        changed = Game.objects.filter(pk=game_id, seq=seq, due_at__lte=now).update(
            turn_started_at=now, due_at=due_at, rev=F("rev") + 1
        )
        if changed:
            rev = Game.objects.values_list("rev", flat=True).get(pk=game_id)
            transaction.on_commit(lambda: services.notify_game(game_id, rev), robust=True)
    return changed


def tick(now: datetime | None = None) -> int:
    """One beat of the clock: extend deadlines if no clock ran for a while, then make the
    moves that are due. Returns how many moves were made."""
    now = now or timezone.now()
    previous = beat(now)
    if previous is None or now - previous > DOWNTIME:
        extended = extend_deadlines(now)
        if extended:
            log.info("No clock ran since %s: extended %s turn clocks.", previous, extended)
    return run_due(now)


# --- The loop -----------------------------------------------------------------------------


async def clock_loop(*, interval: float = TICK_SECONDS, ticks: int | None = None) -> None:
    """Tick every ``interval`` seconds, forever (or ``ticks`` times, for tests)."""
    log.info("The server clock is running.")
    loop = asyncio.get_running_loop()
    count = 0
    while ticks is None or count < ticks:
        started, pause = loop.time(), interval
        try:
            await database_sync_to_async(tick)()
        except Exception:  # the clock must outlive any one bad tick (a database restart)
            log.exception("A server clock tick failed.")
            pause = max(interval, RETRY_SECONDS)  # a database that is down, logged once a second
        count += 1
        await asyncio.sleep(max(0.0, pause - (loop.time() - started)))


class ClockStarter:
    """ASGI middleware that starts this process's clock on its first connection of any
    kind, if ``TONGITS_CLOCK_IN_WORKERS`` is on then. Daphne sends no lifespan events, so
    the first connection is the first moment a running event loop is at hand."""

    def __init__(self, app) -> None:
        self.app = app
        self.task: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        if settings.TONGITS_CLOCK_IN_WORKERS and (self.task is None or self.task.done()):
            # Keep a reference: the event loop holds tasks only weakly.
            self.task = asyncio.create_task(clock_loop(), name="tongits-clock")
        return await self.app(scope, receive, send)
