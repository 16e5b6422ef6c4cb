from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Puzzles")
    name = "games.puzzles"
    label = "puzzles"
