"""``manage.py verify_deal GAME``: check a finished game's seed against its commitment
and its deal, as anyone can from the replay page.

``manage.py verify_deal --daily 2026-12-05``: check a daily deal's seed (shown on its
page once the day is over) against its commitment, and play its par again
(docs/daily.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily import verify as daily_verify
from games.history.records import verify_deal
from games.models import Game


class Command(BaseCommand):
    help = "Check that a finished game's revealed seed matches its commitment and deal."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, nargs="?")
        parser.add_argument("--daily", metavar="DATE", help="a daily deal's day, 2026-12-05")

    def handle(self, *args, game: int | None, daily: str | None = None, **options) -> None:
        if daily:
            self._daily(daily)
            return
        if game is None:
            raise CommandError("name a game, or a day with --daily")
        try:
            obj = Game.objects.get(pk=game)
        except Game.DoesNotExist:
            raise CommandError(f"no game {game}") from None
        ok, message = verify_deal(obj)
        if not ok:
            raise CommandError(message)
        self.stdout.write(f"seed {obj.seed}\ncommitment {obj.commitment}\n{message}")

    def _daily(self, text: str) -> None:
        ok, lines = daily_verify.check_day(text)
        if not ok:
            raise CommandError("\n".join(lines))
        self.stdout.write("\n".join(lines))
