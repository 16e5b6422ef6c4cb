"""Bots on the server: the clock plays them, through the same log as people's moves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import replay
from games.models import Game
from games.play import clock, server_moves

pytestmark = pytest.mark.django_db

BOT_FIRST = 2  # seed 2 deals to seat 1, so the bots move before seat 0


def test_a_table_of_three_bots_plays_to_the_end_alone(make_game):
    game = make_game(["greedy", "random", "greedy"], seed=3)
    now = timezone.now()

    for _ in range(500):
        now += timedelta(seconds=2)
        clock.run_due(now, limit=1)
        game.refresh_from_db()
        if game.is_over:
            break

    assert game.status == Game.Status.FINISHED
    assert game.moves.filter(by_server=False).count() == 0
    result = replay(game.record())
    assert result.ok and len(result.applied) == game.seq
    assert (game.winner_seat, game.end) == (result.state.outcome.winner, result.state.outcome.end)
    assert game.chips == list(result.state.outcome.chips)


def test_bots_play_their_turns_and_then_wait_for_the_person(make_game, alice):
    game = make_game([alice, "greedy", "random"], seed=BOT_FIRST, turn_seconds=45)
    assert game.turn_seat == 1

    # A bot's next move falls due as its last one is made, so tick until nothing is owed.
    made = 0
    while moved := clock.run_due(timezone.now()):
        made += moved

    game.refresh_from_db()
    assert made >= 2 and game.seq == made
    assert game.turn_seat == 0
    assert set(game.moves.values_list("seat", flat=True)) == {1, 2}
    assert game.due_at == game.turn_started_at + timedelta(seconds=45)

    # Nothing is owed until her deadline; then the clock plays for her.
    assert clock.run_due(game.due_at - timedelta(seconds=1)) == 0
    assert clock.run_due(game.due_at) >= 1
    assert game.seats.get(index=0).away


def test_a_bot_moves_only_after_its_pause(make_game, settings):
    settings.TONGITS_BOT_PAUSE = (1.0, 1.0)
    game = make_game(["greedy", "greedy", "greedy"], seed=3)

    assert clock.run_due(game.due_at - timedelta(milliseconds=10)) == 0
    assert clock.run_due(game.due_at) == 1


def test_the_server_never_moves_in_a_finished_game(make_game):
    game = make_game(["greedy", "greedy", "greedy"], seed=3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    assert server_moves.play_due(game.pk, timezone.now() + timedelta(hours=1)) is None
    assert clock.run_due(timezone.now() + timedelta(hours=1)) == 0
