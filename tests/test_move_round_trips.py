"""A move on PostgreSQL is two round trips (games/play/live/rows.py): the BEGIN sent with the
game's lock, the COMMIT with the move's write. Seen here from the wire (libpq's trace of
what the connection sent), and checked to keep the transaction whole: a write that fails
leaves nothing behind, the on-commit work still runs, and the connection is left as
Django expects it."""

from __future__ import annotations

import os
import tempfile

import pytest
from django.db import connection, transaction

from games.models import Game
from games.models import Move as MoveRow
from games.play import errors, moves
from games.play.live import snapshots
from tests.test_services import people, simple_move, turn_view

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="the two-round-trip move is PostgreSQL's",
    ),
]


def _sent_queries(run) -> list[str]:
    """The queries ``run()`` sent on this thread's connection, as libpq traced them."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        try:
            run()
        finally:
            pgconn.untrace()
        trace.seek(0)
        lines = trace.read().splitlines()
    # A frontend message: "<time> F <length> <Type> ...": simple Query, or Parse.
    sent = [line for line in lines if "\tF\t" in line]
    return [line for line in sent if "\tQuery\t" in line or "\tParse\t" in line]


def test_a_move_is_two_round_trips_and_is_logged_whole(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    move = simple_move(view)
    user = people(game)[view.seat]
    snapshots.fresh(game.pk)  # as a table's sockets keep it: the seats come from it

    sent = _sent_queries(
        lambda: moves.submit_move(
            game.pk, user, move.to_dict(), expected_seq=game.seq, client_move_id="t-1"
        )
    )

    assert len(sent) == 2, sent
    assert "BEGIN" in sent[0] and "FOR UPDATE" in sent[0]
    assert "INSERT" in sent[1] and "UPDATE" in sent[1] and "COMMIT" in sent[1]
    row = MoveRow.objects.get(game=game)
    assert row.seq == 1 and row.client_move_id == "t-1" and row.payload == move.to_dict()
    game.refresh_from_db()
    assert game.seq == 1 and game.rev == row.game.rev
    # Django's own commit ran its on-commit work: this process keeps the new snapshot.
    assert snapshots.cached(game.pk).seq == 1
    # And the connection is as Django left it: autocommit, no transaction open.
    assert connection.get_autocommit() and not connection.in_atomic_block
    assert connection.connection.pgconn.transaction_status == 0  # IDLE


def test_a_write_refused_in_the_folded_commit_leaves_nothing_and_the_connection_usable(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    users = people(game)
    view = turn_view(game)
    moves.submit_move(game.pk, users[view.seat], simple_move(view).to_dict(), client_move_id="x")
    view = turn_view(game)
    before = Game.objects.get(pk=game.pk)

    # The same id at another version: the unique (game, client move id) refuses the write
    # that carries the COMMIT, and with it the whole move.
    with pytest.raises(errors.BadMove) as refused:
        moves.submit_move(
            game.pk, users[view.seat], simple_move(view).to_dict(),
            expected_seq=before.seq, client_move_id="x",
        )  # fmt: skip

    assert refused.value.message == errors.MOVE_ID_USED
    after = Game.objects.get(pk=game.pk)
    assert (after.seq, after.rev, after.due_at) == (before.seq, before.rev, before.due_at)
    assert MoveRow.objects.filter(game=game).count() == 1
    moves.submit_move(game.pk, users[view.seat], simple_move(view).to_dict(), client_move_id="y")
    assert Game.objects.get(pk=game.pk).seq == before.seq + 1


def test_inside_a_transaction_of_the_callers_a_move_does_not_commit_it(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    user = people(game)[view.seat]

    with pytest.raises(RuntimeError), transaction.atomic():
        moves.submit_move(game.pk, user, simple_move(view).to_dict(), client_move_id="z")
        raise RuntimeError("the caller changes its mind")

    assert not MoveRow.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).seq == 0
