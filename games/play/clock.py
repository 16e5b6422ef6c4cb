"""The server clock: no game waits forever.

Bots move after a short pause and a person whose turn clock runs out is played for
(``server_moves.play_due`` makes each such move); once away, their turns are played when each
turn clock runs out, never at a bot's pace. Something has to call it when a game falls
due: ``clock_loop`` ticks four times a second. Several clocks may run at once (one in each
ASGI worker, and ``manage.py clock``): ``play_due`` locks the game row and checks ``due_at``
again, so a move is never made twice.

Starting with the process. Daphne sends no ASGI lifespan events, so the ASGI module calls
``start_with_process`` when it is loaded: the clock is started on Daphne's event loop as
soon as its Twisted reactor runs (``callWhenRunning``), before any connection, so bots and
away seats move after a restart even if nobody comes back. A server that loads the
application inside its running event loop gets the clock at once; ``ClockStarter`` starts
it on the first connection as a last resort. ``TONGITS_CLOCK_IN_WORKERS`` switches all of
this off.

Its own thread. A tick runs on a thread of its own, not on the one thread that Channels
shares between every socket's database work: a slow tick does not hold up the sockets, and
busy sockets do not make the clock late. The thread's connection is closed (or handed back
to the pool) after every tick.

Downtime and starvation. Every tick records a beat in the shared ``ClockBeat`` row. When
no clock ran for a while, nobody could act, so turn clocks that ran meanwhile must not be
enforced. The rule, checked under the beat row's lock:

- Downtime: the last beat of any clock is older than ``DOWNTIME`` (or there is none), and
  this process's clock was not running all along: it has just started, or its last tick
  failed (the database was out of reach, so nobody could move either).
- Starvation: this process's clock has ticked before and its last tick succeeded, but it
  comes late because the process was busy. The site was up and people could act, so this
  is not downtime and the deadlines that passed are enforced as usual. (A process paused
  as a whole, by a debugger or a suspended machine, also counts as starved: from inside it
  that cannot be told apart.)

After downtime every person whose turn clock was running gets back the time that was left
on it when the last beat was made (``due_at`` minus that beat, or a full turn if the turn
began after it or no clock ever beat): the new deadline is now plus that, but at least
``DOWNTIME_GRACE`` (time to reconnect) and at most a full turn. Bots and away seats are
not waited for: their moves simply happen.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from games.models import ClockBeat, Game, Seat
from games.play import after_game, first_board, hooks, server_moves, telling
from games.play.live import collector, lag, thinking
from games.play.live.db import in_db_thread, thread_pool

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
RETRY_SECONDS = 1.0  # after a tick failed
BEAT_NAME = "worker"
# No beat for this long means no clock ran: the site was down or restarting (see above).
DOWNTIME = timedelta(seconds=5)
# After downtime a person has at least this long left: enough to reconnect and look.
DOWNTIME_GRACE = timedelta(seconds=10)
# A tick makes at most this many moves, so it stays short and the beats regular; the rest
# wait a quarter of a second.
MOVES_PER_RUN = 50
# A game whose move failed is left alone this long, so a broken game cannot fill the log
# four times a second.
FAILURE_BACKOFF = timedelta(seconds=5)

# game id -> (its seq when its move failed, when to try again)
_failed: dict[int, tuple[int, datetime]] = {}
# When this process's clock last beat, if its last tick succeeded: proof that the process
# was up since, so a late tick is starvation, not downtime.
_own_beat: datetime | None = None


def run_due(
    now: datetime | None = None,
    *,
    limit: int = MOVES_PER_RUN,
    think: Callable[[server_moves.Thinking], None] | None = None,
) -> int:
    """Make every move the server owes at ``now`` (bots whose pause has passed, people
    whose turn clock ran out), at most ``limit``; return how many were made.

    With ``think``, a Hard bot's move is handed to it to think out elsewhere (the clock
    loop's ``start_thinking``) rather than waited for here."""
    now = now or timezone.now()
    made = 0
    done: set[int] = set()  # games with nothing more to do in this run
    while made < limit:
        due = _due_games(now, limit, exclude=done)
        if not due:
            break
        for game_id, seq, seconds in due:
            if made >= limit:
                break
            if hooks.held_back(game_id, seconds, now):  # a vacation moved its clock on
                done.add(game_id)
                continue
            if _play(game_id, seq, now, think):
                made += 1
            else:
                done.add(game_id)
    return made


def _due_games(now: datetime, limit: int, exclude: set[int]) -> list[tuple[int, int, int]]:
    # Ids only, without locks: play_due takes the lock and checks again, so a game that
    # another clock has just played is skipped there.
    # A waiting table is due when it has a deadline for its open seats (a rematch).
    playing = Q(status__in=[Game.Status.PLAYING, Game.Status.WAITING])
    games = Game.objects.filter(playing, due_at__lte=now)
    games = games.exclude(pk__in=exclude)
    # Index (status, due_at): only the rows already due are read, however many
    # correspondence games wait days for their people (bench.correspondence times it).
    return first_board.due(games, now, limit)


def _play(
    game_id: int, seq: int, now: datetime, think: Callable[[server_moves.Thinking], None] | None
) -> bool:
    failed = _failed.get(game_id)
    if failed is not None and failed[0] == seq and now < failed[1]:
        return False
    try:
        if seq == 0 and after_game.fill_due(game_id, now):
            return True  # dealt: its first move falls due later
        if think is None:
            result = server_moves.play_due(game_id, now)
        else:
            result = server_moves.play_due(game_id, now, defer_thinking=True)
    except Exception:
        log.exception("The server clock could not move for game %s at move %s.", game_id, seq)
        _failed[game_id] = (seq, now + FAILURE_BACKOFF)
        return False
    _failed.pop(game_id, None)
    if isinstance(result, server_moves.Thinking):
        think(result)  # the move comes later; the game is not due meanwhile
        return False
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


def is_downtime(previous: datetime | None, now: datetime) -> bool:
    """No clock anywhere beat for ``DOWNTIME`` and this process's clock was not running
    all along (see the module's docstring)."""
    nobody_beat = previous is None or now - previous > DOWNTIME
    return nobody_beat and _own_beat is None


def keep_turn_clocks(previous: datetime | None, now: datetime) -> int:
    """Give every person whose turn clock ran while no clock did the time that was left
    on it at the last beat ``previous``, from ``now``; return how many clocks changed."""
    person_to_move = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("turn_seat"), bot_kind="", away=False
    )
    running = Game.objects.filter(
        Exists(person_to_move), status=Game.Status.PLAYING, due_at__isnull=False
    ).values_list("pk", "seq", "turn_seconds", "turn_started_at", "due_at")
    kept = 0
    for game_id, seq, seconds, started, due_at in running:
        turn = timedelta(seconds=seconds)
        due = now + time_left(previous, started, due_at, turn)
        kept += _move_deadline(game_id, seq, due_at, due, due - turn)
    return kept


def time_left(
    previous: datetime | None, started: datetime | None, due_at: datetime, turn: timedelta
) -> timedelta:
    """What was left of a turn clock when the clocks stopped at ``previous``: the whole turn
    if it began after that (or no clock ever beat), at least ``DOWNTIME_GRACE``."""
    stopped = max(t for t in (previous, started, due_at - turn) if t is not None)
    return min(turn, max(DOWNTIME_GRACE, due_at - stopped))


def _move_deadline(
    game_id: int, seq: int, was: datetime, due_at: datetime, started: datetime
) -> int:
    # Only if the game has not moved since it was listed: a move sets its own clock. The
    # turn's start moves with the deadline: a person's next deadline in the same turn (after
    # drawing) is counted from it.
    changed = Game.objects.filter(pk=game_id, seq=seq, due_at=was).update(
        turn_started_at=started, due_at=due_at, rev=F("rev") + 1
    )
    if changed:
        rev = Game.objects.values_list("rev", flat=True).get(pk=game_id)
        transaction.on_commit(lambda: telling.notify_game(game_id, rev), robust=True)
    return changed


def tick(
    now: datetime | None = None, think: Callable[[server_moves.Thinking], None] | None = None
) -> int:
    """One beat of the clock: after downtime give people back their turn clocks, then make
    the moves that are due. Returns how many moves were made."""
    global _own_beat
    now = now or timezone.now()
    try:
        # One transaction: a failed tick leaves the beat as it was, so the next tick still
        # sees the downtime; and a second clock waits on the beat row until this is done.
        with transaction.atomic():
            previous = beat(now)
            if is_downtime(previous, now):
                kept = keep_turn_clocks(previous, now)
                if kept:
                    log.info("No clock ran since %s: kept %s turn clocks.", previous, kept)
        _own_beat = now
        made = run_due(now, think=think)
        hooks.ticked(now)  # tournaments pair their waiting people (games.play.hooks)
        return made
    except Exception:
        _own_beat = None  # the database may be out of reach: nobody can move meanwhile
        raise


# --- The loop -----------------------------------------------------------------------------

_task: asyncio.Task | None = None


async def clock_loop(*, interval: float = TICK_SECONDS, ticks: int | None = None) -> None:
    """Tick every ``interval`` seconds, forever (or ``ticks`` times, for tests)."""
    log.info("The server clock is running.")
    loop = asyncio.get_running_loop()
    # Its own thread (see the module's docstring); in_db_thread closes the thread's
    # database connection after each tick, and the moves' notifications still reach this
    # event loop's channel layer.
    run_tick = in_db_thread(tick, executor=thread_pool("clock", 1))

    def think(job: server_moves.Thinking) -> None:  # called on the clock's thread
        loop.call_soon_threadsafe(start_thinking, job)

    count = 0
    while ticks is None or count < ticks:
        started, pause = loop.time(), interval
        try:
            await run_tick(think=think)
        except Exception:  # the clock must outlive any one bad tick (a database restart)
            log.exception("A server clock tick failed.")
            pause = max(interval, RETRY_SECONDS)  # a database that is down, logged once a second
        count += 1
        await asyncio.sleep(max(0.0, pause - (loop.time() - started)))


# --- Hard bots: thinking away from the sockets ---------------------------------------------

# (game id, seq) of each thought under way in this process, and its task (the event loop
# holds tasks only weakly).
_thinking: dict[tuple[int, int], asyncio.Task] = {}


def start_thinking(job: server_moves.Thinking) -> None:
    """On the event loop: think out ``job``'s move in the thinkers' processes, then make it
    on the clock's thread. Neither the loop nor the sockets' threads do any of the work."""
    key = (job.game_id, job.seq)
    if key not in _thinking:
        _thinking[key] = asyncio.get_running_loop().create_task(_think_and_play(job, key))


async def _think_and_play(job: server_moves.Thinking, key: tuple[int, int]) -> None:
    try:
        try:
            if not thinking.started():  # starting the pool spawns processes: not on the loop
                await asyncio.to_thread(thinking.pool)
            future = thinking.submit(job.kind, job.view, job.seed)
            move = await asyncio.wait_for(asyncio.wrap_future(future), thinking.THINK_TIMEOUT)
        except Exception as e:  # too slow, or a broken pool: the game must not wait on it
            # The error's kind only: a bot's error message may name a card of the hand.
            log.warning(
                "Game %s: the bot's thought failed (%s); greedy moves.",
                job.game_id, type(e).__name__,
            )  # fmt: skip
            move = thinking.fallback(job.view)
        play = in_db_thread(server_moves.play_thought, executor=thread_pool("clock", 1))
        await play(job, move)
    except Exception:
        # The game falls due again when its lease ends, and another thought is started.
        log.exception("Game %s: could not make the bot's move %s.", job.game_id, job.seq + 1)
    finally:
        _thinking.pop(key, None)


def start_clock() -> asyncio.Task | None:
    """Start this process's clock on the running event loop unless it runs already; None
    while ``TONGITS_CLOCK_IN_WORKERS`` is off."""
    global _task
    collector.start()  # (only in a server that asked for it: tongits_site/serve.py)
    if not settings.TONGITS_CLOCK_IN_WORKERS:
        return None
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        # Kept in a global: the event loop holds tasks only weakly.
        _task = loop.create_task(clock_loop(), name="tongits-clock")
    return _task


def start_with_process() -> None:
    """Start the clock as soon as the server that loads the ASGI application serves.

    Daphne loads the application before its event loop runs and sends no lifespan events;
    its Twisted reactor runs that loop, so the clock is started when the reactor does.
    Nothing is installed here: a process with no reactor (a test, ``manage.py shell``) gets
    no clock from this.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:  # a server that loads its application inside its event loop
        loop.call_soon(start_clock)
        return
    # Looked up, never imported: importing it would install Twisted's default reactor.
    reactor = sys.modules.get("twisted.internet.reactor")
    loop = getattr(reactor, "_asyncioEventloop", None)  # Daphne's asyncio reactor
    if loop is not None:
        reactor.callWhenRunning(loop.call_soon_threadsafe, start_clock)


class ClockStarter:
    """ASGI middleware that starts this process's clock on a connection if it is not
    running yet: a last resort for a server where ``start_with_process`` found no way in."""

    def __init__(self, app) -> None:
        self.app = app
        self.task: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        self.task = start_clock() or self.task
        lag.start()  # (off unless TONGITS_LAG_LOG)
        collector.start()
        return await self.app(scope, receive, send)
