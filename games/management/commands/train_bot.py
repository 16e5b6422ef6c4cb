"""``manage.py train_bot --seed N --positions K --out PATH``: train the Hard bot's learned
discard model from self-play (``games.bots.training``); the same seed and count write the
same file."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from games.bots import learned, training


class Command(BaseCommand):
    help = "Train the learned discard model on Hard's self-play choices and write it as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="the self-play deals' seed (1)")
        parser.add_argument(
            "--positions", type=int, default=3000, help="Hard's discards to learn from (3000)"
        )
        parser.add_argument(
            "--out", default=str(learned.MODEL_PATH), help="where to write the model"
        )

    def handle(self, *args, seed: int, positions: int, out: str, **options) -> None:
        def say(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        training.train(seed, positions, out, say)
