"""What a table said, kept with its game: messages, who muted whom, reports and silences.

A message belongs to one room of its game: the players' (people seated at it) or the
watchers'. A preset is kept as its key (``presets.PRESETS``) and worded where it is
shown, in the reader's language; a free text is kept as written and as shown (filtered).
Nothing here is ever part of a game's record (``games.engine.record``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game


class ChatMessage(models.Model):
    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        WATCHERS = "watchers", _("Watchers")

    class Kind(models.TextChoices):
        PRESET = "preset", _("Preset")
        TEXT = "text", _("Free text")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("author"),
    )  # fmt: skip
    # As long as a username may be (Django's 150): PostgreSQL refused a longer name's
    # message, and the socket that said it with it.
    name = models.CharField(_("name shown"), max_length=150)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    room = models.CharField(_("room"), max_length=10, choices=Room)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    # A preset's key, or the free text as written.
    body = models.CharField(_("as written"), max_length=500)
    # A free text as the table saw it, after the word filter ("" for a preset).
    shown = models.CharField(_("as shown"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "created_at"]),
            # A person's last seconds, for their limit (services.say), however much they said.
            models.Index(fields=["user", "created_at"], name="chat_person_recent"),
        ]

    def __str__(self) -> str:
        return gettext("%(name)s in game %(game)s") % {"name": self.name, "game": self.game_id}


class ChatMute(models.Model):
    """``user`` no longer sees what ``muted`` says, at any table; nobody else is told."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("who muted"),
    )  # fmt: skip
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("muted person"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("muted at"), default=timezone.now)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]


class ChatReport(models.Model):
    """A message someone reported: staff read it on the dashboard with its game's talk."""

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("reported by"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_person")
        ]

    def __str__(self) -> str:
        return gettext("Report of a message in game %(game)s") % {"game": self.message.game_id}


class ChatSilence(models.Model):
    """Staff silenced an account's chat until a time: it may still play and read."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("account"),
    )  # fmt: skip
    until = models.DateTimeField(_("silenced until"))
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("by"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("chat silence")
        verbose_name_plural = _("chat silences")
        ordering = ["-until"]

    def __str__(self) -> str:
        return gettext("Chat silenced until %(until)s") % {"until": self.until}
