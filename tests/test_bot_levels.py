"""Bot levels on the server (issue 10): Easy, Normal and Hard seats, each deterministic from
the game's seed, and Hard bots thinking in processes of their own, not on the server's."""

from __future__ import annotations

import asyncio
import logging
import os
import random

import pytest
from django.utils import timezone

from games import bots
from games.bots import easy, greedy, search
from games.engine import apply, new_game, seat_view
from games.models import Game
from games.play import clock, server_moves
from games.play import moves as play_moves
from games.play.live import thinking

pytestmark = pytest.mark.django_db

SEED = "271828182845904523536028747135266249775"


def seeded(game: Game, seed: str = SEED) -> Game:
    """Give a test game the secret seed its bots' randomness comes from."""
    Game.objects.filter(pk=game.pk).update(seed=seed)
    game.refresh_from_db()
    return game


def fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game


def logged_moves(game: Game) -> list[tuple[int, dict]]:
    return list(game.moves.order_by("seq").values_list("seat", "payload"))


def test_the_easy_bot_is_greedy_that_sometimes_misses():
    views = []
    state = new_game(11)
    while state.outcome is None:
        view = seat_view(state, state.turn)
        views.append(view)
        state = apply(state, greedy.choose(view, random.Random(0)))
    choices = [
        (easy.choose(v, random.Random(i)), greedy.choose(v, random.Random(0)))
        for i, v in enumerate(views)
    ]

    missed = sum(mine != theirs for mine, theirs in choices)
    assert all(mine in v.legal for v, (mine, _) in zip(views, choices, strict=True))
    # Not every move (it is still greedy most of the time), but some.
    assert 0 < missed < len(views) * 0.6


def test_the_same_game_seed_gives_an_easy_bot_the_same_moves(make_game):
    games = [seeded(make_game(["easy", "easy", "easy"], seed=5)) for _ in range(2)]

    for game in games:
        for _ in range(30):
            server_moves.play_due(game.pk, timezone.now())

    first, second = (logged_moves(fresh(g)) for g in games)
    assert len(first) == 30 and first == second


def test_another_seed_gives_an_easy_bot_other_misses():
    a = [bots.bot_seed(SEED, seq, 1) for seq in range(5)]
    b = [bots.bot_seed(SEED + "1", seq, 1) for seq in range(5)]
    assert len(set(a)) == 5 and not set(a) & set(b)


def test_thinkers_run_in_another_process():
    pid = thinking.pool().submit(os.getpid).result(timeout=60)

    assert pid != os.getpid()


def test_thinkers_yield_the_cores_to_the_web_workers():
    # When the cores are busy the sockets are served first; a bot's thought may wait.
    niceness = thinking.pool().submit(os.nice, 0).result(timeout=60)

    assert niceness >= os.nice(0) + thinking.THINKER_NICE or niceness == 19


def test_a_hard_bot_makes_the_search_move_of_its_seed(make_game):
    game = seeded(make_game(["hard", "normal", "normal"], seed=2))
    hard = next(s.index for s in game.seats.all() if s.bot_kind == "hard")
    state = play_moves.game_state(game)
    while state.turn != hard:
        server_moves.play_due(game.pk, timezone.now())
        game = fresh(game)
        state = play_moves.game_state(game)
    view = seat_view(state, hard)
    expected = search.choose(view, random.Random(bots.bot_seed(SEED, game.seq, hard)))

    result = server_moves.play_due(game.pk, timezone.now())

    assert result is not None and result.payload == expected.to_dict()


def test_the_clock_hands_a_hard_bots_thought_on_and_the_game_waits_for_it(make_game):
    game = seeded(make_game(["hard", "hard", "hard"], seed=3))
    thoughts: list[server_moves.Thinking] = []
    now = timezone.now()

    made = clock.run_due(now, think=thoughts.append)

    game = fresh(game)
    assert made == 0 and game.seq == 0 and len(thoughts) == 1
    # Not due again while the bot thinks: another clock does not start the same thought.
    assert game.due_at >= now + server_moves.THINKING_LEASE
    assert clock.run_due(now, think=thoughts.append) == 0 and len(thoughts) == 1

    job = thoughts[0]
    move = thinking.choose(job.kind, job.view, job.seed)
    assert server_moves.play_thought(job, move) is not None
    # The same thought again (a second clock's, after the lease) changes nothing.
    assert server_moves.play_thought(job, move) is None
    assert fresh(game).seq == 1


def test_a_thought_that_fails_in_the_thinker_gives_greedys_move(make_game, caplog):
    """The clock's own loop fell back on greedy; ``tick`` (``manage.py clock --once``, the
    thinkers' synchronous path) did not, and a bot that raised was retried for ever."""
    game = seeded(make_game(["hard", "hard", "hard"], seed=3))
    state = play_moves.game_state(game)
    view = seat_view(state, state.turn)

    with caplog.at_level(logging.WARNING, logger="games.play.live.thinking"):
        move = thinking.choose("no-such-bot", view, 1)  # raises in the thinker

    assert move == thinking.fallback(view) == bots.choose("greedy", view, random.Random(0))
    # The log says what kind of error, never its message (which could name a card).
    [said] = [r.getMessage() for r in caplog.records if "greedy moves" in r.getMessage()]
    assert said.endswith("failed (ValueError): greedy moves instead."), said


def test_a_lost_thought_is_started_again_after_its_lease(make_game):
    seeded(make_game(["hard", "hard", "hard"], seed=3))
    thoughts: list[server_moves.Thinking] = []
    now = timezone.now()
    clock.run_due(now, think=thoughts.append)  # and the worker that took it stops

    clock.run_due(now + server_moves.THINKING_LEASE, think=thoughts.append)

    assert len(thoughts) == 2 and thoughts[0].view == thoughts[1].view
    assert thoughts[0].seed == thoughts[1].seed  # the same move will be made


@pytest.mark.django_db(transaction=True)
async def test_the_clock_loop_plays_hard_bots_through_the_thinkers(make_game):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(
        lambda: seeded(make_game(["hard", "hard", "hard"], seed=3))
    )()
    seq = database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)

    loop = asyncio.ensure_future(clock.clock_loop(interval=0.05))
    try:
        # A guard against hanging, not a speed target.
        async with asyncio.timeout(120):
            while await seq() < 2:
                await asyncio.sleep(0.1)
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
        for task in list(clock._thinking.values()):
            await asyncio.gather(task, return_exceptions=True)
    # A move already on its way to the database when the loop stopped (its thread is not
    # cancelled with the task) lands a moment later: the log is read once it has settled.
    last = await seq()
    while True:
        await asyncio.sleep(0.5)
        if (now := await seq()) == last:
            break
        last = now

    # Each move is the search's own from the seat's view and the game's seed.
    moves = await database_sync_to_async(lambda: logged_moves(fresh(game)))()
    state = await database_sync_to_async(
        lambda: play_moves.game_state(Game.objects.get(pk=game.pk))
    )()
    assert len(moves) >= 2
    replayed = new_game(3)
    for seq_before, (seat, payload) in enumerate(moves[:2]):
        view = seat_view(replayed, seat)
        move = search.choose(view, random.Random(bots.bot_seed(SEED, seq_before, seat)))
        assert move.to_dict() == payload
        replayed = apply(replayed, move)
    assert state.ply == len(moves)
