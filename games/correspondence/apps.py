from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorrespondenceConfig(AppConfig):
    name = "games.correspondence"
    label = "correspondence"
    verbose_name = _("Correspondence")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.correspondence import turns

        turns.connect()
