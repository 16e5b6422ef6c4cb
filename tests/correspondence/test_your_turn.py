"""The "Your turn" page (theirs to move first, by the time left, each with its table's last
move), the badge on every page, and a correspondence game's rating in its own category."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.correspondence import listing
from games.models import Game, Seat
from games.play import server_moves
from games.ratings import core
from games.ratings.models import CORRESPONDENCE, LIVE, Rating
from tests.fast_games import finish

pytestmark = pytest.mark.django_db

DAY = 86400


def bots_move(game: Game) -> Game:
    game.refresh_from_db()
    while (
        game.status == Game.Status.PLAYING
        and Seat.objects.get(game=game, index=game.turn_seat).bot_kind
    ):
        server_moves.play_due(game.pk, now=timezone.now() + timedelta(seconds=5))
        game.refresh_from_db()
    return game


def test_the_page_lists_theirs_first_by_time_left_with_the_last_move_and_the_badge(
    client, make_game, alice, bob
):
    slow = bots_move(make_game([alice, "easy", "easy"], seed=11, turn_seconds=3 * DAY))
    fast = bots_move(make_game([alice, "easy", "easy"], seed=12, turn_seconds=3600))
    theirs = bots_move(make_game(["easy", alice, bob], seed=13, turn_seconds=DAY))
    mine = {g.pk for g in (slow, fast, theirs) if g.seats.get(index=g.turn_seat).user == alice}
    assert {slow.pk, fast.pk} <= mine

    lines = listing.games_of(alice.pk)
    yours = [ln.game_id for ln in lines if ln.yours]
    assert yours[:2] == [fast.pk, slow.pk]  # an hour left before three days
    assert [ln.yours for ln in lines] == sorted((ln.yours for ln in lines), reverse=True)
    assert listing.waiting_count(alice.pk) == len(mine)

    client.force_login(alice)
    page = client.get(reverse("your_turn")).content.decode()
    assert page.index(f"Table {fast.pk}") < page.index(f"Table {slow.pk}")
    last = fast.moves.order_by("-seq").first()
    assert listing.last_move_text("x", last.payload).replace("x ", "") in page
    # The badge, on any page: how many games wait for her move.
    lobby = client.get(reverse("lobby")).content.decode()
    assert f"{len(mine)} games wait for your move" in lobby


def test_the_last_move_names_no_card_but_a_discards():
    assert listing.last_move_text("Bea", {"type": "discard", "card": "7H"}) == "Bea discarded 7♥"
    secret = {"type": "secret", "cards": ["2S", "2H", "2D"]}
    assert listing.last_move_text("Bea", secret) == "Bea laid down a secret set"
    assert listing.last_move_text("Bea", {"type": "draw"}) == "Bea drew from the stock"


def test_the_page_needs_a_log_in(client):
    assert client.get(reverse("your_turn")).status_code == 302


def test_a_correspondence_game_is_rated_in_its_own_category_and_recomputed_alike(
    make_game, alice, bob
):
    finish(make_game([alice, "easy", bob], seed=3, turn_seconds=DAY, rated=True).pk)
    finish(make_game([alice, "easy", bob], seed=4, rated=True).pk)
    rows = {(r.category, r.person or r.bot_kind): r for r in Rating.objects.all()}
    assert rows[CORRESPONDENCE, alice.pk].games == 1 and rows[LIVE, alice.pk].games == 1
    assert rows[CORRESPONDENCE, "easy"].games == 1
    live = core.skills_of([alice.pk])[("user", alice.pk)]
    by_post = core.skills_of([alice.pk], category=CORRESPONDENCE)[("user", alice.pk)]
    before = {k: (r.mu, r.sigma, r.games) for k, r in rows.items()}

    assert core.recompute() == 2
    after = {(r.category, r.person or r.bot_kind): (r.mu, r.sigma, r.games)
             for r in Rating.objects.all()}  # fmt: skip
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == pytest.approx(value)
    assert live.games == by_post.games == 1
