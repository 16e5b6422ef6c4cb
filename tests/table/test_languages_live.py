"""The table in two languages at once (issue 11): each socket speaks its own watcher's
language (the switch's cookie, else the browser's Accept-Language), whatever the other
watchers of the table speak, and the boards cached for one language never reach another."""

from __future__ import annotations

import re
import uuid

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.table.support import SEED, fields, first_legal, frame, seq_of, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)

# Words only a Filipino board has, and words only an English one has (the table's own
# words: the status bar, the hand, the move list, the piles).
FILIPINO = ("Tira ", "Mga galaw", "Kamay mo", "puntos", "Bunutan", "Wala pang", "Bumunot", "Nag-")
ENGLISH = ("Your hand", "'s turn.", "Your turn", " points", "Moves of this game", "No moves yet")
LANGUAGE = re.compile(r"Tira |Your turn|'s turn\.")


def headers_for(user, *, cookie: str = "", accept: str = "") -> list[tuple[bytes, bytes]]:
    headers = session_headers(user)
    if cookie:
        headers = [
            (name, value + f"; django_language={cookie}".encode()) if name == b"cookie" else
            (name, value)
            for name, value in headers
        ]  # fmt: skip
    if accept:
        headers.append((b"accept-language", accept.encode()))
    return headers


def english(text: str) -> bool:
    return any(word in text for word in ENGLISH)


def filipino(text: str) -> bool:
    return any(word in text for word in FILIPINO)


@pytest.fixture
def table(alice, bob, carol, make_game) -> Game:
    return make_game([alice, bob, carol], seed=SEED)


async def test_two_players_at_one_table_each_get_the_board_in_their_own_language(
    table, alice, bob, carol
):
    # Alice chose English with the switch, Bob Filipino; Carol's browser asks for Tagalog.
    headers = [
        await database_sync_to_async(headers_for)(alice, cookie="en", accept="fil"),
        await database_sync_to_async(headers_for)(bob, cookie="fil", accept="en-US,en"),
        await database_sync_to_async(headers_for)(carol, accept="tl-PH,tl;q=0.9"),
    ]
    sockets = [socket(table.pk, h) for h in headers]
    for s in sockets:
        connected, _ = await s.connect()
        assert connected
    first = [await s.receive_from(timeout=3) for s in sockets]
    received = [[text] for text in first]

    game = table
    for _ in range(4):  # a few moves, each pushed to all three
        game, (seat, move) = await database_sync_to_async(_current)(game)
        data = fields(move, seq=str(game.seq), client_move_id=str(uuid.uuid4()))
        await sockets[seat].send_to(text_data=frame(data))
        for i, s in enumerate(sockets):
            received[i].append(await s.receive_from(timeout=3))
    for s in sockets:
        await s.disconnect()

    alice_frames, bob_frames, carol_frames = received
    assert [seq_of(t) for t in alice_frames] == [seq_of(t) for t in bob_frames]
    # Whole boards at first: each in its own language.
    assert english(alice_frames[0]) and not filipino(alice_frames[0])
    assert filipino(bob_frames[0]) and not english(bob_frames[0])
    assert filipino(carol_frames[0]) and not english(carol_frames[0])
    # After every move, too: the English socket never gets a Filipino word, nor the
    # Filipino ones an English one, though the boards are made once per seat and version.
    for text in alice_frames:
        assert not filipino(text), text
    for text in bob_frames + carol_frames:
        assert not english(text), text
    assert any("Tira " in t for t in bob_frames[1:])
    assert any(LANGUAGE.search(t) and "turn" in t for t in alice_frames[1:])


async def test_the_same_seat_in_two_languages_gets_two_boards(table, alice):
    # One person with two devices, one in each language: the seat's board is cached per
    # language, so neither device is sent the other's.
    phone = socket(table.pk, await database_sync_to_async(headers_for)(alice, cookie="fil"))
    laptop = socket(table.pk, await database_sync_to_async(headers_for)(alice, cookie="en"))
    await phone.connect()
    on_phone = await phone.receive_from(timeout=3)
    await laptop.connect()
    on_laptop = await laptop.receive_from(timeout=3)
    await phone.disconnect()
    await laptop.disconnect()

    assert seq_of(on_phone) == seq_of(on_laptop)
    assert filipino(on_phone) and not english(on_phone)
    assert english(on_laptop) and not filipino(on_laptop)
    assert "Kamay mo" in on_phone and "Your hand" in on_laptop


async def test_a_refused_move_is_explained_in_the_senders_language(table, alice, bob):
    dealer = table.dealer
    people = [alice, bob, None]
    if people[dealer] is None:
        pytest.skip("the seed makes carol the dealer")
    sender = socket(
        table.pk, await database_sync_to_async(headers_for)(people[dealer], cookie="fil")
    )
    await sender.connect()
    await sender.receive_from(timeout=3)

    await sender.send_to(text_data=frame({"action": "draw", "seq": "0"}))  # no draw (R3)
    alert = await sender.receive_from(timeout=3)
    await sender.disconnect()

    assert 'role="alert"' in alert
    assert "Bumunot lang sa simula ng turn" in alert
    assert "Draw only at the start of a turn" not in alert


def _current(game: Game):
    game.refresh_from_db()
    return game, first_legal(game)


async def test_a_board_sent_by_the_socket_check_is_in_the_socket_s_language(
    table, alice, bob, carol, monkeypatch
):
    # The check runs in a task of its own, not in the socket's: it still speaks Filipino
    # to a Filipino socket that missed an event.
    from games.play import moves, telling
    from games.play.live import watch

    phone = socket(table.pk, await database_sync_to_async(headers_for)(bob, cookie="fil"))
    await phone.connect()
    await phone.receive_from(timeout=3)
    monkeypatch.setattr(telling, "notify_game", lambda *args: None)  # the event is lost
    game, (seat, move) = await database_sync_to_async(_current)(table)
    people = [alice, bob, carol]
    await database_sync_to_async(moves.submit_move)(game.pk, people[seat], move.to_dict())

    assert await watch.check(now=True) == 1
    healed = await phone.receive_from(timeout=3)
    await phone.disconnect()

    assert seq_of(healed) == 1
    assert filipino(healed) and not english(healed)
