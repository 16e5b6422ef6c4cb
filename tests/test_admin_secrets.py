"""The admin never answers a question about a game's secrets: no filter, lookup, search or
ordering of its lists may touch the seed, the deal or the move log of a game in play.

A changelist that says "1 result" for ``?seed__startswith=9`` and "0 results" for
``?seed__startswith=8`` has told staff the seed, one digit at a time.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.play import moves
from tests.table.support import SEED, first_legal

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol, make_game) -> Game:
    game = make_game([alice, bob, carol], seed=SEED)
    seat, move = first_legal(game)
    moves.submit_move(game.pk, [alice, bob, carol][seat], move.to_dict())
    game.refresh_from_db()
    return game


def probes(game: Game) -> list[tuple[str, str, str]]:
    """(admin list, a lookup that is true of the game, the same lookup made false)."""
    seed, deal = game.seed, game.deal
    card, stock_card = deal["hands"][1][0], deal["stock"][0]
    games = reverse("admin:games_game_changelist")
    users = reverse("admin:auth_user_changelist")
    profiles = reverse("admin:accounts_profile_changelist")
    wrong_digit = "8" if seed[0] != "8" else "9"
    return [
        (games, f"seed__startswith={seed[0]}", f"seed__startswith={wrong_digit}"),
        (games, f"seed={seed}", "seed=1"),
        (games, f"seed__gt={int(seed) - 1}", f"seed__gt={int(seed) + 1}"),
        (games, f"deal__hands__1__icontains={card}", "deal__hands__1__icontains=XX"),
        (games, f"deal__stock__0={stock_card}", "deal__stock__0=XX"),
        (games, "deal__isnull=False", "deal__isnull=True"),
        (games, "moves__seq=1", "moves__seq=2"),
        (games, "moves__seat=0", "moves__seat=9"),
        (games, f"next_game__seed__startswith={seed[0]}", "next_game__seed=1"),
        (games, f"seats__game__seed__startswith={seed[0]}", "seats__game__seed=1"),
        (users, f"seats__game__seed__startswith={seed[0]}", "seats__game__seed=1"),
        (users, f"seats__game__deal__stock__0={stock_card}", "seats__game__deal__stock__0=X"),
        (profiles, f"user__seats__game__seed={seed}", "user__seats__game__seed=1"),
    ]


def test_no_admin_list_can_be_filtered_by_a_games_seed_deal_or_moves(admin_client, game):
    for url, true_lookup, false_lookup in probes(game):
        said_true = admin_client.get(f"{url}?{true_lookup}")
        said_false = admin_client.get(f"{url}?{false_lookup}")

        for response in (said_true, said_false):
            assert response.status_code in (302, 400), f"{url}?{true_lookup}"
            assert b"result" not in response.content, f"{url}?{true_lookup}"
        assert said_true.content == said_false.content


def test_the_game_list_searches_and_orders_only_by_what_anyone_may_see(admin_client, game):
    url = reverse("admin:games_game_changelist")
    seed = game.seed

    searched = admin_client.get(url, {"q": seed}).content.decode()
    ordered = [admin_client.get(url, {"o": str(n)}) for n in range(-12, 13)]

    assert "0 results" in searched  # the search looks at usernames, never the seed
    assert all(r.status_code in (200, 302) for r in ordered)
    assert all(seed not in r.content.decode() for r in ordered)


def test_the_admin_lists_still_work_and_filter_by_status(admin_client, game, alice):
    finished = Game.objects.create(status=Game.Status.FINISHED)  # a game she played before
    Seat.objects.create(game=finished, index=0, user=alice)
    url = reverse("admin:games_game_changelist")

    playing = admin_client.get(url, {"status__exact": "playing"})
    by_player = admin_client.get(url, {"q": "alice"})

    assert playing.status_code == 200
    assert "1 result" in playing.content.decode()
    assert "2 games" in by_player.content.decode()
    for name in ("auth_user", "accounts_profile", "games_game"):
        assert admin_client.get(reverse(f"admin:{name}_changelist")).status_code == 200


def test_no_admin_popup_or_autocomplete_answers_with_a_games_seed(admin_client, game):
    games = reverse("admin:games_game_changelist")
    autocomplete = reverse("admin:autocomplete")
    asked = [
        admin_client.get(games, {"_to_field": "seed", "_popup": "1"}),
        admin_client.get(games, {"_to_field": "deal", "_popup": "1"}),
        admin_client.get(
            autocomplete,
            {"app_label": "games", "model_name": "seat", "field_name": "game", "term": game.seed},
        ),
        admin_client.get(reverse("admin:games_game_change", args=[game.pk]), {"_to_field": "seed"}),
    ]

    for response in asked:
        assert response.status_code < 500
        assert game.seed not in response.content.decode()
