"""Text from outside that no database can store (a lone UTF-16 surrogate, a NUL) gets a
clear message and changes nothing: never a crashed socket or a 500.

JSON may spell a lone surrogate as ``"\\ud800"``; Python decodes it to a str that cannot be
encoded as UTF-8, so SQLite and PostgreSQL both fail on it in a query.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from accounts.forms import ProfileForm
from games.models import Game, Move
from games.play import errors, tables
from tests.history_support import scripted_record
from tests.table.support import SEED, fields, first_legal, frame, session_headers, socket
from tests.test_records_io import upload


@pytest.fixture
def three(alice, bob, carol, make_game) -> Game:
    return make_game([alice, bob, carol], seed=SEED)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "text",
    [
        '{"action": "draw", "client_move_id": "\\ud800"}',
        '{"action": "discard", "cards": "\\udfff"}',
        '{"action": "draw", "\\ud800": "1"}',
    ],
)
async def test_a_frame_with_a_lone_surrogate_gets_a_message_and_the_socket_lives_on(
    three, alice, bob, carol, text
):
    dealer = three.dealer
    person = [alice, bob, carol][dealer]
    sock = socket(three.pk, await database_sync_to_async(session_headers)(person))
    assert (await sock.connect())[0]
    await sock.receive_from(timeout=3)  # the snapshot

    await sock.send_to(text_data=text)
    alert = await sock.receive_from(timeout=3)

    assert "not understood" in alert and 'role="alert"' in alert
    assert "\ud800" not in alert and "\udfff" not in alert
    assert await database_sync_to_async(Move.objects.count)() == 0
    # The same socket still plays.
    _, move = await database_sync_to_async(first_legal)(three)
    await sock.send_to(text_data=frame(fields(move, seq="0")))
    assert 'data-seq="1"' in await sock.receive_from(timeout=3)
    await sock.disconnect()


@pytest.mark.django_db
def test_an_uploaded_record_with_a_lone_surrogate_in_a_name_is_refused_clearly(client, alice):
    client.force_login(alice)
    record = {**scripted_record(), "players": ["Al\ud800ice", "Bea", "Carl"]}

    response = upload(client, json.dumps(record).encode())  # json escapes it as \ud800

    assert response.status_code == 400
    assert "name of player 1 is not text" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_display_name_must_be_storable_text(alice):
    for name in ("Al\ud800ice", "Al\x00ice"):
        form = ProfileForm({"display_name": name}, instance=None)

        assert not form.is_valid()
        assert form.errors["display_name"]


@pytest.mark.django_db
def test_an_invite_token_that_is_not_text_is_refused_like_a_wrong_one(alice, bob):
    table = tables.create_table(bob, public=False)

    with pytest.raises(errors.NotAllowed, match="private"):
        tables.join_table(table.pk, alice, invite_token="\ud800")

    assert table.seats.filter(user=alice).count() == 0
    assert reverse("join_table", args=[table.pk])  # the join URL itself is unchanged
