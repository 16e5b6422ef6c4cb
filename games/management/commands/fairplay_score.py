"""``manage.py fairplay_score``: score the finished games fair play counts (rated ones and
every series' hands) that it has not scored yet (those from before it, or whose task was
lost), oldest first. Safe to run beside the workers: a game counts once whoever scores it."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from games.fairplay.models import ScoredGame
from games.fairplay.scoring import counted_games, score_game


class Command(BaseCommand):
    help = "Score the finished rated games and series hands not scored yet, oldest first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="at most this many games")

    def handle(self, *args, limit: int | None = None, **options) -> None:
        ids = (
            counted_games()
            .exclude(pk__in=ScoredGame.objects.values("game_id"))
            .order_by("finished_at", "pk")
            .values_list("pk", flat=True)
        )
        if limit is not None:
            ids = ids[:limit]
        games = pairs = 0
        for game_id in list(ids):
            pairs += score_game(game_id)
            games += 1
        self.stdout.write(f"Scored {games} games: {pairs} pairs of accounts added to.")
