"""A person's vacations: while one runs, their correspondence clocks stand still."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Vacation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations",
        verbose_name=_("player"),
    )  # fmt: skip
    starts_at = models.DateTimeField(_("starts at"))
    # As planned, or when its person came back early.
    ends_at = models.DateTimeField(_("ends at"))

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        indexes = [models.Index(fields=["user", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gte=models.F("starts_at")), name="vacation_ends_after"
            )
        ]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.starts_at:%Y-%m-%d}"
