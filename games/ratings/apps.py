from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ratings"
    label = "ratings"
