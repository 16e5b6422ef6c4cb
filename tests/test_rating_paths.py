"""Ratings over random paths of rated games, fair play's voids and account deletions
(issue 46): the live ratings are always the pure step's over the games that count, a
deleted person's games keeping their place, and ``recompute_ratings`` gives the live
numbers after any such path (to 1e-9)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.fairplay import actions
from games.play import tables
from games.ratings import core, pages
from games.ratings.models import Rating, RatingChange
from tests.fast_games import finish
from tests.rated_games import rated_game
from tests.test_fairplay_actions import fair_play_staff, pair_of

pytestmark = pytest.mark.django_db
User = get_user_model()

PEOPLE = ("p0", "p1", "p2", "p3")
BOTS = ("easy", "hard")
CLOSE = 1e-9


def ratings_now() -> dict:
    """Every rating and every change row, keyed by the player (a deleted person by the id
    their account had)."""
    rows = {core._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    changes = {
        (game, seat): (person or bot, mu, sigma, games)
        for game, seat, person, bot, mu, sigma, games in RatingChange.objects.values_list(
            "game_id", "seat", "rating__person", "rating__bot_kind", "mu", "sigma", "games"
        )
    }
    return {"ratings": rows, "changes": changes}


def assert_close(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for key, value in want.items():
        for a, b in zip(got[key], value, strict=True):
            if isinstance(b, float):
                assert a == pytest.approx(b, abs=CLOSE, rel=0), key
            else:
                assert a == b, key


# --- A scenario ------------------------------------------------------------------------------


def test_deleting_a_rated_account_moves_no_rating_and_a_rebuild_keeps_its_games(
    alice, bob, settings
):
    """A deleted person's games keep their place in everyone's rating history: the live
    ratings do not move, and a rebuild gives them (before, Bob's rating rows went with his
    account, the games he played against bots only left every rebuild, so the Easy level's
    rating row vanished, and everyone he played with was rated as if he had never sat)."""
    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    rng = random.Random(4)
    for person, others in (
        (bob, ("easy", "easy")),
        (alice, ("open", "hard")),
        (bob, ("hard",) * 2),
    ):
        game = tables.create_table(person, others=others, rated=True)
        if "open" in others:
            tables.join_table(game.pk, bob)
        finish(game.pk, rng)
    before = ratings_now()
    gone = bob.pk

    bob.delete()

    assert ratings_now() == before  # nobody's rating moved, his rows stay as a tombstone
    assert Rating.objects.get(person=gone).user_id is None
    call_command("recompute_ratings", verbosity=0)
    assert_close(ratings_now()["ratings"], before["ratings"])
    assert_close(ratings_now()["changes"], before["changes"])
    assert Rating.objects.filter(bot_kind="easy").exists()


def test_a_deleted_persons_rating_is_listed_neither_as_a_person_nor_as_a_bot(bob):
    game = tables.create_table(bob, others=("easy", "easy"), rated=True)
    finish(game.pk, random.Random(5))

    bob.delete()

    board = pages.leaderboard()
    assert [r.name for r in board["bot_ratings"]] == ["Easy bot"]
    assert board["by_rating"] == []


# --- Random paths ----------------------------------------------------------------------------

GAME, VOID, DELETE = "game", "void", "delete"
OCCUPANT = st.sampled_from([*range(len(PEOPLE)), *BOTS])


def _step() -> st.SearchStrategy:
    game = st.tuples(
        st.just(GAME),
        st.lists(OCCUPANT, min_size=3, max_size=3),
        st.integers(0, 2),
        st.lists(st.integers(-20, 20), min_size=3, max_size=3),
    )
    void = st.tuples(st.just(VOID), st.integers(0, 3), st.integers(0, 3))
    delete = st.tuples(st.just(DELETE), st.integers(0, 3))
    return st.one_of(game, game, game, void, delete)


def _pure(made: list, voided: set[int]) -> dict:
    """The ratings the pure step gives over the games that count, in the order they were
    played: a person is keyed by their account's id, deleted or not."""
    skills: dict = {}
    for pk, keys, winner, chips in made:
        if pk in voided or not core._counts(keys):
            continue
        priors = {k: skills.get(k, core.NEW) for k in keys if k is not None}
        skills.update(core.rate(priors, keys, winner, chips))
    return {k: (s.mu, s.sigma, s.games) for k, s in skills.items()}


def _play(users: list, step: tuple, at) -> tuple | None:
    """One rated game of the step's seats, rated as the game service rates it; None if a
    person sits twice or is gone (deleted)."""
    _kind, seats, winner, chips = step
    people = [s for s in seats if isinstance(s, int)]
    if len(set(people)) != len(people) or any(users[p] is None for p in people):
        return None
    game_id, keys = rated_game(users, seats, winner, chips, at)
    return game_id, keys, winner, chips


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(_step(), min_size=1, max_size=16))
def test_recompute_equals_live_after_any_games_voids_and_deletions(steps):
    with transaction.atomic():
        warden = fair_play_staff("warden")
        users: list = [User.objects.create_user(name) for name in PEOPLE]
        made: list = []
        voided: set[int] = set()
        at = timezone.now()
        for n, step in enumerate(steps):
            if step[0] == GAME:
                played = _play(users, step, at + timedelta(seconds=n))
                made += [played] if played else []
            elif step[0] == VOID:
                one, other = users[step[1]], users[step[2]]
                if one is not None and other is not None and one != other:
                    voided |= set(actions.void_pair(warden, pair_of(one, other), "test").games)
            elif users[step[1]] is not None:
                users[step[1]].delete()
                users[step[1]] = None
        live = ratings_now()
        assert_close(live["ratings"], _pure(made, voided))

        core.recompute()

        rebuilt = ratings_now()
        assert_close(rebuilt["ratings"], live["ratings"])
        assert_close(rebuilt["changes"], live["changes"])
        transaction.set_rollback(True)
