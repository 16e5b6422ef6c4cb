"""Moves the server makes: bots, and seats whose turn clock ran out.

The server clock (``games.play.clock``) calls ``play_due`` for each game that falls due;
the move is appended by the one writer (``games.play.moves._apply_and_log``). A Hard bot's
move is thought out in another process (``games.play.live.thinking``) with the game's row
lock let go meanwhile, then made by ``play_thought``."""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import bots
from games.engine import Move, seat_view
from games.engine.view import SeatView
from games.models import Game
from games.play.live import thinking
from games.play.moves import (
    MoveResult,
    _apply_and_log,
    _locked_game_and_seats,
    _set_away,
    game_state,
)

log = logging.getLogger(__name__)

# How long a game whose Hard bot is thinking is left to the clock that started the thought.
THINKING_LEASE = timedelta(seconds=15)


@dataclass(frozen=True)
class Thinking:
    """A Hard bot's move still to work out: its seat's view, and the seed of its search."""

    game_id: int
    seq: int
    kind: str
    view: SeatView  # of the seat to move
    seed: int


def play_due(
    game_id: int, now: datetime | None = None, *, defer_thinking: bool = False
) -> MoveResult | Thinking | None:
    """If the server owes this game a move now, make it (one move).

    A bot plays its own kind; a person whose clock ran out is marked away and the greedy
    bot plays a safe move for them, the rest of that turn at once and each later turn of
    theirs when its turn clock runs out. Bots see only their seat's view (never the state).

    A Hard bot's move is thought out in another process, with the game's row lock let go
    meanwhile. With ``defer_thinking`` (the server clock) the thought is handed back as a
    ``Thinking`` for the caller to run and finish with ``play_thought``; without it, this
    waits for it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game, seats = _locked_game_and_seats(game_id)
        if game.status != Game.Status.PLAYING or game.due_at is None or game.due_at > now:
            return None
        seat = seats[game.turn_seat]
        if not seat.plays_itself:
            seat = _set_away(game, seats, seat.index, True)
            log.info("Game %s: seat %s ran out of time and is away.", game.pk, seat.index)
        state = game_state(game)
        view = seat_view(state, seat.index)
        kind = seat.bot_kind or "greedy"
        # From the secret seed (never from the game's id alone): the same game, the same moves.
        seed = bots.bot_seed(game.seed, game.seq, seat.index) if game.seed else secrets.randbits(64)
        if kind not in bots.SEARCHING:
            move = bots.choose(kind, view, random.Random(seed))
            return _apply_and_log(game, seats, state, move, by_server=True)
        # A Hard bot thinks outside the lock and in another process (games.play.live.thinking).
        # Meanwhile the game is not due, so no clock starts the same thought again; if this
        # one is lost (a worker stopped), the game falls due once more after the lease.
        game.due_at = now + THINKING_LEASE
        game.save(update_fields=["due_at"])
        job = Thinking(game.pk, game.seq, kind, view, seed)
    if defer_thinking:
        return job
    return play_thought(job, thinking.choose(job.kind, job.view, job.seed))


def play_thought(job: Thinking, move: Move) -> MoveResult | None:
    """Make the move a bot thought of for ``job``, unless the game moved on meanwhile."""
    with transaction.atomic():
        game, seats = _locked_game_and_seats(job.game_id)
        if game.status != Game.Status.PLAYING or game.seq != job.seq:
            return None
        return _apply_and_log(game, seats, game_state(game), move, by_server=True)
