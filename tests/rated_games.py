"""One finished, rated game as the game service rates it, for the ratings' property tests:
seats are people (indexes into a list of accounts) or bot kinds."""

from __future__ import annotations

from games.models import Game, Seat
from games.ratings import core


def rated_game(users: list, seats, winner: int, chips, at, turn_seconds: int = 45):
    """Make and rate the game; return (its id, the seats' rating keys)."""
    game = Game.objects.create(
        status=Game.Status.FINISHED, rated=True, winner_seat=winner, chips=chips,
        finished_at=at, started_at=at, dealer=0, turn_seconds=turn_seconds,
    )  # fmt: skip
    rows = [
        Seat.objects.create(game=game, index=i, user=users[s])
        if isinstance(s, int)
        else Seat.objects.create(game=game, index=i, bot_kind=s)
        for i, s in enumerate(seats)
    ]
    core.rate_finished(game.pk, rows, winner, chips, at)
    return game.pk, [("user", users[s].pk) if isinstance(s, int) else ("bot", s) for s in seats]
