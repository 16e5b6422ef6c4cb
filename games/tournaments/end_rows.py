"""A tournament game's end, written out (issue 52): in the transaction of its last move,
which a crowd's arena makes hundreds of times within seconds (tables started together end
together), and where each ORM-built statement cost some 1.5 ms of a worker's CPU to
compile under load. The statements are the ORM's own, on PostgreSQL and SQLite alike;
games/tournaments/services.py's ``game_finished`` decides what to do with what they read."""

from __future__ import annotations

from datetime import datetime

from django.db import connection

from games.models import Move
from games.tournaments.models import Entry, TournamentGame


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _col(model, name: str) -> str:
    return _q(model._meta.get_field(name).column)


def tournament_game(game_id: int) -> tuple[int, int] | None:
    """(Its TournamentGame's id, its tournament's) if the game is a tournament's."""
    tg = TournamentGame
    sql = (
        f"SELECT {_col(tg, 'id')}, {_col(tg, 'tournament')} FROM {_q(tg._meta.db_table)} "
        f"WHERE {_col(tg, 'game')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def move_log(game_id: int) -> list[tuple[int, bool]]:
    """Each move's seat and whether the server made it, in order."""
    sql = (
        f"SELECT {_col(Move, 'seat')}, {_col(Move, 'by_server')} FROM {_q(Move._meta.db_table)} "
        f"WHERE {_col(Move, 'game')} = %s ORDER BY {_col(Move, 'seq')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        return [(seat, bool(by_server)) for seat, by_server in cursor.fetchall()]


def ended(tournament_game_id: int, game_id: int, away: list[int], now: datetime) -> None:
    """Keep which seats score as away, and start its people's wait from ``now``."""
    tg, entry = TournamentGame, Entry
    away_value = tg._meta.get_field("away").get_db_prep_value(away, connection)
    since = entry._meta.get_field("waiting_since").get_db_prep_value(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_q(tg._meta.db_table)} SET {_col(tg, 'away')} = %s "
            f"WHERE {_col(tg, 'id')} = %s",
            [away_value, tournament_game_id],
        )
        cursor.execute(
            f"UPDATE {_q(entry._meta.db_table)} SET {_col(entry, 'waiting_since')} = %s "
            f"WHERE {_col(entry, 'game')} = %s",
            [since, game_id],
        )
