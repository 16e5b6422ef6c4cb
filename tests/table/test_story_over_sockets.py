"""The table's story over the socket (issue 8): whole games played the way the greedy bot
plays (takes, melds, secret sets, lay-offs, Draw calls), three people and a spectator
watching. Every frame each one receives, move list, last turns, discard pile and block
notes included, is scanned for what that watcher may not see (tests/table/leaks.py).
"""

from __future__ import annotations

import random
import re
import uuid

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import bots
from games.engine import seat_view
from games.models import Game
from games.play import moves
from tests.table.support import SEED, fields, frame, seq_of, session_headers, socket
from tests.table.test_consumer import assert_no_leaks, connect_all

pytestmark = pytest.mark.django_db(transaction=True)

TAIL = re.compile(r'<ol id="moves-tail".*?</ol>', re.S)


@database_sync_to_async
def greedy_move(game: Game, rng: random.Random):
    """The game reloaded, the seat to act and the greedy bot's move for it."""
    game.refresh_from_db()
    if game.is_over:
        return game, -1, None
    state = moves.game_state(game)
    view = seat_view(state, state.turn)
    return game, state.turn, bots.choose("greedy", view, rng)


@pytest.mark.parametrize("seed", [SEED, SEED + 1])
async def test_whole_greedy_games_send_each_watcher_only_what_it_may_see(
    make_game, alice, bob, carol, seed
):
    dave = await database_sync_to_async(get_user_model().objects.create_user)(
        "dave", "dave@example.com", "pw-dave-123!"
    )
    game = await database_sync_to_async(make_game)([alice, bob, carol], seed=seed)
    headers = [await database_sync_to_async(session_headers)(u) for u in (alice, bob, carol, dave)]
    seats = await connect_all(game, headers[:3])
    spectator = socket(game.pk, headers[3])
    assert (await spectator.connect())[0]
    watched = [await spectator.receive_from(timeout=3)]
    rng = random.Random(seed)
    kinds = set()

    game, seat, move = await greedy_move(game, rng)
    while move is not None:
        kinds.add(move.type)
        data = fields(move, seq=str(game.seq), client_move_id=str(uuid.uuid4()))
        await seats.sockets[seat].send_to(text_data=frame(data))
        updates = await seats.receive_all()
        watched.append(await spectator.receive_from(timeout=3))
        # The mover's list tells the move as "You …"; everyone's list has a line for it.
        assert all(TAIL.search(u) for u in updates), "a move's frame without the move list"
        assert "You " in TAIL.search(updates[seat]).group()
        game, seat, move = await greedy_move(game, rng)
    await seats.close()
    await spectator.disconnect()

    assert game.status == Game.Status.FINISHED
    assert {"draw", "meld", "discard"} <= kinds
    checked = await database_sync_to_async(assert_no_leaks)(game, seats.frames, watched)
    assert checked == 4 * len(watched)
    assert all(seq_of(w) == i for i, w in enumerate(watched))
