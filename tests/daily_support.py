"""Helpers for the daily deal's tests: a person's daily game played to its end (or part of
the way) through the services, as the table's page and the server clock would."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

from django.utils import timezone

from games import bots
from games.engine import Move, seat_view
from games.engine.view import SeatView
from games.models import Game
from games.play import moves as play_moves
from games.play import server_moves

Policy = Callable[[SeatView, int], Move]  # (the seat's view, moves so far) -> its move


def greedy_person(view: SeatView, ply: int) -> Move:
    """A person who plays as the greedy bot would, seeded by the move number."""
    return bots.choose("greedy", view, random.Random(ply))


def hard_person(seed: str) -> Policy:
    """A person who plays exactly as Hard would in the daily seat (par's own seeding)."""
    return lambda view, ply: bots.choose("hard", view, random.Random(bots.bot_seed(seed, ply, 0)))


def play(game: Game, user, policy: Policy = greedy_person, moves: int = 10_000) -> Game:
    """Play ``game`` on: ``user``'s moves from ``policy``, the bots' by the server clock,
    until it ends or ``user`` has made ``moves`` moves."""
    later = timezone.now() + timedelta(days=1)
    made = 0
    for _ in range(1000):
        game = Game.objects.get(pk=game.pk)
        if game.is_over or (made >= moves and game.turn_seat == 0):
            break
        if game.turn_seat == 0:
            state = play_moves.game_state(game)
            move = policy(seat_view(state, 0), state.ply)
            play_moves.submit_move(game.pk, user, move.to_dict(), expected_seq=game.seq)
            made += 1
        else:
            server_moves.play_due(game.pk, now=later)
    return Game.objects.get(pk=game.pk)


def bot_moves(game: Game) -> list[dict]:
    """The bots' moves of a game, in order, with the move number each was made at."""
    rows = game.moves.order_by("seq").values_list("seq", "seat", "payload")
    return [(seq, payload) for seq, seat, payload in rows if seat != 0]


def manila(text: str) -> datetime:
    """An instant given as Manila's wall clock, "2026-12-05 23:59"."""
    from games.daily.days import MANILA

    return datetime.fromisoformat(text).replace(tzinfo=MANILA)


# A deal whose games last (32 moves when the person plays greedily, and wins), with a
# seed long enough that a leak of it cannot hide among a page's other digits.
LONG_SEED = 918273645546372836


def today_with_seed(now: datetime, seed: int = LONG_SEED):
    """Today's day, drawn with ``seed`` (a test's known deal) instead of a secret one."""
    from games.daily import days
    from games.daily.models import Day

    day, _ = Day.objects.update_or_create(
        day=days.day_of(now), defaults={"seed": str(seed), "commitment": Game.commit_to(str(seed))}
    )
    return day
