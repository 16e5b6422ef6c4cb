"""Vacation: up to 14 days a year that pause a person's correspondence clocks, shown to the
others at the table; ending early gives back what is left of the turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.correspondence import vacations
from games.correspondence.models import Vacation
from games.models import Game, Seat
from games.play import clock, server_moves

pytestmark = pytest.mark.django_db

DAY = 86400


def to_persons_turn(make_game, alice, bob, turn=DAY) -> tuple[Game, Seat]:
    game = make_game([alice, "easy", bob], seed=11, turn_seconds=turn)
    while Seat.objects.get(game=game, index=game.turn_seat).bot_kind:
        server_moves.play_due(game.pk, now=timezone.now() + timedelta(seconds=5))
        game.refresh_from_db()
    return game, Seat.objects.select_related("user").get(game=game, index=game.turn_seat)


def test_a_vacation_pauses_the_clock_of_a_running_turn(make_game, alice, bob):
    game, seat = to_persons_turn(make_game, alice, bob)
    before = game.due_at
    vacations.start(seat.user, 3)
    game.refresh_from_db()
    assert abs(game.due_at - (before + timedelta(days=3))) < timedelta(seconds=5)
    # At the old deadline, and a day later, nothing is played for them.
    assert clock.run_due(before + timedelta(days=1)) == 0
    assert not Seat.objects.get(pk=seat.pk).away


def test_a_turn_that_begins_on_vacation_is_held_by_the_clock_until_it_ends(make_game, alice, bob):
    game, seat = to_persons_turn(make_game, alice, bob, turn=3600)
    now = timezone.now()
    # The vacation is stored as if booked before the turn began (the clock's hook finds it).
    Vacation.objects.create(user=seat.user, starts_at=now - timedelta(hours=2),
                            ends_at=now + timedelta(days=2))  # fmt: skip
    seq = game.seq
    assert clock.run_due(game.due_at + timedelta(seconds=1)) == 0
    game.refresh_from_db()
    assert game.seq == seq and game.due_at > now + timedelta(days=2)
    assert clock.run_due(game.due_at) >= 1  # its time, after the vacation, is up


def test_coming_back_early_gives_back_the_time_that_was_left(make_game, alice, bob):
    game, seat = to_persons_turn(make_game, alice, bob)
    before = game.due_at
    vacations.start(seat.user, 5)
    assert vacations.end(seat.user)
    game.refresh_from_db()
    assert abs(game.due_at - before) < timedelta(seconds=5)
    assert not vacations.end(seat.user)  # none runs now


def test_fourteen_days_a_year_and_one_at_a_time(alice):
    vacations.start(alice, 10)
    with pytest.raises(vacations.VacationError):
        vacations.start(alice, 1)  # one runs
    vacations.end(alice)
    assert vacations.days_left(alice.pk) == 13  # ended at once: nearly nothing used
    with pytest.raises(vacations.VacationError):
        vacations.start(alice, 14)
    with pytest.raises(vacations.VacationError):
        vacations.start(alice, 0)
    vacations.start(alice, 13)
    assert vacations.days_left(alice.pk) == 0


def test_the_page_starts_and_ends_it_and_the_table_shows_it_to_the_others(
    client, make_game, alice, bob
):
    game, seat = to_persons_turn(make_game, alice, bob)
    client.force_login(seat.user)
    client.post(reverse("vacation"), {"days": "not a number"})
    assert not Vacation.objects.exists()
    client.post(reverse("vacation"), {"days": "2"})
    assert Vacation.objects.get().user_id == seat.user_id
    page = client.get(reverse("your_turn")).content.decode()
    assert "You are on vacation until" in page and "End my vacation" in page

    other = alice if seat.user_id == bob.pk else bob
    client.force_login(other)
    table = client.get(reverse("table", args=[game.pk])).content.decode()
    assert f"{seat.user.username} is on vacation until" in table
    # At a live table their clock runs as ever: it says nothing of the vacation.
    live = make_game([alice, bob, "easy"], seed=12)
    assert "is on vacation until" not in client.get(reverse("table", args=[live.pk])).text

    client.force_login(seat.user)
    client.post(reverse("vacation"), {"action": "end"})
    assert vacations.current(seat.user_id) is None
