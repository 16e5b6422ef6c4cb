from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Puzzles")
    name = "games.puzzles"
    label = "puzzles"

    def ready(self) -> None:
        post_migrate.connect(keep_the_shipped_puzzles, sender=self)


def keep_the_shipped_puzzles(sender, using: str = "default", **kwargs) -> None:
    """After every migrate (and every flush, which tests do), the shipped puzzles are there,
    as migration 0002 first loaded them: a database emptied by a flush gets them back."""
    from games.puzzles import shipped
    from games.puzzles.models import Puzzle

    if not Puzzle.objects.using(using).filter(key__startswith="bot/").exists():
        shipped.load(Puzzle)
