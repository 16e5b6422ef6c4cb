"""A tournament, its entries and its games: what no game holds. The scores are not
stored (``games.tournaments.standings`` derives them from the games' results)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, new_invite_token


class Tournament(models.Model):
    VARIANTS = {"": _("Standard rules"), "held-melds-free": _("Held melds free")}
    LEVELS = [("easy", _("Easy")), ("normal", _("Normal")), ("hard", _("Hard"))]

    name = models.CharField(_("name"), max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("created by"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    minutes = models.PositiveSmallIntegerField(_("minutes"), default=30)
    variant = models.CharField(_("variant"), max_length=20, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds a turn"), default=20)
    bot_kind = models.CharField(_("bots"), max_length=10, choices=LEVELS, default="normal")
    # Staff's tournaments are public; anyone's own is private, joined by its invite link.
    public = models.BooleanField(_("public"), default=False)
    invite_token = models.CharField(
        _("invitation token"), max_length=32, default=new_invite_token, unique=True
    )
    # The hourly tournament's hour (``manage.py hourly_tournament``), so it is made once.
    schedule_key = models.CharField(max_length=40, null=True, blank=True, unique=True)
    # Set when its clock has ended and its last game is over: the podium stands.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Then: the people on its podium (user ids, first place first), for their profiles.
    # The standings it comes from are never stored (games.tournaments.standings).
    podium = models.JSONField(_("podium"), default=list, blank=True)
    # Moved on by every change its page shows (an entry joins, pauses or withdraws, a game
    # is dealt or ends, it finishes): the page's standings are computed once per revision
    # (games.tournaments.standings.board), not once per watcher's refresh.
    rev = models.PositiveIntegerField(default=0)
    # When the server clock looks at it next (a pairing may be owed, its clock ends, or
    # something changed): it finds the tournaments due in one indexed query, however many
    # exist. None once it is finished. Set by ``games.tournaments.services``.
    due_at = models.DateTimeField(_("due at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at"]
        indexes = [
            models.Index(
                fields=["due_at"], name="tournament_due", condition=models.Q(due_at__isnull=False)
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # Made, or corrected whole by staff (its start or length may have moved): the clock
        # looks at it at its start, or now if it has started.
        if kwargs.get("update_fields") is None and self.finished_at is None:
            self.due_at = max(timezone.now(), self.starts_at)
        super().save(*args, **kwargs)

    HOURLY = "hourly-"

    @classmethod
    def hourly_key(cls, starts_at: datetime) -> str:
        return f"{cls.HOURLY}{starts_at:%Y-%m-%dT%H}"

    @property
    def name_shown(self) -> str:
        """Its name; the hourly arena's in the reader's language."""
        if self.schedule_key and self.schedule_key.startswith(self.HOURLY):
            return gettext("Hourly arena %(time)s UTC") % {"time": f"{self.starts_at:%H:%M}"}
        return self.name

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def state(self, now: datetime) -> str:
        """upcoming, running, ending (the clock ended, games still on) or finished."""
        if self.finished_at is not None:
            return "finished"
        if now < self.starts_at:
            return "upcoming"
        if now < self.ends_at:
            return "running"
        return "ending"

    @property
    def variants(self) -> list[str]:
        return [self.variant] if self.variant else []

    @property
    def variant_shown(self) -> str:
        return str(self.VARIANTS.get(self.variant, self.variant))

    @property
    def kind_shown(self) -> str:
        return gettext("Rated") if self.rated else gettext("Casual")


class Entry(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", _("In the pool")
        PAUSED = "paused", _("Paused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries",
        verbose_name=_("player"),
    )  # fmt: skip
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    state = models.CharField(_("state"), max_length=10, choices=State, default=State.ACTIVE)
    # Since when they wait to be paired (joined, came back, or their last game ended).
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    # Their current (or last) game of this tournament.
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("game"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_person")
        ]

    def __str__(self) -> str:
        return f"entry of user {self.user_id} in tournament {self.tournament_id}"


class TournamentGame(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="games", verbose_name=_("tournament")
    )
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="tournament_game", verbose_name=_("game")
    )
    # Seats whose person played it away: the server was playing for them when the game
    # ended, or it played more than half of their turns (from the move log, which marks
    # the server's moves). They score nothing from it. Written by the game's last move.
    away = models.JSONField(default=list, blank=True)
    # Each seat's rating (seat order, bots' levels included) when the game was dealt: the
    # tie-break (performance) counts the opponents as they were then, not as they are now.
    # Empty for a game dealt before this was kept: its seats' current ratings stand in.
    ratings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "game"]

    def __str__(self) -> str:
        return f"game {self.game_id} of tournament {self.tournament_id}"
