"""A game ended without a result: by staff (``abort_game``), or a table left before its
deal (``_end_unplayed``, from ``tables`` and ``dealing``). Nobody pays and nobody wins."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.play.errors import NotAllowed, ServiceError
from games.play.moves import _locked_game
from games.play.telling import _changed, _notify_lobby_on_commit, _notify_previous_table
from games.series import hooks as series


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
