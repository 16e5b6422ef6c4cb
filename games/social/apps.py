from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Friends")
    name = "games.social"
    label = "social"

    def ready(self) -> None:
        # Presence listens for new friendships (services.friends_made).
        from games.social import presence  # noqa: F401
