"""The tournament record (format ``tongits-tournament/1``, docs/record.md): a tournament's
finished games' records in the order they were dealt, each with who held its seats, who
played it away (scoring nothing from it) and the seats' ratings, and the scoring and
standings they make. No database here: the engine replays each game, and ``scoring``
recomputes the standings, which must agree with the ones the record states.

    {"format": "tongits-tournament/1", "name": "…", "starts_at": "…", "minutes": 30,
     "scoring": {"win": 2, "tongits": 3, "second": 1, "streak_after": 2, "streak_factor": 2},
     "entrants": ["ann", "ben", "cy"],
     "games": [{"format": "tongits-record/1", "players": ["ann", "Easy bot 2", "ben"],
                "bots": [null, "easy", null], "away": [2], "ratings": [1000, 1000, 1012], …}],
     "standings": [{"rank": 1, "player": "ann", "points": 2, "games": 1, "performance": 1006.0}]}
"""

from __future__ import annotations

import json
from typing import Any

from games.engine.record import RecordError, load_record, replay, summary
from games.tournaments import scoring

FORMAT = "tongits-tournament/1"
GONE = "gone"  # in a game's ``bots``: a person whose account was removed (scores nothing)
MAX_GAMES = 2000


def rules() -> dict[str, int]:
    return {
        "win": scoring.WIN,
        "tongits": scoring.TONGITS,
        "second": scoring.SECOND,
        "streak_after": scoring.STREAK_AFTER,
        "streak_factor": scoring.STREAK_FACTOR,
    }


def parse(text: str | bytes | dict) -> dict[str, Any] | None:
    """The JSON object if it is a tournament record, else None."""
    if isinstance(text, dict):
        data = text
    else:
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def standings_json(table: list[scoring.Standing]) -> list[dict[str, Any]]:
    return [
        {
            "rank": row.rank,
            "player": row.name,
            "points": row.score.points,
            "games": row.score.games,
            "performance": round(row.score.performance, 1),
        }
        for row in table
    ]


def _check(data: dict[str, Any]) -> None:
    if data.get("scoring") != rules():
        raise RecordError("its scoring is not this site's (see How to play)")
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise RecordError(f"games must be a list of at most {MAX_GAMES} game records")
    entrants = data.get("entrants")
    if not isinstance(entrants, list) or not all(isinstance(n, str) for n in entrants):
        raise RecordError("entrants must be a list of names")
    if len(set(entrants)) < len(entrants):
        raise RecordError("entrants must have different names")
    for i, game in enumerate(games, start=1):
        if not isinstance(game, dict):
            raise RecordError(f"game {i} is not a record")
        players, bots = game.get("players"), game.get("bots")
        ratings, away = game.get("ratings"), game.get("away")
        if not (isinstance(players, list) and isinstance(bots, list) and isinstance(ratings, list)):
            raise RecordError(f"game {i} needs players, bots and ratings for its three seats")
        if not len(players) == len(bots) == len(ratings) == 3:
            raise RecordError(f"game {i} needs players, bots and ratings for its three seats")
        if not all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in ratings):
            raise RecordError(f"game {i}: a rating is not a number")
        if not isinstance(away, list) or not all(a in (0, 1, 2) for a in away):
            raise RecordError(f"game {i}: away must list seats 0 to 2")
        for name, bot in zip(players, bots, strict=True):
            if bot is None and name not in entrants:
                raise RecordError(f"game {i}: {name!r} played but is no entrant")


def replay_tournament(text: str | bytes | dict) -> tuple[dict[str, Any], int]:
    """Replay every game of a tournament record and recompute its standings: (the object
    ``manage.py replay`` prints, the exit status: 0 all replayed and the standings agree,
    1 a move is illegal or a game did not end or the standings differ, 2 unreadable)."""
    data = parse(text)
    if data is None:
        return {"ok": False, "move": None, "error": f"format is not {FORMAT}"}, 2
    try:
        _check(data)
        records = [load_record(game) for game in data["games"]]
    except RecordError as e:
        return {"ok": False, "move": None, "error": str(e)}, 2
    lines, status = [], 0
    results: dict[str, list[scoring.Result]] = {name: [] for name in data["entrants"]}
    for i, (game, record) in enumerate(zip(data["games"], records, strict=True), start=1):
        played = replay(record)
        line = {"game": i, **summary(played)}
        lines.append(line)
        outcome = played.state.outcome if played.ok else None
        if outcome is None:
            status = 1
            continue
        for seat, (name, bot) in enumerate(zip(game["players"], game["bots"], strict=True)):
            if bot is not None:
                continue  # bots score nothing
            place = scoring.place_of(seat, outcome.winner, outcome.chips)
            met = tuple(float(game["ratings"][o]) for o in range(3) if o != seat)
            results[name].append(
                scoring.Result(
                    place, tongits=place == 1 and outcome.end == "tongits",
                    away=seat in game["away"], opponents=met,
                )
            )  # fmt: skip
    table = standings_json(scoring.standings((n, n, r) for n, r in results.items()))
    agrees = table == data.get("standings")
    if not agrees:
        status = max(status, 1)
    out = {"ok": status == 0, "format": FORMAT, "games": lines, "standings": table}
    out["standings_agree"] = agrees
    return out, status
