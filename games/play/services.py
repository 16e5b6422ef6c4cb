"""The one place that changes games: create, join, start, and apply a move.

Pattern (Zulip's actions): ``check_*`` validates, ``do_*``-style functions write while
holding the game row's lock, and seats are notified with ``transaction.on_commit`` (robust:
a channel layer that is down never turns a saved move into an error), never
before the commit. The event carries only the game id and seq: each socket renders its own
seat's view, so no rendered hand is ever sent to a group.

Size: one module of ~1,050 lines on purpose. It is the only writer of a game in play:
every function that changes one takes the row's lock the same way, and each section below
(tables, moves, the server's moves, notifications, staff) shares those private helpers;
the clock and tests replace ``notify_game`` and ``play_due`` here by name. Its machinery
(snapshots, publishing, thinking) is already apart, in live/.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from accounts.models import is_guest
from games import bots
from games.engine import GameState, IllegalMoveError, InvalidMoveError, Move, apply, seat_view
from games.engine.cards import CODES
from games.engine.deal import deal_from_seed
from games.engine.view import SeatView
from games.models import Game, Seat
from games.play import hooks, ratelimit, seating
from games.play.live import publish, rows, snapshots, thinking, watch
from games.play.live.layer import drops_own_events
from games.play.live.news import move_news
from games.play.live.snapshots import SeatRow
from games.ratings import core as ratings
from games.series import hooks as series
from games.words import rule_messages
from games.words.text import encodable, lazy_message

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# The channel layer (Redis) went away, or did not answer in time.
LAYER_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)
# What a new table's other seats may hold: people, or a bot of a level (games.bots); the
# older kinds still work for a table made again from one of before (``play_again``).
SEAT_CHOICES = ("open", *bots.LEVELS, "random", "greedy")
NO_SUCH_GAME = _("There is no such game.")
MOVE_ID_USED = _("That move id was already used; reload the table and try again.")


class ServiceError(Exception):
    """A request that changes nothing; ``message`` is for the person who made it.

    Messages are lazy (gettext_lazy, ``lazy_message``): a service may run in a thread with
    no request, so the message is put into words where it is shown, in its reader's
    language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(ServiceError):
    pass


class InAnotherGame(NotAllowed):
    """A person who holds a game in play would sit at (or be dealt) another: ``people``
    are those who hold one (``games.play.seating``)."""

    def __init__(self, people: set[int]) -> None:
        super().__init__(seating.IN_ANOTHER_GAME)
        self.people = people


class BadMove(ServiceError):
    """Malformed or illegal by the rules (the engine's message)."""


class StaleMove(ServiceError):
    """Sent for an older version of the game than the current one."""

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq


@dataclass(frozen=True)
class MoveResult:
    game_id: int
    seq: int
    payload: dict[str, Any]
    duplicate: bool = False
    finished: bool = False


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def person_tables_group(user_id: int) -> str:
    """The channel group of one person's table sockets: the blocks they make (the chat)
    and an arena's next game (games/sockets/table.py) reach each of them."""
    return f"person-{user_id}-tables"


# --- The state of a game, rebuilt from its log -------------------------------------------


def game_state(game: Game) -> GameState:
    """The engine state after the game's logged moves, up to the row's seq (moves
    committed since the row was read are not its version).

    Cached per process (``games.play.live.snapshots``): a state is stored only after its move
    committed, so a cached entry always equals a replay of the log (tests check this).
    """
    return snapshots.position(game.pk, game.commitment, game.seq, game.variants).state


def forget_cached_states() -> None:
    snapshots.forget()


# --- Tables -------------------------------------------------------------------------------


def create_table(
    user: AbstractBaseUser,
    *,
    public: bool = True,
    others: tuple[str, str] = ("open", "open"),
    variants: list[str] | None = None,
    turn_seconds: int | None = None,
    rated: bool = False,
    form_key: str = "",
    seed: int | None = None,
    daily: bool = False,
) -> Game:
    """A new table with ``user`` in seat 0; ``others`` says what fills seats 1 and 2
    ("open" for people, or a bot kind). Dealt at once when no seat is left open. A rated
    table's result moves its players' ratings (``games.ratings``).

    ``seed``: the deal's, committed to elsewhere (the daily deal's, ``games.daily``) rather
    than drawn here; ``daily`` marks the game as one of the daily deal (``Game.daily``).

    ``form_key``: the key of the form that asks (one per page). The same key again, while
    the table it made is unfinished, gives that table (``Game.repeated`` set), so a double
    click or a retried request makes one table, not two."""
    for choice in others:
        if choice not in SEAT_CHOICES:
            raise ServiceError(
                lazy_message(lambda c=choice: gettext("Unknown seat choice %r.") % (c,))
            )
    for name in variants or []:
        if name not in ("held-melds-free",):
            raise ServiceError(lazy_message(lambda n=name: gettext("Unknown variant %r.") % (n,)))
    seconds = turn_seconds or settings.TONGITS_TURN_SECONDS
    with transaction.atomic():
        _lock_user(user)
        earlier = _made_with(user, form_key)
        if earlier is not None and not earlier.is_over:
            return earlier
        _check_can_make_table(user)
        if "open" in others:  # else its deal, at once, checks them (start_game)
            _check_free([user.pk], Game(turn_seconds=seconds))
        if earlier is not None:
            # A key whose table is over (a page come back to) moves to the table made
            # now, so a double click on that page makes one table too.
            Game.objects.filter(pk=earlier.pk).update(form_key="")
        # The seed is drawn now and only its commitment shown, so everyone who sits down
        # can see that the deal was fixed before they joined (provably fair shuffles).
        drawn = str(secrets.randbits(128) if seed is None else seed)
        fields = dict(
            created_by=user, public=public, variants=list(variants or []),
            turn_seconds=seconds, seed=drawn, commitment=Game.commit_to(drawn), rated=rated,
            form_key=form_key, daily=daily,
        )  # fmt: skip
        try:
            with transaction.atomic():
                game = Game.objects.create(**fields)
        except IntegrityError:
            # The same form at once on a database with no row locks (SQLite): the first
            # request's table stands.
            earlier = _made_with(user, form_key)
            if earlier is None:
                raise
            return earlier
        Seat.objects.create(game=game, index=0, user=user)
        for index, choice in enumerate(others, start=1):
            bot = "" if choice == "open" else choice
            Seat.objects.create(game=game, index=index, bot_kind=bot)
        _start_if_full(game, user)
        _notify_lobby_on_commit()
    return game


def seat_tables(
    tables: list[list[AbstractBaseUser]],
    bot_kind: str = "normal",
    *,
    variants: list[str] | None = None,
    turn_seconds: int | None = None,
    rated: bool = False,
    public: bool = True,
) -> list[Game]:
    """Tables the server makes (a tournament's pairing), dealt at once: each table's
    ``people`` in seats 0, 1, … in order and bots of ``bot_kind`` in the rest. Public to
    watch unless ``public`` is off (a private tournament's). No person asked for them, so
    no table limit applies; the caller holds the locks that keep one person from two such
    tables. All in a few statements, however many tables: a crowd's pairing holds its
    locks for a few statements, not a thousand.

    Nobody is told of each game: no socket can be at a table that did not exist (the
    people learn of theirs from the page that sent them, and the lobby is told once).
    No fair-play notice is needed: a rated pairing never seats together accounts that
    share an address or a device (its veto asks the same hook)."""
    if any(not 1 <= len(people) <= 3 for people in tables) or bot_kind not in bots.LEVELS:
        raise ServiceError(_("A table seats one to three people and bots of a level."))
    if not tables:
        return []
    now = timezone.now()
    seconds = turn_seconds or settings.TONGITS_TURN_SECONDS
    with transaction.atomic():
        _check_free([p.pk for people in tables for p in people])  # the caller holds the locks
        games, seats = [], []
        for people in tables:
            seed = secrets.randbits(128)
            game = Game(
                created_by=None, public=public, variants=list(variants or []),
                turn_seconds=seconds, rated=rated,
            )  # fmt: skip
            occupants = [*people, *[bot_kind] * (3 - len(people))]
            game_seats = [
                Seat(game=game, index=i, bot_kind=o) if isinstance(o, str)
                else Seat(game=game, index=i, user=o)
                for i, o in enumerate(occupants)
            ]  # fmt: skip
            _deal(game, seed, None, now, game_seats.__getitem__)
            games.append(game)
            seats.extend(game_seats)
        Game.objects.bulk_create(games)
        for seat in seats:
            seat.game_id = seat.game.pk  # the games have their ids now
        Seat.objects.bulk_create(seats)
        for game in games:
            log.info("Game %s dealt; dealer seat %s; commitment %s.", game.pk, game.dealer,
                     game.commitment)  # fmt: skip
        _notify_lobby_on_commit()
    return games


def _lock_user(user: AbstractBaseUser) -> None:
    # The user's row lock makes one account's tables one at a time, so a burst of
    # requests cannot all pass the count before any of them is stored.
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def _made_with(user: AbstractBaseUser, form_key: str) -> Game | None:
    """The table ``user`` made with the form of ``form_key``, if any (``repeated`` set)."""
    if not form_key:
        return None
    earlier = Game.objects.filter(created_by=user, form_key=form_key).first()
    if earlier is not None:
        earlier.repeated = True
    return earlier


def _check_free(people: list[int], game: Game | None = None) -> None:
    """The one check that nobody holds two games in play (``games.play.seating``), made
    where a person sits down and where a table is dealt; the caller holds their rows'
    locks."""
    busy = seating.playing(people, game)
    if busy:
        raise InAnotherGame(busy)


def _check_can_make_table(user: AbstractBaseUser) -> None:
    refusal = ratelimit.check_can_make_table(user)
    if refusal:
        raise ServiceError(refusal)


def quick_play(
    user: AbstractBaseUser, level: str = "normal", *, public: bool = True, form_key: str = ""
) -> Game:
    """A rated table with ``user`` and two bots of ``level``, dealt at once. Public unless
    its player asks otherwise: it has no seat to join, but anyone may watch it.
    ``form_key`` as for ``create_table``."""
    if level not in bots.LEVELS:
        raise ServiceError(_("There is no such bot level: choose Easy, Normal or Hard."))
    return create_table(user, public=public, others=(level, level), rated=True, form_key=form_key)


def join_table(game_id: int, user: AbstractBaseUser, *, invite_token: str | None = None) -> Game:
    """Sit ``user`` in the first open seat; the deal happens when the last one fills.

    A private table takes only people who bring its invite token, and so does a rated
    one take guests."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            return game
        if not game.public and not _may_join_private(game, user, invite_token):
            raise NotAllowed(_("This table is private: you need its invite link to join."))
        if game.rated and is_guest(user) and not _may_join_private(game, user, invite_token):
            raise NotAllowed(
                _(
                    "Rated tables are for players with an account: claim yours (choose a "
                    "username and a password) to join, or ask for the table's invite link."
                )
            )
        if game.status != Game.Status.WAITING:
            raise NotAllowed(_("This table is full: its game has already started."))
        free = [s for s in seats if s.is_open]
        if not free:
            raise NotAllowed(_("This table is full."))
        # The people already seated too, in one statement: the deal checks them all, and
        # two people joining each other's tables at once take their locks in one order.
        seating.lock([user.pk, *(s.user_id for s in seats if s.user_id)])
        _check_free([user.pk], game)
        refusal = ratelimit.check_open_tables(user, joining=True)
        if refusal:
            raise ServiceError(refusal)
        free[0].user = user
        try:
            with transaction.atomic():
                free[0].save(update_fields=["user"])
        except IntegrityError:
            return game
        _note_shared(game, seats)
        _start_if_full(game, user)
        if game.status == Game.Status.WAITING:
            # The deal notifies the table itself; until then, show who sat down.
            _changed(game)
        _notify_previous_table(game)
        _notify_lobby_on_commit()
    return game


def leave_table(game_id: int, user: AbstractBaseUser) -> Game:
    """Get up from a table before its deal: the seat is open again. A table nobody is left
    at is called off (aborted, nothing dealt), so it holds nobody's place. Before, a table
    waited for ever: a person pressing Play again after games whose others had gone home
    reached the limit of tables and could never play again."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotAllowed(_("You are not seated at this table."))
        if game.status != Game.Status.WAITING:
            raise NotAllowed(_("The cards are dealt: a table can be left only before its deal."))
        mine.user = None
        mine.save(update_fields=["user"])
        if game.created_by_id == user.pk and game.form_key:
            # The form that made it makes a new table if sent again, not this one.
            game.form_key = ""
            game.save(update_fields=["form_key"])
        if not any(s.user_id is not None for s in seats if s.pk != mine.pk):
            _end_unplayed(game, user, Game.LEFT_BEFORE_THE_DEAL)
        else:
            _note_shared(game, [s for s in seats if s.pk != mine.pk])
            _notify_previous_table(game)  # its finished table shows the seat free again
        _changed(game)
        _notify_lobby_on_commit()
    return game


def _note_shared(game: Game, seats: list[Seat]) -> None:
    """At a rated table, before the deal: which seats' accounts share a network address
    or a device (``hooks.shared``: fair play knows). Stored on the game, so that every
    board of it says so to everyone at the table."""
    if not game.rated:
        return
    people = {s.user_id: s.index for s in seats if s.user_id is not None}
    # Asked again as people sit down and get up: one who left takes the notice with them.
    found = (
        [[people[a], people[b], list(why)] for a, b, why in hooks.shared(people)]
        if len(people) >= 2
        else []
    )
    if found != game.shared:
        game.shared = found
        Game.objects.filter(pk=game.pk).update(shared=found)


def _notify_previous_table(game: Game, *, forget: bool = False) -> None:
    """The finished table(s) whose next game this is show its seats as they are now
    (whoever came by the lobby or a link instead of its button); with ``forget``, they
    offer Play again anew (this table was called off before its deal).

    After the commit, in statements of their own: the caller holds this table's lock, and
    Play again locks the finished table first, then this one; taking the finished table's
    row here would take the two locks in the other order (a deadlock on PostgreSQL)."""
    game_id = game.pk

    def tell() -> None:
        pks = list(Game.objects.filter(next_game_id=game_id).values_list("pk", flat=True))
        Game.objects.filter(pk__in=pks).update(rev=F("rev") + 1)
        if forget:  # unless Play again has meanwhile made it a newer table (checked as set)
            Game.objects.filter(pk__in=pks, next_game_id=game_id).update(next_game=None)
        for pk, rev in Game.objects.filter(pk__in=pks).values_list("pk", "rev"):
            notify_game(pk, rev)

    transaction.on_commit(tell, robust=True)


def _may_join_private(game: Game, user: AbstractBaseUser, invite_token: str | None) -> bool:
    # The people of the game before this one are invited already: they played together.
    if _token_matches(invite_token, game.invite_token):
        return True
    return Game.objects.filter(next_game=game, seats__user=user).exists()


def play_again(game_id: int, user: AbstractBaseUser, *, rematch: bool = False) -> Game:
    """The next game after the finished game ``game_id``, with ``user`` seated at it.

    ``rematch``: if the first press makes the table, it is private (only this game's
    people may sit, by its button) and bots take the seats still open after
    ``REMATCH_SECONDS`` (the server clock, ``fill_due``).

    The first person to ask makes it: the same bots in the same places around them, open
    seats for the other people. Everyone after is seated at that same table (if a seat is
    free), so the people of one game can play the next one together. The finished table
    is told, so its people see the way to the next game.
    """
    with transaction.atomic():
        # Under the finished game's lock, so that two people pressing at once make one table.
        game = _locked_game(game_id)
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotAllowed(_("Only a player at this table can start the next game."))
        if not game.is_over:
            raise NotAllowed(_("Finish this game first."))
        following = game.next_game
        called_off = following is not None and following.is_over and following.deal is None
        if game.next_game_id is None or called_off:  # (called off: not yet forgotten)
            game.next_game = _next_table(game, seats, mine, user, rematch=rematch)
            game.save(update_fields=["next_game"])
            following = game.next_game
        else:
            following = join_table(game.next_game_id, user)
        _changed(game)
    return following


def _next_table(
    game: Game, seats: list[Seat], mine: Seat, user: AbstractBaseUser, *, rematch: bool = False
) -> Game:
    # Seats are counted from the presser's, who sits in seat 0 of the new table.
    around = sorted(seats, key=lambda s: (s.index - mine.index) % 3)[1:]
    others = tuple(s.bot_kind or "open" for s in around)
    following = create_table(
        user, public=game.public and not rematch, others=others, variants=list(game.variants),
        turn_seconds=game.turn_seconds, rated=game.rated,
    )  # fmt: skip
    if rematch and following.status == Game.Status.WAITING:
        # A waiting table's due_at: when the clock seats bots in its open seats.
        # At a correspondence table the others have a turn's time to answer.
        wait = settings.TONGITS_REMATCH_SECONDS
        wait = max(wait, game.turn_seconds) if game.correspondence else wait
        following.due_at = timezone.now() + timedelta(seconds=wait)
        following.save(update_fields=["due_at"])
    return following


def fill_due(game_id: int, now: datetime | None = None) -> bool:
    """A waiting table whose deadline passed (a rematch nobody else answered in time):
    bots of the table's level take its open seats and it is dealt. True if it was."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.WAITING or game.due_at is None or game.due_at > now:
            return False
        seats = list(game.seats.all())
        kind = next((s.bot_kind for s in seats if s.bot_kind in bots.LEVELS), "normal")
        for seat in seats:
            if seat.is_open:
                seat.bot_kind = kind
                seat.save(update_fields=["bot_kind"])
        log.info("Game %s: bots took the seats nobody came for.", game.pk)
        _start_if_full(game)
        _notify_previous_table(game)
        _notify_lobby_on_commit()
    return True


def _token_matches(given: str | None, token: str) -> bool:
    # Bytes, because compare_digest refuses non-ASCII str, and a token comes from a form;
    # text with no UTF-8 form (a lone surrogate) is no token.
    if given is None or not encodable(given):
        return False
    return secrets.compare_digest(given.encode(), token.encode())


def _start_if_full(game: Game, actor: AbstractBaseUser | None = None) -> None:
    """Deal a table with no open seat left. One whose people include someone dealt a game
    elsewhere since they sat down (Quick play, an arena, another table) is not dealt:
    they give their seat up, and the table waits (or, with no person left, is called
    off). ``actor``, who filled it, is refused instead: they are told why."""
    seats = list(game.seats.all())
    if any(s.is_open for s in seats):
        return
    try:
        start_game(game)
    except InAnotherGame as e:
        if actor is not None and actor.pk in e.people:
            raise
        _give_up_seats(game, seats, e.people)


def _give_up_seats(game: Game, seats: list[Seat], people: set[int]) -> None:
    for seat in seats:
        if seat.user_id in people:
            seat.user = None
            seat.save(update_fields=["user"])
    if game.created_by_id in people and game.form_key:
        # As when they get up: the form that made it makes a new table if sent again.
        game.form_key = ""
        game.save(update_fields=["form_key"])
    log.info("Game %s: %s seat(s) of people playing elsewhere opened again.", game.pk, len(people))
    if not any(s.user_id is not None for s in seats):
        _end_unplayed(game, None, Game.LEFT_BEFORE_THE_DEAL)
    else:
        _note_shared(game, seats)
    _changed(game)


def start_game(game: Game, seed: int | None = None, dealer: int | None = None) -> None:
    """Deal (R2) from the seed committed to when the table was made (or ``seed``, or a
    fresh one); the table shows only the seed's commitment until the game ends.
    ``dealer``: the seat the rules outside this game name (a series' winner deals next);
    by default the seed draws it. Refused (``InAnotherGame``, before anything is written)
    if one of its people holds a game in play elsewhere."""
    seats = {seat.index: seat for seat in game.seats.all()}
    people = [s.user_id for s in seats.values() if s.user_id is not None]
    seating.lock(people)
    _check_free(people, game)
    if seed is None:
        seed = int(game.seed) if game.seed else secrets.randbits(128)
    _deal(game, seed, dealer, timezone.now(), seats.__getitem__)
    game.save()
    rev = game.rev
    # Never log the seed or a card: people read logs, and the deal is secret until the end.
    log.info("Game %s dealt; dealer seat %s; commitment %s.", game.pk, game.dealer, game.commitment)
    transaction.on_commit(lambda: notify_game(game.pk, rev), robust=True)


def _deal(
    game: Game, seed: int, dealer: int | None, now: datetime, seat_at: Callable[[int], Seat]
) -> None:
    """The deal's fields of ``game`` (in memory: the caller saves them): the cards from
    the seed, the dealer's turn, its clock (``seat_at(index)``: the seat at ``index``), and
    the learned models its bots play with (a record names them)."""
    dealer, hands, stock = deal_from_seed(seed, dealer)
    game.seed = str(seed)
    game.commitment = Game.commit_to(game.seed)
    game.deal = {
        "dealer": dealer,
        "hands": [[CODES[c] for c in hand] for hand in hands],
        "stock": [CODES[c] for c in stock],
    }
    game.dealer = dealer
    game.status = Game.Status.PLAYING
    game.started_at = game.turn_started_at = now
    game.turn_seat = dealer
    game.seq = 0
    game.due_at = _due_at(game, seat_at(dealer), now)
    game.rev += 1
    models = [
        bots.model_version(seat_at(i).bot_kind) if seat_at(i).bot_kind else None for i in range(3)
    ]
    game.bot_models = models if any(models) else []


def _changed(game: Game) -> None:
    """A change watchers see that is not a move: a new rev, and the table told after the
    commit."""
    # In the database, not from the row in hand: the same transaction may have moved the
    # rev on already (the table before the next one, told of a seat taken there).
    rows = Game.objects.filter(pk=game.pk)
    rows.update(rev=F("rev") + 1)
    game.rev = rows.values_list("rev", flat=True).get()
    game_id, rev = game.pk, game.rev
    transaction.on_commit(lambda: notify_game(game_id, rev), robust=True)


# --- Moves --------------------------------------------------------------------------------


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
        notify_game(snap.pk, snap.rev, move_news(snap))

    transaction.on_commit(after_commit, robust=True)
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
    arena scores a seat it played most of as away: ``games.tournaments.scoring``)."""
    if seat.is_bot:
        low, high = settings.TONGITS_BOT_PAUSE
        return now + timedelta(seconds=random.uniform(low, high))
    return game.turn_started_at + timedelta(seconds=game.turn_seconds)


# --- Moves the server makes: bots, and seats whose clock ran out --------------------------


# How long a game whose Hard bot is thinking is left to the clock that started the thought.
THINKING_LEASE = timedelta(seconds=15)


@dataclass(frozen=True)
class Thinking:
    """A Hard bot's move still to work out: its seat's view, and the seed of its search."""

    game_id: int
    seq: int
    kind: str
    view: SeatView  # of the seat to move
    seed: int


def play_due(
    game_id: int, now: datetime | None = None, *, defer_thinking: bool = False
) -> MoveResult | Thinking | None:
    """If the server owes this game a move now, make it (one move).

    A bot plays its own kind; a person whose clock ran out is marked away and the greedy
    bot plays a safe move for them, the rest of that turn at once and each later turn of
    theirs when its turn clock runs out. Bots see only their seat's view (never the state).

    A Hard bot's move is thought out in another process, with the game's row lock let go
    meanwhile. With ``defer_thinking`` (the server clock) the thought is handed back as a
    ``Thinking`` for the caller to run and finish with ``play_thought``; without it, this
    waits for it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game, seats = _locked_game_and_seats(game_id)
        if game.status != Game.Status.PLAYING or game.due_at is None or game.due_at > now:
            return None
        seat = seats[game.turn_seat]
        if not seat.plays_itself:
            seat = _set_away(game, seats, seat.index, True)
            log.info("Game %s: seat %s ran out of time and is away.", game.pk, seat.index)
        state = game_state(game)
        view = seat_view(state, seat.index)
        kind = seat.bot_kind or "greedy"
        # From the secret seed (never from the game's id alone): the same game, the same moves.
        seed = bots.bot_seed(game.seed, game.seq, seat.index) if game.seed else secrets.randbits(64)
        if kind not in bots.SEARCHING:
            move = bots.choose(kind, view, random.Random(seed))
            return _apply_and_log(game, seats, state, move, by_server=True)
        # A Hard bot thinks outside the lock and in another process (games.play.live.thinking).
        # Meanwhile the game is not due, so no clock starts the same thought again; if this
        # one is lost (a worker stopped), the game falls due once more after the lease.
        game.due_at = now + THINKING_LEASE
        game.save(update_fields=["due_at"])
        job = Thinking(game.pk, game.seq, kind, view, seed)
    if defer_thinking:
        return job
    return play_thought(job, thinking.choose(job.kind, job.view, job.seed))


def play_thought(job: Thinking, move: Move) -> MoveResult | None:
    """Make the move a bot thought of for ``job``, unless the game moved on meanwhile."""
    with transaction.atomic():
        game, seats = _locked_game_and_seats(job.game_id)
        if game.status != Game.Status.PLAYING or game.seq != job.seq:
            return None
        return _apply_and_log(game, seats, game_state(game), move, by_server=True)


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


# --- Notifications ------------------------------------------------------------------------


def notify_game(game_id: int, rev: int, news: dict[str, Any] | None = None) -> None:
    """Tell every socket of the game that it is now at ``rev``; each renders its own view
    (from its process's snapshot of that rev, loaded once for all of them). ``news`` is
    what a move changed, so that other processes need not load it (see
    ``games.play.live.news``)."""
    message = {"type": "game.update", "game": game_id, "rev": rev}
    if news is not None:
        message["news"] = news
    _tell(game_group(game_id), message, game_id)


def notify_group(group: str, message: dict) -> None:
    """Tell ``group`` (a person's own sockets, say) ``message`` after the commit, on the
    event loop's own Redis connection when it can (``publish``, echoed to this process's
    sockets too); never raises (see ``_tell``)."""
    transaction.on_commit(lambda: _tell(group, message, echo=True), robust=True)


def notify_lobby() -> None:
    """Tell the lobby's sockets that its list of tables changed."""
    _tell(LOBBY_GROUP, {"type": "lobby.update"})


def _tell(group: str, message: dict, game_id: int | None = None, *, echo: bool = False) -> None:
    """Send ``message`` to ``group``. Never raises: while the channel layer is down the
    event is dropped with a warning (the change itself is saved, and pages and sockets
    catch up by themselves)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is not None:
        # A database thread of a running server: the event loop sends it, and the thread
        # goes on to its next piece of work instead of waiting for Redis.
        loop.call_soon_threadsafe(_send_soon, layer, group, message, game_id, echo)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except LAYER_DOWN as e:
        _not_told(group, e)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that handed this thread its work (asgiref records it), if it is
    running and this is not its own thread."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None


_sending: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


def _send_soon(layer, group: str, message: dict, game_id: int | None, echo: bool = False) -> None:
    # A game's event is written at once, not waited for; this process's sockets of the
    # game hear it from here, not back from Redis. A person's event (``echo``) is written
    # at once too, and heard back. (Others, rare, go the layer's way.)
    if echo and publish.publish(layer, group, message, echo=True):
        return
    if game_id is not None and publish.publish(layer, group, message):
        if drops_own_events(layer):
            watch.tell(game_id, message)
        return
    task = asyncio.ensure_future(_send(layer, group, message))
    _sending.add(task)
    task.add_done_callback(_sending.discard)


async def _send(layer, group: str, message: dict) -> None:
    try:
        await layer.group_send(group, message)
    except LAYER_DOWN as e:
        _not_told(group, e)


def _not_told(group: str, error: Exception) -> None:
    # The move is saved; the table's sockets catch up by themselves within seconds
    # (games.play.live.watch), or get the whole board when they reconnect.
    log.warning("Could not tell %s of a change: %s", group, error)


def _notify_lobby_on_commit() -> None:
    transaction.on_commit(notify_lobby, robust=True)


# --- Staff: ending a game that cannot go on -----------------------------------------------


def abort_game(game_id: int, by_user: AbstractBaseUser, reason: str) -> Game:
    """End a waiting or playing game without a result, saying who ended it and why.

    Nobody pays: an aborted game has no winner and no chips. Its deal becomes revealed
    (the game is over), so its replay opens, as for a finished game.
    """
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Say why the game is aborted."))
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status not in (Game.Status.WAITING, Game.Status.PLAYING):
            raise NotAllowed(_("Only a game that is waiting or being played can be aborted."))
        _end_unplayed(game, by_user, reason)
        _changed(game)
        _notify_lobby_on_commit()
    return game


def _end_unplayed(game: Game, by_user: AbstractBaseUser, reason: str) -> None:
    """Abort ``game`` (locked, waiting or being played): no winner, no chips."""
    dealt = game.status == Game.Status.PLAYING
    game.status = Game.Status.ABORTED
    game.aborted_by, game.abort_reason = by_user, reason
    game.finished_at = timezone.now()
    game.winner_seat, game.chips = None, None
    game.turn_seat = game.due_at = None
    game.save()
    # A series' hand: its pause starts as after a finished hand (else only clicks would
    # ever deal the next one); a first hand left before its deal ends the series.
    series.hand_aborted(game.pk, dealt, game.finished_at)
    if not dealt:
        # The game before it offers Play again anew, not a table that was called off.
        _notify_previous_table(game, forget=True)
