"""A Join's statements, written out (issue 52): a crowd joins an arena within a minute,
and each ORM-built statement cost a Join some 1.5 ms of a worker's CPU to compile and to
make its model instances, under load. Here the tournament's row is read under its lock
as a raw query (no compiling), the person's guest flag and their entry in one statement,
and the entry and the tournament's new revision written as plain SQL. The statements are
the ORM's own, on PostgreSQL and SQLite alike; games/tournaments/services.py's ``join``
decides what to do with what they read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection

from games.tournaments.models import Entry, Tournament

_LOCKED = "SELECT * FROM tournaments_tournament WHERE id = %s"
_PERSON = (
    "SELECT (SELECT p.is_guest FROM accounts_profile p WHERE p.user_id = %s), "
    "e.id, e.state, e.joined_at, e.waiting_since, e.game_id "
    "FROM (SELECT 1 AS one) o LEFT JOIN tournaments_entry e "
    "ON e.tournament_id = %s AND e.user_id = %s"
)
_MADE = (
    "INSERT INTO tournaments_entry (tournament_id, user_id, joined_at, state, waiting_since, "
    "game_id) VALUES (%s, %s, %s, %s, %s, NULL) RETURNING id"
)
_BACK = "UPDATE tournaments_entry SET state = %s, waiting_since = %s WHERE id = %s"
_REV = "UPDATE tournaments_tournament SET rev = %s, due_at = %s WHERE id = %s"


def locked(tournament_id: int) -> Tournament | None:
    """The tournament's row, locked until the transaction ends (None: there is none)."""
    sql = _LOCKED + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    return next(iter(Tournament.objects.raw(sql, [tournament_id])), None)


def person(tournament_id: int, user_id: int) -> tuple[bool, Entry | None]:
    """(Whether the person is a guest, their entry of the tournament if they have one.)"""
    with connection.cursor() as cursor:
        cursor.execute(_PERSON, [user_id, tournament_id, user_id])
        guest, pk, state, joined_at, waiting_since, game_id = cursor.fetchone()
    if pk is None:
        return bool(guest), None
    ops = connection.ops
    entry = Entry(
        pk=pk, tournament_id=tournament_id, user_id=user_id, state=state,
        joined_at=_when(ops, joined_at), waiting_since=_when(ops, waiting_since),
        game_id=game_id,
    )  # fmt: skip
    entry._state.adding, entry._state.db = False, "default"
    return bool(guest), entry


def _when(ops: Any, value: Any) -> datetime | None:
    """A timestamp as the ORM reads it (SQLite's cursor gives text)."""
    if value is None or isinstance(value, datetime):
        return value
    return ops.convert_datetimefield_value(value, None, connection)


def enter(tournament_id: int, user_id: int, now: datetime) -> int:
    """A new entry, waiting from ``now``: its id."""
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(_MADE, [tournament_id, user_id, at, Entry.State.ACTIVE, at])
        return cursor.fetchone()[0]


def come_back(entry_id: int, now: datetime) -> None:
    """A paused or withdrawn entry waits again from ``now``."""
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(_BACK, [Entry.State.ACTIVE, at, entry_id])


def changed(t: Tournament) -> None:
    """The new revision and clock time of ``t``, the row locked (worked out by the
    caller)."""
    due = connection.ops.adapt_datetimefield_value(t.due_at)
    with connection.cursor() as cursor:
        cursor.execute(_REV, [t.rev, due, t.pk])
