"""Live and correspondence ratings over random paths of games of both kinds (hypothesis):
each category's ratings are an openskill computation, made here on its own and apart from
games.ratings.core, over that category's games only, in the order they were played; and
``recompute`` gives the live numbers again, category by category (to 1e-9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.ratings import core
from games.ratings.models import CORRESPONDENCE, LIVE, Rating, RatingChange
from tests.rated_games import rated_game

pytestmark = pytest.mark.django_db
User = get_user_model()

PEOPLE = ("p0", "p1", "p2")
BOTS = ("easy", "hard")
TURNS = (45, 60, 3600, 12 * 3600, 3 * 86400)  # live below an hour, correspondence from it
CLOSE = 1e-9

GAME = st.tuples(
    st.lists(st.sampled_from([*range(len(PEOPLE)), *BOTS]), min_size=3, max_size=3),
    st.integers(0, 2),  # the winner's seat
    st.lists(st.integers(-20, 20), min_size=3, max_size=3),  # net chips
    st.sampled_from(TURNS),
)


def openskill_alone(games: list[tuple]) -> dict:
    """The ratings openskill's Plackett-Luce gives over ``games`` (keys of the seats, the
    winner, the chips), one after the other: each rated seat a team of one, the winner
    first and the others by chips (equal chips, an equal place); a game is rated with a
    person in it; a player in two seats (two bots of a level) takes both seats' changes."""
    model = PlackettLuce()
    ratings: dict = {}
    for keys, winner, chips in games:
        if not any(k[0] == "user" for k in keys):
            continue
        ahead = [[o for o in range(3) if o not in (s, winner) and chips[o] > chips[s]]
                 for s in range(3)]  # fmt: skip
        places = [1 if s == winner else 2 + len(ahead[s]) for s in range(3)]
        before = {k: ratings.get(k, (model.mu, model.sigma, 0)) for k in keys}
        teams = [[model.rating(mu=before[k][0], sigma=before[k][1])] for k in keys]
        after = model.rate(teams, ranks=places)
        moved = {k: [v[0], v[1], v[2] + 1] for k, v in before.items()}
        for key, (rated,) in zip(keys, after, strict=True):
            moved[key][0] += rated.mu - before[key][0]
            moved[key][1] *= rated.sigma / before[key][1]
        ratings.update({k: tuple(v) for k, v in moved.items()})
    return ratings


def rows_of(category: str) -> dict:
    return {
        core._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.filter(category=category)
    }


def changes() -> dict:
    return {
        (g, s): (person or bot, category, mu, sigma, games)
        for g, s, person, bot, category, mu, sigma, games in RatingChange.objects.values_list(
            "game_id",
            "seat",
            "rating__person",
            "rating__bot_kind",
            "rating__category",
            "mu",
            "sigma",
            "games",
        )  # fmt: skip
    }


def assert_close(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for key, value in want.items():
        for a, b in zip(got[key], value, strict=True):
            assert a == (pytest.approx(b, abs=CLOSE, rel=0) if isinstance(b, float) else b), key


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(games=st.lists(GAME, min_size=1, max_size=14))
def test_each_category_is_openskill_over_its_own_games_and_recompute_agrees(games):
    with transaction.atomic():
        users = [User.objects.create_user(name) for name in PEOPLE]
        played: dict[str, list] = {LIVE: [], CORRESPONDENCE: []}
        at = timezone.now()
        for n, (seats, winner, chips, turn) in enumerate(games):
            people = [s for s in seats if isinstance(s, int)]
            if len(set(people)) != len(people):
                continue  # nobody sits twice
            when = at + timedelta(seconds=n)
            _, keys = rated_game(users, seats, winner, chips, when, turn)
            category = CORRESPONDENCE if turn >= 3600 else LIVE
            played[category].append((keys, winner, chips))

        for category in (LIVE, CORRESPONDENCE):
            assert_close(rows_of(category), openskill_alone(played[category]))
        live_rows = {c: rows_of(c) for c in (LIVE, CORRESPONDENCE)}
        live_changes = changes()

        core.recompute()

        for category in (LIVE, CORRESPONDENCE):
            assert_close(rows_of(category), live_rows[category])
        assert_close(changes(), live_changes)
        transaction.set_rollback(True)
