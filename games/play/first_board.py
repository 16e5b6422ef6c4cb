"""A person's turn clock starts when they have seen the table: the first board their
table's socket sends them (games/sockets/table.py calls ``board_sent``), not the deal.
At a crowd's start the deal comes within a second and the pages within seconds, or tens of
seconds under load: the clock played hundreds of turns, first turns, for people whose
board had not arrived (issue 52). The wait is bounded: ``TONGITS_FIRST_BOARD_GRACE``
seconds from the deal (0: none, the clock runs from the deal as before), after which a
person still without a board is played for as any run-out clock.

The clock (games/play/clock.py) asks ``due`` which of the games it found due it may play:
a game whose person to move has had no board is not played within the grace, and its
deadline is put at the grace's end, so the clock does not look at it every tick.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from games.models import Game, Seat
from games.play import telling
from games.play.live.news import clock_news

# A board sent this soon after the turn began (the next game over an open socket, a page
# that loaded at once) leaves the clock be: the second is not worth every seat's new frame.
SLACK = timedelta(seconds=1)


def due(games: QuerySet, now: datetime, limit: int) -> list[tuple[int, int, int]]:
    """(id, seq, turn seconds) of the games of ``games`` (all due at ``now``) that the
    clock may play, soonest due first, at most ``limit`` looked at."""
    grace = grace_of()
    if not grace:
        return list(games.order_by("due_at").values_list("pk", "seq", "turn_seconds")[:limit])
    # A game whose person to move has not had their first board yet, dealt within the
    # grace: not played, its deadline put at the grace's end (no query a game otherwise).
    unseen = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("turn_seat"), user__isnull=False, bot_kind="",
        away=False, board_at__isnull=True,
    )  # fmt: skip
    rows = games.annotate(unseen=Exists(unseen)).order_by("due_at")
    due = []
    for pk, seq, seconds, was, started, waits in rows.values_list(
        "pk", "seq", "turn_seconds", "due_at", "started_at", "unseen"
    )[:limit]:
        if waits and started is not None and now < started + grace:
            postpone(pk, seq, was, started + grace)
        else:
            due.append((pk, seq, seconds))
    return due


def grace_of() -> timedelta:
    return timedelta(seconds=settings.TONGITS_FIRST_BOARD_GRACE)


def postpone(game_id: int, seq: int, was: datetime, due_at: datetime) -> None:
    """Wait for a person's first board: the game is due again at ``due_at`` (when it comes,
    ``board_sent`` starts their clock from it). What the seats' boards show is left: the
    person has none yet, and the others' clock for them shows it run out, as it had."""
    Game.objects.filter(pk=game_id, seq=seq, due_at=was).update(due_at=due_at)


def board_sent(game_id: int, index: int, now: datetime | None = None) -> bool:
    """Seat ``index``'s person has been sent their first board of the game (their table's
    socket says so, games/sockets/table.py). If it is their turn, which began before (the
    deal, or the move before theirs, came while their page loaded), their turn clock
    starts now, within ``TONGITS_FIRST_BOARD_GRACE`` of the deal: the server never plays
    a turn for a person who has not seen the table. True if their clock started again."""
    now = now or timezone.now()
    grace = grace_of()
    if connection.vendor != "postgresql":
        return _board_sent_orm(game_id, index, now, grace)
    seat, game = Seat._meta.db_table, Game._meta.db_table
    with connection.cursor() as cursor:
        if not grace:
            cursor.execute(
                f"UPDATE {seat} SET board_at = %s"
                ' WHERE game_id = %s AND "index" = %s AND board_at IS NULL',
                [now, game_id, index],
            )
            return False
        # One statement (two before, in a transaction with a row lock and a read of the
        # revision, built by the ORM: a socket's first board cost some 3 ms of CPU here):
        # the seat's board_at, and if it was their first board, their turn that began
        # before it started again, under the game's row lock that the UPDATE takes.
        cursor.execute(
            f"WITH first AS (UPDATE {seat} SET board_at = %s"
            " WHERE game_id = %s AND \"index\" = %s AND board_at IS NULL RETURNING game_id),"
            f" started AS (UPDATE {game} g SET turn_started_at = %s,"
            " due_at = %s + g.turn_seconds * interval '1 second', rev = g.rev + 1"
            " FROM first WHERE g.id = first.game_id AND g.status = %s AND g.turn_seat = %s"
            " AND g.turn_started_at < %s AND g.started_at >= %s"
            f" AND EXISTS (SELECT 1 FROM {seat} s WHERE s.game_id = g.id AND s.\"index\" = %s"
            " AND NOT s.away AND s.bot_kind = '') RETURNING g.rev, g.seq, g.due_at, g.commitment)"
            " SELECT rev, seq, due_at, commitment FROM started",
            [
                now, game_id, index, now, now, Game.Status.PLAYING.value, index,
                now - SLACK, now - grace, index,
            ],
        )  # fmt: skip
        started = cursor.fetchone()
    if started is None:
        return False  # told before (another socket, a reconnect), or no turn to start
    rev, seq, due_at, commitment = started
    # With what changed (no move): each worker moves its snapshot on, not loading the game
    # (each new game's first boards, a crowd's start and its rounds of next games).
    news = clock_news(commitment, seq, due_at)
    transaction.on_commit(lambda: telling.notify_game(game_id, rev, news), robust=True)
    return True


def _board_sent_orm(game_id: int, index: int, now: datetime, grace: timedelta) -> bool:
    """``board_sent`` on another database (SQLite: a bench's, a developer's), as the ORM
    writes it."""
    with transaction.atomic():
        first = Seat.objects.filter(game_id=game_id, index=index, board_at__isnull=True)
        if not first.update(board_at=now) or not grace:
            return False  # told before (another socket, a reconnect), or no grace
        game = (
            Game.objects.select_for_update(of=("self",))
            .filter(
                pk=game_id,
                status=Game.Status.PLAYING,
                turn_seat=index,
                turn_started_at__lt=now - SLACK,
                started_at__gte=now - grace,
                seats__index=index,
                seats__away=False,
                seats__bot_kind="",
            )  # fmt: skip
            .values_list("seq", "turn_seconds")
            .first()
        )
        if game is None:
            return False
        seq, seconds = game
        Game.objects.filter(pk=game_id, seq=seq).update(
            turn_started_at=now, due_at=now + timedelta(seconds=seconds), rev=F("rev") + 1
        )
        rev = Game.objects.values_list("rev", flat=True).get(pk=game_id)
        transaction.on_commit(lambda: telling.notify_game(game_id, rev), robust=True)
    return True
