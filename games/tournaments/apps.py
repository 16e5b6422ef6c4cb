from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Tournaments")
    name = "games.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        # The server clock pairs the waiting and ends tournaments; a finished game puts its
        # people back in the pool; games voided by fair play leave the standings. Through
        # play's hooks: neither play nor fair play imports tournaments.
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from games.play import hooks
        from games.tournaments import services, watching

        hooks.on_tick(services.tick)
        hooks.on_finish(services.game_finished)
        hooks.on_voided(services.games_voided)
        # A private tournament's games are watched by whoever may see the tournament.
        hooks.on_watch(watching.may_watch)
        # A closed account leaves the standings and the podiums: fair play's Close, or
        # staff's admin, both save the account.
        post_save.connect(_account_saved, sender=get_user_model(), dispatch_uid="tournaments")


def _account_saved(sender, instance, created, update_fields=None, **kwargs) -> None:
    if created or instance.is_active:
        return
    if update_fields is not None and "is_active" not in update_fields:
        return
    from games.tournaments import services

    services.account_closed(instance.pk)
