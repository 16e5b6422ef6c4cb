"""What waits for an answer at a correspondence table, and what does not wait: a friend's
challenge and a Rematch wait days (``TONGITS_CORRESPONDENCE_ANSWER_DAYS``), not a live
table's minutes, and both people see how long; the refusal at ``TONGITS_CORRESPONDENCE_MAX``
says so in words of its own, in English and Filipino; and a bot there moves at once, not
after the live pause."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game, Seat
from games.notifications.models import Notice
from games.play import after_game, clock, errors, tables
from games.social import services as social
from games.social.models import Challenge
from tests.fast_games import finish
from tests.notifications.support import run_worker
from tests.test_social import befriend

pytestmark = pytest.mark.django_db

DAY = 86400


def _age(made: Challenge, by: timedelta) -> None:
    Challenge.objects.filter(pk=made.pk).update(created_at=made.created_at - by)


# --- A challenge waits days ----------------------------------------------------------------


def test_a_correspondence_challenge_waits_its_days_and_a_live_one_its_ten_minutes(
    alice, bob, carol, settings
):
    settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS = 7
    befriend(alice, bob)
    befriend(carol, bob)
    slow = social.challenge(alice, bob.pk, ante=None, bot_kind="easy", turn_seconds=DAY)
    live = social.challenge(carol, bob.pk, ante=None, bot_kind="easy")
    assert social.expires_at(slow) == slow.created_at + timedelta(days=7)
    assert social.expires_at(live) == live.created_at + social.CHALLENGE_TTL

    _age(slow, timedelta(days=6, hours=23))  # a day short of a week: still there
    _age(live, social.CHALLENGE_TTL + timedelta(seconds=1))  # the live one has gone
    assert list(social.challenges_for(bob.pk)) == [Challenge.objects.get(pk=slow.pk)]
    assert list(social.challenges_sent(alice.pk)) and not social.challenges_sent(carol.pk)
    with pytest.raises(errors.ServiceError):
        social.accept_challenge(bob, live.pk)
    game = social.accept_challenge(bob, slow.pk)
    assert game.turn_seconds == DAY and game.status == Game.Status.PLAYING


def test_a_correspondence_challenge_goes_after_its_days(alice, bob, settings):
    settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS = 3
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy", turn_seconds=3600)
    _age(made, timedelta(days=3, seconds=1))

    assert not social.challenges_for(bob.pk).exists()
    assert not social.challenges_sent(alice.pk).exists()
    with pytest.raises(errors.ServiceError) as refused:
        social.accept_challenge(bob, made.pk)
    assert str(refused.value.message) == "That challenge is no longer there."
    assert not Game.objects.exists()


def test_both_people_see_how_long_a_correspondence_challenge_waits(client, alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy", turn_seconds=DAY)
    client.force_login(bob)
    feed = client.get(reverse("news")).content.decode()
    expires = int(social.expires_at(made).timestamp())
    assert f'data-key="c{made.pk}" data-expires="{expires}"' in feed  # its toast stays a week
    assert "a correspondence table; it waits 6" in feed and "for your answer" in feed

    client.force_login(alice)
    page = client.get(reverse("friends")).content.decode()
    assert "Your challenge to bob" in page and "for their answer" in page

    client.cookies["django_language"] = "fil"
    with translation.override("fil"):
        page = client.get(reverse("friends")).content.decode()
    assert "sa sagot nila" in page and "for their answer" not in page


@pytest.mark.django_db(transaction=True)  # the worker runs its tasks as on a site
def test_the_push_of_a_correspondence_challenge_is_kept_for_its_days(
    alice, bob, subscribe, endpoint
):
    befriend(alice, bob)
    phone = subscribe(bob, "/bob")
    made = social.challenge(alice, bob.pk, ante=2, bot_kind="easy", turn_seconds=DAY)

    run_worker()

    notice = Notice.objects.get(kind="challenge")
    assert notice.facts["expires"] == social.expires_at(made).isoformat()
    # (the friend request that came before is pushed too)
    ((received, said),) = [
        (r, phone.read(r)) for r in endpoint.received if "challenges" in phone.read(r)["title"]
    ]
    assert said["body"] == "A series, ante 2; a correspondence table"
    # The push service keeps it for a phone that is off while the challenge stands.
    assert int(received.headers["ttl"]) > 6 * DAY


def test_a_correspondence_rematch_waits_days_for_the_others_and_says_so(
    make_game, client, alice, bob, settings
):
    settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS = 5
    game = finish(make_game([alice, "easy", bob], seed=3, turn_seconds=12 * 3600).pk)
    following = after_game.play_again(game.pk, alice, rematch=True)
    assert following.status == Game.Status.WAITING
    assert following.due_at >= timezone.now() + timedelta(days=5) - timedelta(minutes=1)
    assert not after_game.fill_due(following.pk, timezone.now() + timedelta(days=4))

    client.force_login(bob)
    page = client.get(reverse("table", args=[game.pk])).content.decode()
    assert "Accept the rematch" in page and "It waits 4" in page and "for your answer" in page
    client.force_login(alice)  # who asked, at the new table
    page = client.get(reverse("table", args=[following.pk])).content.decode()
    assert "Bots take the open seats in 4" in page
    assert after_game.fill_due(following.pk, timezone.now() + timedelta(days=5, minutes=1))


# --- The limit says what it is -------------------------------------------------------------


def test_the_correspondence_limit_is_refused_in_words_of_its_own(client, alice, settings):
    settings.TONGITS_CORRESPONDENCE_MAX = 2
    settings.TONGITS_TABLES_PER_MINUTE = 100
    for _ in range(2):
        tables.create_table(alice, others=("normal", "easy"), turn_seconds=DAY)
    with pytest.raises(errors.InAnotherGame) as refused:
        tables.create_table(alice, others=("open", "easy"), turn_seconds=DAY)
    said = str(refused.value.message)
    assert said.startswith("You are at 2 correspondence tables already")
    assert "Live tables are not counted" in said and "playing another game" not in said
    with translation.override("fil"):
        assert str(refused.value.message).startswith("Nasa 2 mesang correspondence ka na")

    # From the page: the words shown, nothing made.
    client.force_login(alice)
    made = Game.objects.count()
    sent = {"visibility": "private", "seat_2": "open", "seat_3": "easy", "turn": str(DAY)}
    page = client.post(reverse("new_table"), sent, follow=True).content.decode()
    assert "You are at 2 correspondence tables already" in page
    assert Game.objects.count() == made

    # A live table is not held back by them, and a second live one keeps the live words.
    tables.create_table(alice, others=("normal", "easy"))
    with pytest.raises(errors.InAnotherGame) as refused:
        tables.create_table(alice, others=("normal", "easy"))
    assert str(refused.value.message).startswith("You are playing another game")


# --- Bots do not pause ---------------------------------------------------------------------


def test_a_bot_at_a_correspondence_table_moves_at_once_and_a_live_one_after_its_pause(
    make_game, alice, settings
):
    settings.TONGITS_BOT_PAUSE = (5.0, 5.0)
    slow = make_game(["easy", "normal", alice], seed=4, turn_seconds=DAY)
    live = make_game(["easy", "normal", alice], seed=4)
    # The same deal: a bot is first to move at both.
    assert Seat.objects.get(game=slow, index=slow.turn_seat).bot_kind
    assert live.due_at == live.turn_started_at + timedelta(seconds=5)
    moved = 0
    while True:
        slow.refresh_from_db()
        if slow.status != Game.Status.PLAYING or not slow.seats.get(index=slow.turn_seat).bot_kind:
            break
        # Due the moment of its last move: the clock's next tick, at that instant, plays it.
        assert slow.due_at == (slow.last_move_at or slow.turn_started_at)
        assert clock.run_due(slow.due_at) >= 1
        moved += 1
    assert moved >= 1
    slow.refresh_from_db()
    if slow.status == Game.Status.PLAYING:  # Alice's turn now: a day for her
        assert slow.due_at == slow.turn_started_at + timedelta(days=1)
    # The live table's bot has not moved at that instant: its pause is still running.
    live.refresh_from_db()
    seq = live.seq
    clock.run_due(live.turn_started_at + timedelta(seconds=4))
    live.refresh_from_db()
    assert live.seq == seq


def test_bots_alone_with_a_person_away_play_a_correspondence_hand_through_without_waiting(
    make_game, alice, settings
):
    settings.TONGITS_BOT_PAUSE = (5.0, 5.0)
    game = make_game(["easy", "normal", alice], seed=9, turn_seconds=3600)
    Seat.objects.filter(game=game, user=alice).update(away=True)
    now = timezone.now()
    for _ in range(400):  # a bot's turn at once; Alice's (away) each hour: simulated
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        if Seat.objects.get(game=game, index=game.turn_seat).bot_kind:  # due at its last move
            assert game.due_at == (game.last_move_at or game.turn_started_at)
        now = max(now, game.due_at)
        clock.run_due(now)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # no sleep: the clock was told the time
