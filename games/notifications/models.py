"""What notifications keep: a person's choices, their devices' push subscriptions, and each
event told to a person (a ``Notice``, unique per person and event) with its deliveries (one
row per device or email, unique per notice and target), which make a retried or restarted
task unable to send anything twice. Nothing here holds a card but a public discard."""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", _("Your turn at a table that waits")
    GAME_ENDED = "game_ended", _("A game of yours ended while you were away")
    CHALLENGE = "challenge", _("A friend challenges you")
    FRIEND_REQUEST = "friend_request", _("Someone asks to be your friend")
    DIGEST = "digest", _("A daily email of the games waiting for you")


# Quiet hours a person starts with, in their own time zone (once the site knows it).
QUIET_FROM = time(22, 0)
QUIET_UNTIL = time(8, 0)


class Preferences(models.Model):
    """A person's choices: each kind on or off, email as the fallback, their time zone and
    quiet hours. A person without a row has the defaults (``for_user``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
        related_name="notification_preferences", verbose_name=_("user"),
    )  # fmt: skip
    your_turn = models.BooleanField(Kind.YOUR_TURN.label, default=True)
    game_ended = models.BooleanField(Kind.GAME_ENDED.label, default=True)
    challenge = models.BooleanField(Kind.CHALLENGE.label, default=True)
    friend_request = models.BooleanField(Kind.FRIEND_REQUEST.label, default=True)
    digest = models.BooleanField(Kind.DIGEST.label, default=True)
    email = models.BooleanField(
        _("Email me when no device of mine has notifications on"), default=True
    )
    # An IANA name ("Asia/Manila"); blank until the browser tells it or the person sets it.
    # Quiet hours apply only once it is known: in UTC they would fall at the wrong hours.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True, default=QUIET_FROM)
    quiet_until = models.TimeField(_("quiet until"), null=True, blank=True, default=QUIET_UNTIL)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, kind, False))

    @classmethod
    def for_user(cls, user_id: int) -> Preferences:
        """The person's row, or an unsaved one with the defaults."""
        return cls.objects.filter(user_id=user_id).first() or cls(user_id=user_id)


class PushSubscription(models.Model):
    """One browser's permission to be pushed to (what ``PushManager.subscribe`` gave it):
    the push service's address for it and the keys its messages are encrypted with."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
        related_name="push_subscriptions", verbose_name=_("user"),
    )  # fmt: skip
    endpoint = models.URLField(_("push address"), max_length=2000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("auth secret"), max_length=100)
    device = models.CharField(_("device"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return self.device or str(self._meta.verbose_name)

    def info(self) -> dict:
        """As pywebpush takes it (and the browser's ``PushSubscription.toJSON`` gives it)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Notice(models.Model):
    """One event told to one person, whatever it is delivered by: unique per person and
    event key, so telling the same event again (a retried task, a second hook) adds nothing."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        DROPPED = "dropped", _("not sent")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices",
        verbose_name=_("user"),
    )  # fmt: skip
    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    key = models.CharField(_("event"), max_length=120)
    facts = models.JSONField(_("facts"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    # Why a notice was not sent: the kind is off, it expired, no way to reach the person...
    why = models.CharField(_("why"), max_length=20, blank=True)
    # Quiet hours: when it is delivered instead.
    deliver_after = models.DateTimeField(_("deliver after"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_notice_per_event")]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"


class Delivery(models.Model):
    """One attempt series of a notice to one target ("email", or "push:<subscription id>").
    A row is written as ``sending`` before anything goes out, so a worker that dies while
    sending leaves it so, and nothing ever sends to that target again: at most once."""

    class Status(models.TextChoices):
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed, to retry")
        GONE = "gone", _("subscription gone")
        GAVE_UP = "gave_up", _("gave up")

    notice = models.ForeignKey(
        Notice, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("notice")
    )
    target = models.CharField(_("target"), max_length=40)
    status = models.CharField(_("status"), max_length=10, choices=Status)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=1)
    error = models.CharField(_("last error"), max_length=200, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [
            models.UniqueConstraint(fields=["notice", "target"], name="one_delivery_per_target")
        ]

    def __str__(self) -> str:
        return f"{self.target}: {self.status}"
