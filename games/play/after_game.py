"""After a game: Play again, a rematch, and the next table.

The first player of a finished game to press makes the next table (the same bots in the
same places, open seats for the others); everyone after sits at that same table. A
rematch's table is private, and bots take its seats nobody came for when its deadline
passes (``fill_due``, from the server clock)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import bots
from games.models import Game, Seat
from games.play.dealing import _start_if_full
from games.play.errors import NotAllowed
from games.play.moves import _locked_game
from games.play.tables import create_table, join_table
from games.play.telling import _changed, _notify_lobby_on_commit, _notify_previous_table

log = logging.getLogger(__name__)


def play_again(game_id: int, user: AbstractBaseUser, *, rematch: bool = False) -> Game:
    """The next game after the finished game ``game_id``, with ``user`` seated at it.

    ``rematch``: if the first press makes the table, it is private (only this game's
    people may sit, by its button) and bots take the seats still open after
    ``REMATCH_SECONDS`` (the server clock, ``fill_due``), or at a correspondence table
    ``CORRESPONDENCE_ANSWER_DAYS``.

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
        # A waiting table's due_at: when the clock seats bots in its open seats. At a
        # correspondence table the others have days to answer, as a friend's challenge.
        wait = timedelta(seconds=settings.TONGITS_REMATCH_SECONDS)
        if game.correspondence:
            wait = timedelta(days=settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS)
        following.due_at = timezone.now() + wait
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
