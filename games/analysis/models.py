"""An analysis of one finished game, and the coach's verdict on each move it judged."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When its worker last showed life (each move judged): a running analysis whose beat
    # is old lost its worker, and is queued again (``analysis.recover_stale``).
    beat_at = models.DateTimeField(null=True, blank=True)
    total = models.PositiveIntegerField(default=0)  # moves to judge
    done = models.PositiveIntegerField(default=0)  # moves judged so far
    task_id = models.CharField(max_length=64, blank=True)  # its task in the queue
    error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "analyses"
        constraints = [
            # A game is analysed at most once at a time, however many ask at once.
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status__in=["queued", "running"]),
                name="one_analysis_at_a_time",
            ),
            # And a person has at most one analysis waiting or running, whatever the game
            # (``analysis.request_analysis``): the single worker takes the queue in order,
            # so one person's many requests would keep everyone else's coach waiting.
            models.UniqueConstraint(
                fields=["requested_by"],
                condition=Q(status__in=["queued", "running"]),
                name="one_analysis_per_person_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis {self.pk} of game {self.game_id} ({self.status})"

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE


class MoveEvaluation(models.Model):
    """The coach's verdict on one move, judged from its seat's view at that moment."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="evaluations")
    seq = models.PositiveIntegerField()  # the move's number in the game's log
    seat = models.PositiveSmallIntegerField()
    played = models.JSONField()  # the move, as in a tongits-record/1
    best = models.JSONField()
    played_chips = models.FloatField()  # expected chips at the end after the move played
    best_chips = models.FloatField()  # after the best move found
    choices = models.PositiveSmallIntegerField()  # legal moves there were
    worlds = models.PositiveSmallIntegerField()  # deals the move played was judged in
    mark = models.CharField(max_length=12, blank=True)  # inaccuracy, mistake, blunder
    # A close call: the loss's interval still held a mark's threshold once the coach's deals
    # ran out, so no mark (it could flip when judged again); its figures are shown on tap.
    close = models.BooleanField(default=False)
    # The better move and the rest of its turn (``coach.better_steps``), put into words in
    # each reader's language (``coach.say_better``); empty in rows made before it was kept.
    better_steps = models.JSONField(default=list, blank=True)
    # Those words in English, as they were stored before: shown for rows without steps.
    better = models.CharField(max_length=300, blank=True)  # "Better: meld 7♠ 8♠ 9♠ …"
    # The paired loss's interval and the stake the mark weighs it against (coach.MARKS);
    # zeros in rows made before they were kept.
    loss_low = models.FloatField(default=0.0)
    loss_high = models.FloatField(default=0.0)
    stake = models.FloatField(default=0.0)
    # Why the better move is better, as data (``coach.why_for``), worded for each reader
    # (``coach.say_why``); empty for a move with no mark and in rows made before.
    why = models.JSONField(default=dict, blank=True)
    # Moves simulated to judge it: a game's analysis shares a budget of work (coach.Budget.
    # game_work: these and its deals), and a worker taking over goes on with what is left.
    plies = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["analysis", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "seq"], name="one_evaluation_per_move"),
        ]

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chips - self.played_chips)
