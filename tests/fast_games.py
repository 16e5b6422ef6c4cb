"""Finished games made quickly through the services: the engine plays a table's moves up
to a few before the end, they are stored as the log, and the server's own bot turns
(``server_moves.play_due``) play the rest, so the game ends in the same transaction as any
live game ends (ratings and series included). The greedy bot chooses a person's stored
moves, but they are logged as the person's own (not the server's): an arena scores a seat
the server played most of as away."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games import bots
from games.engine import apply, replay, seat_view
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.play import moves, server_moves

LEFT_FOR_THE_SERVER = 3


def finish(game_id: int, rng: random.Random | None = None) -> Game:
    """Play a dealt game to its end: bots for every seat (people's seats as away)."""
    prepare(game_id, rng)
    return play_out(game_id)


def play_out(game_id: int) -> Game:
    """The server plays a prepared game's moves until it ends."""
    for _ in range(200):
        if server_moves.play_due(game_id, now=timezone.now() + timedelta(days=1)) is None:
            break
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED, game.status
    return game


def prepare(
    game_id: int, rng: random.Random | None = None, left: int = LEFT_FOR_THE_SERVER
) -> None:
    """Store a dealt game's moves but its last ``left`` + 1 or so, the next one due now, for
    the server (``server_moves.play_due``, as in ``play_out``) to play the rest."""
    rng = rng or random.Random(game_id)
    game = Game.objects.get(pk=game_id)
    Seat.objects.filter(game_id=game_id, bot_kind="").update(away=True)
    state = moves.game_state(game)
    kinds = {s.index: s.bot_kind or "greedy" for s in game.seats.all()}
    people = {s.index for s in game.seats.all() if not s.bot_kind}
    played = []
    while True:
        move = bots.choose(kinds[state.turn], seat_view(state, state.turn), rng)
        after = apply(state, move)
        if after.outcome is not None:
            break
        played.append(move)
        state = after
    keep = played[: max(0, len(played) - left)]
    MoveRow.objects.bulk_create(
        MoveRow(
            game_id=game_id, seq=i, seat=m.seat, payload=m.to_dict(), by_server=m.seat not in people
        )
        for i, m in enumerate(keep, start=game.seq + 1)
    )
    state = replay(game.record()).state
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game_id).update(
        seq=game.seq + len(keep), rev=game.rev + len(keep) + 1, turn_seat=state.turn, due_at=past
    )
    moves.forget_cached_states()


def finish_quickly(game_id: int) -> Game:
    """Play a dealt game to its end with one server move: ``prepare_last_move``, then
    ``server_moves.play_due`` makes the last, so the game ends through the services as any live
    game does. About a third of ``finish``'s time (one locked move instead of several); no
    searching bots. Returns the Game as it was loaded (before the end)."""
    game = prepare_last_move(game_id)
    last = server_moves.play_due(game_id, now=timezone.now())
    assert last is not None and last.finished, last
    return game


def prepare_last_move(game_id: int) -> Game:
    """Store every move of a dealt game but the last, which is due now: the engine plays
    every move the server would make (each seat's bot, the greedy bot for a person, away;
    the server's own seeded randomness), so the server's next move (``server_moves.play_due``)
    is the one that ends the game. No searching bots. Returns the Game as it was loaded."""
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.order_by("index"))
    Seat.objects.filter(game_id=game_id, bot_kind="").update(away=True)
    kinds = [s.bot_kind or "greedy" for s in seats]
    by_bot = [bool(s.bot_kind) for s in seats]
    assert not set(kinds) & bots.SEARCHING, kinds
    state = moves.game_state(game)
    played = []
    while True:
        seq = game.seq + len(played)
        rng = random.Random(bots.bot_seed(game.seed, seq, state.turn))
        move = bots.choose(kinds[state.turn], seat_view(state, state.turn), rng)
        after = apply(state, move)
        if after.outcome is not None:
            break
        played.append(move)
        state = after
    MoveRow.objects.bulk_create(
        MoveRow(game_id=game_id, seq=i, seat=m.seat, payload=m.to_dict(), by_server=by_bot[m.seat])
        for i, m in enumerate(played, start=game.seq + 1)
    )
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game_id).update(
        seq=game.seq + len(played), rev=game.rev + len(played) + 1, turn_seat=state.turn,
        due_at=past,
    )  # fmt: skip
    moves.forget_cached_states()
    return game
