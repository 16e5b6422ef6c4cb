"""What the game services tell series: imported by ``games.play.moves``, so it imports
nothing of theirs. And what fair play tells series without series importing it: which
pairs of accounts it holds for review (``on_held``), whose pots wait before they count."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection

from games.models import Seat
from games.series.models import Hand, Series


def pause() -> timedelta:
    return timedelta(seconds=settings.TONGITS_SERIES_PAUSE_SECONDS)


def hand_finished(game_id: int, now: datetime) -> None:
    """A hand of a series ended: the pause before the next one starts now. One query for
    a game of no series."""
    series_id = _series_of_hand(game_id)
    if series_id is not None:
        Series.objects.filter(pk=series_id).update(next_at=now + pause(), ready=[])


def _series_of_hand(game_id: int) -> int | None:
    """The series whose hand the game is, if any: one written-out statement (it is asked
    at every game's end, in the last move's transaction: compiling the ORM's query was a
    crowd's round of ends' third most costly statement)."""
    table, game, series = (
        connection.ops.quote_name(name) for name in (Hand._meta.db_table, "game_id", "series_id")
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {series} FROM {table} WHERE {game} = %s", [game_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def hand_aborted(game_id: int, dealt: bool, now: datetime) -> None:
    """Staff aborted a hand of a series. A dealt one is over like a finished one: the pause
    starts, so the timer deals the next hand even if nobody clicks. One never dealt (the
    first hand, still waiting for people) has no seats to deal again: the series ends,
    with nothing in its pot."""
    if dealt:
        hand_finished(game_id, now)
        return
    series_id = Hand.objects.filter(game_id=game_id).values_list("series_id", flat=True).first()
    if series_id is not None:
        Series.objects.filter(pk=series_id, ended_at__isnull=True).update(
            ended_at=now, end_reason=Series.ABORTED_UNDEALT, ready=[], next_at=None,
            people_at_end=[],
        )  # fmt: skip


_held: list[Callable] = []


def on_held(fn: Callable) -> None:
    """``fn(user_ids)`` answers which pairs of these accounts fair play holds for review,
    as ``[(low id, high id), …]``."""
    if fn not in _held:
        _held.append(fn)


def held(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs of these accounts held for review (nobody's, with nobody registered)."""
    ids = sorted(set(user_ids))
    return {frozenset(pair) for fn in _held for pair in fn(ids)} if ids else set()


def seats_held(user_ids: list[int], *, turn_below: int | None = None) -> dict[int, int]:
    """Each of these people who holds a seat in a series that goes on, from its first
    deal until it ends or they leave it, and its id: between hands its last game is over,
    but its next one is dealt to them when the pause ends (``games.play.seating``).
    ``turn_below``: only series whose turn is shorter (live ones, not correspondence)."""
    rows = Seat.objects.filter(
        user_id__in=user_ids,
        game__started_at__isnull=False,
        game__series_hand__isnull=False,
        game__series_hand__series__ended_at__isnull=True,
        game__series_hand__series__imported=False,
    )
    if turn_below is not None:
        rows = rows.filter(game__turn_seconds__lt=turn_below)
    rows = rows.values_list(
        "user_id", "index", "game__series_hand__series_id", "game__series_hand__series__left"
    )
    return {user: series for user, index, series, left in rows if index not in (left or [])}


def series_of(game_id: int) -> int | None:
    """The series whose hand the game is, if any."""
    return Hand.objects.filter(game_id=game_id).values_list("series_id", flat=True).first()
