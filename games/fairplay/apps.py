from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate
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
        post_migrate.connect(keep_the_group, sender=self)


def keep_the_group(sender, using: str = "default", **kwargs) -> None:
    """After every migrate (and every flush, which tests do), the "Fair play" group holds
    every fair play permission, as migration 0004 first made it: a database emptied by a
    flush, or a group deleted by mistake, gets it back."""
    from django.contrib.auth.models import Group, Permission

    from games.fairplay.models import StaffAction

    codenames = [name for name, _said in StaffAction._meta.permissions] + ["view_staffaction"]
    group, _made = Group.objects.using(using).get_or_create(name="Fair play")
    found = Permission.objects.using(using).filter(
        content_type__app_label="fairplay", codename__in=codenames
    )
    group.permissions.add(*found)
