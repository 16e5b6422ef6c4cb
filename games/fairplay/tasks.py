"""The background task that scores a game's pairs once it has ended: a rated game, or a
hand of any series (casual and challenge series too: each has a pot).

Queued on the coach's queue (django-tasks, database backend, ``manage.py db_worker``) after
the commit of such a game's last move: play's finish hook (``games.play.hooks``) tells us,
so live play never imports fair play, and a move never waits for the scoring.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django_tasks import task

from games.play import hooks
from games.series import hooks as series_hooks

from . import scoring

log = logging.getLogger(__name__)


@task()
def score_finished_game(game_id: int) -> int:
    """Score the pairs of one finished counted game; how many pairs it added to."""
    return scoring.score_game(game_id)


def _finished(game_id: int, seats, outcome, now, rated: bool) -> None:
    # Only a game of two or more accounts has a pair to score (Quick play is one person
    # and two bots), and only one with something riding on it: rated, or a series' hand
    # (one query, asked only of an unrated game of two or more people).
    accounts = {seat.user_id for seat in seats if seat.user_id is not None}
    if len(accounts) >= 2 and (rated or series_hooks.series_of(game_id) is not None):
        transaction.on_commit(lambda: _enqueue(game_id), robust=True)


def _enqueue(game_id: int) -> None:
    score_finished_game.enqueue(game_id)


def connect() -> None:
    hooks.on_finish(_finished)
