"""Fair play and series pots (issue 49): every series has a pot, so the hands of every
series, casual and challenge series as much as rated ones, are scored, held and voided;
a pot taken beside a flagged partner is held on the series page as on the profile; voiding
a pair from the staff page makes the pots and the ratings again."""

from __future__ import annotations

import random

import pytest
from django_tasks_db.models import DBTaskResult

from games.fairplay import scoring
from games.fairplay.models import Pair, ScoredGame
from games.models import Game
from games.play import tables
from games.series import services as series
from games.series.models import Series
from games.social import services as social
from tests.fast_games import finish
from tests.test_social import befriend

pytestmark = pytest.mark.django_db


def pair_row(one, other) -> Pair:
    low, high = sorted([one.pk, other.pk])
    return Pair.objects.get(low_id=low, high_id=high)


def casual_series(alice, bob, ante: int = 1) -> Series:
    """A casual (unrated) public series: Alice, Bob and a greedy bot."""
    made = series.create_series(alice, ante=ante, others=("open", "greedy"))
    first = series.state(made).latest
    assert not first.rated
    tables.join_table(first.pk, bob)
    return Series.objects.get(pk=made.pk)


def play_hand(made: Series, people, seed: int) -> Game:
    """Deal the series' next hand if the last is over, and play it to its end."""
    st = series.state(Series.objects.get(pk=made.pk))
    if st.latest.is_over:
        for person in people:
            series.ready(made.pk, person)
    game = series.state(Series.objects.get(pk=made.pk)).latest
    return finish(game.pk, random.Random(seed))


# --- 1. Every series with a pot is scored -----------------------------------------------------


def test_a_casual_series_hand_of_two_people_queues_its_scoring_and_a_casual_table_does_not(
    alice, bob, django_capture_on_commit_callbacks
):
    queued = DBTaskResult.objects.filter(task_path__endswith="score_finished_game")
    made = casual_series(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_hand(made, (alice, bob), seed=1)
    assert not hand.rated
    assert [r.args_kwargs["args"] for r in queued] == [[hand.pk]]
    assert scoring.score_game(hand.pk) == 1
    assert pair_row(alice, bob).games == 1

    # A casual table outside any series has nothing riding on it: not queued, not scored.
    series.end(made.pk, alice)
    table = tables.create_table(alice, others=("open", "easy"))
    tables.join_table(table.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.pk)
    assert queued.count() == 1
    assert scoring.score_game(table.pk) == 0


def test_a_challenge_series_between_friends_is_scored(alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=2, bot_kind="easy")
    game = social.accept_challenge(bob, made.pk)
    assert not game.rated and not game.public
    finish(game.pk, random.Random(3))
    assert scoring.score_game(game.pk) == 1
    assert pair_row(alice, bob).games == 1


def test_the_command_scores_the_series_hands_not_scored_yet(alice, bob):
    from io import StringIO

    from django.core.management import call_command

    made = casual_series(alice, bob)
    hands = [play_hand(made, (alice, bob), seed=s) for s in (1, 2)]
    out = StringIO()
    call_command("fairplay_score", stdout=out)
    assert "Scored 2 games" in out.getvalue()
    assert set(ScoredGame.objects.values_list("game_id", flat=True)) == {h.pk for h in hands}
    assert pair_row(alice, bob).games == 2
