"""The series record (format ``tongits-series/1``, docs/record.md): the hands' game records
in order with the series' ante, its dealer rule, who held each seat and who was left at
the end. No database here: the engine replays each hand and ``ledger`` derives the pot
from the results, and everything the record says that the hands decide is checked
against them.

    {"format": "tongits-series/1", "ante": 1, "dealer_rule": "winner-deals-next",
     "ended": true, "people_at_end": [0, 2],
     "hands": [{"format": "tongits-record/1", "bots": [null, "greedy", null], ...}, ...],
     "pot": [{"hand": 1, "kind": "ante", "seat": 0, "amount": -1}, ...]}
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import Any

from games.engine.record import RecordError, load_record, replay, summary
from games.series.ledger import HandResult, Ledger, counted, ledger

FORMAT = "tongits-series/1"
DEALER_RULE = "winner-deals-next"
ANTES = (1, 2, 5)
# The most hands a series plays: after this many it ends by itself (games.series.services),
# which bounds the size of its record (games.history.replays.MAX_RECORD_BYTES).
MAX_HANDS = 100
# The bots a seat can hold (games.models.BOT_NAMES), as a series hand's ``bots`` names them.
BOT_KINDS = ("easy", "normal", "hard", "random", "greedy")


class SeriesRecordError(ValueError):
    """A series record that cannot be read, or says something its hands contradict."""


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


def ledger_json(book: Ledger, held: Collection[tuple[int, int]] = ()) -> dict[str, Any]:
    """The ledger as ``manage.py replay`` prints it: events, pot, house, standings. A pot
    taken at ``held`` (hand, seat), marked held in the record, counts apart as the series
    page counts it (``ledger.counted``): out of its taker's pots won and chips, in its
    ``pots_held`` and the ``held`` chips, and its event says ``"held": true``."""
    count = counted(book, held)
    events = pot_events(book)
    for event in events:
        if event["kind"] == "pot" and (event["hand"], event["seat"]) in held:
            event["held"] = True
    return {
        "events": events,
        "pot": book.pot,
        "house": book.house,
        "held": sum(count.held_chips),
        "standings": [
            {
                "seat": s.seat,
                "wins": s.wins,
                "hand_chips": s.hand_chips,
                "pot_chips": s.pot_chips,
                "net": s.net,
                "pots_won": s.pots_won,
                "pots_held": count.held_pots[s.seat],
            }
            for s in count.standings
        ],  # fmt: skip
    }


def pot_events(book: Ledger) -> list[dict[str, Any]]:
    """The ledger's events as a series record's ``pot`` holds them."""
    return [asdict(e) for e in book.events]


def people_of(bots: list[str | None]) -> list[int]:
    """The seats a hand's ``bots`` says were held by people."""
    return [seat for seat, kind in enumerate(bots) if kind is None]


def left_of(bots: list[list[str | None]], ended: bool, people_at_end: list[int]) -> list[int]:
    """The seats whose person left the series, as its hands' ``bots`` (in order) tell: a
    person's seat that a bot holds in the last hand, and once it ended, a person's seat of
    the last hand that is not among the people at the end."""
    people = {seat for kinds in bots for seat in people_of(kinds)}
    last = set(people_of(bots[-1])) if bots else set()
    gone = people - last
    if ended:
        gone |= last - set(people_at_end)
    return sorted(gone)


@dataclass(frozen=True)
class Header:
    """What a series record says besides its hands, each value of the right type."""

    ante: int
    hands: list
    ended: bool
    people_at_end: list[int]


def check(data: dict[str, Any]) -> Header:
    """The record's own fields, checked for type and range (not yet against its hands);
    SeriesRecordError if one is wrong."""
    ante = data.get("ante")
    if type(ante) is not int or ante not in ANTES:
        raise SeriesRecordError("ante must be 1, 2 or 5")
    if data.get("dealer_rule", DEALER_RULE) != DEALER_RULE:
        raise SeriesRecordError(f"the only dealer rule is {DEALER_RULE!r}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise SeriesRecordError("hands must be a list of game records")
    if len(hands) > MAX_HANDS:
        raise SeriesRecordError(f"a series has at most {MAX_HANDS} hands")
    ended = data.get("ended", False)
    if type(ended) is not bool:
        raise SeriesRecordError("ended must be true or false")
    people = data.get("people_at_end", [])
    if (
        not isinstance(people, list)
        or not all(type(p) is int and p in (0, 1, 2) for p in people)
        or len(set(people)) != len(people)
    ):
        raise SeriesRecordError("people_at_end must list seats 0, 1 or 2")
    return Header(ante, hands, ended, sorted(people))


def _bots(raw: dict[str, Any]) -> list[str | None]:
    bots = raw.get("bots")
    if not (
        isinstance(bots, list)
        and len(bots) == 3
        and all(kind is None or (isinstance(kind, str) and kind in BOT_KINDS) for kind in bots)
    ):
        raise SeriesRecordError("bots must name each seat's bot, or null for a person")
    return bots


def _check_seats(bots: list[str | None], before: list[str | None] | None) -> None:
    """A series is played by people while one is seated; a person who leaves is replaced by
    a bot for the rest of it, and a bot's seat stays that bot's."""
    if not people_of(bots):
        raise SeriesRecordError("no person is seated in this hand")
    if before is None:
        return
    for seat, (was, now) in enumerate(zip(before, bots, strict=True)):
        if was is not None and now != was:
            raise SeriesRecordError(f"seat {seat} was a bot, so it stays the same bot")


def _check_aborted(raw: dict[str, Any], over: bool) -> bool:
    """Whether the hand was aborted: the record says so exactly when its moves do not end
    it (a hand in play is never in a series record)."""
    aborted = raw.get("aborted", False)
    if type(aborted) is not bool:
        raise SeriesRecordError("aborted must be true or false")
    if aborted and over:
        raise SeriesRecordError("the hand is marked aborted, yet its moves end it")
    if not aborted and not over:
        raise SeriesRecordError("the hand did not end and is not marked aborted")
    return aborted


def _check_end(header: Header, last_bots: list[str | None]) -> None:
    people = header.people_at_end
    if not header.ended and people:
        raise SeriesRecordError("people_at_end must be empty while the series goes on")
    if not set(people) <= set(people_of(last_bots)):
        raise SeriesRecordError("people_at_end must be people seated in the last hand")


def _check_pot(data: dict[str, Any], book: Ledger) -> set[tuple[int, int]]:
    """The pot's events as written against those the hands derive; the (hand, seat) of the
    pots the record marks held for a fair play review (``"held": true`` on a pot taken)."""
    written = data.get("pot")
    if not isinstance(written, list):
        raise SeriesRecordError("pot must be the list of the pot's events")
    marked = []
    for index, event in enumerate(written):
        if isinstance(event, dict) and "held" in event:
            if event["held"] is not True or event.get("kind") != "pot":
                raise SeriesRecordError("held can only be true, on a pot taken")
            marked.append(index)
    written = [
        {k: v for k, v in e.items() if k != "held"} if isinstance(e, dict) else e for e in written
    ]
    derived = pot_events(book)
    if written != derived:
        index = next(
            (i for i, (w, d) in enumerate(zip(written, derived, strict=False)) if w != d),
            min(len(written), len(derived)),
        )
        raise SeriesRecordError(f"pot event {index} does not follow from the hands")
    return {(derived[i]["hand"], derived[i]["seat"]) for i in marked}


def replay_series(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Replay every hand, check what the record says against them and derive the pot:
    (the object ``manage.py replay`` prints, its exit status: 0, 1 for an illegal move,
    2 for a record that cannot be read or that its hands contradict)."""
    number: int | None = None  # the hand being read, for an error's "hand"
    try:
        header = check(data)
        results: list[HandResult] = []
        lines: list[dict[str, Any]] = []
        winner: int | None = None  # who deals the next hand
        bots: list[str | None] | None = None
        for number, raw in enumerate(header.hands, start=1):
            record = load_record(raw)
            result = replay(record)
            line = {"hand": number, **summary(result)}
            lines.append(line)
            if not result.ok:
                return {"ok": False, **line, "hands": lines}, 1
            if winner is not None and record.dealer != winner:
                raise SeriesRecordError(
                    f"hand {number} is dealt by seat {record.dealer}, not the winner {winner}"
                )
            o = result.state.outcome
            if _check_aborted(raw, o is not None):
                line["aborted"] = True
            seats = _bots(raw)
            _check_seats(seats, bots)
            bots = seats
            # The winner deals the next hand; an aborted hand's dealer deals again.
            winner = o.winner if o else record.dealer
            results.append(
                HandResult(number, True, True, o.winner if o else None,
                           tuple(o.chips) if o else None, record.dealer)
            )  # fmt: skip
        number = None
        _check_end(header, bots or [])
        book = ledger(header.ante, results, header.ended, header.people_at_end)
        held = _check_pot(data, book)
    except (SeriesRecordError, RecordError) as e:
        return {"ok": False, "hand": number, "move": None, "error": str(e)}, 2
    return {"ok": True, "format": FORMAT, "hands": lines, "ledger": ledger_json(book, held)}, 0


def replay_series_text(text: str | bytes | dict) -> tuple[dict[str, Any], int]:
    """``replay_series`` of a record given as JSON text (or already parsed)."""
    data = parse(text)
    if data is None:
        return {"ok": False, "hand": None, "error": f"not a {FORMAT} record"}, 2
    return replay_series(data)
