"""Series records in and out of the database: download one, upload one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from games.history.records import BadRecord, import_game_records, move_refused, record_dict
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.series import services
from games.series.ledger import ledger
from games.series.models import Hand, Series
from games.series.record import DEALER_RULE, FORMAT, left_of, pot_events, replay_series
from games.words.rule_messages import unreadable

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def series_dict(series: Series, st: services.State | None = None) -> dict[str, Any]:
    """The series as a ``tongits-series/1`` object: its hands that are over, in order, each
    with who held its seats, and the pot's events of those hands only. A hand in play is
    left out with its antes (its deal is secret until it ends), so the record is a whole
    series at every moment; PermissionError before the first hand is over. ``st``: the
    series' state, if the caller has it. Five queries at most (four more without ``st``),
    however many hands: the two of ``pages.held_seats`` mark a pot held for review."""
    st = st or services.state(series)
    # A table aborted before it was dealt has no record and put nothing in the pot; the
    # record numbers the hands it holds from 1, as a replay of it does.
    done = [h for h in st.hands if h.over and h.dealt]
    if not done:
        raise PermissionError("a series' record is available once its first hand is over")
    over = [replace(h, number=i) for i, h in enumerate(done, start=1)]
    games = list(
        # The hands the ledger read, even if the one in play ended since.
        Game.objects.filter(
            series_hand__series=series, series_hand__number__lte=done[-1].number, status__in=OVER
        )
        .exclude(dealer=None)
        # The seats with their people and profiles in one query (their names).
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("user__profile")))
        .order_by("series_hand__number")
    )
    logs: dict[int, list] = {game.pk: [] for game in games}
    rows = MoveRow.objects.filter(game__in=games).order_by("game_id", "seq")
    for game_id, payload in rows.values_list("game_id", "payload"):
        logs[game_id].append(payload)
    hands = []
    for game in games:
        record = record_dict(game, logs[game.pk])
        record["bots"] = [s.bot_kind or None for s in sorted(game.seats.all(), key=_index)]
        hands.append(record)
    book = ledger(series.ante, over, series.ended, series.people_at_end)
    return {
        "format": FORMAT,
        "id": series.pk,
        "ante": series.ante,
        "dealer_rule": DEALER_RULE,
        "ended": series.ended,
        "people_at_end": list(series.people_at_end),
        "hands": hands,
        "pot": _marked(pot_events(book), series, done),
    }


def _marked(events: list[dict[str, Any]], series: Series, done: list) -> list[dict[str, Any]]:
    """The pot's events, a pot held for a fair play review (``pages.held_seats``: its taker
    sat with an account fair play holds it with) marked ``"held": true``, as the series
    page shows it (issue 49). The record numbers the hands that were dealt from 1."""
    from games.series.pages import held_seats  # pages reads the ledger these records write

    number = {hand.number: n for n, hand in enumerate(done, start=1)}
    held = {(number.get(n), seat) for _s, n, seat in held_seats({series.pk})}
    for event in events:
        if event["kind"] == "pot" and (event["hand"], event["seat"]) in held:
            event["held"] = True
    return events


def _index(seat: Seat) -> int:
    return seat.index


@transaction.atomic
def import_series(data: dict[str, Any], user: AbstractBaseUser | None) -> Game:
    """Store an uploaded series record (each hand an imported game, linked as an imported
    series) once every hand replays and everything the record says agrees with them;
    returns its first hand's game."""
    result, status = replay_series(data)
    if status:
        raise BadRecord(_unreadable(result))
    ended = data.get("ended", False)
    people = sorted(data.get("people_at_end", []))
    series = Series.objects.create(
        created_by=user, ante=data["ante"], imported=True,
        ended_at=timezone.now() if ended else None,
        end_reason=Series.UPLOADED if ended else "",
        people_at_end=people,
        # Shown as the site showed them: whose seat a bot took, whose antes the house kept.
        left=left_of([hand["bots"] for hand in data["hands"]], ended, people),
    )  # fmt: skip
    games = import_game_records([(hand, hand["bots"]) for hand in data["hands"]], user)
    Hand.objects.bulk_create(
        Hand(series=series, game=game, number=number) for number, game in enumerate(games, 1)
    )
    return games[0]


def _unreadable(result: dict[str, Any]) -> str:
    """What an upload says of a series record that does not replay: the hand, then the
    move the engine refused or why the record cannot be read, in the active language."""
    move = result.get("move")
    if isinstance(move, int):
        reason = move_refused(move, result["error"])
    else:
        said = unreadable(result["error"])
        reason = said[:1].upper() + said[1:] + "."
    if result.get("hand"):
        return gettext("The series record cannot be read. Hand %(hand)s: %(reason)s") % {
            "hand": result["hand"],
            "reason": reason,
        }
    return gettext("The series record cannot be read. %(reason)s") % {"reason": reason}
