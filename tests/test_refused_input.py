"""Odd input gets a clear answer and changes nothing, never a server error (found by a
review of every form and frame, 5 December 2026): a ``next`` that is not a path, ids too
large for any column, ``Infinity`` and deeply nested JSON in a socket's frames, a NUL in
an address, a stale tournament page, and a friend list already full."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.fairplay.models import StaffAction
from games.play.errors import ServiceError
from games.series import services as series
from games.social import services as social
from games.social.models import Challenge, Friendship
from games.tournaments import services as tournaments
from games.tournaments.models import Entry, Tournament
from tests.table.support import SEED, session_headers, socket
from tests.test_fairplay_actions import fair_play_staff
from tongits_site.asgi import application

HUGE = "9" * 30  # more digits than any integer column holds


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", password="pw", is_staff=True)


@pytest.mark.django_db
def test_a_next_that_is_not_a_path_sends_the_person_to_friends(alice, bob):
    """Django's redirect() takes a bare word for a view's name: it failed, after the
    request was saved."""
    response = _client(alice).post(f"/friends/{bob.pk}/request/", {"next": "abc"})
    assert response.status_code == 302 and response["Location"] == "/friends/"
    assert Friendship.objects.filter(from_user=alice, to_user=bob).count() == 1
    social.accept_friend(bob, alice.pk)
    response = _client(alice).post(f"/friends/{bob.pk}/challenge/", {"what": "1", "next": "x"})
    assert response.status_code == 302 and response["Location"] == "/friends/"
    assert Challenge.objects.filter(from_user=alice).count() == 1
    for elsewhere in ("https://example.com/", "//example.com/friends/"):
        response = _client(alice).post(f"/friends/{bob.pk}/request/", {"next": elsewhere})
        assert response["Location"] == "/friends/"  # never another site
    response = _client(alice).post(f"/friends/{bob.pk}/request/", {"next": "/games/"})
    assert response["Location"] == "/games/"


@pytest.mark.django_db
def test_a_staff_action_with_an_odd_back_goes_back_to_fair_play(alice):
    staff = fair_play_staff("warden")
    response = _client(staff).post(
        "/staff/fair-play/act/",
        {"action": "warn", "reason": "abuse", "account": alice.pk, "back": "oops"},
    )
    assert response.status_code == 302 and response["Location"] == "/staff/fair-play/"
    assert StaffAction.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "address",
    [f"/games/{HUGE}/rematch/", f"/games/{HUGE}/act/", f"/series/{HUGE}/", f"/tournaments/{HUGE}/"],
)
def test_an_id_too_large_for_any_column_is_not_found(alice, address):
    """Such an id reached a raw query or a foreign key's lookup, which SQLite refuses."""
    assert _client(alice).post(address, {"action": "draw"}).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "address", ["/players/ali%00ce/", "/players/ali%00ce/report/", "/invite/a%00b/"]
)
def test_a_nul_in_an_address_is_not_found(alice, address):
    """PostgreSQL refuses a NUL in a query; no username or token holds one."""
    assert _client(alice).get(address).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame",
    [
        '{"chat_mute": Infinity}',
        '{"chat_report": 1e400}',
        '{"chat_unmute": -Infinity}',
        '{"chat_unmute": 1000000000000000000000000000000}',
        '{"chat_mute": "12.0"}',
    ],
)
async def test_a_chat_frame_with_no_usable_id_is_refused_and_the_socket_lives(
    alice, bob, carol, make_game, frame
):
    game = await database_sync_to_async(make_game)([alice, bob, carol], seed=SEED)
    s = socket(game.pk, await database_sync_to_async(session_headers)(alice))
    assert (await s.connect())[0]
    await s.receive_from(timeout=3)  # the board
    await s.send_to(text_data=frame)
    answer = await s.receive_from(timeout=3)
    assert "There is no such message" in answer or "no such message" in answer.lower()
    await s.send_to(text_data='{"chat_unmute": "1"}')  # still answering
    assert await s.receive_from(timeout=3)
    await s.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_lives_through_a_deeply_nested_frame(alice):
    client = Client()
    await database_sync_to_async(client.force_login)(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    s = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await s.connect())[0]
    await s.send_to(text_data="[" * 100_000)
    await asyncio.sleep(0.5)
    assert not s.future.done(), f"the consumer ended: {s.future.exception()!r}"
    await s.disconnect()


@pytest.mark.django_db
def test_withdrawing_or_pausing_from_a_page_left_open_after_the_end_changes_nothing(staff, alice):
    t = tournaments.create(staff, name="Over", starts_at=timezone.now(), public=True)
    tournaments.join(t.pk, alice)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(hours=3))
    assert tournaments.end_if_over(t.pk)
    for action in ("withdraw", "pause"):
        response = _client(alice).post(f"/tournaments/{t.pk}/{action}/", follow=True)
        said = [str(m) for m in response.context["messages"]]
        assert said == ["This tournament is over."]
        assert Entry.objects.get(user=alice).state == Entry.State.ACTIVE


def _fill_friend_list(user) -> None:
    User = get_user_model()
    people = User.objects.bulk_create(
        User(username=f"{user.username}-friend{i}") for i in range(social.MAX_FRIENDS)
    )
    now = timezone.now()
    Friendship.objects.bulk_create(
        Friendship(from_user=user, to_user=p, accepted_at=now) for p in people
    )


@pytest.mark.django_db
def test_a_request_cannot_be_accepted_past_a_full_friend_list(alice, bob, carol):
    """The cap was checked when asking, not when answering: a request made while both
    had room, answered once one list was full, went over it."""
    social.request_friend(alice, bob.pk)
    social.request_friend(alice, carol.pk)
    _fill_friend_list(bob)
    with pytest.raises(ServiceError, match="You have as many friends"):
        social.accept_friend(bob, alice.pk)
    _fill_friend_list(alice)
    with pytest.raises(ServiceError, match="They have as many friends"):
        social.accept_friend(carol, alice.pk)
    assert len(social.friend_ids(alice.pk)) == len(social.friend_ids(bob.pk)) == social.MAX_FRIENDS
    assert social.friend_ids(carol.pk) == []


@pytest.mark.django_db
def test_the_series_page_with_a_hand_in_play_is_never_kept_by_a_browser(alice):
    """It is a seat's table, with the hand, as the table's own page (no-store)."""
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    response = _client(alice).get(f"/series/{made.pk}/")
    assert 'id="my-hand"' in response.content.decode()
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_a_frame_nested_at_any_depth_json_parses_is_refused_as_not_a_form():
    """Between the depth json.loads still parses and the depth json.dumps overflows the
    stack there was a window (about 930 deep in a socket, 994 here) where a frame passed
    the parser and then raised RecursionError, which closed the socket."""
    from games.play.actions import BadMove, frame_data

    for depth in range(4, 1100, 3):
        text = '{"action": "draw", "x": ' + "[" * depth + "]" * depth + "}"
        with pytest.raises(BadMove):
            frame_data(text)
    assert frame_data('{"action": "meld", "cards": ["7C", "8C", "9C"]}')["cards"][0] == "7C"
