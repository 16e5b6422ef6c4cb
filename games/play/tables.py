"""Tables and seats: making a table (``create_table``, ``quick_play``, and
``seat_tables`` for the server's pairings), joining one and leaving it before its deal.

Each takes the rows' locks the same way (a person's own row while they make a table, the
game's row while they sit or get up, ``seating.lock`` for the people dealt), checks, and
writes; the table is dealt by ``games.play.dealing`` when its last seat fills, and the
lobby and the table are told after the commit (``games.play.telling``)."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import is_guest
from games import bots
from games.models import Game, Seat
from games.play import ratelimit, seating
from games.play.aborts import _end_unplayed
from games.play.dealing import _check_free, _deal, _note_shared, _start_if_full
from games.play.errors import NotAllowed, ServiceError
from games.play.live import snapshots
from games.play.live.snapshots import SeatRow
from games.play.moves import _locked_game
from games.play.telling import _changed, _notify_lobby_on_commit, _notify_previous_table
from games.words.text import encodable, lazy_message

log = logging.getLogger(__name__)

# What a new table's other seats may hold: people, or a bot of a level (games.bots); the
# older kinds still work for a table made again from one of before (``play_again``).
SEAT_CHOICES = ("open", *bots.LEVELS, "random", "greedy")


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
        # One insert for the three seats, which the deal then needs not read again.
        seats = [Seat(game=game, index=0, user=user)] + [
            Seat(game=game, index=index, bot_kind="" if choice == "open" else choice)
            for index, choice in enumerate(others, start=1)
        ]
        Seat.objects.bulk_create(seats)
        _start_if_full(game, user, seats)
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
    checked: bool = False,
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
    share an address or a device (its veto asks the same hook). ``checked``: the caller
    has found its people free (``seating.playing``) under their locks in this
    transaction."""
    if any(not 1 <= len(people) <= 3 for people in tables) or bot_kind not in bots.LEVELS:
        raise ServiceError(_("A table seats one to three people and bots of a level."))
    if not tables:
        return []
    now = timezone.now()
    seconds = turn_seconds or settings.TONGITS_TURN_SECONDS
    with transaction.atomic():
        if not checked:
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
        _remember_dealt(tables, games, seats)
        _notify_lobby_on_commit()
    return games


def _remember_dealt(tables: list[list[AbstractBaseUser]], games: list[Game], seats) -> None:
    """After the commit, and before the people are told of their games (the caller's
    notices are queued after this): this process keeps each game's snapshot as dealt,
    from the rows in hand, so its sockets of the new games send their first boards with
    no load (four queries a game, and the deal replayed, in each worker before). The
    people's names and settings come in one query for all; each seat's game says by
    then whether it is an arena's (the caller links it as it counts the game)."""
    prefetch_related_objects([p for people in tables for p in people], "profile")

    def remember() -> None:
        by_game: dict[int, list[SeatRow]] = {game.pk: [] for game in games}
        held = {game.pk: game for game in games}
        for seat in seats:
            seat.game = held[seat.game_id]  # (its id set after the games' insert: not read)
            by_game[seat.game_id].append(SeatRow.of(seat))
        for game in games:
            made = snapshots.dealt(game, sorted(by_game[game.pk], key=lambda s: s.index))
            snapshots.remember_position((game.pk, game.commitment), made.position)
            snapshots.remember(made)

    transaction.on_commit(remember, robust=True)


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
        # The seats in hand (the one taken saved), everyone's lock held (above).
        _start_if_full(game, user, seats, locked=True)
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


def _may_join_private(game: Game, user: AbstractBaseUser, invite_token: str | None) -> bool:
    # The people of the game before this one are invited already: they played together.
    if _token_matches(invite_token, game.invite_token):
        return True
    return Game.objects.filter(next_game=game, seats__user=user).exists()


def _token_matches(given: str | None, token: str) -> bool:
    # Bytes, because compare_digest refuses non-ASCII str, and a token comes from a form;
    # text with no UTF-8 form (a lone surrogate) is no token.
    if given is None or not encodable(given):
        return False
    return secrets.compare_digest(given.encode(), token.encode())
