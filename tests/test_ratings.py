"""Ratings (issue 9): openskill's Plackett-Luce model, moved by finished rated games."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games import services
from games.models import Game
from games.ratings import core
from games.ratings.models import Rating, RatingChange
from tests.fast_games import finish

pytestmark = pytest.mark.django_db


def test_ranks_put_the_winner_first_then_chips_with_ties_equal():
    assert core.ranks(1, [-3, 7, -4]) == [2, 1, 3]
    assert core.ranks(0, [2, -1, -1]) == [1, 2, 2]
    # A winner is first even when a loser's chips tie with theirs (no such game, but the
    # rule does not lean on R10's sums).
    assert core.ranks(2, [0, 0, 0]) == [2, 2, 1]


def test_a_rated_game_moves_the_winner_up_and_the_losers_down(alice):
    game = services.quick_play(alice)
    assert game.rated
    game = finish(game.pk)

    skills = core.skills_of([alice.pk], ["normal"])
    me = skills[("user", alice.pk)]
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {0, 1, 2}
    for change in changes.values():
        assert change.sigma < change.sigma_before
    # Alice sits in seat 0. Both bots share one rating (the Normal level's), moved by one
    # seat's win and the other's loss at once, so only a person's change has one direction:
    # up when she won, down when she came last. Second (a loser who paid less than the
    # other) she beat one seat of that shared rating and lost to the other, which can go
    # either way.
    place = core.ranks(game.winner_seat, game.chips)[0]
    if place == 1:
        assert changes[0].mu > changes[0].mu_before
        assert me.mu > core.NEW.mu
    elif place == 3:
        assert changes[0].mu < changes[0].mu_before
        assert me.mu < core.NEW.mu
    assert me.games == 1 and skills[("bot", "normal")].games == 1
    assert me.provisional and me.shown.endswith("?")


def test_a_game_rates_once(alice):
    game = finish(services.quick_play(alice).pk)
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    seats = list(game.seats.all())
    assert not core.rate_finished(game.pk, seats, game.winner_seat, game.chips, game.finished_at)
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 3


def test_casual_tables_and_imported_games_leave_ratings_alone(alice):
    casual = services.create_table(alice, others=("greedy", "random"), rated=False)
    finish(casual.pk)
    assert not Rating.objects.exists()
    played = finish(services.quick_play(alice).pk)
    Game.objects.filter(pk=played.pk).update(imported=True)
    RatingChange.objects.all().delete()
    assert not core.rate_finished(
        played.pk, list(played.seats.all()), played.winner_seat, played.chips, played.finished_at
    )


def test_bots_alone_are_not_rated(make_game):
    game = make_game(["greedy", "random", "greedy"], seed=3, rated=True)
    finish(game.pk)
    assert not RatingChange.objects.exists()


def test_a_rating_stops_being_provisional_after_ten_games(alice):
    for _ in range(core.PROVISIONAL_GAMES):
        finish(services.quick_play(alice).pk)
    me = core.skills_of([alice.pk])[("user", alice.pk)]
    assert me.games == core.PROVISIONAL_GAMES
    assert not me.provisional and not me.shown.endswith("?")


def test_recompute_gives_the_live_numbers_over_a_few_hundred_games(users, settings):
    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    settings.TONGITS_OPEN_TABLES_MAX = 10_000
    rng = random.Random(9)
    people = list(users.values())
    for n in range(240):
        person = people[n % 3]
        others = (rng.choice(["greedy", "random"]), rng.choice(["greedy", "random"]))
        game = services.create_table(person, others=others, rated=n % 7 != 0)
        finish(game.pk, rng)
    live = _everything()
    assert len(live[1]) > 400  # rated seats

    call_command("recompute_ratings", verbosity=0)

    assert _everything() == live


def _everything():
    ratings = sorted(
        Rating.objects.values_list("user_id", "bot_kind", "mu", "sigma", "games"),
        key=lambda r: (r[0] or 0, r[1]),
    )
    changes = list(
        RatingChange.objects.order_by("game_id", "seat").values_list(
            "game_id", "seat", "mu_before", "sigma_before", "mu", "sigma", "games",
            "rating__user_id", "rating__bot_kind",
        )
    )  # fmt: skip
    return ratings, changes


def test_ratings_show_in_the_lobby_the_table_the_profile_and_the_leaderboard(
    client, alice, bob, monkeypatch
):
    monkeypatch.setattr("games.ratings.pages.MIN_GAMES", 1)
    played = finish(services.quick_play(alice).pk)
    me = core.skills_of([alice.pk])[("user", alice.pk)].shown
    normal = core.skills_of(bot_kinds=["normal"])[("bot", "normal")].shown
    waiting = services.create_table(alice, others=("open", "normal"), rated=True)
    client.force_login(bob)

    lobby = client.get("/").content.decode()
    assert f"rating </span>{me}" in lobby and f"rating </span>{normal}" in lobby
    assert "rated" in lobby

    client.force_login(alice)
    table = client.get(f"/games/{waiting.pk}/").content.decode()
    assert "Rated table" in table and f"{me}</span>" in table
    assert (
        "Casual table"
        in client.get(
            f"/games/{services.create_table(alice, others=('greedy', 'greedy')).pk}/"
        ).content.decode()
    )

    profile = client.get("/players/alice/").content.decode()
    assert me in profile and "Rating over the last game" in profile and "<svg" in profile

    board = client.get("/leaderboard/").content.decode()
    assert "Best rating" in board and "Bot levels by rating" in board
    assert "Normal bot" in board.split('id="bot-ratings"')[1]
    assert played.is_over
