from __future__ import annotations

from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.analysis"
    label = "analysis"
    verbose_name = "Game analysis"
