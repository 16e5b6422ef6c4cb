"""A tournament's record out of the database (``tongits-tournament/1``, see ``record``)."""

from __future__ import annotations

from typing import Any

from accounts.models import display_name_for
from games.history.records import record_dict
from games.models import Game
from games.tournaments import record
from games.tournaments.models import Tournament
from games.tournaments.standings import games_of, ratings_at_deal, standings


def _number(rating: float) -> int | float:
    # Ratings are whole numbers (mu x 40, rounded): written as such, as they always were.
    return int(rating) if float(rating).is_integer() else rating


def tournament_dict(t: Tournament) -> dict[str, Any]:
    """Its finished games (a game in play is left out: its deal is secret until it ends;
    so is a game fair play voided, which counts in no standings), and the standings they
    make, with the ratings they were computed from."""
    tgs = [
        tg
        for tg in games_of(t)
        if tg.game.status == Game.Status.FINISHED and tg.game.voided_at is None
    ]
    at_deal = ratings_at_deal(tgs)
    games = []
    for tg in tgs:
        game_seats = sorted(tg.game.seats.all(), key=lambda s: s.index)
        data = record_dict(tg.game)
        data["bots"] = [s.bot_kind or None for s in game_seats]
        data["away"] = list(tg.away)
        data["ratings"] = [_number(r) for r in at_deal[tg.game_id]]
        games.append(data)
    table = [row for row, _entry in standings(t, tgs)]
    return {
        "format": record.FORMAT,
        "id": t.pk,
        "name": t.name,
        "starts_at": t.starts_at.isoformat(),
        "minutes": t.minutes,
        "variants": t.variants,
        "rated": t.rated,
        "turn_seconds": t.turn_seconds,
        "finished": t.finished_at is not None,
        "scoring": record.rules(),
        "entrants": [display_name_for(e.user) for e in t.entries.select_related("user")],
        "games": games,
        "standings": record.standings_json(table),
    }
