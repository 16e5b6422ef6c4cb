"""The daily deal's days and who played which. A person's game of a day is a Game of its
own (``Game.daily``): its result is read from it, never stored a second time here."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Day(models.Model):
    """One day's deal. Its seed is drawn when the row is made, a day or more ahead, and
    only its commitment is shown until the day is over (``services.is_closed``)."""

    day = models.DateField(_("day"), unique=True)  # a date of Manila (games.daily.days)
    # Secret until the day is over: never render it before (pages go through
    # ``services.is_closed``; the admin hides it).
    seed = models.CharField(_("seed"), max_length=80)
    commitment = models.CharField(_("commitment"), max_length=64)  # SHA-256 hex of the seed
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Par: Hard's chips in the daily seat on this deal (games.daily.par), worked out in the
    # background; the learned model Hard played with, since a new one may score otherwise.
    par = models.IntegerField(_("par"), null=True, blank=True)
    par_moves = models.JSONField(_("par's moves"), default=list, blank=True)
    par_model = models.CharField(_("par's learned model"), max_length=40, blank=True)
    par_at = models.DateTimeField(_("par worked out at"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily deal")
        verbose_name_plural = _("daily deals")
        ordering = ["-day"]

    def __str__(self) -> str:
        return self.day.isoformat()


class Entry(models.Model):
    """A person's one game of a day's deal."""

    day = models.ForeignKey(
        Day, on_delete=models.CASCADE, related_name="entries", verbose_name=_("day")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_entries",
        verbose_name=_("player"),
    )  # fmt: skip
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="daily_entry", verbose_name=_("game")
    )
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)

    class Meta:
        verbose_name = _("daily game")
        verbose_name_plural = _("daily games")
        constraints = [
            models.UniqueConstraint(fields=["day", "user"], name="one_daily_game_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.day} · {self.user_id}"
