"""A rating per rated player (a person, or a bot level) and one change row per rated
seat of a game. The change rows are the rating's history (the profile's chart) and what
makes a game rate once: (game, seat) is unique. ``recompute_ratings`` rebuilds both from
the stored games.

A person's rating outlives their account: deleting it empties ``user`` and keeps the row
(a tombstone, ``person`` still the account's id) and its change rows, so the games they
played keep their place in everyone's rating history and a rebuild gives the live
numbers after any deletion."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import Game

LIVE = "live"
CORRESPONDENCE = "correspondence"
CATEGORIES = (LIVE, CORRESPONDENCE)


class Rating(models.Model):
    # Live games and correspondence games are rated apart: a person (and a bot level) has
    # a rating in each category they played (games.models.is_correspondence says which).
    category = models.CharField(max_length=16, default=LIVE, choices=[(c, c) for c in CATEGORIES])
    # The id of the person's account, kept once it is deleted; ``user`` is the same
    # account while it lives (for joins: the leaderboard's names).
    person = models.BigIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="ratings",
    )  # fmt: skip
    bot_kind = models.CharField(max_length=10, blank=True)  # a bot level is one player
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)  # rated games played

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["bot_kind", "category"],
                condition=~Q(bot_kind=""),
                name="one_rating_per_bot_kind",
            ),
            models.UniqueConstraint(
                fields=["person", "category"],
                condition=Q(person__isnull=False),
                name="one_rating_per_person",
            ),
            models.CheckConstraint(
                condition=(Q(person__isnull=False) & Q(bot_kind=""))
                | (Q(person__isnull=True) & Q(user__isnull=True) & ~Q(bot_kind="")),
                name="rating_of_a_person_or_a_bot",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(user=F("person")),
                name="rating_user_is_its_person",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category} rating of {self.bot_kind or self.person}"

    def save(self, *args, **kwargs) -> None:
        # A person's rating is theirs by ``person`` as much as by ``user``: a row made for
        # an account names it in both (bulk writes in core.py set both themselves).
        if self.person is None and self.user_id is not None:
            self.person = self.user_id
        super().save(*args, **kwargs)


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()  # the player's rated games, this one included
    at = models.DateTimeField()  # when the game finished

    class Meta:
        ordering = ["at", "game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_rating_change_per_seat")
        ]

    def __str__(self) -> str:
        return f"rating change of seat {self.seat} in game {self.game_id}"
