"""Pages around the table say what is so (issue 24): guests are never called rated, the bots
go by the names the site gives them, seats are numbered as the rules number them, a series
stays a series when a hand ends, and the Filipino words read naturally and agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.play import tables
from games.series import services as series
from games.series.models import Series
from tests.fast_games import finish

pytestmark = pytest.mark.django_db

PO = Path(settings.BASE_DIR) / "locale" / "fil" / "LC_MESSAGES" / "django.po"
COOKIE = settings.LANGUAGE_COOKIE_NAME


def a_guest_at_a_quick_table(client: Client) -> Game:
    client.post(reverse("play_now"), REMOTE_ADDR="203.0.113.9")
    guest = client.get(reverse("lobby")).wsgi_request.user
    return Game.objects.get(seats__user=guest)


def status_lines(html: str) -> list[str]:
    return re.findall(r'<p class="table-status">(.*?)</p>', html, flags=re.S)


# --- Rated: only where a result will move someone's rating ----------------------------------


def test_a_guests_table_against_bots_is_not_called_rated_in_the_lobby_nor_at_the_table(client):
    game = a_guest_at_a_quick_table(client)

    lobby = client.get(reverse("lobby")).content.decode()
    table = client.get(reverse("table", args=[game.pk])).content.decode()

    assert [line.endswith("casual") for line in status_lines(lobby)] == [True]
    assert "Rated table" not in table and "Casual table" in table
    # A guest has no rating, so none is shown beside the guest's name.
    assert not re.search(r"Guest \d+ <span class=\"rating\"", table)


def test_a_person_with_an_account_still_plays_quick_play_rated(client, alice):
    game = tables.quick_play(alice)
    client.force_login(alice)

    lobby = client.get(reverse("lobby")).content.decode()
    table = client.get(reverse("table", args=[game.pk])).content.decode()

    assert [line.endswith("rated") for line in status_lines(lobby)] == [True]
    assert "Rated table" in table


def test_a_guests_new_table_form_does_not_offer_a_rating_it_cannot_have(client, alice):
    a_guest_at_a_quick_table(client)
    guest_form = client.get(reverse("new_table")).content.decode()
    client.force_login(alice)
    person_form = client.get(reverse("new_table")).content.decode()

    assert 'name="rated"' not in guest_form and "Guests are not rated" in guest_form
    assert 'name="rated"' in person_form and "Guests are not rated" not in person_form


# --- The new table: seats as the rules number them, the ante in its place -------------------


def test_the_new_table_form_numbers_the_seats_0_1_2_as_the_rules_do(client, alice):
    client.force_login(alice)
    html = client.get(reverse("new_table")).content.decode()

    assert "You sit in seat 0." in html
    labels = re.findall(r'<label for="id_seat_\d">([^<]+)</label>', html)
    assert labels == ["Seat 1:", "Seat 2:"]


def test_the_ante_is_in_a_box_the_page_shows_only_with_series_ticked(client, alice):
    client.force_login(alice)
    html = client.get(reverse("new_table")).content.decode()
    css = (Path(settings.BASE_DIR) / "static" / "css" / "pages.css").read_text()

    assert re.search(r'<div class="field-ante">\s*<label for="id_ante"', html)
    assert ".new-table-form:has(#id_series:not(:checked)) .field-ante" in css
    assert 'class="stack-form new-table-form"' in html


# --- The bots' names -------------------------------------------------------------------------


def test_the_home_page_and_how_to_play_name_the_bots_as_the_site_offers_them(client):
    home = client.get(reverse("lobby")).content.decode()
    guide = client.get(reverse("how_to_play")).content.decode()
    words = guide.split('id="words-title"', 1)[1].split("</section>", 1)[0]

    assert "Normal bot 2" in home and "Greedy bot" not in home
    for level in ("easy bot", "normal bot", "hard bot"):
        assert f">{level}</button>" in words
    assert "greedy bot" not in words and "random bot" not in words
    assert "the greedy bot plays for you" not in guide
    assert "the <strong>Normal bot</strong> plays for you" in guide


# --- A series stays a series ----------------------------------------------------------------


def test_play_again_on_a_series_hand_goes_to_the_series_and_makes_no_table(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    hand = finish(series.state(made).latest.pk)
    client.force_login(alice)
    games = Game.objects.count()

    plain = client.post(reverse("play_again", args=[hand.pk]))
    htmx = client.post(reverse("play_again", args=[hand.pk]), HTTP_HX_REQUEST="true")

    assert plain.status_code == 302 and plain.url == f"/series/{made.pk}/"
    assert htmx["HX-Redirect"] == f"/series/{made.pk}/"
    assert Game.objects.count() == games
    assert Game.objects.get(pk=hand.pk).next_game_id is None


def standings(html: str) -> str:
    return html.split('class="history-table series-standings', 1)[1].split("</table>", 1)[0]


def wins(html: str) -> list[str]:
    """Each row's hands won: the first number of each row of the standings."""
    return re.findall(r'</th><td class="num"[^>]*>(\d+)</td>', standings(html))


def heads(html: str) -> list[str]:
    return re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', standings(html))


def test_the_series_panel_counts_the_hand_that_just_ended(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    hand = series.state(made).latest
    client.force_login(alice)
    before = client.get(reverse("table", args=[hand.pk])).content.decode()
    finish(hand.pk)

    url = reverse("series_panel", args=[made.pk])
    panel = client.get(url, {"game": hand.pk}).content.decode()

    assert sorted(wins(before)) == ["0", "0", "0"]
    assert sorted(wins(panel)) == ["0", "0", "1"]  # the hand's winner counted
    assert 'id="series-panel"' in panel and f'data-game-id="{hand.pk}"' in panel
    assert "has won 1 in a row" in panel
    # A game that is not a hand of this series, or no game, is a clear 404.
    assert client.get(url, {"game": "x"}).status_code == 404
    assert client.get(url, {"game": "99999999"}).status_code == 404


def test_the_panel_beside_the_table_keeps_the_four_columns_that_fit(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    client.force_login(alice)
    table = client.get(reverse("series", args=[made.pk])).content.decode()
    finish(series.state(made).latest.pk)
    between = client.get(reverse("series", args=[made.pk])).content.decode()

    assert heads(table) == ["Seat", "Hands won", "Net chips", "Pots won"]
    assert Series.objects.get(pk=made.pk).ante == 1
    assert heads(between) == [
        "Seat",
        "Hands won",
        "Hands' chips",
        "Pot chips",
        "Net chips",
        "Pots won",
    ]


# --- Filipino ----------------------------------------------------------------------------------


def test_the_replays_first_and_last_move_read_naturally_in_filipino(client, alice):
    game = finish(tables.quick_play(alice).pk)
    client.force_login(alice)
    client.cookies[COOKIE] = "fil"

    html = client.get(reverse("replay", args=[game.pk]), {"move": 3}).content.decode()

    assert "Unang galaw" in html and "Huling galaw" in html
    assert "Nakaraang galaw" in html and "Susunod na galaw" in html
    assert "Una na galaw" not in html and "Huli na galaw" not in html


def catalogue() -> dict[str, str]:
    entries = re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"$', PO.read_text(), flags=re.M)
    return dict(entries)


def test_the_coachs_marks_and_their_counts_are_different_words_in_filipino():
    fil = catalogue()

    for one, many in [("Inaccuracy", "Inaccuracies"), ("Mistake", "Mistakes")]:
        assert fil[one] != fil[many], (one, fil[one])


def test_filipino_calls_a_card_card_everywhere():
    strings = " ".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', PO.read_text(), flags=re.M))

    assert "baraha" not in strings.lower()
