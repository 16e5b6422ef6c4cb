"""Correspondence tables: made with a turn of an hour to three days, many at once per person
(up to TONGITS_CORRESPONDENCE_MAX), never in the way of one live game at a time, and
their clock: nobody is played for before their time is up; then, as live, a bot's move
and an away mark (docs/rules.md, "Correspondence tables")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat
from games.play import after_game, clock, errors, server_moves, tables
from tests.fast_games import finish

pytestmark = pytest.mark.django_db

DAY = 86400


def test_the_new_table_page_offers_the_turn_times_and_makes_a_correspondence_table(client, alice):
    client.force_login(alice)
    page = client.get(reverse("new_table")).content.decode()
    for words in ("Live: 45 seconds a turn", "1 hour a turn", "12 hours", "1 day", "3 days"):
        assert words in page
    sent = {"visibility": "private", "seat_2": "open", "seat_3": "normal", "turn": str(DAY)}
    client.post(reverse("new_table"), sent)
    made = Game.objects.get()
    assert made.turn_seconds == DAY and made.correspondence and not made.public

    client.post(reverse("new_table"), {"visibility": "public", "seat_2": "open", "seat_3": "easy"})
    assert Game.objects.order_by("-pk").first().turn_seconds == 45  # live stays the default


def test_a_bad_turn_is_refused_with_the_form_and_makes_nothing(client, alice):
    client.force_login(alice)
    sent = {"visibility": "public", "seat_2": "open", "seat_3": "easy", "turn": "7"}
    response = client.post(reverse("new_table"), sent)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()


def test_many_correspondence_games_at_once_and_a_live_one_beside_them(alice, bob, settings):
    settings.TONGITS_CORRESPONDENCE_MAX = 3
    made = [
        tables.create_table(alice, others=("normal", "easy"), turn_seconds=DAY) for _ in range(3)
    ]
    assert all(g.status == Game.Status.PLAYING for g in made)
    # The limit: a fourth is refused, at its deal as at a seat.
    with pytest.raises(errors.InAnotherGame):
        tables.create_table(alice, others=("normal", "easy"), turn_seconds=3600)
    with pytest.raises(errors.InAnotherGame):
        tables.create_table(alice, others=("open", "easy"), turn_seconds=3600)
    # A live game is not kept from her by them, and one live game still holds her.
    live = tables.create_table(alice, others=("normal", "easy"))
    assert live.status == Game.Status.PLAYING
    with pytest.raises(errors.InAnotherGame):
        tables.create_table(alice, others=("normal", "easy"))
    # While she plays live, a friend's correspondence table takes her in.
    waiting = tables.create_table(bob, others=("open", "easy"), turn_seconds=DAY)
    finish(made[0].pk)
    assert tables.join_table(waiting.pk, alice).status == Game.Status.PLAYING


def test_correspondence_tables_are_not_counted_in_the_open_tables_limit(alice, settings):
    settings.TONGITS_OPEN_TABLES_MAX = 2
    for _ in range(3):
        tables.create_table(alice, others=("open", "easy"), turn_seconds=DAY)
    assert Game.objects.filter(status=Game.Status.WAITING).count() == 3


def test_nobody_is_played_for_before_their_time_then_a_bot_moves_and_they_are_away(
    make_game, alice, bob
):
    game = make_game([alice, "easy", bob], seed=11, turn_seconds=3 * DAY)
    # Bots at a correspondence table move at once (their short pause); let them.
    while Seat.objects.get(game=game, index=game.turn_seat).bot_kind:
        server_moves.play_due(game.pk, now=timezone.now() + timedelta(seconds=5))
        game.refresh_from_db()
    person = Seat.objects.get(game=game, index=game.turn_seat)
    seq, due = game.seq, game.due_at
    assert due == game.turn_started_at + timedelta(days=3)

    assert clock.run_due(due - timedelta(seconds=1)) == 0  # a second before: nothing
    game.refresh_from_db()
    assert (game.seq, Seat.objects.get(pk=person.pk).away) == (seq, False)

    assert clock.run_due(due) >= 1  # time up: the Normal bot's move, the seat away
    game.refresh_from_db()
    assert game.seq > seq and Seat.objects.get(pk=person.pk).away


def test_a_rematch_at_a_correspondence_table_is_one_and_waits_a_turn_for_the_others(
    make_game, alice, bob
):
    game = finish(make_game([alice, "easy", bob], seed=3, turn_seconds=12 * 3600).pk)
    following = after_game.play_again(game.pk, alice, rematch=True)
    assert following.turn_seconds == 12 * 3600 and following.status == Game.Status.WAITING
    assert following.due_at >= timezone.now() + timedelta(hours=11)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner")
def test_the_clocks_due_query_reads_only_due_rows_by_its_index(make_game, alice):
    from django.db import connection

    make_game([alice, "easy", "easy"], seed=5, turn_seconds=DAY)
    games = Game.objects.filter(
        status__in=[Game.Status.PLAYING, Game.Status.WAITING], due_at__lte=timezone.now()
    ).order_by("due_at")
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        plan = games.values_list("pk", "seq", "turn_seconds")[:50].explain()
        cursor.execute("SET enable_seqscan = on")
    assert "due_at" in plan and "Index" in plan


def test_a_friends_challenge_offers_a_correspondence_table(client, alice, bob):
    from games.social import services as social
    from tests.test_social import befriend

    befriend(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("friends")).content.decode()
    assert "Correspondence: 3 days a turn" in page
    client.post(reverse("challenge", args=[bob.pk]), {"what": "hand", "bots": "easy", "turn": "7"})
    assert not social.challenges_for(bob.pk).exists()  # not a turn we offer: refused
    client.post(reverse("challenge", args=[bob.pk]),
                {"what": "hand", "bots": "easy", "turn": str(DAY)})  # fmt: skip
    made = social.challenges_for(bob.pk).get()
    assert made.turn_seconds == DAY
    game = social.accept_challenge(bob, made.pk)
    assert game.turn_seconds == DAY and game.status == Game.Status.PLAYING
