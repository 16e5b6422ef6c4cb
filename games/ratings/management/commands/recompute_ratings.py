"""``manage.py recompute_ratings``: every rating rebuilt from the stored games, in the
order they finished, with the same step the live updates take."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.ratings import core


class Command(BaseCommand):
    help = "Rebuild every rating from the stored rated games, oldest first."

    def handle(self, *args, **options):
        rated = core.recompute()
        if options["verbosity"]:
            self.stdout.write(f"{rated} rated games replayed")
