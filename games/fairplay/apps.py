from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.fairplay"
    label = "fairplay"
    verbose_name = _("Fair play")

    def ready(self) -> None:
        from games.play import hooks
        from games.series import hooks as series_hooks

        from . import devices, review, tasks

        tasks.connect()
        hooks.on_sharing(devices.shared)
        series_hooks.on_held(review.held_pairs)
