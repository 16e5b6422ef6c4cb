"""A tournament's record out of the database (``tongits-tournament/1``, see ``record``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from accounts.models import display_name_for
from games.history.records import record_dict
from games.models import Game
from games.tournaments import record, scoring
from games.tournaments.models import Tournament
from games.tournaments.standings import games_of, ratings_at_deal, results


def _number(rating: float) -> int | float:
    # Ratings are whole numbers (mu x 40, rounded): written as such, as they always were.
    return int(rating) if float(rating).is_integer() else rating


def _entrant_names(entries: list) -> dict[int, str]:
    """Each entrant's name in the record, by user id: the name shown, and where two share
    it, with the username after it. A replay keys people by these names, so two people
    called "Ace" became one, and the record disagreed with its own standings."""
    shown = {e.user_id: display_name_for(e.user) for e in entries}
    counts = Counter(shown.values())
    names = {
        e.user_id: shown[e.user_id]
        if counts[shown[e.user_id]] == 1
        else f"{shown[e.user_id]} ({e.user.get_username()})"
        for e in entries
    }
    # A name shown that reads like another's "Ace (ben)": those who still share a name
    # are written by their usernames, which no two people share (a username may read as
    # someone's shown name, hence the last round).
    for _round in range(2):
        counts = Counter(names.values())
        names = {
            e.user_id: names[e.user_id] if counts[names[e.user_id]] == 1 else e.user.get_username()
            for e in entries
        }
    if len(set(names.values())) < len(names):
        names = {e.user_id: f"{e.user.get_username()} #{e.user_id}" for e in entries}
    return names


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
    # A closed account stands in no standings: it is no entrant here either.
    entries = list(t.entries.filter(user__is_active=True).select_related("user__profile"))
    names = _entrant_names(entries)
    games = []
    for tg in tgs:
        game_seats = sorted(tg.game.seats.all(), key=lambda s: s.index)
        data = record_dict(tg.game)
        data["players"] = [
            names.get(s.user_id, name) for s, name in zip(game_seats, data["players"], strict=True)
        ]
        # A person whose account is gone (deleted, their entry with it, or closed) scores
        # nothing, as on the site; "gone" in their seat's place says so, and a replay skips
        # them as it skips bots (they were no entrant any more, and the record was refused).
        data["bots"] = [
            s.bot_kind or (record.GONE if s.user_id not in names else None) for s in game_seats
        ]
        data["away"] = list(tg.away)
        data["ratings"] = [_number(r) for r in at_deal[tg.game_id]]
        games.append(data)
    # Ranked as a replay of the record ranks them: by the record's names (standings.py
    # breaks a tie of equal display names by the entry instead).
    found = results(t, tgs)
    table = scoring.standings(
        (names[e.user_id], names[e.user_id], found.get(e.user_id, [])) for e in entries
    )
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
        "entrants": [names[e.user_id] for e in entries],
        "games": games,
        "standings": record.standings_json(table),
    }
