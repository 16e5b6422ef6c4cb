"""What happens in games, made into notices: a game's end (play's finish hook) and a turn at
a table that waits (``your_turn``, for the correspondence tables).

A live table does not tell its people "your turn": they are at it, with its clock and its
sound. It tells the end only to a person who was not there to see it (their seat was
away, the server playing for them), and only by push (an email for every live game left
early would be too many); a table that waits (a turn of an hour or more) tells everyone
both, by push or email. The facts name at most the discard that made it someone's turn, a card
face up on the pile for everyone; never a card of a hand, the stock or the seed.
"""

from __future__ import annotations

import functools
from datetime import timedelta

from django.db import connection, transaction
from django_tasks import task

from games.models import Game, Seat
from games.models import Move as MoveRow
from games.play import hooks

from .models import Kind
from .notices import tell

# A table whose turn lasts this long or longer waits for its people: they are told.
WAITING_TURN = timedelta(hours=1)


def waits(turn_seconds: int) -> bool:
    return turn_seconds >= WAITING_TURN.total_seconds()


def _finished(game_id: int, seats, outcome, now, rated: bool) -> None:
    # In the transaction of the last move, under the game's lock: one query when a person
    # sat at the table (none for bots alone); the notices are stored after the commit.
    people = [s for s in seats if s.user_id is not None and not s.is_bot]
    if not people:
        return
    waited = _waits(game_id)
    told = people if waited else [s for s in people if s.away]
    # A live game's end is worth a push to someone who left it, not an email each time.
    only = {} if waited else {"push_only": True}
    for seat in told:
        chips = outcome.chips[seat.index]
        key = f"game-ended:{game_id}"
        tell(seat.user_id, Kind.GAME_ENDED, key, table=game_id, chips=chips, **only)


def _waits(game_id: int) -> bool:
    # Written out: asked at every game's end, in its last move's transaction.
    table, turn = (connection.ops.quote_name(n) for n in (Game._meta.db_table, "turn_seconds"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {table} WHERE id = %s AND {turn} >= %s",
            [game_id, WAITING_TURN.total_seconds()],
        )
        return cursor.fetchone() is not None


def your_turn(game_id: int) -> None:
    """Tell the person whose turn it now is at ``game_id`` (a table that waits), once per
    move: call it after each move there, in the move's transaction or after it. Only a
    task is queued (after the commit): the worker reads the game and tells."""
    queue = functools.partial(announce_turn.enqueue, game_id)
    transaction.on_commit(queue, robust=True)


@task()
def announce_turn(game_id: int) -> str:
    """The worker's half of ``your_turn``: whose turn it is, after whose discard."""
    game = Game.objects.filter(pk=game_id).values("status", "turn_seat", "turn_seconds", "seq")
    game = game.first()
    if game is None or game["status"] != Game.Status.PLAYING or not waits(game["turn_seconds"]):
        return "not a table that waits"
    rows = Seat.objects.filter(game_id=game_id).select_related("user__profile")
    seats = {s.index: s for s in rows}
    seat = seats.get(game["turn_seat"])
    if seat is None or seat.user_id is None or seat.plays_itself:
        return "nobody to tell"
    facts = {"table": game_id, "seq": game["seq"]}
    last = MoveRow.objects.filter(game_id=game_id).order_by("-seq").values("seat", "payload")
    last = last.first()
    if last is not None and last["seat"] == seat.index:
        return "their own turn goes on"  # they drew or melded: they know
    if last is not None and last["payload"].get("type") == "discard":
        facts.update(_who(seats[last["seat"]]), discard=last["payload"]["card"])
    tell(seat.user_id, Kind.YOUR_TURN, f"turn:{game_id}:{game['seq']}", **facts)
    return "told"


def _who(seat: Seat) -> dict:
    # A bot is named in the reader's language when the notice is worded.
    if seat.is_bot:
        return {"bot": seat.bot_kind, "bot_seat": seat.index + 1}
    return {"name": seat.name}


def connect() -> None:
    hooks.on_finish(_finished)
