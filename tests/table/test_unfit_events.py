"""Events that do not fit a table's game (issue 46): whatever reaches a table's sockets
through the channel layer, each seat's board stays as the database says, no move is made
that nobody sent, and every socket stays open for the next real move.

The events here go through this site's own channel layer (in memory, or Redis with its
seal), as a bug, an old release or a stale event of this site could send them. Events from
outside the site (another site on the same Redis server) are tests/test_two_sites.py's.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.engine import Move, apply, seat_view
from games.models import Game
from games.models import Move as MoveRow
from games.play import moves
from games.play.live import snapshots
from games.play.live.news import move_news
from games.play.telling import game_group
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import first_legal, frame, seq_of, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)


class Table:
    """The three seats' sockets of a game whose seat to act is about to draw."""

    def __init__(self, game: Game, people: list, sockets: list) -> None:
        self.game, self.people, self.sockets = game, people, sockets

    async def frames_meanwhile(self, seconds: float = 0.5) -> list[tuple[int, str]]:
        """Every frame the seats were sent in the next ``seconds``, with its seat."""
        await asyncio.sleep(seconds)
        found = []
        for seat, sock in enumerate(self.sockets):
            while not await sock.receive_nothing(timeout=0.05):
                found.append((seat, await sock.receive_from()))
        return found

    async def close(self) -> None:
        for sock in self.sockets:
            await sock.disconnect()


def play_to_a_draw(game: Game, people: list) -> int:
    """Discard until the seat to act may draw (the dealer's first turn has none, R3); the
    game's seq then."""
    while True:
        state = moves.game_state(game)
        legal = seat_view(state, state.turn).legal
        if any(move.type == "draw" for move in legal):
            return game.seq
        move = next((m for m in legal if m.type == "discard"), legal[0])
        moves.submit_move(game.pk, people[state.turn], move.to_dict())
        game.refresh_from_db()


async def table_at_a_draw(game: Game, people: list) -> Table:
    sockets = []
    for user in people:
        sock = socket(game.pk, await database_sync_to_async(session_headers)(user))
        assert (await sock.connect())[0]
        await sock.receive_from(timeout=3)  # the whole board
        sockets.append(sock)
    seq = await database_sync_to_async(play_to_a_draw)(game, people)
    for sock in sockets:
        while seq_of(await sock.receive_from(timeout=3)) < seq:
            pass
    return Table(game, people, sockets)


def draw_never_made(game: Game) -> dict:
    """The event of a draw by the seat to act, made as the site makes a move's event (the
    next rev and seq, a legal move, the deal's name), for a draw that was never made."""
    snap = snapshots.load_snapshot(game.pk)
    seat = snap.state.turn
    move = Move.from_dict({"type": "draw", "seat": seat})
    position = snap.position.after(move, apply(snap.state, move), move.to_dict())
    drawn = dataclasses.replace(snap, rev=snap.rev + 1, seq=snap.seq + 1, position=position)
    news = move_news(drawn)
    return {"type": "game.update", "game": game.pk, "rev": drawn.rev, "news": news}


def as_the_database_says(game: Game, frames: list[tuple[int, str]]) -> None:
    """Every frame is of the game's stored seq and shows its seat nothing hidden there."""
    game.refresh_from_db()
    state = moves.game_state(game)
    for seat, text in frames:
        assert seq_of(text) == game.seq, f"seat {seat} was shown seq {seq_of(text)}"
        found = leaks(text, hidden_cards(state, seat))
        assert not found, f"seat {seat} was shown {found}"


async def the_next_real_move_reaches_every_seat(table: Table) -> None:
    game = table.game
    await database_sync_to_async(game.refresh_from_db)()
    seat, move = await database_sync_to_async(first_legal)(game)
    await database_sync_to_async(moves.submit_move)(game.pk, table.people[seat], move.to_dict())
    frames = [(seat, await sock.receive_from(timeout=3)) for seat, sock in enumerate(table.sockets)]
    await database_sync_to_async(as_the_database_says)(game, frames)


def unfit_events(game: Game, fitting: dict) -> dict[str, dict]:
    news = fitting["news"]
    rev = fitting["rev"]
    others = [s for s in range(3) if s != news["move"][0]]
    wrong_seat = {"type": "draw", "seat": others[0]}
    return {
        "another deal's draw (another site's game of the same number)": {
            **fitting, "news": {**news, "deal": "0123456789abcdef"},
        },
        "a draw by a seat whose turn it is not": {
            **fitting, "news": {**news, "move": [others[0], wrong_seat]},
        },
        "a draw two moves ahead (an unknown seq)": {
            **fitting, "rev": rev + 1, "news": {**news, "seq": news["seq"] + 1},
        },
        "the draw ending the game (it would show every hand)": {
            **fitting, "news": {**news, "status": Game.Status.FINISHED},
        },
        "a draw without its seat": {
            **fitting, "news": {**news, "move": [news["move"][0], {"type": "draw"}]},
        },
        "seats that are not rows": {**fitting, "news": {**news, "seats": [[1]]}},
        "news that is text": {**fitting, "news": "draw"},
        "another game's number": {**fitting, "game": game.pk + 1000},
        "no version": {"type": "game.update", "game": game.pk},
        "a version as text": {"type": "game.update", "game": game.pk, "rev": str(rev)},
        "an unknown kind": {"type": "game.nonsense", "game": game.pk},
        "a chat line without its fields": {"type": "chat.message", "body": 5},
        "a block of nobody": {"type": "chat.blocked", "blocked": "x"},
        "an arena's next game that is no number": {
            "type": "arena.next", "after": game.pk, "game": "x",
        },
    }  # fmt: skip


async def test_events_that_do_not_fit_the_game_leave_every_board_as_the_database_says(
    three_people, alice, bob, carol
):
    table = await table_at_a_draw(three_people, [alice, bob, carol])
    fitting = await database_sync_to_async(draw_never_made)(three_people)
    layer = get_channel_layer()

    for event in unfit_events(three_people, fitting).values():
        await layer.group_send(game_group(three_people.pk), event)
    frames = await table.frames_meanwhile()

    await database_sync_to_async(as_the_database_says)(three_people, frames)
    assert snapshots.cached(three_people.pk).seq == three_people.seq  # nothing kept of news
    await the_next_real_move_reaches_every_seat(table)  # every socket open
    await table.close()


@pytest.mark.parametrize("name", ["a draw without its seat", "an unknown kind"])
async def test_one_unfit_event_alone_leaves_the_socket_open_and_its_board_unchanged(
    name, three_people, alice, bob, carol
):
    table = await table_at_a_draw(three_people, [alice, bob, carol])
    fitting = await database_sync_to_async(draw_never_made)(three_people)

    event = unfit_events(three_people, fitting)[name]
    await get_channel_layer().group_send(game_group(three_people.pk), event)

    assert await table.frames_meanwhile() == []
    await the_next_real_move_reaches_every_seat(table)
    await table.close()


async def test_a_frame_sent_through_the_channel_layer_is_never_taken_for_a_seats_own(
    three_people, alice, bob, carol
):
    # A group event whose type is a frame's ("websocket.receive") would have every socket
    # of the table act as its own person.
    table = await table_at_a_draw(three_people, [alice, bob, carol])
    action = frame({"action": "draw", "seq": str(three_people.seq)})

    await get_channel_layer().group_send(
        game_group(three_people.pk), {"type": "websocket.receive", "text": action}
    )
    await get_channel_layer().group_send(
        game_group(three_people.pk), {"type": "websocket.disconnect", "code": 1000}
    )

    assert await table.frames_meanwhile() == []
    assert await MoveRow.objects.filter(game=three_people).acount() == three_people.seq
    await the_next_real_move_reaches_every_seat(table)
    await table.close()
