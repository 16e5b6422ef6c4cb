"""When a session ends, its open sockets end with it (closed with 4401): on log out, on a
password change made in another session, and when the account is disabled. Otherwise a
socket left open on a shared computer would go on receiving the hand and playing it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORDS
from tests.table.support import SEED, frame, socket
from tongits_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
CLOSED = {"type": "websocket.close", "code": 4401}


@database_sync_to_async
def logged_in(user, password: str = "") -> tuple[Client, list[tuple[bytes, bytes]]]:
    """A browser logged in as ``user`` (a session of its own), and its socket headers."""
    client = Client()
    form = {"username": user.username, "password": password or PASSWORDS[user.username]}
    assert client.post(reverse("login"), form).status_code == 302
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return client, [(b"cookie", cookie.encode()), (b"origin", b"http://localhost")]


async def table_socket(game_id: int, headers) -> WebsocketCommunicator:
    sock = socket(game_id, headers)
    assert (await sock.connect())[0]
    await sock.receive_from(timeout=3)  # the snapshot
    return sock


async def lobby_socket(headers) -> WebsocketCommunicator:
    headers = [*headers, (b"host", b"localhost")]
    sock = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await sock.connect())[0]
    return sock


@pytest.fixture
def game(alice, bob, carol, make_game):
    return make_game([alice, bob, carol], seed=SEED)


async def test_logging_out_closes_that_sessions_table_and_lobby_sockets_only(game, alice):
    browser, headers = await logged_in(alice)
    _, other_headers = await logged_in(alice)  # alice on another computer
    table, lobby = await table_socket(game.pk, headers), await lobby_socket(headers)
    elsewhere = await table_socket(game.pk, other_headers)

    await database_sync_to_async(browser.post)(reverse("logout"))

    assert await table.receive_output(timeout=1) == CLOSED
    assert await lobby.receive_output(timeout=1) == CLOSED
    assert await elsewhere.receive_nothing(timeout=0.2)
    await elsewhere.send_to(text_data=frame({"action": "fight"}))
    assert 'role="alert"' in await elsewhere.receive_from(timeout=3)
    await elsewhere.disconnect()


async def test_a_password_change_closes_the_other_sessions_sockets_but_not_its_own(game, alice):
    here, here_headers = await logged_in(alice)
    _, there_headers = await logged_in(alice)
    mine, theirs = await table_socket(game.pk, here_headers), await lobby_socket(there_headers)
    theirs_table = await table_socket(game.pk, there_headers)
    new = "a-new-pw-987!"
    change = {"old_password": PASSWORDS["alice"], "new_password1": new, "new_password2": new}

    answer = await database_sync_to_async(here.post)(reverse("password_change"), change)

    assert answer.status_code == 302
    assert await theirs.receive_output(timeout=1) == CLOSED
    assert await theirs_table.receive_output(timeout=1) == CLOSED
    assert await mine.receive_nothing(timeout=0.2)
    await mine.send_to(text_data=frame({"action": "fight"}))
    assert 'role="alert"' in await mine.receive_from(timeout=3)
    # The kept session now lives under a new key; logging it out still closes its socket.
    await database_sync_to_async(here.post)(reverse("logout"))
    assert await mine.receive_output(timeout=1) == CLOSED


async def test_a_password_reset_or_set_elsewhere_closes_every_socket_of_the_user(game, alice):
    _, headers = await logged_in(alice)
    sock = await table_socket(game.pk, headers)

    def set_password() -> None:
        alice.set_password("reset-by-mail-123!")
        alice.save()

    await database_sync_to_async(set_password)()

    assert await sock.receive_output(timeout=1) == CLOSED


async def test_disabling_an_account_closes_its_sockets_and_no_one_elses(game, alice, bob):
    _, alice_headers = await logged_in(alice)
    _, bob_headers = await logged_in(bob)
    alices, lobby = await table_socket(game.pk, alice_headers), await lobby_socket(alice_headers)
    bobs = await table_socket(game.pk, bob_headers)

    def disable() -> None:
        alice.is_active = False
        alice.save()

    await database_sync_to_async(disable)()

    assert await alices.receive_output(timeout=1) == CLOSED
    assert await lobby.receive_output(timeout=1) == CLOSED
    assert await bobs.receive_nothing(timeout=0.2)
    await bobs.disconnect()


async def test_deleting_an_account_closes_its_sockets_and_no_one_elses(game, bob):
    """A guest removed by remove_guests, or an account staff delete."""
    dave = await database_sync_to_async(get_user_model().objects.create_user)(
        "dave", password=PASSWORDS["alice"]
    )
    _, daves_headers = await logged_in(dave, PASSWORDS["alice"])
    _, bob_headers = await logged_in(bob)
    daves, bobs = await lobby_socket(daves_headers), await lobby_socket(bob_headers)

    await database_sync_to_async(dave.delete)()

    assert await daves.receive_output(timeout=1) == CLOSED
    assert await bobs.receive_nothing(timeout=0.2)
    await bobs.disconnect()


async def test_logging_in_again_elsewhere_closes_nothing(game, alice):
    _, headers = await logged_in(alice)
    sock = await table_socket(game.pk, headers)

    await logged_in(alice)  # saves last_login on the user

    assert await sock.receive_nothing(timeout=0.3)
    await sock.disconnect()


async def test_logging_in_as_someone_else_in_the_same_browser_closes_the_old_sessions_sockets(
    game, alice, bob
):
    """Django's log-in flushes the old session without a log-out signal: alice's table
    went on receiving her hand in a browser where bob had logged in."""
    browser, headers = await logged_in(alice)
    table, lobby = await table_socket(game.pk, headers), await lobby_socket(headers)
    form = {"username": "bob", "password": PASSWORDS["bob"]}

    answer = await database_sync_to_async(browser.post)(reverse("login"), form)

    assert answer.status_code == 302
    assert await table.receive_output(timeout=1) == CLOSED
    assert await lobby.receive_output(timeout=1) == CLOSED


async def test_logging_in_again_as_the_same_person_keeps_the_sockets_and_log_out_still_closes_them(
    game, alice
):
    browser, headers = await logged_in(alice)
    table = await table_socket(game.pk, headers)
    form = {"username": "alice", "password": PASSWORDS["alice"]}

    await database_sync_to_async(browser.post)(reverse("login"), form)  # a new session key

    assert await table.receive_nothing(timeout=0.3)
    await table.send_to(text_data=frame({"action": "fight"}))
    assert 'role="alert"' in await table.receive_from(timeout=3)
    await database_sync_to_async(browser.post)(reverse("logout"))
    assert await table.receive_output(timeout=1) == CLOSED


async def test_staff_closing_an_account_for_fair_play_closes_its_sockets_at_once(game, alice, bob):
    """Fair play's Close account (a bulk update, which sends no save signal) ends the
    account's open table and lobby sockets too, not only its next request."""
    from games.fairplay import actions
    from tests.test_fairplay_actions import fair_play_staff

    _, headers = await logged_in(alice)
    _, bob_headers = await logged_in(bob)
    alices, lobby = await table_socket(game.pk, headers), await lobby_socket(headers)
    bobs = await table_socket(game.pk, bob_headers)

    def close() -> None:
        actions.close_account(fair_play_staff("staffer"), alice, "Colluding.")

    await database_sync_to_async(close)()

    assert await alices.receive_output(timeout=1) == CLOSED
    assert await lobby.receive_output(timeout=1) == CLOSED
    assert await bobs.receive_nothing(timeout=0.2)
    await bobs.disconnect()
