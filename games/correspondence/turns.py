"""The hooks into play: after a move at a correspondence table, tell the person whose
turn it now is (``games.notifications.events.your_turn``, a task after the commit); when
the clock finds such a game due, hold it for a person on vacation
(``vacations.hold``). Neither costs a live table a query."""

from __future__ import annotations

from games.models import Game
from games.notifications import events
from games.play import hooks

from . import vacations


def moved(game, seats, now) -> None:
    """Play's ``on_move`` hook, in the move's transaction: no query."""
    if not game.correspondence or game.status != Game.Status.PLAYING:
        return
    seat = seats[game.turn_seat] if game.turn_seat is not None else None
    if seat is not None and seat.user_id is not None and not seat.plays_itself:
        events.your_turn(game.pk)


def connect() -> None:
    hooks.on_move(moved)
    hooks.on_due(vacations.hold)
