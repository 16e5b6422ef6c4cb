"""A pair of accounts' evidence of playing as one, and which games it has counted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Pair(models.Model):
    """Two accounts that shared rated tables (``low`` has the lower id), with the sums the
    sequential test keeps (``detector.PairScore``) and counts staff read as evidence."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(_("shared games"), default=0)
    logs = models.JSONField(_("log likelihood ratios"), default=list)
    feeds = models.PositiveIntegerField(_("discards to each other"), default=0)
    fits = models.PositiveIntegerField(_("discards that fitted"), default=0)
    expected = models.FloatField(_("fits expected"), default=0.0)
    score = models.FloatField(_("score"), default=0.0, db_index=True)
    peak = models.FloatField(_("highest score"), default=0.0)
    flagged_after = models.PositiveIntegerField(_("flagged after games"), null=True, blank=True)
    flagged_at = models.DateTimeField(_("flagged at"), null=True, blank=True)
    evidence = models.JSONField(_("other evidence"), default=dict)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("pair of accounts")
        verbose_name_plural = _("pairs of accounts")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="fairplay_one_row_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="fairplay_low_first"),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} + {self.high_id}"


class PairGame(models.Model):
    """One game's part of a pair's evidence: the discards between them and the ones that
    weigh most (their place in the log, for links to the replay)."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="pair_games")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    weight = models.FloatField(_("weight"), default=0.0)
    feeds = models.PositiveSmallIntegerField(default=0)
    fits = models.PositiveSmallIntegerField(default=0)
    expected = models.FloatField(default=0.0)
    moments = models.JSONField(default=list)  # [[move number, chance], …] of fitted discards

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pair", "game"], name="fairplay_game_once_per_pair")
        ]


class ScoredGame(models.Model):
    """A finished rated game whose pairs have been scored (so a game counts once)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    scored_at = models.DateTimeField(auto_now_add=True)
