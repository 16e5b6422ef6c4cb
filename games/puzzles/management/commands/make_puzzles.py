"""``manage.py make_puzzles``: queue every finished game not mined yet for the background
worker (``db_worker``), or with ``--here`` mine them in this process. Idempotent: a game is
mined once, and a puzzle's key is its game and move number."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from games.puzzles import services, tasks


class Command(BaseCommand):
    help = "Make puzzles from the finished games not mined yet (in the background)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--here", action="store_true", help="mine here, not in a worker")
        parser.add_argument("--limit", type=int, default=None, help="at most this many games")

    def handle(self, *args, here: bool = False, limit: int | None = None, **options) -> None:
        games = services.games_to_mine(limit)
        if here:
            made = sum(services.mine_game(game_id) for game_id in games)
            self.stdout.write(f"{len(games)} games mined, {made} puzzles made")
            return
        for game_id in games:
            tasks.mine_game.enqueue(game_id)
        self.stdout.write(f"{len(games)} games queued for mining")
