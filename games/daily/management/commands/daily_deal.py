"""``manage.py daily_deal``: make today's and tomorrow's deals if missing (the server clock
does it too) and, with ``--par``, work out here every par still missing (a site without a
``db_worker``, or one that was down)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.daily import services, tasks
from games.daily.models import Day


class Command(BaseCommand):
    help = "Make today's and tomorrow's daily deals; --par works out the pars still missing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--par", action="store_true", help="work out missing pars here")

    def handle(self, *args, par: bool = False, **options) -> None:
        today = services.ensure_days(timezone.now())
        self.stdout.write(f"today {today.day} commitment {today.commitment}")
        if par:
            for day_id in Day.objects.filter(par__isnull=True).values_list("pk", flat=True):
                tasks.store_par(day_id)
            self.stdout.write("every par worked out")
