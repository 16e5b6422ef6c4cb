"""A series and its hands. What a series stores is only what no game holds: its ante, the
level of the bot that takes a leaver's seat, who left, who is ready for the next hand, when
the pause between hands ends, and whether (and why) it ended. The pot is not stored."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.series.record import MAX_HANDS


class Series(models.Model):
    ANTES = (1, 2, 5)
    # Why a series ended, as stored (English, as rows made before the site spoke Filipino
    # hold it), and the words each reader gets for it.
    # Only the creator could end a series once; rows ended so still say so.
    ENDED_BY_CREATOR = gettext_noop("Ended by its creator.")
    ENDED_BY_PLAYER = gettext_noop("Ended by a player at the table.")
    NOBODY_LEFT = gettext_noop("No person is left at the table.")
    UPLOADED = gettext_noop("An uploaded series record.")
    ABORTED_UNDEALT = gettext_noop("Its first hand was aborted before the deal.")
    ALL_HANDS_PLAYED = gettext_noop("It played the most hands a series has.")
    END_REASONS = {
        ENDED_BY_CREATOR: _("Ended by its creator."),
        ENDED_BY_PLAYER: _("Ended by a player at the table."),
        ABORTED_UNDEALT: _("Its first hand was aborted before the deal."),
        NOBODY_LEFT: _("No person is left at the table."),
        UPLOADED: _("An uploaded series record."),
        ALL_HANDS_PLAYED: _("It played the most hands a series has."),
    }
    # A series ends by itself after this many hands (games.series.record.MAX_HANDS).
    MAX_HANDS = MAX_HANDS

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ante = models.PositiveSmallIntegerField(default=1)
    bot_kind = models.CharField(max_length=10, default="normal")  # takes a leaver's seat
    left = models.JSONField(default=list, blank=True)  # seats whose person left the series
    ready = models.JSONField(default=list, blank=True)  # seats ready for the next hand
    next_at = models.DateTimeField(null=True, blank=True)  # the pause between hands ends
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=80, blank=True)
    # Seats held by people when it ended: each gets back its antes in a pot nobody won.
    people_at_end = models.JSONField(default=list, blank=True)
    # An uploaded series record: shown and replayed, never played on.
    imported = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return gettext("Series %(number)s") % {"number": self.pk}

    @property
    def ended(self) -> bool:
        return self.ended_at is not None

    @property
    def end_reason_shown(self) -> str:
        """Why it ended, in the active language (a reason we did not write, as stored)."""
        return str(self.END_REASONS.get(self.end_reason, self.end_reason))


class Hand(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="hands")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="series_hand")
    number = models.PositiveSmallIntegerField()  # 1, 2, 3 …

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="one_hand_per_number")
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of series {self.series_id}"
