"""The one writer of moves: check a move, apply it with the engine, append it.

Pattern (Zulip's actions): ``check_*`` validates, and the writer holds the game row's lock
(``_locked_game_and_seats``) while it applies the move (``games.engine.apply``) and appends
it with the game's summary (``_apply_and_log``, through ``live/rows.py``); the seats are
told after the commit (``telling.notify_game``). A person's move comes through
``submit_move``; the server's (bots, seats whose clock ran out) through
``games.play.server_moves``, which calls ``_apply_and_log`` too. Nothing else appends a
move (tests/test_architecture.py checks it). A game's end is booked in the same
transaction (``_after_finish``: ratings, series, play's hooks).

Also here: the state of a game rebuilt from its log (``game_state``, cached per process in
``live/snapshots.py``), when the server next moves for a seat (``_due_at``), and an away
seat's return (``mark_back``)."""

from __future__ import annotations

import dataclasses
import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import GameState, IllegalMoveError, InvalidMoveError, Move, apply
from games.models import Game, Seat
from games.play import hooks, telling
from games.play.errors import (
    MOVE_ID_USED,
    NO_SUCH_GAME,
    BadMove,
    NotAllowed,
    ServiceError,
    StaleMove,
)
from games.play.live import rows, snapshots
from games.play.live.news import move_news
from games.play.live.snapshots import SeatRow
from games.play.telling import _changed, _notify_lobby_on_commit
from games.ratings import core as ratings
from games.series import hooks as series
from games.words import rule_messages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveResult:
    game_id: int
    seq: int
    payload: dict[str, Any]
    duplicate: bool = False
    finished: bool = False


def game_state(game: Game) -> GameState:
    """The engine state after the game's logged moves, up to the row's seq (moves
    committed since the row was read are not its version).

    Cached per process (``games.play.live.snapshots``): a state is stored only after its move
    committed, so a cached entry always equals a replay of the log (tests check this).
    """
    return snapshots.position(game.pk, game.commitment, game.seq, game.variants).state


def forget_cached_states() -> None:
    snapshots.forget()


def submit_move(
    game_id: int,
    user: AbstractBaseUser | AnonymousUser,
    payload: dict[str, Any],
    *,
    expected_seq: int | None = None,
    client_move_id: str | None = None,
) -> MoveResult:
    """Apply one person's move, for everyone: browser POST and socket frame alike.

    A repeated ``client_move_id`` returns the earlier result; a stale ``expected_seq``
    raises StaleMove; an illegal move raises BadMove. Nothing changes on an error, except
    that a person whose seat was away is back (any action of theirs says so).
    """
    if not isinstance(payload, dict):
        raise BadMove(_("A move must be an object with a type."))
    try:
        with transaction.atomic():
            result = _submit_locked(game_id, user, payload, expected_seq, client_move_id)
    except IntegrityError:
        # The id was this seat's at another version (a client that reuses its ids): the
        # unique (game, client_move_id) refused it, and the whole transaction with it.
        raise BadMove(MOVE_ID_USED) from None
    if isinstance(result, ServiceError):
        raise result  # after the commit of the seat's return
    return result


def _submit_locked(
    game_id: int,
    user: AbstractBaseUser | AnonymousUser,
    payload: dict[str, Any],
    expected_seq: int | None,
    client_move_id: str | None,
) -> MoveResult | ServiceError:
    game, seats = _locked_game_and_seats(game_id)
    seat = _seat_for(seats, user)
    # A move made at this version would have moved the game on: only a frame for another
    # version (or none said) can be one already applied, sent again after a reconnect.
    if expected_seq != game.seq:
        earlier = _earlier_result(game, seat, client_move_id, payload)
        if earlier is not None:
            return earlier
    _check_can_act(game, seat)
    was_away = seat.away
    if was_away:
        seat = _back(game, seats, seat.index)
    try:
        return _try_move(game, seats, seat, payload, expected_seq, client_move_id)
    except ServiceError as e:
        if not was_away:
            raise
        return e  # refused before any write: the seat's return is committed, then it says no


def _try_move(
    game: Game,
    seats: list[SeatRow],
    seat: SeatRow,
    payload: dict[str, Any],
    expected_seq: int | None,
    client_move_id: str | None,
) -> MoveResult:
    if expected_seq is not None and expected_seq != game.seq:
        raise StaleMove(_("The table changed before your move arrived; here it is now."), game.seq)
    try:
        move = Move.from_dict({**payload, "seat": seat.index})
    except InvalidMoveError as e:
        raise BadMove(rule_messages.malformed(str(e))) from None
    return _apply_and_log(game, seats, game_state(game), move, client_move_id=client_move_id)


def _locked_game(game_id: int) -> Game:
    # The row lock serialises every move of one game across all workers.
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotAllowed(NO_SUCH_GAME) from None


# What a move reads of the game's row: its summary, not the deal (the cached position
# stands for it) nor the result columns (a move only writes them).
MOVE_FIELDS = (*snapshots.FIELDS, "turn_seat", "turn_started_at", "imported")


def _locked_game_and_seats(game_id: int) -> tuple[Game, list[SeatRow]]:
    """The game row, locked, as much of it as a move reads, and its seats: from this
    process's snapshot of the same rev (every change to a seat moves the rev on), else
    one more query."""
    game = rows.locked_game(game_id, MOVE_FIELDS)
    if game is None:
        raise NotAllowed(NO_SUCH_GAME)
    snap = snapshots.cached(game_id)
    if snap is not None and snap.rev == game.rev:
        return game, list(snap.seats)
    return game, [SeatRow.of(s) for s in snapshots.seats_with_names(game_id)]


def _set_away(game: Game, seats: list[SeatRow], index: int, away: bool) -> SeatRow:
    Seat.objects.filter(game_id=game.pk, index=index).update(away=away)
    seats[index] = dataclasses.replace(seats[index], away=away)
    return seats[index]


def _seat_for(seats: list[SeatRow], user: AbstractBaseUser | AnonymousUser) -> SeatRow | None:
    if not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


def _earlier_result(
    game: Game, seat: SeatRow | None, client_move_id: str | None, payload: dict[str, Any]
) -> MoveResult | None:
    """The result of this seat's move with this client id, if this move was already
    applied. The page's id names the page (game, version, seat), not the move: another
    move sent from the same page (a second tab, an old page) is not that one, and the
    stale check after this tells its sender that the table changed."""
    if not client_move_id or seat is None:
        return None
    row = game.moves.filter(client_move_id=client_move_id).values("seat", "seq", "payload")
    row = row.first()
    if row is None:
        return None
    if row["seat"] != seat.index:  # another seat's id: nothing of theirs is told
        raise BadMove(MOVE_ID_USED)
    try:
        sent = Move.from_dict({**payload, "seat": seat.index}).to_dict()
    except InvalidMoveError:
        return None  # not a move at all: refused as such below
    if sent != row["payload"]:
        return None
    return MoveResult(game.pk, row["seq"], row["payload"], duplicate=True, finished=game.is_over)


def _check_can_act(game: Game, seat: SeatRow | None) -> SeatRow:
    if seat is None:
        raise NotAllowed(_("You are not playing at this table."))
    if game.status == Game.Status.WAITING:
        raise NotAllowed(_("The game has not started yet."))
    if game.is_over:
        raise NotAllowed(_("This game has ended."))
    return seat


def _apply_and_log(
    game: Game,
    seats: list[SeatRow],
    state: GameState,
    move: Move,
    *,
    client_move_id: str | None = None,
    by_server: bool = False,
) -> MoveResult:
    try:
        new = apply(state, move)
    except IllegalMoveError as e:
        raise BadMove(rule_messages.illegal(str(e))) from None
    seq = game.seq + 1
    payload = move.to_dict()
    now = timezone.now()
    logged = (game.pk, seq, move.seat, payload, client_move_id or None, by_server, now)
    told: list = []  # the move's own news, made below
    # Registered first, so that it runs first after the commit: a game's last move is told
    # before what its end queued for after the commit (fair play's task, the notices, the
    # arena's pairing), which held every seat's last board back by a statement or more.
    transaction.on_commit(lambda: told and told[0](), robust=True)
    if new.outcome is None:  # the common move: its log and the summary in one statement
        # The transaction's last write: every caller returns once the move is logged.
        summary = _update_summary(game, seats, state, new, now)
        rows.log_and_save(logged, game, summary, last=True)
    else:  # the last move is logged before the result's bookkeeping, as it always was
        rows.insert_move(*logged)
        rows.save_fields(game, _update_summary(game, seats, state, new, now))
    # The position just before, cached by game_state(): its journal grows by this move.
    before = snapshots.position(game.pk, game.commitment, seq - 1, game.variants)
    found = before.after(move, new, payload)
    snap = snapshots.build_snapshot(game.pk, snapshots.snapshot_row(game), list(seats), found)

    def after_commit() -> None:
        # This process's sockets of the game render from it without a query.
        snapshots.remember_position((snap.pk, snap.commitment), found)
        snapshots.remember(snap)
        telling.notify_game(snap.pk, snap.rev, move_news(snap))

    told.append(after_commit)
    hooks.moved(game, seats, now)  # correspondence tables tell whose turn it is
    return MoveResult(game.pk, seq, payload, finished=new.outcome is not None)


SUMMARY_FIELDS = ["seq", "rev", "last_move_at", "turn_started_at", "turn_seat", "due_at"]
RESULT_FIELDS = ["status", "finished_at", "winner_seat", "end", "points", "chips", "burned"]


def _update_summary(
    game: Game, seats: list[SeatRow], before: GameState, after: GameState, now: datetime
) -> list[str]:
    """Move the game's summary on by one move (and store the result of the last); the
    fields to save."""
    game.seq += 1
    game.rev += 1
    game.last_move_at = now
    fields = SUMMARY_FIELDS
    if after.outcome is not None:
        _store_result(game, after, now)
        _after_finish(game, seats, after, now)
        _notify_lobby_on_commit()
        fields = SUMMARY_FIELDS + RESULT_FIELDS
    else:
        if after.turn != before.turn:
            game.turn_started_at = now  # a new turn, or a Draw call to answer: a new clock
        game.turn_seat = after.turn
        game.due_at = _due_at(game, seats[after.turn], now)
    return fields


def _store_result(game: Game, state: GameState, now: datetime) -> None:
    o = state.outcome
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.winner_seat, game.end = o.winner, o.end
    game.points, game.chips, game.burned = list(o.points), list(o.chips), list(o.burned)
    game.turn_seat = game.due_at = None
    log.info("Game %s ended (%s) at move %s; seat %s won.", game.pk, o.end, game.seq, o.winner)


def _after_finish(game: Game, seats: list[SeatRow], state: GameState, now: datetime) -> None:
    """What a game's end changes beyond the game, in the same transaction: ratings
    (a game rates once), a series' pause before its next hand, what the apps above play
    registered (``hooks``: a tournament's pool; fair play's scoring of a rated game's pairs,
    queued after the commit)."""
    o = state.outcome
    rated = game.rated and not game.imported  # from the row the move holds locked
    ratings.rate_finished(
        game.pk, seats, o.winner, o.chips, now, rated=rated, turn_seconds=game.turn_seconds
    )
    series.hand_finished(game.pk, now)
    hooks.finished(game.pk, seats, o, now, rated)


def _due_at(game: Game, seat: Seat | SeatRow, now: datetime) -> datetime:
    """When the server moves for ``seat``: after a bot's short pause, or when a person's
    turn clock runs out. An away person's too: the server plays their turns no faster
    than they could have, so a game left to it takes as long as one played (and an
    arena scores a seat it played most of as away: ``games.tournaments.scoring``). At a
    correspondence table a bot moves at once: nobody watches it think there, and its
    people should find their turn waiting when they come back."""
    if seat.is_bot:
        if game.correspondence:
            return now
        low, high = settings.TONGITS_BOT_PAUSE
        return now + timedelta(seconds=random.uniform(low, high))
    return game.turn_started_at + timedelta(seconds=game.turn_seconds)


def mark_back(game_id: int, user: AbstractBaseUser) -> bool:
    """The person at an away seat is back: stop playing for them. True if it changed.
    Refused, as a move would be, to a watcher and at a game not on (an old page)."""
    with transaction.atomic():
        game, seats = _locked_game_and_seats(game_id)
        seat = _check_can_act(game, _seat_for(seats, user))
        if not seat.away:
            return False
        _back(game, seats, seat.index)
    return True


def _back(game: Game, seats: list[SeatRow], index: int) -> SeatRow:
    # Their turn clock starts again from now: the bot was about to move for them.
    seat = _set_away(game, seats, index, False)
    if not game.is_over and game.turn_seat == seat.index:
        game.turn_started_at = timezone.now()
        game.due_at = _due_at(game, seat, game.turn_started_at)
        game.save(update_fields=["turn_started_at", "due_at"])
    _changed(game)
    return seat
