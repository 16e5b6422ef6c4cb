"""The leaderboard lists the correspondence rating beside the live one: each person and
bot level in the category of the games they played, never one category's games counted
in the other's list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.play import tables
from games.ratings import pages
from games.ratings.models import CORRESPONDENCE, LIVE, Rating
from tests.fast_games import finish_quickly

pytestmark = pytest.mark.django_db

HOUR = 3600


def _play(person, times: int, turn_seconds: int | None = None) -> None:
    for _ in range(times):
        game = tables.create_table(
            person, others=("easy", "easy"), rated=True, turn_seconds=turn_seconds
        )
        finish_quickly(game.pk)


def _section(page: str, heading_id: str) -> str:
    start = page.index(f'id="{heading_id}"')
    return page[start : page.index("</section>", start)]


def test_the_leaderboard_lists_each_category_apart(client, alice, bob, settings):
    settings.TONGITS_TABLES_PER_MINUTE = 1000
    _play(alice, pages.MIN_GAMES, HOUR)  # Alice plays by correspondence only
    _play(bob, pages.MIN_GAMES)  # Bob live only
    assert Rating.objects.get(person=alice.pk, category=CORRESPONDENCE).games == pages.MIN_GAMES
    assert not Rating.objects.filter(person=alice.pk, category=LIVE).exists()

    board = pages.leaderboard()
    assert [r.username for r in board["by_correspondence_rating"]] == ["alice"]
    assert [r.username for r in board["by_rating"]] == ["bob"]
    assert [r.name for r in board["bot_correspondence_ratings"]] == ["Easy bot"]
    easy = Rating.objects.get(bot_kind="easy", category=CORRESPONDENCE)
    assert board["bot_correspondence_ratings"][0].games == easy.games == pages.MIN_GAMES

    page = client.get(reverse("leaderboard")).content.decode()
    live, by_post = _section(page, "by-rating"), _section(page, "by-correspondence-rating")
    assert ">bob<" in live and ">alice<" not in live
    assert ">alice<" in by_post and ">bob<" not in by_post
    assert "Best correspondence rating" in page and "Bot levels by correspondence rating" in page


def test_too_few_correspondence_games_keep_a_person_off_its_list(alice, settings):
    settings.TONGITS_TABLES_PER_MINUTE = 1000
    _play(alice, pages.MIN_GAMES - 1, HOUR)
    assert pages.leaderboard()["by_correspondence_rating"] == []
