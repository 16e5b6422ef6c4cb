"""A pair of accounts' evidence of playing as one, and which games it has counted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Pair(models.Model):
    """Two accounts that shared counted tables (rated, or a series' hand; ``low`` has the
    lower id), with the sums and counts the sequential test keeps (``detector.PairScore``:
    ``logs`` for feeding, ``signals`` for the others) and each signal's part of the score
    (``parts``)."""

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
    signals = models.JSONField(_("counts of the other signals"), default=dict)
    parts = models.JSONField(_("each signal's part of the score"), default=dict)
    # Staff looked at the flagged pair and found it honest: its held pots count again.
    cleared_at = models.DateTimeField(_("cleared at"), null=True, blank=True)
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
    """A finished counted game (rated, or a series' hand) whose pairs have been scored (so
    a game counts once)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    scored_at = models.DateTimeField(auto_now_add=True)


class Sighting(models.Model):
    """An account seen at a network address or with a device cookie, as a keyed hash
    (``devices.digest``): the raw address is never stored. Kept ``devices.KEPT`` long, then
    deleted; read only to tell whether two accounts at a rated table share one."""

    class Kind(models.TextChoices):
        ADDRESS = "address", _("address")
        DEVICE = "device", _("device")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind)
    digest = models.CharField(_("keyed hash"), max_length=64)
    seen_at = models.DateTimeField(_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("sighting")
        verbose_name_plural = _("sightings")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "digest"], name="fairplay_sighting_once"
            )
        ]
        indexes = [models.Index(fields=["kind", "digest"])]


class ReportSent(models.Model):
    """One report or repeat sent, for the hourly limit: a repeat adds to its open report's
    row, which counted once however often it was sent. A reporter's rows older than the
    hour are dropped as they send again."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)


class Report(models.Model):
    """A person's report of another account, with the games it is about. One row per
    reporter and reported account while staff have not dealt with it: reporting again
    adds games to it rather than a second row."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("reported by"),
    )  # fmt: skip
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("reported account"),
    )  # fmt: skip
    games = models.ManyToManyField(Game, related_name="+", blank=True, verbose_name=_("games"))
    note = models.TextField(_("what they saw"), blank=True, max_length=500)
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last reported at"), auto_now=True, db_index=True)
    closed_at = models.DateTimeField(_("dealt with at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=Q(closed_at__isnull=True),
                name="fairplay_one_open_report",
            ),
            models.CheckConstraint(
                condition=~Q(reporter=F("reported")), name="fairplay_no_report_of_oneself"
            ),
        ]


class StaffAction(models.Model):
    """What a member of staff did on the Fair play page, who, when and why: the log.

    Its ``Meta.permissions`` are fair play's: one to see its pages and one per action,
    each held only when given (to an account, or by the "Fair play" group that migration
    0004 makes); a superuser holds them all. See docs/fair-play.md, "Who may act"."""

    class Kind(models.TextChoices):
        WARN = "warn", _("warned")
        VOID = "void", _("voided the pair's games")
        CLOSE = "close", _("closed the account")
        DISMISS = "dismiss", _("dealt with the reports")
        CLEAR = "clear", _("cleared the pair")

    SEE = "fairplay.see_fair_play"
    # The permission each kind of action needs.
    NEEDS = {
        Kind.WARN: "fairplay.warn_account",
        Kind.VOID: "fairplay.void_pair",
        Kind.CLOSE: "fairplay.close_account",
        Kind.DISMISS: "fairplay.deal_with_reports",
        Kind.CLEAR: "fairplay.void_pair",  # a flagged pair's fate, as voiding decides it
    }

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("by"),
    )  # fmt: skip
    kind = models.CharField(_("action"), max_length=8, choices=Kind)
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("account"),
    )  # fmt: skip
    pair = models.ForeignKey(
        Pair, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions",
        verbose_name=_("pair"),
    )  # fmt: skip
    # Whom, by username as it was (the account, or the pair's two): the log still says
    # whom once an account is deleted and ``account`` or ``pair`` is empty.
    whom = models.CharField(_("whom"), max_length=310, blank=True)
    reason = models.TextField(_("why"), max_length=1000)
    games = models.JSONField(_("games"), default=list, blank=True)  # the games voided
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("staff action")
        verbose_name_plural = _("staff actions")
        ordering = ["-at", "-pk"]
        # Names in English, as Django's own permissions are stored.
        permissions = [
            ("see_fair_play", "Can see the Fair play pages: pairs, evidence, reports, the log"),
            ("warn_account", "Can warn an account about fair play"),
            ("void_pair", "Can void a pair's games (ratings and series pots are recomputed)"),
            ("close_account", "Can close an account (not one with rights the closer lacks)"),
            ("deal_with_reports", "Can mark an account's reports dealt with"),
        ]


class AccountWarning(models.Model):
    """A warning to an account, shown to it once (the next lobby or table page)."""

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    action = models.OneToOneField(StaffAction, on_delete=models.CASCADE, related_name="warning")
    seen_at = models.DateTimeField(_("seen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")
        indexes = [models.Index(fields=["account", "seen_at"])]
