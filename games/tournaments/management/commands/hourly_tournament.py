"""``manage.py hourly_tournament``: make the site's hourly arenas, from cron.

Run it every hour (``50 * * * *``, say): it makes the public, rated tournament of each of
the next ``--hours`` full hours that has none yet (its hour is its key, so running it
twice, or from two hosts, makes each once). At most ``MAX_HOURS`` ahead: a mistyped
number is refused, not turned into hundreds of arenas on the list (and a start past the
60 days a tournament may be scheduled ahead)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.tournaments import services
from games.tournaments.models import Tournament

MAX_HOURS = 48


class Command(BaseCommand):
    help = "Make the hourly arena tournaments of the next hours that have none yet."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--hours", type=int, default=2, help=f"How many hours ahead (2; 1 to {MAX_HOURS})."
        )
        parser.add_argument(
            "--minutes", type=int, default=45, choices=services.MINUTES, help="Length (45)."
        )
        parser.add_argument("--turn-seconds", type=int, default=20, choices=services.TURN_SECONDS)

    def handle(self, *args, hours: int, minutes: int, turn_seconds: int, **options) -> None:
        if not 1 <= hours <= MAX_HOURS:
            raise CommandError(f"--hours must be from 1 to {MAX_HOURS} (it was {hours}).")
        hour = timezone.now().replace(minute=0, second=0, microsecond=0)
        made = 0
        for n in range(1, hours + 1):
            starts = hour + timedelta(hours=n)
            key = Tournament.hourly_key(starts)
            if Tournament.objects.filter(schedule_key=key).exists():
                continue
            try:
                with transaction.atomic():
                    services.create(
                        None, name=f"Hourly arena {starts:%H:%M} UTC", starts_at=starts,
                        minutes=minutes, turn_seconds=turn_seconds, public=True, rated=True,
                        schedule_key=key,
                    )  # fmt: skip
            except IntegrityError:  # another run made it meanwhile
                continue
            made += 1
        self.stdout.write(f"{made} hourly tournament(s) made.")
