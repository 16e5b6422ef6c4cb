"""Play now and guest accounts: one press seats a visitor against two bots as a guest; the
guest claims the account (its games kept); unclaimed guests are removed after 30 days; the
leaderboard ranks claimed accounts only; limits per address and per account hold."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import make_guest
from accounts.models import Profile, is_guest
from games.models import Game, Seat
from games.play import errors, tables
from tests.history_support import finish

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase-42"


@pytest.fixture(autouse=True)
def fresh_counts() -> None:
    # The home page's counts are kept a few seconds per process: not from test to test.
    cache.clear()


def play_now(client: Client, address: str = "203.0.113.7"):
    return client.post(reverse("play_now"), REMOTE_ADDR=address)


def current_user(client: Client):
    return client.get(reverse("lobby")).wsgi_request.user


def guest_with_a_finished_game(client: Client):
    play_now(client)
    guest = current_user(client)
    game = Game.objects.get(seats__user=guest)
    return guest, finish(game)


def claim(client: Client, username: str, password: str = PASSWORD):
    data = {"username": username, "password1": password, "password2": password}
    return client.post(reverse("claim"), data)


def aged(user, days: int) -> None:
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=days))


# --- The home page and Play now -----------------------------------------------------------


def test_a_visitor_sees_what_the_game_is_the_live_counts_and_play_now(client, alice, bob):
    tables.quick_play(alice)  # one table in play
    tables.create_table(bob)  # one waiting for people: bob is at a table, not in play

    html = client.get(reverse("lobby")).content.decode()

    assert f'<form method="post" action="{reverse("play_now")}"' in html
    assert ">Play now</button>" in html
    assert 'class="mini-table" role="img"' in html
    assert html.count('class="card card-small') >= 12  # the picture is made of our cards
    assert "<img" not in html  # no external picture
    assert "<strong>1</strong> table in play" in html
    assert "<strong>2</strong> players at tables" in html
    assert f'hx-get="{reverse("live_counts")}"' in html


def test_the_live_counts_come_alone_for_the_home_pages_poll(client, alice):
    tables.quick_play(alice)

    html = client.get(reverse("live_counts"), headers={"HX-Request": "true"}).content.decode()

    assert html.strip().startswith('<p class="live-counts" id="live-counts"')
    assert "<strong>1</strong> table in play" in html
    assert "<html" not in html


def test_play_now_seats_a_new_guest_at_a_dealt_table_with_two_bots(client):
    response = play_now(client)

    guest = current_user(client)
    game = Game.objects.get(seats__user=guest)
    assert response.status_code == 302 and response.url == reverse("table", args=[game.pk])
    assert is_guest(guest) and not guest.has_usable_password()
    assert guest.username.startswith("guest-")
    assert guest.profile.display_name == f"Guest {guest.username.removeprefix('guest-')}"
    assert game.status == Game.Status.PLAYING
    assert [s.bot_kind for s in game.seats.order_by("index")] == ["", "normal", "normal"]
    table = client.get(response.url).content.decode()
    assert guest.profile.display_name in table
    assert f'href="{reverse("claim")}"' in table  # the menu offers to claim the account


def test_play_now_is_a_post_only(client):
    assert client.get(reverse("play_now")).status_code == 405
    assert not User.objects.exists()


def test_play_now_seats_a_logged_in_player_as_themselves(client, alice):
    client.force_login(alice)

    play_now(client)

    assert User.objects.count() == 3  # the fixture's players; no guest made
    assert Game.objects.filter(seats__user=alice, status=Game.Status.PLAYING).count() == 1


def test_a_guest_pressing_play_now_again_stays_the_same_guest(client):
    play_now(client)
    guest = current_user(client)
    Game.objects.filter(seats__user=guest).update(status=Game.Status.FINISHED)

    play_now(client)

    assert User.objects.count() == 1
    assert Game.objects.filter(seats__user=guest).count() == 2


def test_play_now_makes_only_so_many_guests_an_hour_from_one_address(settings):
    settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = 2
    for _ in range(2):
        play_now(Client())

    refused = Client()
    response = play_now(refused)

    page = refused.get(response.url)
    assert User.objects.count() == 2 and Game.objects.count() == 2
    assert not page.wsgi_request.user.is_authenticated
    assert "2 guest accounts were made from your network in the last hour" in page.text
    play_now(Client(), address="198.51.100.9")  # another address is not held back
    assert User.objects.count() == 3


def test_guests_older_than_an_hour_do_not_count_against_the_address(settings):
    settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = 1
    first = make_guest("203.0.113.7")
    User.objects.filter(pk=first.pk).update(date_joined=timezone.now() - timedelta(minutes=61))

    play_now(Client())

    assert User.objects.count() == 2


def test_play_now_keeps_to_the_accounts_table_limits(client, settings):
    settings.TONGITS_TABLES_PER_MINUTE = 1
    play_now(client)

    response = play_now(client)

    assert Game.objects.count() == 1
    page = client.get(response.url).content.decode()
    assert "You have made 1 table in the last minute" in page


@pytest.mark.parametrize("kind", [{"public": False}, {"rated": True}], ids=["private", "rated"])
def test_a_guest_cannot_join_a_private_or_rated_table_of_others_without_its_invite(
    client, alice, kind
):
    table = tables.create_table(alice, **kind)
    play_now(client)
    guest = current_user(client)
    Game.objects.filter(seats__user=guest).update(status=Game.Status.FINISHED)  # played out

    with pytest.raises(errors.NotAllowed):
        tables.join_table(table.pk, guest)
    tables.join_table(table.pk, guest, invite_token=table.invite_token)

    assert table.seats.filter(user=guest).exists()


def test_a_guests_games_are_not_rated(client):
    from games.ratings.models import RatingChange
    from tests.fast_games import finish

    play_now(client)
    guest = current_user(client)
    game = Game.objects.get(seats__user=guest)
    assert game.rated  # Play now is Quick play: rated for those who may be

    finish(game.pk)

    assert not RatingChange.objects.filter(game=game, seat=0).exists()


def test_a_claimed_guests_games_from_before_stay_unrated_when_the_ratings_are_rebuilt(
    client, alice
):
    """A rebuild (``recompute``: fair play's voids, ``manage.py recompute_ratings``) read
    who is a guest today, and so rated a claimed account's old games, moving the bots'
    ratings and everyone's after them."""
    from games.ratings import core
    from games.ratings.models import Rating
    from tests.fast_games import finish

    play_now(client)
    guest = current_user(client)
    finish(Game.objects.get(seats__user=guest).pk)
    assert claim(client, "dana").status_code == 302
    later = tables.quick_play(guest)
    finish(later.pk)  # rated: dana is no guest now
    live = set(Rating.objects.values_list("user_id", "bot_kind", "mu", "sigma", "games"))
    assert (guest.pk, "") in {r[:2] for r in live}

    core.recompute()

    rebuilt = set(Rating.objects.values_list("user_id", "bot_kind", "mu", "sigma", "games"))
    assert rebuilt == live


def test_nobody_signs_up_with_a_guest_name(client):
    data = {"username": "guest-1234", "password1": PASSWORD, "password2": PASSWORD}

    response = client.post(reverse("signup"), data)

    assert response.status_code == 200
    assert "kept for guest accounts" in response.content.decode()
    assert not User.objects.exists()


# --- Claiming -----------------------------------------------------------------------------


def test_a_guest_claims_the_account_and_keeps_its_games(client):
    guest, game = guest_with_a_finished_game(client)

    response = claim(client, "dana")

    assert response.status_code == 302 and response.url == reverse("my_games")
    user = User.objects.get(pk=guest.pk)
    assert user.username == "dana" and user.check_password(PASSWORD)
    assert not is_guest(user) and user.profile.guest_address is None
    assert user.profile.display_name == ""  # the name is now the chosen one
    assert current_user(client).pk == guest.pk  # still logged in, with the new password
    mine = client.get(reverse("my_games")).content.decode()
    assert reverse("replay", args=[game.pk]) in mine
    elsewhere = Client()
    elsewhere.post(reverse("login"), {"username": "dana", "password": PASSWORD})
    assert current_user(elsewhere).pk == guest.pk


def test_a_claim_needs_a_username_nobody_has(client, alice):
    play_now(client)
    guest = current_user(client)

    answers = [claim(client, name) for name in ("alice", "ALICE", "guest-77")]

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert "A user with that username already exists." in answers[0].content.decode()
    assert "A user with that username already exists." in answers[1].content.decode()
    assert "kept for guest accounts" in answers[2].content.decode()
    user = User.objects.get(pk=guest.pk)
    assert user.username == guest.username and is_guest(user)
    assert not user.has_usable_password()


def test_a_claim_needs_matching_passwords_and_changes_nothing_otherwise(client):
    play_now(client)
    guest = current_user(client)

    data = {"username": "dana", "password1": PASSWORD, "password2": PASSWORD + "x"}
    response = client.post(reverse("claim"), data)

    assert response.status_code == 200
    assert User.objects.get(pk=guest.pk).username == guest.username


def test_a_guest_cannot_claim_twice(client):
    play_now(client)
    claim(client, "dana")

    again = claim(client, "erin", "another-long-phrase-7")

    assert again.status_code == 302 and again.url == reverse("settings")
    user = User.objects.get(username="dana")
    assert user.check_password(PASSWORD)
    assert not User.objects.filter(username="erin").exists()
    page = client.get(again.url).content.decode()
    assert "has a username and password already" in page


def test_an_ordinary_account_has_nothing_to_claim(client, alice):
    client.force_login(alice)

    response = claim(client, "alice2")

    assert response.status_code == 302 and response.url == reverse("settings")
    assert User.objects.get(pk=alice.pk).username == "alice"


def test_the_settings_page_offers_a_guest_its_claim_and_no_password_change(client):
    play_now(client)

    html = client.get(reverse("settings")).content.decode()

    assert f'href="{reverse("claim")}"' in html
    assert f'href="{reverse("password_change")}"' not in html
    assert 'id="id_display_name"' in html


# --- The leaderboard ----------------------------------------------------------------------


def test_the_leaderboard_ranks_a_guest_only_once_claimed(client):
    guest, _ = guest_with_a_finished_game(client)
    board = reverse("leaderboard")

    before = Client().get(board).content.decode()
    claim(client, "dana")
    after = Client().get(board).content.decode()

    assert guest.profile.display_name not in before
    assert reverse("player", args=[guest.username]) not in before
    assert reverse("player", args=["dana"]) in after


# --- Removing old guests ------------------------------------------------------------------


def remove_guests(*args: str) -> str:
    out = io.StringIO()
    call_command("remove_guests", *args, stdout=out)
    return out.getvalue()


def test_old_unclaimed_guests_are_removed_and_their_seats_keep_their_name(alice, make_game):
    old, young = make_guest("203.0.113.7"), make_guest("203.0.113.7")
    aged(old, 31)
    aged(young, 29)
    old_name = old.profile.display_name
    game = finish(make_game([alice, old, "greedy"]))

    out = remove_guests()

    assert f"Removed {old.username}" in out and "Removed 1 guest account " in out
    assert not User.objects.filter(pk=old.pk).exists()
    assert User.objects.filter(pk=young.pk).exists()
    seat = Seat.objects.get(game=game, index=1)
    assert seat.user is None and seat.name == old_name
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_dry_run_lists_the_old_guests_and_removes_nobody(alice):
    old = make_guest(None)
    aged(old, 40)

    out = remove_guests("--dry-run")

    assert f"Would remove {old.username}" in out
    assert User.objects.filter(pk=old.pk).exists()


def test_claimed_and_ordinary_accounts_are_never_removed(client, alice):
    play_now(client)
    claim(client, "dana")
    for user in User.objects.all():
        aged(user, 400)

    out = remove_guests()

    assert "Removed 0 guest accounts" in out
    assert set(User.objects.values_list("username", flat=True)) >= {"alice", "dana"}


def test_an_old_guest_still_at_an_unfinished_table_is_kept(alice):
    old = make_guest(None)
    aged(old, 31)
    tables.quick_play(old)
    waiting = make_guest(None)
    aged(waiting, 31)
    tables.create_table(waiting)

    out = remove_guests()

    assert User.objects.filter(pk__in=[old.pk, waiting.pk]).count() == 2
    assert f"Kept {old.username}: still seated at an unfinished game or series" in out
    assert "Removed 0 guest accounts" in out


def test_an_old_guest_in_a_series_between_hands_is_kept(alice, make_game):
    """Between hands the last hand is over; removing the guest then dealt the next hand
    with a seat that had nobody in it, played as away at every turn."""
    from games.series import services as series

    guest = make_guest(None)
    made = series.create_series(alice, ante=1, others=("open", "greedy"))
    tables.join_table(made.hands.get(number=1).game_id, guest)
    finish(made.hands.get(number=1).game)
    aged(guest, 40)

    out = remove_guests()

    assert User.objects.filter(pk=guest.pk).exists()
    assert f"Kept {guest.username}: still seated at an unfinished game or series" in out
    series.end(made.pk, alice)
    assert f"Removed {guest.username}" in remove_guests()


def test_the_age_can_be_given_and_must_be_sensible():
    guest = make_guest(None)
    aged(guest, 8)

    remove_guests("--days", "7")

    assert not User.objects.filter(pk=guest.pk).exists()
    with pytest.raises(CommandError):
        remove_guests("--days", "0")


def test_a_guests_profile_says_it_is_a_guest():
    guest = make_guest(None)

    assert Profile.objects.get(user=guest).is_guest
