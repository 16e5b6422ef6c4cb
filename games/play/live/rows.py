"""A move's statements, written out: lock the game's summary, then log the move and save
the summary (one statement on PostgreSQL, two on SQLite).

On PostgreSQL a move is two round trips in all. Through Django and psycopg it was four
(psycopg sends the transaction's BEGIN on its own before the first statement, and the
COMMIT after the last), each costing the worker about as much CPU as a whole statement.
Here, in the outermost transaction of a move, the BEGIN travels with the lock and the
COMMIT with the move's write, as one simple-protocol query each, sent on the thread's
psycopg connection directly; Django's transaction goes on as before (psycopg sees the
transaction that the lock opened, and has nothing left to commit at the block's end, where
Django runs the on-commit hooks). Values go into that SQL as literals made here for the
few types a move writes (ints, booleans, text escaped by libpq, times, JSON).

Through the ORM each statement was compiled afresh on every move (building the query,
its columns, its converters), which cost more CPU than the rest of the move together. The
SQL here is made once per process from the models' own metadata (table and column names),
values are prepared by the fields themselves (JSON, dates, booleans as each database
wants them), and a row read comes back through the fields' own converters (found once):
the same values the ORM gives, on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from psycopg import errors, generators
from psycopg.adapt import Transformer
from psycopg.pq import Escaping, ExecStatus, TransactionStatus

from games.models import Game, Seat
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
    if _opens_transaction():
        row = _begin_and_fetch_one(sql % int(game_id))
    else:
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
def _seated_sql() -> str:
    table, game, user = _q(Seat._meta.db_table), _q("game_id"), _q("user_id")
    return f"SELECT 1 FROM {table} WHERE {game} = %s AND {user} = %s"


def seated(game_id: int, user_id: int) -> bool:
    """Whether the person holds a seat at the game: one small statement."""
    with connection.cursor() as cursor:
        cursor.execute(_seated_sql(), [game_id, user_id])
        return cursor.fetchone() is not None


@cache
def _bump_sql(by_next_game: bool, forget: bool) -> str:
    table, rev, next_game = _q(Game._meta.db_table), _q("rev"), _q("next_game_id")
    sets = f"{rev} = {rev} + 1" + (f", {next_game} = NULL" if forget else "")
    where = next_game if by_next_game else _q("id")
    return f"UPDATE {table} SET {sets} WHERE {where} = %s RETURNING {_q('id')}, {rev}"


def bump_rev(game_id: int) -> int | None:
    """Move the game's rev on by one, in the database (the transaction may have moved it
    on already), and return it (None: no such game): one statement, not an update and a
    read."""
    with connection.cursor() as cursor:
        cursor.execute(_bump_sql(False, False), [game_id])
        row = cursor.fetchone()
    return None if row is None else row[1]


def bump_previous(game_id: int, *, forget: bool = False) -> list[tuple[int, int]]:
    """Move on the rev of every game whose next game is ``game_id`` (with ``forget``, that
    game is no longer their next one) and return their (id, rev): one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_bump_sql(True, forget), [game_id])
        return [tuple(row) for row in cursor.fetchall()]


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


def log_and_save(move: tuple, game: Game, fields: Sequence[str], *, last: bool = False) -> None:
    """``insert_move(*move)`` then ``save_fields(game, fields)``, in one statement where
    the database can. ``last``: nothing is written after this in the transaction, so on
    PostgreSQL the outermost transaction is committed with it (see the module's words)."""
    fields = tuple(fields)
    if connection.vendor != "postgresql":
        insert_move(*move)
        save_fields(game, fields)
        return
    if last and _commits_here():
        values = [*move, *(getattr(game, f) for f in fields), game.pk]
        literals = [_literal(v) for v in values]
        if None not in literals:
            _simple((_log_and_save_sql(fields) % tuple(literals) + "; COMMIT").encode())
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


# --- Two round trips a move on PostgreSQL ---------------------------------------------------

_IDLE, _INTRANS = TransactionStatus.IDLE, TransactionStatus.INTRANS
_FATAL_ERROR = ExecStatus.FATAL_ERROR


def _outermost() -> bool:
    """In a transaction of Django's own (the outermost atomic block, not a savepoint) on
    PostgreSQL, with nothing gone wrong in it."""
    return (
        connection.vendor == "postgresql"
        and connection.in_atomic_block
        and len(connection.atomic_blocks) == 1
        and not connection.savepoint_ids
        and not connection.needs_rollback
        and connection.connection is not None
    )


def _opens_transaction() -> bool:
    """The next statement would be the transaction's first: psycopg would send BEGIN."""
    return _outermost() and connection.connection.pgconn.transaction_status == _IDLE


def _commits_here() -> bool:
    return _outermost() and connection.connection.pgconn.transaction_status == _INTRANS


def _begin_and_fetch_one(sql: str) -> tuple | None:
    results = _simple(f"BEGIN; {sql}".encode())
    found = results[-1]
    if found.ntuples == 0:
        return None
    # The connection's own loaders, as a cursor would use (Django registers its own).
    tx = Transformer(connection.connection)
    tx.set_pgresult(found)
    return tx.load_row(0, tuple)


def _simple(sql: bytes) -> list:
    """Send ``sql`` (statements with their values in it) as one simple-protocol query on
    the thread's psycopg connection and wait for every result, as psycopg itself waits
    for its BEGIN and COMMIT. A failed statement raises the error Django would raise."""
    conn = connection.connection
    with connection.wrap_database_errors, conn.lock:
        pgconn = conn.pgconn
        pgconn.send_query(sql)
        results = conn.wait(generators.execute(pgconn))
        for result in results:
            if result.status == _FATAL_ERROR:
                raise errors.error_from_result(result, encoding=conn.info.encoding)
    return results


def _literal(value: Any) -> str | None:
    """``value`` as an SQL literal, for the types a move writes (None: some other type,
    which goes through the cursor instead)."""
    kind = type(value)
    if value is None:
        return "NULL"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if kind is str:
        return _quoted(value)
    if kind is datetime:
        if value.tzinfo is None:
            return None
        return f"'{value.isoformat()}'"
    if kind is dict or kind is list:
        return _quoted(json.dumps(value))
    return None


def _quoted(text: str) -> str:
    # libpq's escaping, in the connection's encoding (and standard_conforming_strings).
    return Escaping(connection.connection.pgconn).escape_literal(text.encode()).decode()
