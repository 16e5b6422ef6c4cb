"""The live rating's statements, written out (``core.rate_finished``, in a game's last
move's transaction): who of its people are guests, whether it is rated already, its
players' rows made if new and locked, then the new ratings and the change rows.

The same statements the ORM made, in the same order (a row written first, which a rebuild's
table lock waits for; the rows made, then locked, in one order: ``core._locked_rows``),
but with the SQL made once a process from the models' metadata: compiling the ORM's six
statements was most of a game's rating, and a crowd's arena ends hundreds of games within
seconds (the arena benchmark's rounds of ends). PostgreSQL and SQLite alike."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache

from django.db import connection

from accounts.models import Profile
from games.ratings.models import Rating, RatingChange

Key = tuple[str, int | str]


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _col(model, name: str) -> str:
    return _q(model._meta.get_field(name).column)


def _in(count: int) -> str:
    return ", ".join(["%s"] * count)


def guests(user_ids: Iterable[int]) -> set[int]:
    """Which of these people play as guests (never rated)."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    table, user = _q(Profile._meta.db_table), _col(Profile, "user")
    guest = _col(Profile, "is_guest")
    sql = f"SELECT {user} FROM {table} WHERE {guest} AND {user} IN ({_in(len(ids))})"
    with connection.cursor() as cursor:
        cursor.execute(sql, ids)
        return {row[0] for row in cursor.fetchall()}


def rated_already(game_id: int) -> bool:
    table, game = _q(RatingChange._meta.db_table), _col(RatingChange, "game")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE {game} = %s LIMIT 1", [game_id])
        return cursor.fetchone() is not None


@cache
def _row_columns() -> tuple[str, ...]:
    fields = ("category", "person", "user", "bot_kind", "mu", "sigma", "games")
    return tuple(_col(Rating, f) for f in fields)


def locked_rows(
    keys: set[Key], category: str, new: tuple[float, float]
) -> dict[Key, tuple[int, float, float, int]]:
    """The players' rows (id, mu, sigma, games), each made first if new (at ``new``: mu,
    sigma), then all locked until the transaction ends; in one order (``core``)."""
    order = sorted(keys)  # ("bot", kind) before ("user", id)
    values = []
    for kind, who in order:
        person = who if kind == "user" else None
        values += [category, person, person, who if kind == "bot" else "", *new, 0]
    table = _q(Rating._meta.db_table)
    row = "(" + _in(7) + ")"
    insert = (
        f"INSERT INTO {table} ({', '.join(_row_columns())}) "
        f"VALUES {', '.join([row] * len(order))} ON CONFLICT DO NOTHING"
    )
    people = [who for kind, who in order if kind == "user"]
    bots = [who for kind, who in order if kind == "bot"]
    person, bot_kind = _col(Rating, "person"), _col(Rating, "bot_kind")
    which = []
    if people:
        which.append(f"{person} IN ({_in(len(people))})")
    if bots:
        which.append(f"{bot_kind} IN ({_in(len(bots))})")
    select = (
        f"SELECT {_col(Rating, 'id')}, {person}, {bot_kind}, {_col(Rating, 'mu')}, "
        f"{_col(Rating, 'sigma')}, {_col(Rating, 'games')} FROM {table} "
        f"WHERE {_col(Rating, 'category')} = %s AND ({' OR '.join(which)}) "
        f"ORDER BY {person} ASC NULLS FIRST, {bot_kind} ASC"
    )
    if connection.features.has_select_for_update:
        select += " FOR UPDATE"
    found = {}
    with connection.cursor() as cursor:
        cursor.execute(insert, values)
        cursor.execute(select, [category, *people, *bots])
        for pk, who, kind, mu, sigma, games in cursor.fetchall():
            found[("bot", kind) if kind else ("user", who)] = (pk, mu, sigma, games)
    return found


def save(game_id: int, at: datetime, changes: Sequence[tuple[int, int, tuple, tuple]]) -> None:
    """Each rated seat's change: (seat, row id, (mu, sigma) before, (mu, sigma, games)
    after), in seat order. A player in two seats (two bots of a level) has one row, whose
    new numbers each of its seats' changes carries: it is written once."""
    rows = {pk: after for _seat, pk, _before, after in changes}
    table, pk_col = _q(Rating._meta.db_table), _col(Rating, "id")
    sets, params = [], []
    for name, i in (("mu", 0), ("sigma", 1), ("games", 2)):
        whens = " ".join(["WHEN %s THEN %s"] * len(rows))
        sets.append(f"{_col(Rating, name)} = CASE {pk_col} {whens} END")
        for pk, after in rows.items():
            params += [pk, after[i]]
    update = f"UPDATE {table} SET {', '.join(sets)} WHERE {pk_col} IN ({_in(len(rows))})"
    at_value = RatingChange._meta.get_field("at").get_db_prep_value(at, connection)
    fields = ("game", "seat", "rating", "mu_before", "sigma_before", "mu", "sigma", "games", "at")
    insert = (
        f"INSERT INTO {_q(RatingChange._meta.db_table)} "
        f"({', '.join(_col(RatingChange, f) for f in fields)}) VALUES "
        + ", ".join(["(" + _in(len(fields)) + ")"] * len(changes))
    )
    values = []
    for seat, pk, before, after in changes:
        values += [game_id, seat, pk, *before, *after, at_value]
    with connection.cursor() as cursor:
        cursor.execute(update, [*params, *rows])
        cursor.execute(insert, values)
