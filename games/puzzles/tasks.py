"""Mining in the background: one task a game, on the coach's queue (django-tasks,
database backend, ``manage.py db_worker``), queued by ``manage.py make_puzzles``."""

from __future__ import annotations

from django_tasks import task

from . import services


@task()
def mine_game(game_id: int) -> int:
    """The puzzles of one finished game, made once; how many."""
    return services.mine_game(game_id)
