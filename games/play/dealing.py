"""Dealing a table: ``start_game`` (R2) once its last seat fills, from the seed committed
to when it was made, and the one check that nobody holds two games in play
(``_check_free``, asked where a person sits down and where a table is dealt). A table
whose people include someone dealt elsewhere meanwhile is not dealt: they give their seat
up (``_start_if_full``). ``_note_shared``: who at a rated table, or a series' hand, shares
an address or a device (fair play answers through ``hooks``)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import bots
from games.engine.cards import CODES
from games.engine.deal import deal_from_seed
from games.models import Game, Seat
from games.play import hooks, seating, telling
from games.play.aborts import _end_unplayed
from games.play.errors import InAnotherGame
from games.play.moves import _due_at
from games.play.telling import _changed
from games.series import hooks as series

log = logging.getLogger(__name__)


def _check_free(people: list[int], game: Game | None = None) -> None:
    """The one check that nobody holds two games in play (``games.play.seating``), made
    where a person sits down and where a table is dealt; the caller holds their rows'
    locks."""
    busy = seating.playing(people, game)
    if busy:
        raise InAnotherGame(busy, correspondence=game is not None and game.correspondence)


def _note_shared(game: Game, seats: list[Seat]) -> None:
    """At a table something rides on, before the deal: a rated one, or a hand of a series,
    casual ones too (its pot; fair play counts them alike, issue 49): which seats' accounts
    share a network address or a device (``hooks.shared``: fair play knows). Stored on the
    game, so that every board of it says so to everyone at the table. An unrated table
    costs one query more, once two people sit at it (is it a series' hand?)."""
    people = {s.user_id: s.index for s in seats if s.user_id is not None}
    if not game.rated and len(people) >= 2 and series.series_of(game.pk) is None:
        return  # a casual table outside a series: nothing rides on it
    # Asked again as people sit down and get up: one who left takes the notice with them.
    found = (
        [[people[a], people[b], list(why)] for a, b, why in hooks.shared(people)]
        if len(people) >= 2
        else []
    )
    if found != game.shared:
        game.shared = found
        Game.objects.filter(pk=game.pk).update(shared=found)


def _start_if_full(
    game: Game,
    actor: AbstractBaseUser | None = None,
    seats: list[Seat] | None = None,
    *,
    locked: bool = False,
) -> None:
    """Deal a table with no open seat left. One whose people include someone dealt a game
    elsewhere since they sat down (Quick play, an arena, another table) is not dealt:
    they give their seat up, and the table waits (or, with no person left, is called
    off). ``actor``, who filled it, is refused instead: they are told why. ``seats``: the
    table's seats as the caller holds them, saved (read again if not given); ``locked``:
    the caller holds every seated person's row lock already (``start_game``)."""
    if seats is None:
        seats = list(game.seats.all())
    if any(s.is_open for s in seats):
        return
    try:
        start_game(game, seats=seats, locked=locked)
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


def start_game(
    game: Game,
    seed: int | None = None,
    dealer: int | None = None,
    *,
    seats: list[Seat] | None = None,
    locked: bool = False,
) -> None:
    """Deal (R2) from the seed committed to when the table was made (or ``seed``, or a
    fresh one); the table shows only the seed's commitment until the game ends.
    ``dealer``: the seat the rules outside this game name (a series' winner deals next);
    by default the seed draws it. Refused (``InAnotherGame``, before anything is written)
    if one of its people holds a game in play elsewhere. ``seats``: its seats, saved, as
    the caller holds them (read if not given); ``locked``: the caller holds the row locks
    of all its people already (a join takes them all as it seats the last one)."""
    seated = game.seats.all() if seats is None else seats
    seats = {seat.index: seat for seat in seated}
    people = [s.user_id for s in seats.values() if s.user_id is not None]
    if not locked:
        seating.lock(people)
    _check_free(people, game)
    if seed is None:
        seed = int(game.seed) if game.seed else secrets.randbits(128)
    _deal(game, seed, dealer, timezone.now(), seats.__getitem__)
    game.save()
    rev = game.rev
    # Never log the seed or a card: people read logs, and the deal is secret until the end.
    log.info("Game %s dealt; dealer seat %s; commitment %s.", game.pk, game.dealer, game.commitment)
    transaction.on_commit(lambda: telling.notify_game(game.pk, rev), robust=True)


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
