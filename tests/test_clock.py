"""The server clock: turn deadlines, away seats, downtime and starvation, clocks racing each
other, and the clock's own thread.

Tests drive the clock by hand with a chosen ``now``. Bots have no pause here (conftest),
so a bot's move is due the moment its turn starts; ``run_due(now, limit=1)`` steps one move.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.utils import timezone

from games.engine import seat_view
from games.engine.moves import DISCARD
from games.models import ClockBeat, Game, Seat
from games.play import actions, clock, errors, first_board, server_moves, telling
from games.play import moves as play_moves
from games.play.live import snapshots
from games.play.live.news import apply_news
from tests.table.support import fields
from tests.threads import race

pytestmark = pytest.mark.django_db

# Seed 1 deals to seat 0 (who moves first); seed 2 deals to seat 1.
ALICE_FIRST, BOT_FIRST = 1, 2


@pytest.fixture(autouse=True)
def a_fresh_process():
    """No failures remembered, and this process's clock has not beaten yet."""
    clock._failed.clear()
    clock._own_beat = None
    yield
    clock._failed.clear()
    clock._own_beat = None


def fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def step_until_turn_of(game: Game, index: int, *, limit: int = 200, at=None) -> None:
    """Let the clock make one move at a time until a new turn of ``index`` begins: each
    at ``at(game)`` (now by default; an away seat's turn is played when its clock ends)."""
    for _ in range(limit):
        game = fresh(game)
        last = game.moves.order_by("-seq").first()
        if game.turn_seat == index and (last is None or last.seat != index):
            return
        now = timezone.now() if at is None else at(game)
        assert clock.run_due(now, limit=1) == 1, "the clock stopped"
    raise AssertionError(f"seat {index} never got a turn")


def beat_at(when) -> None:
    ClockBeat.objects.update_or_create(name=clock.BEAT_NAME, defaults={"beat_at": when})


# --- A person's turn clock ----------------------------------------------------------------


def test_when_a_turn_clock_runs_out_the_seat_goes_away_and_its_turn_is_played(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=1)
    deadline = game.due_at

    assert clock.run_due(deadline - timedelta(milliseconds=1)) == 0
    made = clock.run_due(deadline)

    game = fresh(game)
    moves = list(game.moves.order_by("seq"))
    assert made == len(moves) >= 1
    assert seat(game, 0).away
    assert all(m.seat == 0 and m.by_server for m in moves)
    assert moves[-1].payload["type"] == DISCARD  # a whole, legal turn: it ends by discarding
    # Bob's clock starts now, and bob is not away.
    assert game.turn_seat == 1 and not seat(game, 1).away
    assert game.due_at == game.turn_started_at + timedelta(seconds=1)
    assert game.due_at > deadline


def test_a_person_is_waited_for_until_their_deadline(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=45)

    assert clock.run_due(timezone.now() + timedelta(seconds=44)) == 0
    assert fresh(game).seq == 0 and not seat(game, 0).away
    assert clock.run_due(timezone.now() + timedelta(seconds=46)) >= 1


def test_an_away_seat_is_played_by_greedy_until_its_person_acts(make_game, alice, monkeypatch):
    kinds = spy_on_bots(monkeypatch)
    game = make_game([alice, "random", "random"], seed=ALICE_FIRST, turn_seconds=60)
    clock.run_due(fresh(game).due_at, limit=1)
    assert seat(game, 0).away

    # The rest of her turn, both bots' turns, then hers when its clock ends.
    step_until_turn_of(game, 1, at=lambda g: g.due_at)
    step_until_turn_of(game, 0, at=lambda g: g.due_at)
    game = fresh(game)
    assert seat(game, 0).away
    assert all(row.by_server for row in game.moves.all())
    assert {kind for index, kind in kinds if index == 0} == {"greedy"}
    assert {kind for index, kind in kinds if index != 0} == {"random"}

    # She acts herself: she is back, and her own clock runs again.
    view = seat_view(play_moves.game_state(game), 0)
    play_moves.submit_move(game.pk, alice, view.legal[-1].to_dict())

    game = fresh(game)
    assert not seat(game, 0).away
    assert not game.moves.order_by("-seq").first().by_server
    if game.turn_seat == 0:
        assert game.due_at == game.turn_started_at + timedelta(seconds=60)
        assert clock.run_due(timezone.now()) == 0


def test_an_away_seats_turns_are_played_only_when_its_turn_clock_runs_out(make_game, alice):
    """Away, a seat was played at a bot's pace: twelve games left to the server were over
    in the time a person plays one. Now each of its turns waits for its turn clock."""
    game = make_game([alice, "random", "random"], seed=ALICE_FIRST, turn_seconds=30)
    deadline = fresh(game).due_at
    clock.run_due(deadline, limit=1)  # her clock ran out: she is away
    step_until_turn_of(game, 1, at=lambda g: deadline)  # the rest of that turn, at once
    step_until_turn_of(game, 0)  # the bots' turns, at their pace
    game = fresh(game)
    assert seat(game, 0).away and game.turn_seat == 0
    started, seq = game.turn_started_at, game.seq

    assert game.due_at == started + timedelta(seconds=30)
    assert clock.run_due(started + timedelta(seconds=29), limit=1) == 0
    assert fresh(game).seq == seq  # a person could still be thinking
    assert clock.run_due(started + timedelta(seconds=30), limit=1) == 1
    made = game.moves.get(seq=seq + 1)
    assert made.seat == 0 and made.by_server


def test_mark_back_stops_the_server_playing_for_an_away_seat(make_game, alice):
    game = make_game([alice, "greedy", "greedy"], seed=ALICE_FIRST, turn_seconds=60)
    clock.run_due(fresh(game).due_at, limit=1)
    assert seat(game, 0).away

    assert play_moves.mark_back(game.pk, alice) is True
    assert play_moves.mark_back(game.pk, alice) is False
    if fresh(game).turn_seat != 0:
        step_until_turn_of(game, 0)

    game = fresh(game)
    assert not seat(game, 0).away
    assert game.due_at == game.turn_started_at + timedelta(seconds=60)
    assert clock.run_due(timezone.now()) == 0
    assert fresh(game).turn_seat == 0


def test_a_move_sent_as_the_turn_clock_runs_out_still_brings_its_person_back(
    make_game, alice, bob, carol, monkeypatch
):
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=60)
    move = seat_view(play_moves.game_state(game), 0).legal[0]  # chosen on the board at seq 0
    # Her frame is on its way when the clock takes the game's lock first: it marks her
    # away and plays for her, so her frame arrives for a version that is gone.
    fired = [server_moves.play_due(game.pk, fresh(game).due_at)]

    with pytest.raises(errors.StaleMove):
        actions.perform(game.pk, alice, {**fields(move), "seq": "0"})

    # She acted, so the greedy bot must not go on playing her turn.
    game = fresh(game)
    assert fired[0] is not None and game.seq == 1
    assert not seat(game, 0).away
    assert game.due_at == game.turn_started_at + timedelta(seconds=60)
    assert clock.run_due(timezone.now()) == 0


def spy_on_bots(monkeypatch) -> list[tuple[int, str]]:
    """Record (seat, kind) of every move a bot chooses."""
    calls: list[tuple[int, str]] = []
    choose = server_moves.bots.choose

    def spy(kind, view, rng):
        calls.append((view.seat, kind))
        return choose(kind, view, rng)

    monkeypatch.setattr(server_moves.bots, "choose", spy)
    return calls


# --- Downtime -----------------------------------------------------------------------------


def overdue(game: Game, now, *, by: timedelta) -> None:
    """Pretend the turn clock ran out ``by`` ago while nothing watched it."""
    Game.objects.filter(pk=game.pk).update(
        due_at=now - by, turn_started_at=now - by - timedelta(seconds=game.turn_seconds)
    )


def test_after_downtime_overdue_turn_clocks_are_extended_not_enforced(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    overdue(game, now, by=timedelta(minutes=10))
    beat_at(now - timedelta(minutes=11))

    made = clock.tick(now)

    game = fresh(game)
    assert made == 0 and game.seq == 0
    assert not seat(game, 0).away
    assert game.turn_started_at == now
    assert game.due_at == now + timedelta(seconds=30)
    assert ClockBeat.objects.get().beat_at == now


def test_after_downtime_bots_and_away_seats_simply_move(make_game, alice, bob):
    bots_only = make_game(["greedy", "random", "greedy"], seed=3)
    away = make_game([alice, bob, "greedy"], seed=ALICE_FIRST, turn_seconds=30)
    now = timezone.now()
    Seat.objects.filter(game=away, index=0).update(away=True)
    overdue(away, now, by=timedelta(minutes=10))
    beat_at(now - timedelta(minutes=11))

    clock.tick(now)

    assert fresh(bots_only).seq >= 1
    assert fresh(away).seq >= 1


def test_the_first_clock_ever_counts_as_after_downtime(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    overdue(game, now, by=timedelta(minutes=1))
    assert not ClockBeat.objects.exists()

    assert clock.tick(now) == 0
    assert fresh(game).due_at == now + timedelta(seconds=30)


def test_without_downtime_overdue_turn_clocks_are_enforced(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    overdue(game, now, by=timedelta(seconds=1))
    beat_at(now - timedelta(seconds=1))

    made = clock.tick(now)

    assert made >= 1
    assert seat(game, 0).away
    assert fresh(game).seq == made


def went_down(game: Game, at, *, left: timedelta) -> None:
    """The last clock beat at ``at``, with ``left`` on the person's turn clock."""
    turn = timedelta(seconds=game.turn_seconds)
    Game.objects.filter(pk=game.pk).update(due_at=at + left, turn_started_at=at + left - turn)
    beat_at(at)


def test_after_a_restart_a_person_gets_back_the_time_that_was_left(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    went_down(game, now - timedelta(minutes=10), left=timedelta(seconds=12))

    assert clock.tick(now) == 0

    game = fresh(game)
    assert game.seq == 0 and not seat(game, 0).away
    assert game.due_at == now + timedelta(seconds=12)  # not a fresh 30 s
    # The turn's start moves too: her deadline after drawing is counted from it.
    assert game.turn_started_at == game.due_at - timedelta(seconds=30)


def test_a_turn_clock_still_running_after_downtime_keeps_what_it_had(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    # Down for 20 s with 25 s left: her old deadline (5 s from now) has not passed yet.
    went_down(game, now - timedelta(seconds=20), left=timedelta(seconds=25))

    clock.tick(now)

    assert fresh(game).due_at == now + timedelta(seconds=25)


def test_after_downtime_a_person_has_at_least_the_grace_to_reconnect(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    went_down(game, now - timedelta(minutes=1), left=timedelta(seconds=2))

    clock.tick(now)

    assert fresh(game).due_at == now + clock.DOWNTIME_GRACE


def test_a_clock_that_was_only_late_enforces_the_deadlines_that_passed(
    make_game, alice, bob, carol
):
    start = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    beat_at(start - timedelta(seconds=1))
    assert clock.tick(start) == 0

    # This process's clock was starved for a minute by a busy worker; the site was up.
    made = clock.tick(start + timedelta(minutes=1))

    assert made >= 1
    assert seat(game, 0).away and fresh(game).seq == made


def test_a_clock_whose_ticks_failed_counts_the_gap_as_downtime(
    make_game, alice, bob, carol, monkeypatch
):
    start = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    beat_at(start - timedelta(seconds=1))
    clock.tick(start)
    run_due = clock.run_due

    def database_away(now, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(clock, "run_due", database_away)
    with pytest.raises(DatabaseError):
        clock.tick(start + timedelta(seconds=1))
    monkeypatch.setattr(clock, "run_due", run_due)
    later = start + timedelta(minutes=1)

    assert clock.tick(later) == 0

    game = fresh(game)
    assert not seat(game, 0).away
    assert game.due_at > later


def test_a_clock_in_another_process_means_no_downtime_for_a_new_one(make_game, alice, bob, carol):
    now = timezone.now()
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    overdue(game, now, by=timedelta(seconds=3))
    beat_at(now - timedelta(seconds=1))  # another worker's clock, a second ago

    assert clock.tick(now) >= 1
    assert seat(game, 0).away


def test_a_beat_never_winds_the_clock_back(db):
    now = timezone.now()
    assert clock.beat(now) is None

    assert clock.beat(now - timedelta(seconds=5)) == now
    assert clock.beat(now + timedelta(seconds=1)) == now
    assert ClockBeat.objects.get().beat_at == now + timedelta(seconds=1)


# --- Several clocks, and failures ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_racing_clocks_make_each_due_move_once(make_game, alice, bob, carol):
    games = [make_game(["greedy", "random", "greedy"], seed=s) for s in (3, 4, 5)]
    person = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=30)
    now = timezone.now()
    overdue(person, now, by=timedelta(seconds=1))

    made = race(*[lambda: clock.run_due(now)] * 3)

    # Each bots' game owed one move at ``now`` (the next ones fall due after it), and the
    # person's game the rest of her turn (its clock ran out): no move was made twice.
    # SQLite has no row locks and refuses a second writer outright (the clock logs it and
    # moves on), so only PostgreSQL shows every move made.
    logged = {game.pk: list(game.moves.values_list("seq", flat=True)) for game in games}
    hers = list(person.moves.order_by("seq").values_list("seq", "seat"))
    counts = [n for n in made if isinstance(n, int)]
    assert all(isinstance(n, (int, DatabaseError)) for n in made), made
    assert all(seqs in ([], [1]) for seqs in logged.values())
    assert hers == [(seq, 0) for seq in range(1, len(hers) + 1)]
    # A clock refused by SQLite mid-run reports an error, not the moves it made before.
    stored = sum(len(seqs) for seqs in logged.values()) + len(hers)
    assert sum(counts) == stored if len(counts) == len(made) else sum(counts) <= stored
    if connection.vendor == "postgresql":
        assert len(counts) == 3 and sum(counts) == 3 + len(hers) and hers


def test_a_game_whose_move_fails_does_not_stop_the_others(make_game, monkeypatch, caplog):
    broken = make_game(["greedy", "greedy", "greedy"], seed=3)
    working = make_game(["greedy", "greedy", "greedy"], seed=4)
    play_due = server_moves.play_due

    def fail_for_broken(game_id, now=None):
        if game_id == broken.pk:
            raise RuntimeError("boom")
        return play_due(game_id, now)

    monkeypatch.setattr(server_moves, "play_due", fail_for_broken)
    now = timezone.now()

    with caplog.at_level(logging.ERROR, logger="games.play.clock"):
        assert clock.run_due(now, limit=1) == 1
        assert clock.run_due(now + timedelta(seconds=1), limit=1) == 1

    assert fresh(broken).seq == 0 and fresh(working).seq == 2
    # Logged once, not on every tick: the broken game waits out a backoff.
    assert len([r for r in caplog.records if "could not move" in r.getMessage()]) == 1


def test_run_due_makes_at_most_its_limit_of_moves(make_game):
    game = make_game(["greedy", "greedy", "greedy"], seed=3)

    assert clock.run_due(timezone.now() + timedelta(hours=1), limit=5) == 5
    assert fresh(game).seq == 5


@pytest.mark.django_db(transaction=True)
async def test_the_clock_loop_beats_and_plays_bots(make_game):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(make_game)(["greedy", "greedy", "greedy"], seed=3)

    await clock.clock_loop(interval=0, ticks=3)

    # database_sync_to_async, not the ORM's a-methods: it closes its connection after.
    seq = await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)()
    beats = await database_sync_to_async(ClockBeat.objects.filter(name=clock.BEAT_NAME).count)()
    assert seq >= 1 and beats == 1


def test_the_clock_command_can_tick_once(make_game, capsys):
    game = make_game(["greedy", "greedy", "greedy"], seed=3)

    call_command("clock", "--once")

    assert "move(s) made" in capsys.readouterr().out
    assert fresh(game).seq >= 1


async def test_the_clock_loop_outlives_a_failed_tick(monkeypatch, caplog):
    ticks = []

    def tick(think=None):
        ticks.append(1)
        if len(ticks) == 1:
            raise RuntimeError("the database went away")
        return 0

    monkeypatch.setattr(clock, "tick", tick)
    monkeypatch.setattr(clock, "RETRY_SECONDS", 0)

    with caplog.at_level(logging.ERROR, logger="games.play.clock"):
        await clock.clock_loop(interval=0, ticks=3)

    assert len(ticks) == 3
    assert "A server clock tick failed." in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_the_clock_ticks_while_the_sockets_database_thread_is_busy(make_game):
    from asgiref.sync import sync_to_async
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(make_game)(["greedy", "greedy", "greedy"], seed=3)
    release = threading.Event()
    # Holds the one thread that every socket's database work shares.
    busy = asyncio.ensure_future(sync_to_async(release.wait)(timeout=60))
    try:
        # A guard against hanging, not a speed target: queued behind the busy thread, the
        # clock would wait the whole minute.
        await asyncio.wait_for(clock.clock_loop(interval=0, ticks=2), timeout=30)
    finally:
        release.set()
        await busy

    seq = await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)()
    assert seq >= 1


# --- Starting with the process ------------------------------------------------------------


async def idle_clock():
    await asyncio.Event().wait()


async def test_a_server_that_loads_the_application_in_its_event_loop_starts_the_clock(
    settings, monkeypatch
):
    monkeypatch.setattr(clock, "clock_loop", idle_clock)
    settings.TONGITS_CLOCK_IN_WORKERS = True

    clock.start_with_process()
    await asyncio.sleep(0)

    task = clock._task
    try:
        assert task is not None and not task.done()
        assert clock.start_clock() is task  # one clock a process
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_no_clock_starts_with_the_process_while_the_setting_is_off(settings, monkeypatch):
    monkeypatch.setattr(clock, "_task", None)

    clock.start_with_process()
    await asyncio.sleep(0)

    assert settings.TONGITS_CLOCK_IN_WORKERS is False
    assert clock._task is None


# --- A person's first board -----------------------------------------------------------------


def test_the_clock_never_plays_for_a_person_whose_first_board_has_not_come(
    make_game, alice, bob, carol, settings
):
    """At a crowd's start pages take seconds to load: a person's turn clock waits for
    their socket's first board, at most TONGITS_FIRST_BOARD_GRACE from the deal."""
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=5)
    dealt = game.started_at

    assert clock.run_due(game.due_at + timedelta(seconds=1)) == 0  # no board: waited for
    game = fresh(game)
    assert game.seq == 0 and not seat(game, 0).away
    assert game.due_at == dealt + timedelta(seconds=30)  # looked at again at the grace's end

    # Her board comes 10 s after the deal: her turn clock starts then.
    arrived = dealt + timedelta(seconds=10)
    assert first_board.board_sent(game.pk, 0, now=arrived)
    game = fresh(game)
    assert game.turn_started_at == arrived and game.due_at == arrived + timedelta(seconds=5)
    assert not first_board.board_sent(game.pk, 0, now=arrived + timedelta(seconds=1))  # once
    assert clock.run_due(arrived + timedelta(seconds=4)) == 0
    assert clock.run_due(arrived + timedelta(seconds=5)) >= 1  # her own clock ran out
    assert seat(game, 0).away


def test_a_turns_clock_started_by_its_first_board_is_told_with_news_a_worker_uses(
    make_game, alice, bob, carol, settings, django_capture_on_commit_callbacks, monkeypatch
):
    """Every worker's sockets hear that the turn's clock started again: with its news they
    move their snapshot on (a crowd's every new game, in every worker), not load it."""
    if connection.vendor != "postgresql":
        pytest.skip("the clock's news comes with PostgreSQL's one statement")
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=5)
    snapshots.forget()
    snapshots.remember(snapshots.load_snapshot(game.pk))  # as a worker holds it
    told = []
    monkeypatch.setattr(telling, "notify_game", lambda *event: told.append(event))
    with django_capture_on_commit_callbacks(execute=True):
        assert first_board.board_sent(game.pk, 0, now=game.started_at + timedelta(seconds=10))
    [(game_id, rev, news)] = told
    moved = apply_news(game_id, rev, news)
    assert moved is not None and moved == snapshots.load_snapshot(game.pk)
    assert moved.due_at == game.started_at + timedelta(seconds=15)


def test_a_board_that_never_comes_is_waited_for_only_the_grace(
    make_game, alice, bob, carol, settings
):
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=5)
    assert clock.run_due(game.started_at + timedelta(seconds=29)) == 0
    assert clock.run_due(game.started_at + timedelta(seconds=30)) >= 1
    assert seat(game, 0).away  # played for, as any run-out clock


def test_a_board_after_the_grace_or_off_turn_changes_no_clock(
    make_game, alice, bob, carol, settings
):
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=5)
    due = game.due_at
    assert not first_board.board_sent(game.pk, 1)  # bob's board: not his turn
    assert fresh(game).due_at == due and seat(game, 1).board_at is not None
    late = game.started_at + timedelta(seconds=31)
    assert not first_board.board_sent(game.pk, 0, now=late)  # after the grace
    assert fresh(game).due_at == due


def test_bots_are_not_waited_for(make_game, alice, settings):
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    make_game(["greedy", alice, "greedy"], seed=ALICE_FIRST)
    assert clock.run_due(timezone.now(), limit=1) == 1  # the bot to move plays at once


def test_a_board_within_a_second_of_the_turn_leaves_the_clock_be(
    make_game, alice, bob, carol, settings
):
    settings.TONGITS_FIRST_BOARD_GRACE = 30
    game = make_game([alice, bob, carol], seed=ALICE_FIRST, turn_seconds=5)
    due, rev = game.due_at, game.rev
    soon = game.turn_started_at + first_board.SLACK / 2
    assert not first_board.board_sent(game.pk, 0, now=soon)
    game = fresh(game)
    assert game.due_at == due and game.rev == rev and seat(game, 0).board_at == soon
