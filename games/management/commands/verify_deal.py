"""``manage.py verify_deal GAME``: check a finished game's seed against its commitment
and its deal, as anyone can from the replay page."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.history.records import verify_deal
from games.models import Game


class Command(BaseCommand):
    help = "Check that a finished game's revealed seed matches its commitment and deal."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int)

    def handle(self, *args, game: int, **options) -> None:
        try:
            obj = Game.objects.get(pk=game)
        except Game.DoesNotExist:
            raise CommandError(f"no game {game}") from None
        ok, message = verify_deal(obj)
        if not ok:
            raise CommandError(message)
        self.stdout.write(f"seed {obj.seed}\ncommitment {obj.commitment}\n{message}")
