"""Odd requests get a clean answer: never a 500, and never an ERROR with a traceback in the
log, which is for what the site got wrong, not for what a visitor typed."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from accounts.models import Profile
from games.models import Game
from games.play import tables
from games.social import services as social
from tongits_site.asgi import application

pytestmark = pytest.mark.django_db


@pytest.fixture
def errors(caplog) -> pytest.LogCaptureFixture:
    """The log of every logger, WARNING and above; Django's own do not reach the root
    (settings.py). Its records are read at the end: pytest starts a new list for the test
    itself after its fixtures are set up."""
    django_logger = logging.getLogger("django")
    django_logger.addHandler(caplog.handler)
    caplog.set_level(logging.WARNING)
    yield caplog
    django_logger.removeHandler(caplog.handler)


def error_lines(log: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in log.records if r.levelno >= logging.ERROR]


def test_a_sixteen_kilobyte_invite_token_is_a_clean_400(client, alice, bob, errors):
    table = tables.create_table(bob, public=False)
    client.force_login(alice)

    response = client.post(reverse("join_table", args=[table.pk]), {"token": "a" * 16_000})

    assert response.status_code == 400
    assert "not an invite link of ours" in response.content.decode()
    assert not table.seats.filter(user=alice).exists()
    assert error_lines(errors) == []


@pytest.mark.parametrize(
    "query",
    [
        "status__exact=%00",
        "q=%00",
        "public__exact=1%00",
        "o=%00",
        "p=%00",
    ],
)
def test_a_nul_in_an_admin_lists_query_is_a_clean_400(admin_client, alice, errors, query):
    tables.quick_play(alice)

    response = admin_client.get(f"{reverse('admin:games_game_changelist')}?{query}")

    assert response.status_code == 400
    assert "not text" in response.content.decode()
    assert error_lines(errors) == []


def test_a_nul_in_any_form_is_a_clean_400_that_changes_nothing(client, alice, bob, errors):
    table = tables.create_table(bob, public=False)
    client.force_login(alice)

    posts = [
        (reverse("join_table", args=[table.pk]), {"token": "a\x00b"}),
        (reverse("settings"), {"display_name": "Al\x00ice"}),
        (reverse("new_table"), {"visibility": "public\x00", "seat_2": "open", "seat_3": "open"}),
    ]
    answers = [client.post(url, data) for url, data in posts]
    users_list = client.get(reverse("lobby"), {"x\x00": "1"})

    assert [a.status_code for a in answers] == [400, 400, 400]
    assert users_list.status_code == 400
    assert Game.objects.count() == 1
    assert not table.seats.filter(user=alice).exists()
    assert error_lines(errors) == []


def test_logging_in_with_a_nul_in_the_username_is_a_clean_400(client, alice, errors):
    response = client.post(reverse("login"), {"username": "al\x00ice", "password": "x"})

    assert response.status_code == 400
    assert error_lines(errors) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/x/", "/ws/game/abc/", "/nothing/"])
async def test_a_socket_to_a_path_with_no_route_is_refused_without_an_error(path, errors):
    # From the site's own origin, so the origin check lets it through to the routing.
    origin = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    sock = WebsocketCommunicator(application, path, headers=origin)

    connected, _ = await sock.connect(timeout=3)

    assert not connected
    assert error_lines(errors) == []
    assert not [r for r in errors.records if r.exc_info]


def test_a_plain_request_to_a_path_with_no_route_is_a_404(client, errors):
    assert client.get("/nothing/").status_code == 404
    assert error_lines(errors) == []


@pytest.mark.django_db(transaction=True)  # a failed query ends PostgreSQL's transaction
@pytest.mark.parametrize(
    ("changelist", "query"),
    [
        ("admin:social_friendship_changelist", "created_at__year=9999"),
        ("admin:social_friendship_changelist", "created_at__year=9999&created_at__month=12"),
        ("admin:axes_accessattempt_changelist", "attempt_time__year=9999"),
        ("admin:accounts_profile_changelist", "display_name__regex=("),
    ],
)
def test_an_admin_list_filter_that_fails_as_the_list_is_made_is_a_clean_400(
    admin_client, alice, bob, errors, changelist, query
):
    """Django's admin checks a filter's name, not whether Python's dates or the database
    can take its value: a year 9999 or a broken pattern was a 500."""
    social.request_friend(alice, bob.pk)
    social.accept_friend(bob, alice.pk)
    Profile.for_user(alice)

    response = admin_client.get(f"{reverse(changelist)}?{query}")

    assert response.status_code == 400
    assert "cannot be filtered that way" in response.content.decode()
    assert error_lines(errors) == []
    assert admin_client.get(reverse(changelist)).status_code == 200  # unfiltered, as before
