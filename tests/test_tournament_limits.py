"""What one account, or a script, may do to every game on the site through tournaments
(issue 46): how many it may make a day and have not yet over at once, refused with a
message; a server clock whose cost a tick is that of the tournaments due, not of how
many exist; and ``manage.py hourly_tournament`` bounded."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games.play import clock
from games.play.errors import ServiceError
from games.tournaments import services
from games.tournaments.models import Tournament, TournamentGame
from games.tournaments.pairing import BOT_WAIT
from tests.threads import race

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent transactions"
)


def _mine(user, name: str = "Mine") -> Tournament:
    return services.create(user, name=name, starts_at=timezone.now() + timedelta(hours=1))


def _form() -> dict[str, str]:
    start = (timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    return {"name": "Friday arena", "starts_at": start, "minutes": "30", "variant": "",
            "rated": "rated", "turn_seconds": "20", "bot_kind": "normal"}  # fmt: skip


# --- Making them --------------------------------------------------------------------------


def test_a_person_may_have_only_so_many_tournaments_not_yet_over(alice, settings):
    settings.TONGITS_OPEN_TOURNAMENTS_MAX = 2
    first, _second = _mine(alice), _mine(alice)

    with pytest.raises(ServiceError) as refused:
        _mine(alice)

    assert "You have 2 tournaments not over yet" in str(refused.value.message)
    with translation.override("fil"):
        assert "2 torneo" in str(refused.value.message)
    assert Tournament.objects.count() == 2
    Tournament.objects.filter(pk=first.pk).update(finished_at=timezone.now())
    assert _mine(alice, "Next").name == "Next"


def test_a_person_may_make_only_so_many_tournaments_a_day(alice, settings):
    settings.TONGITS_TOURNAMENTS_PER_DAY = 2
    for t in (_mine(alice), _mine(alice)):
        Tournament.objects.filter(pk=t.pk).update(finished_at=timezone.now())

    with pytest.raises(ServiceError, match="in the last 24 hours"):
        _mine(alice)

    Tournament.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert _mine(alice, "Tomorrow").name == "Tomorrow"


def test_staff_and_the_hourly_arena_are_not_held_to_the_limits(db, settings):
    settings.TONGITS_OPEN_TOURNAMENTS_MAX = settings.TONGITS_TOURNAMENTS_PER_DAY = 1
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    _mine(staff), _mine(staff)
    call_command("hourly_tournament", "--hours", "2", stdout=StringIO())
    assert Tournament.objects.count() == 4


def test_the_new_tournament_page_says_why_it_made_none_in_english_and_filipino(
    client, alice, settings
):
    settings.TONGITS_OPEN_TOURNAMENTS_MAX = 1
    _mine(alice)
    client.force_login(alice)

    english = client.post(reverse("new_tournament"), _form()).content.decode()
    client.cookies["django_language"] = "fil"
    filipino = client.post(reverse("new_tournament"), _form()).content.decode()

    assert "You have 1 tournament not over yet" in english
    assert "Mayroon kang 1 torneo" in filipino
    assert Tournament.objects.count() == 1


def test_the_same_form_sent_twice_gives_the_first_tournament(client, alice):
    client.force_login(alice)
    form = _form()

    first = client.post(reverse("new_tournament"), form)
    second = client.post(reverse("new_tournament"), form)

    t = Tournament.objects.get()
    assert first.url == second.url == reverse("tournament", args=[t.pk])


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_tournaments_made_at_once_are_counted_one_after_the_other(settings):
    settings.TONGITS_OPEN_TOURNAMENTS_MAX = 1
    alice = get_user_model().objects.create_user("alice")

    outcomes = race(lambda: _mine(alice, "One"), lambda: _mine(alice, "Two"))

    assert sum(isinstance(o, Tournament) for o in outcomes) == 1
    assert sum(isinstance(o, ServiceError) for o in outcomes) == 1, outcomes
    assert Tournament.objects.count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_twice_at_once_makes_one_tournament():
    alice = get_user_model().objects.create_user("alice")
    start = timezone.now() + timedelta(hours=1)
    make = lambda: services.create(alice, name="Mine", starts_at=start)  # noqa: E731

    first, second = race(make, make)

    assert isinstance(first, Tournament) and first == second
    assert Tournament.objects.count() == 1


# --- The server clock ---------------------------------------------------------------------


def _idle(n: int) -> None:
    """``n`` running private tournaments nobody has entered (made by as many people)."""
    now = timezone.now()
    for i in range(n):
        Tournament.objects.create(name=f"Idle {i}", starts_at=now, minutes=120)


def _settle(now) -> None:
    """Ticks until no tournament is due at ``now``: each is looked at once and scheduled."""
    while Tournament.objects.filter(due_at__lte=now).exists():
        clock.tick(now)


def _tick_queries(now) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        clock.tick(now)
    return [q["sql"] for q in queries.captured_queries]


def test_a_clock_tick_costs_the_same_with_one_idle_tournament_as_with_three_hundred(db):
    """300 private tournaments made in seconds were each asked about at every tick, on
    the thread that makes the bots' moves: a bot's turn went from ~1 s to 10-13 s."""
    now = timezone.now() + timedelta(seconds=1)
    _idle(1)
    _settle(now)
    with_one = _tick_queries(now)
    _idle(299)
    _settle(now)
    with_many = _tick_queries(now)

    assert len(with_many) == len(with_one)
    asked = [sql for sql in with_many if "tournaments_tournament" in sql]
    assert len(asked) == 1 and '"due_at" <=' in asked[0]  # the one query for those due


def test_an_idle_tournament_joined_is_looked_at_and_pairs_its_person_with_bots(alice):
    now = timezone.now() + timedelta(seconds=1)
    _idle(5)
    _settle(now)
    t = Tournament.objects.order_by("pk").last()
    services.join(t.pk, alice, invite_token=t.invite_token)

    clock.tick(now)
    assert not TournamentGame.objects.exists()  # not before BOT_WAIT
    clock.tick(now + BOT_WAIT)

    assert TournamentGame.objects.get().tournament_id == t.pk


def test_a_tournament_whose_clock_ended_is_finished_and_due_no_more(db):
    now = timezone.now() + timedelta(seconds=1)
    _idle(3)
    later = now + timedelta(minutes=121)

    _settle(later)

    assert set(Tournament.objects.values_list("due_at", flat=True)) == {None}
    assert all(t.state(later) == "finished" for t in Tournament.objects.all())


@postgres_only
def test_the_due_tournaments_are_found_through_an_index(db):
    _idle(3)
    query = Tournament.objects.filter(due_at__lte=timezone.now()).order_by("due_at")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a table this small is read whole
        plan = query.values_list("pk", flat=True).explain()
    assert "tournament_due" in plan, plan


# --- The hourly arenas --------------------------------------------------------------------


def test_the_hourly_command_refuses_more_hours_than_it_may_make_plainly(db):
    for hours in ("1500", "0", "-3"):
        with pytest.raises(CommandError, match="--hours"):
            call_command("hourly_tournament", "--hours", hours, stdout=StringIO())
    assert not Tournament.objects.exists()
    call_command("hourly_tournament", "--hours", "48", stdout=(out := StringIO()))
    assert "48 hourly" in out.getvalue()
