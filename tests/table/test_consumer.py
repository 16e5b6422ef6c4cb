"""The table's socket: who may watch, what each seat is sent, and actions over the socket.

Every frame a seat receives is scanned for what that seat may not see (tests/table/leaks.py).
"""

from __future__ import annotations

import dataclasses
import os
import re
import uuid

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games.engine import replay, seat_view
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.play import after_game, tables
from games.play import moves as play_moves
from games.table import rendering
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import (
    SEED,
    fields,
    first_legal,
    frame,
    play_to_the_end,
    seq_of,
    session_headers,
    socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def headers(alice, bob, carol) -> list[list[tuple[bytes, bytes]]]:
    return [session_headers(user) for user in (alice, bob, carol)]


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


class Seats:
    """Three connected sockets, one per seat, and every frame each one received."""

    def __init__(self, game: Game, sockets) -> None:
        self.game, self.sockets = game, sockets
        self.frames: list[list[str]] = [[], [], []]

    async def receive(self, seat: int) -> str:
        text = await self.sockets[seat].receive_from(timeout=3)
        self.frames[seat].append(text)
        return text

    async def receive_all(self) -> list[str]:
        return [await self.receive(seat) for seat in range(3)]

    async def nothing_more(self) -> bool:
        return all([await s.receive_nothing(timeout=0.1) for s in self.sockets])

    async def close(self) -> None:
        for s in self.sockets:
            await s.disconnect()


async def connect_all(game: Game, headers) -> Seats:
    sockets = [socket(game.pk, h) for h in headers]
    for s in sockets:
        connected, _ = await s.connect()
        assert connected
    seats = Seats(game, sockets)
    await seats.receive_all()  # the snapshots
    return seats


@database_sync_to_async
def current(game: Game) -> tuple[Game, int, object]:
    """The game reloaded, the seat that must act and its first legal move."""
    game.refresh_from_db()
    if game.is_over:
        return game, -1, None
    seat, move = first_legal(game)
    return game, seat, move


@database_sync_to_async
def move_count(game: Game) -> int:
    return MoveRow.objects.filter(game=game).count()


def states_by_seq(game: Game) -> dict[int, object]:
    record = game.record()
    return {seq: replay(record, upto=seq).state for seq in range(len(record.moves) + 1)}


def assert_no_leaks(game: Game, seats_frames: list[list[str]], spectator: list[str] = ()):
    game.refresh_from_db()
    states = states_by_seq(game)
    checked = 0
    for seat, frames in [*enumerate(seats_frames), (None, spectator)]:
        for text in frames:
            state = states[seq_of(text)]
            seed = "" if state.outcome is not None else game.seed
            found = leaks(text, hidden_cards(state, seat), seed)
            assert not found, f"seat {seat} was sent {found} at seq {seq_of(text)}"
            checked += 1
    return checked


async def test_three_people_play_a_whole_game_each_seeing_only_their_own_cards(
    three_people, headers
):
    seats = await connect_all(three_people, headers)
    game, seat, move = await current(three_people)
    moves = 0
    while move is not None:
        await seats.sockets[seat].send_to(
            text_data=frame(fields(move, seq=str(game.seq), client_move_id=str(uuid.uuid4())))
        )
        updates = await seats.receive_all()
        moves += 1
        assert [seq_of(text) for text in updates] == [moves] * 3
        game, seat, move = await current(game)
    assert await seats.nothing_more()
    await seats.close()

    assert game.status == Game.Status.FINISHED
    checked = await database_sync_to_async(assert_no_leaks)(game, seats.frames)
    assert checked == 3 * (moves + 1)
    for text in seats.frames[0][-1:] + seats.frames[1][-1:]:
        assert "Payments" in text and "Play again" in text and game.seed in text


async def test_the_leak_scan_catches_an_opponents_card_planted_in_a_frame(three_people, alice):
    game = three_people

    def render_with_a_planted_card() -> tuple[str, set[int]]:
        state = play_moves.game_state(game)
        view = seat_view(state, 0)
        stolen = next(iter(hidden_cards(state, 0) - set(state.stock)))
        doctored = dataclasses.replace(view, hand=(*view.hand, stolen))
        table = rendering.load_table(game.pk, alice)
        return rendering.render_frame(table, view=doctored), hidden_cards(state, 0)

    text, hidden = await database_sync_to_async(render_with_a_planted_card)()

    found = leaks(text, hidden)
    assert any(f.startswith("code") for f in found)
    assert any(f.startswith("name") for f in found)
    assert leaks("the seed is 123456789", set(), "123456789") == ["the seed"]


async def test_a_spectator_on_a_public_table_sees_no_hand_at_all(three_people, dave):
    spectator = socket(three_people.pk, await database_sync_to_async(session_headers)(dave))
    connected, _ = await spectator.connect()
    assert connected

    snapshot = await spectator.receive_from(timeout=3)

    assert 'name="cards"' not in snapshot
    assert "You are watching this table." in snapshot
    state = await database_sync_to_async(play_moves.game_state)(three_people)
    assert leaks(snapshot, hidden_cards(state, None), three_people.seed) == []
    await spectator.send_to(text_data=frame({"action": "draw"}))
    assert "You are not playing at this table." in await spectator.receive_from(timeout=3)
    await spectator.disconnect()


async def test_a_private_table_closes_the_socket_of_a_non_member_with_4403(
    alice, bob, carol, dave, make_game
):
    game = await database_sync_to_async(make_game)([alice, bob, carol], seed=SEED, public=False)
    outsider = socket(game.pk, await database_sync_to_async(session_headers)(dave))

    await outsider.connect()

    assert await outsider.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}


async def test_an_anonymous_socket_at_a_private_table_is_closed_with_4401(
    alice, bob, carol, make_game
):
    # A public table or a game of bots anyone may watch (tests/test_watching.py).
    private = await database_sync_to_async(make_game)([alice, bob, carol], public=False)
    anonymous = socket(private.pk, [(b"origin", b"http://localhost")])

    await anonymous.connect()

    assert await anonymous.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}


async def test_a_socket_for_a_game_that_does_not_exist_is_closed_with_4404(alice):
    missing = socket(999999, await database_sync_to_async(session_headers)(alice))

    await missing.connect()

    assert await missing.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}


async def test_an_illegal_action_alerts_only_its_sender_and_changes_nothing(three_people, headers):
    seats = await connect_all(three_people, headers)
    dealer = three_people.dealer  # the dealer's first turn has no draw step (R3)

    await seats.sockets[dealer].send_to(text_data=frame({"action": "draw", "seq": "0"}))
    alert = await seats.receive(dealer)

    assert 'role="alert"' in alert and 'id="messages"' in alert
    assert "Draw only at the start of a turn" in alert
    assert await seats.nothing_more()
    assert await move_count(three_people) == 0
    await seats.close()


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "it is not JSON"),
        ("[" * 50_000 + "]" * 50_000, "it is not JSON"),  # too deep for json's parser
        ('["draw"]', "it is not a form"),
        # Deep enough to overflow a recursive check after json's parser (the socket closed
        # with no word to its person), shallow enough for that parser from any caller's
        # stack (at 930, a test runner's deeper stack made json itself give up first).
        ('{"action": "draw", "x": ' + "[" * 600 + "]" * 600 + "}", "it is not a form"),
        ('{"action": "draw", "x": [[[]]]}', "it is not a form"),
        ('{"action": "dance"}', "Unknown action"),
        ('{"cards": "7C"}', "Choose an action"),
        ('{"action": "meld", "cards": 5}', "The chosen cards were not understood"),
        ('{"action": "layoff", "cards": "7C", "meld": "x"}', "must be a number"),
        ('{"action": "draw", "seq": true}', "must be a number"),
        ('{"action": "discard", "cards": ["7C", "8C"]}', "Choose one card to discard"),
        ('{"action": "meld", "cards": ["ZZ", "7C", "8C"]}', "malformed"),
        ('{"action": "draw", "client_move_id": "a\\u0000b"}', "move id was not understood"),
    ],
)
async def test_a_malformed_frame_gets_a_clear_message_and_changes_nothing(
    three_people, headers, text, message
):
    seats = await connect_all(three_people, headers)
    dealer = three_people.dealer

    await seats.sockets[dealer].send_to(text_data=text)
    alert = await seats.receive(dealer)

    assert message in alert and 'role="alert"' in alert
    assert await seats.nothing_more()
    assert await move_count(three_people) == 0
    await seats.close()


async def test_a_refusal_is_cleared_by_the_next_board_its_seat_is_sent(three_people, headers):
    # A message answers one move: the board after the next move (here the same seat's own
    # correct move) empties the message box, which is otherwise sent only when it changes.
    seats = await connect_all(three_people, headers)
    game, seat, move = await current(three_people)
    refused = '{"action": "discard", "cards": ["7C", "8C"]}'

    await seats.sockets[seat].send_to(text_data=refused)
    alert = await seats.receive(seat)
    assert "Choose one card to discard" in alert
    await seats.sockets[seat].send_to(text_data=frame(fields(move, seq=str(game.seq))))
    board = await seats.receive(seat)

    box = re.search(r'<div id="messages"[^>]*>(.*?)</div>', board, re.S)
    assert box is not None, "the next board left the refusal on screen"
    assert box.group(1).strip() == ""
    await seats.close()


async def test_a_stale_seq_gets_the_message_and_a_fresh_snapshot(three_people, headers):
    seats = await connect_all(three_people, headers)
    game, seat, move = await current(three_people)

    await seats.sockets[seat].send_to(text_data=frame(fields(move, seq="7")))
    reply = await seats.receive(seat)

    assert "The table changed before your move arrived" in reply
    assert seq_of(reply) == 0 and 'id="my-hand"' in reply
    assert await seats.nothing_more()
    assert await move_count(three_people) == 0
    await seats.close()


async def test_a_repeated_client_move_id_is_applied_once(three_people, headers):
    seats = await connect_all(three_people, headers)
    game, seat, move = await current(three_people)
    same = frame(fields(move, seq="0", client_move_id=str(uuid.uuid4())))

    await seats.sockets[seat].send_to(text_data=same)
    assert [seq_of(t) for t in await seats.receive_all()] == [1, 1, 1]
    await seats.sockets[seat].send_to(text_data=same)

    assert await seats.nothing_more()
    assert await move_count(three_people) == 1
    await seats.close()


async def test_a_reconnecting_seat_gets_a_full_snapshot_at_the_current_seq(
    three_people, headers, alice, bob, carol
):
    people = [alice, bob, carol]
    first = socket(three_people.pk, headers[0])
    await first.connect()
    assert seq_of(await first.receive_from(timeout=3)) == 0
    await first.disconnect()

    @database_sync_to_async
    def play(count: int) -> int:
        for _ in range(count):
            seat, move = first_legal(three_people)
            payload = {k: v for k, v in move.to_dict().items() if k != "seat"}
            play_moves.submit_move(three_people.pk, people[seat], payload)
            three_people.refresh_from_db()
        return three_people.seq

    seq = await play(3)
    again = socket(three_people.pk, headers[0])
    await again.connect()
    snapshot = await again.receive_from(timeout=3)

    assert seq_of(snapshot) == seq == 3
    for part in (
        "table-status",
        "seats",
        "table-piles",
        "table-melds",
        "my-hand",
        "table-fairness",
    ):
        assert f'id="{part}"' in snapshot
    await again.disconnect()


async def test_any_valid_frame_from_an_away_player_marks_them_back(three_people, headers):
    dealer = three_people.dealer
    await Seat.objects.filter(game=three_people, index=dealer).aupdate(away=True)
    seats = await connect_all(three_people, headers)
    assert 'badge warn">away' in seats.frames[(dealer + 1) % 3][-1]

    await seats.sockets[dealer].send_to(text_data=frame({"action": "draw"}))  # illegal now
    updates = [await seats.receive(s) for s in range(3)]

    assert not await Seat.objects.filter(game=three_people, away=True).aexists()
    assert any("Draw only at the start" in text for text in updates + [await seats.receive(dealer)])
    assert 'badge warn">away' not in updates[(dealer + 1) % 3]
    await seats.close()


async def test_moves_over_the_redis_channel_layer_reach_every_seat(three_people, headers, settings):
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("REDIS_URL is not set (CI sets it)")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": f"test-{uuid.uuid4().hex[:8]}"},
        }
    }
    seats = await connect_all(three_people, headers)
    game, seat, move = await current(three_people)
    for expected in (1, 2, 3):
        await seats.sockets[seat].send_to(text_data=frame(fields(move, seq=str(game.seq))))
        assert [seq_of(t) for t in await seats.receive_all()] == [expected] * 3
        game, seat, move = await current(game)
    await seats.close()
    assert await database_sync_to_async(assert_no_leaks)(game, seats.frames) == 12


async def test_a_waiting_table_gets_the_dealt_board_when_the_last_seat_fills(alice, bob):
    game = await database_sync_to_async(tables.create_table)(alice, others=("open", "greedy"))
    waiting = socket(game.pk, await database_sync_to_async(session_headers)(alice))
    await waiting.connect()
    before = await waiting.receive_from(timeout=3)
    assert "Waiting for 1 more player to sit down." in before and 'name="cards"' not in before

    await database_sync_to_async(tables.join_table)(game.pk, bob)
    dealt = await waiting.receive_from(timeout=3)

    assert seq_of(dealt) == 0 and 'name="cards"' in dealt and "ws-send" in dealt
    await waiting.disconnect()


async def test_people_at_a_waiting_table_see_each_newcomer_sit_down(alice, bob, headers):
    game = await database_sync_to_async(tables.create_table)(alice)
    waiting = socket(game.pk, headers[0])
    assert (await waiting.connect())[0]
    assert "bob" not in await waiting.receive_from(timeout=3)

    await database_sync_to_async(tables.join_table)(game.pk, bob)

    assert "bob" in await waiting.receive_from(timeout=3)
    await waiting.disconnect()


async def test_the_other_players_are_offered_the_next_game_live_over_their_sockets(
    alice, bob, carol, headers, make_game
):
    new = database_sync_to_async(make_game)
    game = await new([alice, bob, carol], seed=SEED, public=False)
    game = await database_sync_to_async(play_to_the_end)(game, [alice, bob, carol])
    seats = await connect_all(game, headers)
    assert all("Play again" in text for text in seats.frames[0] + seats.frames[1])

    following = await database_sync_to_async(after_game.play_again)(game.pk, alice)
    mine, *others = await seats.receive_all()

    assert "Go to the next game" in mine
    assert all("Join the next game" in text and "Play again" not in text for text in others)
    assert all(following.invite_token not in text for text in [mine, *others])

    await database_sync_to_async(after_game.play_again)(game.pk, bob)
    assert "Go to the next game" in await seats.receive(1)
    assert await seats.nothing_more()  # nothing changed for alice or carol
    await seats.close()


async def test_joining_the_next_game_from_the_lobby_updates_the_finished_table_too(
    alice, bob, carol, headers, make_game
):
    new = database_sync_to_async(make_game)
    game = await new([alice, bob, carol], seed=SEED, public=False)
    game = await database_sync_to_async(play_to_the_end)(game, [alice, bob, carol])
    following = await database_sync_to_async(after_game.play_again)(game.pk, alice)
    seats = await connect_all(game, headers)

    await database_sync_to_async(tables.join_table)(following.pk, carol)  # not the button

    assert "Go to the next game" in await seats.receive(2)
    await seats.close()


NEXT_GAME = re.compile(r'<div id="next-game" hidden data-game="(\d+)" hx-swap-oob="true"')


async def test_play_again_over_the_socket_takes_each_person_to_the_next_table_on_it(
    alice, bob, carol, headers, make_game
):
    """Play again pressed on the result goes over the table's open socket (issue 52): the
    socket goes on to the next table and sends its whole board there, led by the new
    game's number for the page, so a new game costs no POST, no page and no handshake.
    The third press deals it, and every socket plays it with only its own hand."""
    new = database_sync_to_async(make_game)
    game = await new([alice, bob, carol], seed=SEED)
    game = await database_sync_to_async(play_to_the_end)(game, [alice, bob, carol])
    seats = await connect_all(game, headers)
    assert 'data-socket="again"' in seats.frames[0][0]

    await seats.sockets[0].send_to(text_data=frame({"action": "again"}))
    mine = await _until(seats, 0, "next-game")  # (after the finished board, perhaps)
    found = NEXT_GAME.search(mine)
    assert found and mine.lstrip().startswith(found.group(0)), "the new game's number first"
    following = int(found.group(1))
    assert following != game.pk
    assert "Waiting for 2 more players" in mine
    # The others' finished boards now offer to join it; nothing of the old game reaches
    # the socket that left it.
    assert "Join the next game" in await seats.receive(1)
    assert "Join the next game" in await seats.receive(2)
    assert 'id="chat-log"' in await seats.receive(0)  # the new game's talk: none yet
    assert await seats.sockets[0].receive_nothing(timeout=0.2)

    await seats.sockets[1].send_to(text_data=frame({"action": "again"}))
    assert f'data-game="{following}"' in await _until(seats, 1, "next-game")
    await seats.sockets[2].send_to(text_data=frame({"action": "again"}))
    last = await _until(seats, 2, "next-game")
    assert f'data-game="{following}"' in last and 'id="my-hand"' in last
    dealt = await database_sync_to_async(Game.objects.get)(pk=following)
    assert dealt.status == Game.Status.PLAYING
    # The two who pressed first get the dealt board over the socket they pressed on.
    boards = [last]
    for seat in (0, 1):
        text = await seats.receive(seat)
        while 'id="my-hand"' not in text or 'data-seq="0"' not in text:
            text = await seats.receive(seat)
        boards.append(text)
    state = await database_sync_to_async(play_moves.game_state)(dealt)
    where = dict(await database_sync_to_async(list)(dealt.seats.values_list("user_id", "index")))
    for user, text in zip((carol, alice, bob), boards, strict=True):
        assert not leaks(text, hidden_cards(state, where[user.pk]), dealt.seed)

    # The next move is played over the same sockets.
    dealt, seat, move = await current(dealt)
    by_index = {where[u.pk]: i for i, u in enumerate((alice, bob, carol))}
    mover = seats.sockets[by_index[seat]]
    await mover.send_to(text_data=frame(fields(move, seq=str(dealt.seq))))
    text = await seats.receive(by_index[seat])
    while f'data-seq="{dealt.seq + 1}"' not in text:  # (the talk, the seats sitting down)
        text = await seats.receive(by_index[seat])
    await seats.close()


async def test_play_again_over_the_socket_from_a_game_in_play_is_refused_with_a_message(
    three_people, headers
):
    seats = await connect_all(three_people, headers)
    await seats.sockets[1].send_to(text_data=frame({"action": "again"}))
    text = await seats.receive(1)
    assert "Finish this game first." in text
    assert await seats.nothing_more()
    await seats.close()


async def _until(seats: Seats, seat: int, text: str) -> str:
    """The next frame of ``seat`` that holds ``text`` (those before it are the finished
    game's, told of the press, or the next table's seats filling)."""
    got = await seats.receive(seat)
    while text not in got:
        got = await seats.receive(seat)
    return got
