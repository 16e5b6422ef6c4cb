"""Puzzles, each person's puzzle rating, and their answers.

A puzzle keeps the seat's own view only (``positions.view_dict``): no player's name, no
link a page shows to its game, no other hand, stock order or seed. ``key`` makes mining
idempotent: one puzzle per game and move number ("game/<id>/<seq>"; a shipped puzzle from
a seeded bot game is "bot/<seed>/<seq>").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from openskill.models import PlackettLuce

from games.models import Game

from . import positions

_MODEL = PlackettLuce()
THEME_CHOICES = [
    (positions.DRAW_CALL, _("Call Draw or play on")),
    (positions.FOLD_FIGHT, _("Fold or fight")),
    (positions.TAKE_DRAW, _("Take the discard or draw")),
    (positions.DISCARD_WHICH, _("Which card to throw")),
    (positions.LAYOFF_BLOCK, _("Lay off to block a Draw")),
    (positions.KEEP_MELD, _("Keep or break a meld")),
]


class Puzzle(models.Model):
    key = models.CharField(_("key"), max_length=80, unique=True)
    # The game it was cut from (none for a shipped puzzle); never shown on the puzzle's page.
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("game"),
    )  # fmt: skip
    seq = models.PositiveIntegerField(_("move number"))
    view = models.JSONField(_("the seat's view"))  # positions.view_dict
    played = models.JSONField(_("move played"))  # never sent to a page before an answer
    answer = models.JSONField(_("best move"))
    also = models.JSONField(_("moves as good"), default=list, blank=True)
    line = models.JSONField(_("the best move's turn"), default=list, blank=True)
    theme = models.CharField(_("theme"), max_length=12, choices=THEME_CHOICES)
    why = models.JSONField(_("why"), default=dict, blank=True)  # coach.why_for
    mark = models.CharField(_("mark of the move played"), max_length=12)
    figures = models.JSONField(_("the coach's figures"), default=dict, blank=True)
    # The puzzle's own rating (openskill), moved by every rated answer.
    mu = models.FloatField(default=_MODEL.mu)
    sigma = models.FloatField(default=_MODEL.sigma)
    tries = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        indexes = [models.Index(fields=["mu"])]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} ({self.theme})"


class PuzzleRating(models.Model):
    """A person's puzzle rating (openskill), apart from their games' rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    mu = models.FloatField(default=_MODEL.mu)
    sigma = models.FloatField(default=_MODEL.sigma)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")


class Attempt(models.Model):
    """A person's rated answer to a puzzle: one each (a second try is not rated again)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    move = models.JSONField()
    solved = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_rated_try_a_puzzle"),
        ]


class MinedGame(models.Model):
    """A finished game ``make_puzzles`` has mined (with how many puzzles it gave)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    puzzles = models.PositiveIntegerField(default=0)
    mined_at = models.DateTimeField(auto_now_add=True)
