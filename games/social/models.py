"""Friends, blocks, presence and challenges: rows that say who knows whom, never a card."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Seat

USER = settings.AUTH_USER_MODEL


class Friendship(models.Model):
    """A friend request from ``from_user`` to ``to_user``; a friendship once accepted.
    One row per pair (the service keeps it so, under both people's row locks)."""

    from_user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("from")
    )
    to_user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("to")
    )
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="one_request_a_way"),
            models.CheckConstraint(
                condition=~Q(from_user=F("to_user")), name="no_friend_of_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_user} \N{LEFT RIGHT ARROW} {self.to_user}"


class RequestSent(models.Model):
    """One friend request asked, for the hourly limit: a request taken back or declined
    loses its Friendship row, which the limit could not count. A person's rows older than
    the hour are dropped as they ask again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now, db_index=True)


class Block(models.Model):
    """``blocker`` no longer sees ``blocked``, nor gets their requests or challenges.
    ``blocked`` is not told."""

    blocker = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("blocked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_a_pair")
        ]

    def __str__(self) -> str:
        return f"{self.blocker} \N{RIGHTWARDS ARROW} {self.blocked}"


class Presence(models.Model):
    """Whether a person is here: how many of their lobby and table sockets are open (all
    workers together), how many of those pages are hidden (away when all are), and
    whether they hide all this from their friends."""

    user = models.OneToOneField(
        USER, on_delete=models.CASCADE, primary_key=True, related_name="presence",
        verbose_name=_("user"),
    )  # fmt: skip
    sockets = models.PositiveIntegerField(_("open sockets"), default=0)
    # Of those, the ones whose page is hidden: away when all of them are.
    away_sockets = models.PositiveIntegerField(_("sockets of hidden pages"), default=0)
    hidden = models.BooleanField(_("hidden from friends"), default=False)
    # What friends were last told (``presence.status_of``), so a change is pushed only once.
    shown = models.CharField(_("shown as"), max_length=8, default="offline")
    game_id = models.PositiveIntegerField(_("playing at"), null=True, blank=True)
    watchable = models.BooleanField(_("may be watched"), default=False)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.shown})"

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")


class Challenge(models.Model):
    """A friend asked to play: a single hand or a series with an ante, a bot in the third
    seat. Accepting makes a private table and seats both."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    from_user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("from")
    )
    to_user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("to")
    )
    ante = models.PositiveSmallIntegerField(_("ante"), null=True, blank=True)  # None: one hand
    bot_kind = models.CharField(
        _("bot"), max_length=10, default="normal", choices=Seat.LEVEL_CHOICES
    )
    # 0: a live table; else a correspondence table's seconds a turn (games.forms.TURN_CHOICES).
    turn_seconds = models.PositiveIntegerField(_("seconds a turn"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("game"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["to_user", "status"])]

    def __str__(self) -> str:
        return f"{self.from_user} \N{RIGHTWARDS ARROW} {self.to_user} ({self.get_status_display()})"
