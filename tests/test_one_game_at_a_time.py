"""One game in play at a time (games.play.seating): a person at a game being played, or
holding a seat in a series that goes on, is seated at no other game that is or will be
dealt, on any path: a table of their own, joining one, Play again, a rematch, a friend's
challenge, a series' next hand, an arena's pairing, Quick play. Examples first, then a
property over random sequences of what four people, the arena and the clock do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.models import Game, Seat
from games.play import aborts, after_game, moves, seating, tables
from games.play.errors import InAnotherGame, ServiceError
from games.series import services as series
from games.series.models import Series
from games.social import services as social
from games.tournaments import services as tournaments
from games.tournaments.pairing import BOT_WAIT
from tests.fast_games import finish_quickly

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", is_staff=True)


@pytest.fixture(autouse=True)
def room_for_tables(settings):
    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    settings.TONGITS_OPEN_TABLES_MAX = 10_000


def _arena(staff):
    return tournaments.create(
        staff, name="Arena", starts_at=timezone.now(), minutes=60, public=True, bot_kind="easy"
    )


def engagements(user_id: int) -> set[tuple[str, int]]:
    """What the person holds in play, counted apart from ``seating``: each dealt game not
    over (a series' hand counts as its series), and each series that goes on in whose
    dealt hands they hold a seat they have not left."""
    held: set[tuple[str, int]] = set()
    seats = Seat.objects.filter(user_id=user_id, game__status=Game.Status.PLAYING)
    for game_id, series_id in seats.values_list("game_id", "game__series_hand__series_id"):
        held.add(("series", series_id) if series_id else ("game", game_id))
    for made in Series.objects.filter(ended_at__isnull=True, imported=False):
        dealt = Seat.objects.filter(
            game__series_hand__series=made, game__started_at__isnull=False, user_id=user_id
        )
        if any(index not in made.left for index in dealt.values_list("index", flat=True)):
            held.add(("series", made.pk))
    return held


# --- Examples -----------------------------------------------------------------------------


def test_a_person_at_an_arena_game_cannot_sit_at_an_open_series_table(alice, bob, carol, staff):
    """The finding: at an arena game in play, a person sat at an open series table and was
    dealt its hand, two games at once (the server played one of them)."""
    t = _arena(staff)
    tournaments.join(t.pk, alice)
    [arena_game] = tournaments.pair(t.pk, timezone.now() + BOT_WAIT)
    table = series.create_series(bob, ante=1, others=("open", "easy")).hands.get().game

    with pytest.raises(InAnotherGame, match="You are playing another game"):
        tables.join_table(table.pk, alice)
    with pytest.raises(InAnotherGame):
        tables.quick_play(alice)

    assert not table.seats.filter(user=alice).exists()
    assert engagements(alice.pk) == {("game", arena_game.pk)}
    finish_quickly(arena_game.pk)
    assert tables.join_table(table.pk, alice).status == Game.Status.PLAYING


def test_the_refusal_is_said_in_english_and_in_filipino(client, alice, bob):
    tables.quick_play(alice)
    table = tables.create_table(bob, others=("open", "easy"))
    client.force_login(alice)

    english = client.post(reverse("join_table", args=[table.pk]), follow=True).content.decode()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "fil"
    filipino = client.post(reverse("join_table", args=[table.pk]), follow=True).content.decode()

    assert "You are playing another game: finish it before you sit at another table" in english
    with translation.override("fil"):
        assert str(seating.IN_ANOTHER_GAME) in filipino
    assert "You are playing another game" not in filipino


def test_a_seat_held_at_a_waiting_table_is_given_up_when_its_person_is_dealt_elsewhere(
    alice, bob, carol
):
    """Sitting at a table that waits for people is no game in play; but when it fills,
    its people must hold none: one dealt a game elsewhere meanwhile gives the seat up."""
    table = tables.create_table(alice, others=("open", "open"))
    tables.join_table(table.pk, bob)
    elsewhere = tables.quick_play(alice)  # Alice plays while the table waits

    tables.join_table(table.pk, carol)

    table.refresh_from_db()
    assert table.status == Game.Status.WAITING  # not dealt to someone playing elsewhere
    assert [s.user_id for s in table.seats.order_by("index")] == [None, bob.pk, carol.pk]
    assert engagements(alice.pk) == {("game", elsewhere.pk)}


def test_a_rematch_whose_only_person_plays_elsewhere_is_called_off_not_dealt_to_bots(
    alice, bob, make_game
):
    game = make_game([alice, bob, "easy"], seed=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    rematch = after_game.play_again(game.pk, alice, rematch=True)
    tables.quick_play(alice)

    later = timezone.now() + timedelta(seconds=django_settings.TONGITS_REMATCH_SECONDS + 1)
    assert after_game.fill_due(rematch.pk, later)

    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ABORTED and rematch.deal is None


def test_a_series_between_hands_keeps_its_people_from_other_tables(alice, bob):
    made = series.create_series(alice, ante=1, others=("easy", "easy"))
    finish_quickly(made.hands.get().game_id)  # between hands now
    table = tables.create_table(bob, others=("open", "easy"))

    with pytest.raises(InAnotherGame):
        tables.join_table(table.pk, alice)
    series.leave(made.pk, alice)
    assert tables.join_table(table.pk, alice).status == Game.Status.PLAYING


def test_a_friends_challenge_is_refused_to_a_person_playing_elsewhere(alice, bob):
    social.request_friend(alice, bob.pk)
    social.accept_friend(bob, alice.pk)
    asked = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    tables.quick_play(bob)

    with pytest.raises(InAnotherGame):
        social.accept_challenge(bob, asked.pk)
    assert engagements(alice.pk) == set()


# --- Any path -----------------------------------------------------------------------------

PEOPLE = 4
steps = st.lists(
    st.tuples(
        st.sampled_from(
            (
                "quick", "open", "series", "join", "leave", "again", "rematch", "fill",
                "challenge", "enter", "pair", "finish", "abort", "ready", "next", "quit",
            )
        ),
        st.integers(0, PEOPLE - 1),
        st.integers(0, 5),
    ),
    min_size=1,
    max_size=14,
)  # fmt: skip


@hypothesis_settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(path=steps)
def test_nobody_holds_two_games_in_play_after_any_step(path, alice, bob, carol, dave, staff):
    people = [alice, bob, carol, dave]
    moves.forget_cached_states()
    with transaction.atomic():
        t = _arena(staff)
        for a, b in ((0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (0, 3)):
            social.request_friend(people[a], people[b].pk)
            social.accept_friend(people[b], people[a].pk)
        for action, who, pick in path:
            try:
                with transaction.atomic():
                    _do(action, people[who], people[(who + 1 + pick) % PEOPLE], pick, t, staff)
            except ServiceError:
                pass  # refused: nothing changed
            for person in people:
                assert len(engagements(person.pk)) <= 1, (action, person, engagements(person.pk))
        transaction.set_rollback(True)


def _do(action: str, person, other, pick: int, t, staff) -> None:
    waiting = list(Game.objects.filter(status=Game.Status.WAITING).order_by("pk"))
    playing = list(Game.objects.filter(status=Game.Status.PLAYING).order_by("pk"))
    finished = list(Game.objects.filter(seats__user=person, status=Game.Status.FINISHED))
    later = timezone.now() + timedelta(hours=1)
    if action == "quick":
        tables.quick_play(person, "easy")
    elif action == "open":
        tables.create_table(person, others=("open", "open" if pick % 2 else "easy"))
    elif action == "series":
        series.create_series(person, ante=1, others=("open" if pick % 2 else "easy", "easy"))
    elif action == "join" and waiting:
        tables.join_table(waiting[pick % len(waiting)].pk, person, invite_token=None)
    elif action == "leave" and waiting:
        tables.leave_table(waiting[pick % len(waiting)].pk, person)
    elif action in ("again", "rematch") and finished:
        after_game.play_again(
            finished[pick % len(finished)].pk, person, rematch=action == "rematch"
        )
    elif action == "fill":
        for game in waiting:
            after_game.fill_due(game.pk, later)
    elif action == "challenge":
        asked = social.challenge(person, other.pk, ante=1 if pick % 2 else None, bot_kind="easy")
        social.accept_challenge(other, asked.pk)
    elif action == "enter":
        tournaments.join(t.pk, person)
    elif action == "pair":
        tournaments.pair(t.pk, timezone.now() + BOT_WAIT)
    elif action == "finish" and playing:
        finish_quickly(playing[pick % len(playing)].pk)
    elif action == "abort" and playing:
        aborts.abort_game(playing[pick % len(playing)].pk, staff, "a random path's abort")
    elif action in ("ready", "next", "quit"):
        _series_step(action, person)


def _series_step(action: str, person) -> None:
    for made in Series.objects.filter(ended_at__isnull=True):
        if action == "next":
            series.go_on_if_due(made.pk, now=timezone.now() + timedelta(hours=1))
        elif made.hands.filter(game__seats__user=person).exists():
            (series.ready if action == "ready" else series.leave)(made.pk, person)
