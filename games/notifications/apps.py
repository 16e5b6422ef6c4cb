from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.notifications"
    label = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from . import checks, events  # noqa: F401 (checks registers itself)

        events.connect()
