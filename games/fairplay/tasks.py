"""The background task that scores a rated game's pairs once it has ended.

Queued on the coach's queue (django-tasks, database backend, ``manage.py db_worker``) after
the commit of a rated game's last move: play's finish hook (``games.play.hooks``) tells us,
so live play never imports fair play, and a move never waits for the scoring.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django_tasks import task

from games.play import hooks

from . import scoring

log = logging.getLogger(__name__)


@task()
def score_finished_game(game_id: int) -> int:
    """Score the pairs of one finished rated game; how many pairs it added to."""
    return scoring.score_game(game_id)


def _finished(game_id: int, seats, outcome, now, rated: bool) -> None:
    # Only a game of two or more accounts has a pair to score (Quick play is one person
    # and two bots), and only a rated one played here (not uploaded).
    accounts = {seat.user_id for seat in seats if seat.user_id is not None}
    if rated and len(accounts) >= 2:
        transaction.on_commit(lambda: _enqueue(game_id), robust=True)


def _enqueue(game_id: int) -> None:
    score_finished_game.enqueue(game_id)


def connect() -> None:
    hooks.on_finish(_finished)
