from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DailyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Daily deal")
    name = "games.daily"
    label = "daily"

    def ready(self) -> None:
        # The server clock makes the days ahead (and queues their par); the replay page
        # asks who may see a day's games. Neither play nor access imports this app.
        from games import access
        from games.daily import services
        from games.play import hooks

        hooks.on_tick(services.tick)
        access.on_replay(services.replay_rule)
