"""``manage.py remove_guests [--dry-run] [--days N]``: delete the guest accounts nobody
claimed within N days (TONGITS_GUEST_DAYS, 30 unless set). Run it daily, from cron or a
scheduler; a guest still seated at an unfinished game or in a series not ended is left
for a later run."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.guests import remove_old_guests


class Command(BaseCommand):
    help = "Delete unclaimed guest accounts older than TONGITS_GUEST_DAYS days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="List what would be removed; remove nothing."
        )
        parser.add_argument(
            "--days", type=int, default=None,
            help=f"Age in days (default {settings.TONGITS_GUEST_DAYS}).",
        )  # fmt: skip

    def handle(self, *args, dry_run: bool, days: int | None, **options) -> None:
        days = settings.TONGITS_GUEST_DAYS if days is None else days
        if days < 1:
            raise CommandError("--days must be at least 1.")
        done = remove_old_guests(timezone.now(), days, dry_run=dry_run)
        verb = "Would remove" if dry_run else "Removed"
        for name in done.removed:
            self.stdout.write(f"{verb} {name}")
        for name in done.kept_at_tables:
            self.stdout.write(f"Kept {name}: still seated at an unfinished game or series")
        self.stdout.write(
            f"{verb} {len(done.removed)} guest account{'s' if len(done.removed) != 1 else ''}"
            f" unclaimed after {days} days; kept {len(done.kept_at_tables)} at tables."
        )
