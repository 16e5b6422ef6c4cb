"""A move's three statements, written out: lock the game's summary, log the move, save the
summary.

Through the ORM each statement was compiled afresh on every move (building the query,
its columns, its converters), which cost more CPU than the rest of the move together. The
SQL here is made once per process from the models' own metadata (table and column names),
values are prepared by the fields themselves (JSON, dates, booleans as each database
wants them), and rows come back through a raw queryset, which applies the fields'
converters: the same values the ORM gives, on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from games.models import Game
from games.models import Move as MoveRow


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _lock_sql(fields: tuple[str, ...]) -> str:
    columns = ", ".join(_q(Game._meta.get_field(f).column) for f in ("id", *fields))
    sql = f"SELECT {columns} FROM {_q(Game._meta.db_table)} WHERE {_q('id')} = %s"
    # The row lock serialises every move of one game across all workers (SQLite locks
    # the whole database for a write transaction instead, and has no FOR UPDATE).
    return sql + " FOR UPDATE" if connection.features.has_select_for_update else sql


def locked_game(game_id: int, fields: Sequence[str]) -> Game | None:
    """The game's row with only ``fields`` loaded (the rest deferred), locked until the
    end of the transaction; None if there is no such game."""
    rows = list(Game.objects.raw(_lock_sql(tuple(fields)), [game_id]))
    return rows[0] if rows else None


INSERT_FIELDS = ("game_id", "seq", "seat", "payload", "client_move_id", "by_server", "created_at")


@cache
def _insert_sql() -> str:
    columns = ", ".join(_q(MoveRow._meta.get_field(f).column) for f in INSERT_FIELDS)
    marks = ", ".join(["%s"] * len(INSERT_FIELDS))
    return f"INSERT INTO {_q(MoveRow._meta.db_table)} ({columns}) VALUES ({marks})"


def insert_move(
    game_id: int,
    seq: int,
    seat: int,
    payload: dict[str, Any],
    client_move_id: str | None,
    by_server: bool,
    now: datetime,
) -> None:
    """Log one move (the unique constraints on (game, seq) and (game, client move id)
    raise IntegrityError as they would through the ORM)."""
    values = (game_id, seq, seat, payload, client_move_id, by_server, now)
    _execute(_insert_sql(), _prepared(MoveRow, INSERT_FIELDS, values))


@cache
def _update_sql(fields: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_q(Game._meta.get_field(f).column)} = %s" for f in fields)
    return f"UPDATE {_q(Game._meta.db_table)} SET {sets} WHERE {_q('id')} = %s"


def save_fields(game: Game, fields: Sequence[str]) -> None:
    """``game.save(update_fields=fields)`` for the game's summary columns."""
    fields = tuple(fields)
    values = _prepared(Game, fields, (getattr(game, f) for f in fields))
    _execute(_update_sql(fields), [*values, game.pk])


def _prepared(model, fields: Sequence[str], values: Iterable[Any]) -> list[Any]:
    meta = model._meta
    return [
        meta.get_field(f).get_db_prep_save(v, connection)
        for f, v in zip(fields, values, strict=True)
    ]


def _execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
