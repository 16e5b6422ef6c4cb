"""A move's statements, written out: lock the game's summary, then log the move and save
the summary (one statement on PostgreSQL, two on SQLite).

Through the ORM each statement was compiled afresh on every move (building the query,
its columns, its converters), which cost more CPU than the rest of the move together. The
SQL here is made once per process from the models' own metadata (table and column names),
values are prepared by the fields themselves (JSON, dates, booleans as each database
wants them), and a row read comes back through the fields' own converters (found once):
the same values the ORM gives, on PostgreSQL and SQLite alike.
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
    columns = ", ".join(_q(Game._meta.get_field(f).column) for f in fields)
    sql = f"SELECT {columns} FROM {_q(Game._meta.db_table)} WHERE {_q('id')} = %s"
    # The row lock serialises every move of one game across all workers (SQLite locks
    # the whole database for a write transaction instead, and has no FOR UPDATE).
    return sql + " FOR UPDATE" if connection.features.has_select_for_update else sql


@cache
def _lock_plan(fields: tuple[str, ...], vendor: str) -> tuple[str, list[str], list[tuple]]:
    """The lock's SQL, the attributes its columns fill, and each column's converters
    from the database's value to the field's (as a queryset applies them): worked out
    once per process, not per move as a raw queryset does."""
    table = Game._meta.db_table
    # In the model's order of fields, which is the order Model.from_db expects.
    wanted = {Game._meta.get_field(f) for f in ("id", *fields)}
    columns = [f for f in Game._meta.concrete_fields if f in wanted]
    converting = []
    for i, field in enumerate(columns):
        col = field.get_col(table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if found:
            converting.append((i, found, col))
    return _lock_sql(tuple(f.attname for f in columns)), [f.attname for f in columns], converting


def locked_game(game_id: int, fields: Sequence[str]) -> Game | None:
    """The game's row with only ``fields`` loaded (the rest deferred), locked until the
    end of the transaction; None if there is no such game."""
    sql, names, converting = _lock_plan(tuple(fields), connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, converters, col in converting:
        for convert in converters:
            values[i] = convert(values[i], col, connection)
    return Game.from_db(connection.alias, names, values)


@cache
def _rev_sql() -> str:
    return f"SELECT {_q('rev')} FROM {_q(Game._meta.db_table)} WHERE {_q('id')} = %s"


def game_rev(game_id: int) -> int | None:
    """The game's rev now (None: no such game), without locking it."""
    with connection.cursor() as cursor:
        cursor.execute(_rev_sql(), [game_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


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


@cache
def _log_and_save_sql(fields: tuple[str, ...]) -> str:
    # PostgreSQL runs a data-modifying WITH as part of its statement: both writes in one
    # round trip, both or neither (a unique constraint refusing the insert refuses all).
    return f"WITH logged AS ({_insert_sql()}) {_update_sql(fields)}"


def log_and_save(move: tuple, game: Game, fields: Sequence[str]) -> None:
    """``insert_move(*move)`` then ``save_fields(game, fields)``, in one statement where
    the database can."""
    fields = tuple(fields)
    if connection.vendor != "postgresql":
        insert_move(*move)
        save_fields(game, fields)
        return
    logged = _prepared(MoveRow, INSERT_FIELDS, move)
    saved = _prepared(Game, fields, (getattr(game, f) for f in fields))
    _execute(_log_and_save_sql(fields), [*logged, *saved, game.pk])


def _prepared(model, fields: Sequence[str], values: Iterable[Any]) -> list[Any]:
    meta = model._meta
    return [
        meta.get_field(f).get_db_prep_save(v, connection)
        for f, v in zip(fields, values, strict=True)
    ]


def _execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
