from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Accounts")
    name = "accounts"

    def ready(self) -> None:
        from accounts import languages, signals  # noqa: F401  (connects the receivers)
