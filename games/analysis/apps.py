from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.analysis"
    label = "analysis"
    verbose_name = _("Game analysis")
