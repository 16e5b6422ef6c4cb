"""The series record (format ``tongits-series/1``): the hands' game records in order with
the series' ante, its dealer rule and who was left at the end. No database here: the
engine replays each hand and ``ledger`` derives the pot from the results.

    {"format": "tongits-series/1", "ante": 1, "dealer_rule": "winner-deals-next",
     "ended": true, "people_at_end": [0, 2],
     "hands": [{"format": "tongits-record/1", ...}, ...],
     "pot": [{"hand": 1, "kind": "ante", "seat": 0, "amount": -1}, ...]}

``pot`` is written for people to read; a replay derives it again and ignores what the
file says.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from games.engine.record import RecordError, load_record, replay, summary
from games.series.ledger import HandResult, Ledger, ledger

FORMAT = "tongits-series/1"
DEALER_RULE = "winner-deals-next"


class SeriesRecordError(ValueError):
    pass


def is_series(data: object) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def parse(text: str | bytes | dict) -> dict[str, Any] | None:
    """The JSON object if it is a series record, else None (a game record, or not JSON)."""
    if isinstance(text, dict):
        return text if is_series(text) else None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None  # the game record's reader says what is wrong with it
    return data if is_series(data) else None


def ledger_json(book: Ledger) -> dict[str, Any]:
    return {
        "events": [asdict(e) for e in book.events],
        "pot": book.pot,
        "house": book.house,
        "standings": [
            {
                "seat": s.seat,
                "wins": s.wins,
                "hand_chips": s.hand_chips,
                "pot_chips": s.pot_chips,
                "net": s.net,
                "pots_won": s.pots_won,
            }
            for s in book.standings
        ],  # fmt: skip
    }


def check(data: dict[str, Any]) -> tuple[int, list, bool, list[int]]:
    """(ante, hand records, ended, people at the end), or SeriesRecordError."""
    ante = data.get("ante")
    if ante not in (1, 2, 5):
        raise SeriesRecordError("ante must be 1, 2 or 5")
    if data.get("dealer_rule", DEALER_RULE) != DEALER_RULE:
        raise SeriesRecordError(f"the only dealer rule is {DEALER_RULE!r}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise SeriesRecordError("hands must be a list of game records")
    people = data.get("people_at_end", [])
    if not isinstance(people, list) or not all(p in (0, 1, 2) for p in people):
        raise SeriesRecordError("people_at_end must list seats 0, 1 or 2")
    return ante, hands, bool(data.get("ended")), sorted(set(people))


def replay_series(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Replay every hand and derive the pot: (the object ``manage.py replay`` prints, its
    exit status: 0, 1 for an illegal move, 2 for an unreadable record)."""
    try:
        ante, hands, ended, people = check(data)
    except SeriesRecordError as e:
        return {"ok": False, "hand": None, "error": str(e)}, 2
    results, lines, winner = [], [], None
    for number, raw in enumerate(hands, start=1):
        try:
            record = load_record(raw)
        except RecordError as e:
            return {"ok": False, "hand": number, "move": None, "error": str(e)}, 2
        if winner is not None and record.dealer != winner:
            error = f"hand {number} is dealt by seat {record.dealer}, not the winner {winner}"
            return {"ok": False, "hand": number, "move": None, "error": error}, 2
        result = replay(record)
        line = summary(result)
        lines.append({"hand": number, **line})
        if not result.ok:
            return {"ok": False, "hand": number, **line, "hands": lines}, 1
        o = result.state.outcome
        if o is None and number < len(hands):
            error = f"hand {number} did not end, yet another hand follows"
            return {"ok": False, "hand": number, "move": None, "error": error}, 2
        winner = o.winner if o else None
        results.append(
            HandResult(number, True, o is not None, winner, tuple(o.chips) if o else None,
                       record.dealer)
        )  # fmt: skip
    book = ledger(ante, results, ended, people)
    return {"ok": True, "format": FORMAT, "hands": lines, "ledger": ledger_json(book)}, 0


def replay_series_text(text: str | bytes | dict) -> tuple[dict[str, Any], int]:
    data = parse(text)
    if data is None:
        return {"ok": False, "hand": None, "error": f"not a {FORMAT} record"}, 2
    return replay_series(data)
