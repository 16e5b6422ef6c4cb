from __future__ import annotations

from django.apps import AppConfig


class SeriesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.series"
    label = "series"
