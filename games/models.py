"""Games, their seats and the append-only move log.

The deal (``Game.deal``) and the ``Move`` rows are the only truth about a game; every other
column of ``Game`` is a summary written in the same transaction as the move that changed
it (so the lobby, clocks and history can query it) and can be rebuilt by replay.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from accounts.models import display_name_for
from games.engine.record import Record, load_record

# A turn this long or longer makes a correspondence table (games.correspondence): it waits
# for its people, who may play many at once, and tells them when it is their turn.
CORRESPONDENCE_SECONDS = 3600
# The turn times a correspondence table may have: an hour, 12 hours, a day, 3 days.
CORRESPONDENCE_TURNS = (3600, 12 * 3600, 24 * 3600, 72 * 3600)


def is_correspondence(turn_seconds: int | None) -> bool:
    return bool(turn_seconds) and turn_seconds >= CORRESPONDENCE_SECONDS


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.WAITING)
    public = models.BooleanField(_("public"), default=True)
    invite_token = models.CharField(
        _("invitation token"), max_length=32, default=new_invite_token, unique=True
    )
    variants = models.JSONField(_("variants"), default=list, blank=True)
    turn_seconds = models.PositiveIntegerField(_("seconds a turn"), default=45)
    # An uploaded record, shown as a replay: never counted in anyone's history or stats.
    imported = models.BooleanField(_("uploaded record"), default=False)
    # A rated table's finished games move its players' ratings (games.ratings); a casual
    # one's do not. Chosen when the table is made; Quick play is rated.
    rated = models.BooleanField(_("rated"), default=False)
    # A game of the daily deal (games.daily): everyone plays the day's one deal, so its
    # result counts in the daily's own scores, never in the site's chips, win rates and
    # leaderboards (they would show a day's results to people who have not yet played it).
    daily = models.BooleanField(_("daily deal"), default=False)

    # Secret until the game ends: the seed, and the deal made from it. Never render these
    # while status is waiting or playing (views, admin and sockets all go through
    # ``Game.revealed``).
    seed = models.CharField(_("seed"), max_length=80, blank=True)
    commitment = models.CharField(
        _("commitment"), max_length=64, blank=True
    )  # SHA-256 hex of the seed
    deal = models.JSONField(_("deal"), null=True, blank=True)  # {"dealer", "hands", "stock"}
    dealer = models.PositiveSmallIntegerField(_("dealer"), null=True, blank=True)

    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # Summary of the log, updated with each move.
    seq = models.PositiveIntegerField(_("moves"), default=0)  # moves in the log: the game's version
    # Grows with every change a watcher of the table sees: each move, and also what moves
    # no card (a seat taken, away and back, a turn clock extended, the next game made).
    # Sockets are told "game N is at rev R" and each worker loads a game once per rev.
    rev = models.PositiveIntegerField(_("version"), default=0)
    turn_seat = models.PositiveSmallIntegerField(_("turn seat"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    # When the server must act for the seat to move: a bot's pause, or a person's clock.
    due_at = models.DateTimeField(_("due at"), null=True, blank=True, db_index=True)
    last_move_at = models.DateTimeField(_("last move at"), null=True, blank=True)

    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(_("winner's seat"), null=True, blank=True)
    end = models.CharField(
        _("how it ended"), max_length=12, blank=True
    )  # tongits, draw, fought_draw, stock
    points = models.JSONField(_("points"), null=True, blank=True)
    chips = models.JSONField(_("chips"), null=True, blank=True)
    burned = models.JSONField(_("burned"), null=True, blank=True)
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("aborted by"),
    )  # fmt: skip
    abort_reason = models.TextField(_("why it was aborted"), blank=True)
    # Voided by staff (fair play, games.fairplay.actions): kept in the history, marked as
    # such, and left out of ratings and figures.
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    # Pairs of seats whose accounts share a network address or a device, found when they
    # sat at this rated table and said to everyone at it: [[seat, seat, [why, …]], …].
    shared = models.JSONField(_("seats sharing an address or a device"), default=list, blank=True)
    # For each seat, the version of the learned model its bot played with, or None; stored
    # at the deal (the model may change with a later release), empty when no bot uses one.
    bot_models = models.JSONField(_("learned models of the bots"), default=list, blank=True)
    # The table the first "Play again" here made: later pressers are seated at it rather
    # than each making their own, so the people of this game can play on together.
    next_game = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_games",
        verbose_name=_("next game"),
    )  # fmt: skip
    # The key of the page's form that made this table (Quick play, New table): the same
    # form sent twice (a double click, a slow network's retry) is taken to its first table.
    form_key = models.CharField(_("form key"), max_length=32, blank=True, editable=False)
    # Not stored: True on the table a repeated form was given back (``create_table``).
    repeated = False

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [models.Index(fields=["status", "due_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["created_by", "form_key"],
                condition=~Q(form_key=""),
                name="one_table_per_form_key",
            )  # fmt: skip
        ]

    def __str__(self) -> str:
        # The admin's title of a game's page, and its name in a list.
        return gettext("Game %(id)s (%(status)s)") % {
            "id": self.pk,
            "status": self.get_status_display(),
        }

    # The one reason we write ourselves (staff write theirs): stored in English, shown in
    # the reader's language.
    UNFINISHED_UPLOAD = "An uploaded record of a game that had not ended."
    LEFT_BEFORE_THE_DEAL = "Everyone left the table before the deal."
    ABORT_REASONS = {
        UNFINISHED_UPLOAD: _("An uploaded record of a game that had not ended."),
        LEFT_BEFORE_THE_DEAL: _("Everyone left the table before the deal."),
    }

    @property
    def abort_reason_shown(self) -> str:
        """Why it was aborted, in the active language (staff's own words as they wrote them)."""
        return str(self.ABORT_REASONS.get(self.abort_reason, self.abort_reason))

    @property
    def correspondence(self) -> bool:
        """A table that waits for its people (a turn of an hour or more)."""
        return is_correspondence(self.turn_seconds)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def revealed(self) -> bool:
        """Whether the seed and the deal may be shown to anyone: only after the end."""
        return self.is_over

    def record(self, moves=None) -> Record:
        """The game as a tongits-record/1 (the deal plus the logged moves)."""
        if moves is None:
            moves = list(self.moves.order_by("seq").values_list("payload", flat=True))
        data = {"format": "tongits-record/1", "variants": self.variants, **self.deal}
        data["moves"] = list(moves)
        return load_record(data)

    @staticmethod
    def commit_to(seed: str) -> str:
        return hashlib.sha256(seed.encode()).hexdigest()


# The bots' names, in English as a record keeps them (``Seat.name``); shown translated.
BOT_NAMES = {
    "easy": gettext_noop("Easy bot"),
    "normal": gettext_noop("Normal bot"),
    "hard": gettext_noop("Hard bot"),
    "random": gettext_noop("Random bot"),
    "greedy": gettext_noop("Greedy bot"),
}
OPEN_SEAT = gettext_noop("Open seat")


class SeatKind:
    """Who sits in a seat, for a Seat row and for a live snapshot's copy of it alike."""

    index: int
    name: str
    bot_kind: str
    user_id: int | None
    away: bool

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    @property
    def is_open(self) -> bool:
        return not self.bot_kind and self.user_id is None

    @property
    def plays_itself(self) -> bool:
        """The server moves for this seat: a bot, or a person who is away."""
        return self.is_bot or self.away

    @property
    def shown_name(self) -> str:
        """What a page calls this seat, in the active language: ``name`` as kept (in a
        live snapshot, in a record), but an open seat and a bot are named as the page is
        made, so one watcher's language never reaches another's page or a record file."""
        if self.is_bot:
            return f"{gettext(BOT_NAMES.get(self.bot_kind, self.bot_kind))} {self.index + 1}"
        if self.is_open and self.name == OPEN_SEAT:  # not an imported record's player
            return gettext(OPEN_SEAT)
        return self.name


class Seat(SeatKind, models.Model):
    # Levels, named for how they play (games.bots); then the kinds of the tables made
    # before levels, which still play and show as they did.
    LEVEL_CHOICES = [(kind, _(BOT_NAMES[kind])) for kind in ("easy", "normal", "hard")]
    BOT_CHOICES = [*LEVEL_CHOICES, *((kind, _(BOT_NAMES[kind])) for kind in ("random", "greedy"))]

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="seats",
        verbose_name=_("player"),
    )  # fmt: skip
    bot_kind = models.CharField(_("bot"), max_length=10, blank=True, choices=BOT_CHOICES)
    # The clock ran out on this seat: the greedy bot plays it until its person acts again.
    away = models.BooleanField(_("away"), default=False)
    # Only for an imported record's seats, which belong to nobody here.
    display_name = models.CharField(_("name in the record"), max_length=40, blank=True)
    # When its person's socket sent them their first board of this game: their turn clock
    # does not run before (games/play/clock.py, TONGITS_FIRST_BOARD_GRACE).
    board_at = models.DateTimeField(_("first board sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return gettext("seat %(index)s of game %(game)s") % {
            "index": self.index,
            "game": self.game_id,
        }

    @property
    def name(self) -> str:
        """What a record and a live snapshot keep of this seat: the person's display name,
        an imported record's player, or the bot's kind with its seat number (two greedy
        bots stay apart), in English; pages show ``shown_name``."""
        if self.display_name:
            return self.display_name
        if self.bot_kind:
            return f"{BOT_NAMES.get(self.bot_kind, self.bot_kind)} {self.index + 1}"
        if self.user_id is None:
            return OPEN_SEAT
        return display_name_for(self.user)


class Move(models.Model):
    """One logged move, never updated or deleted."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(_("number"))  # 1, 2, 3 … within the game
    seat = models.PositiveSmallIntegerField(_("seat"))
    payload = models.JSONField(_("move"))  # the move as in a tongits-record/1
    client_move_id = models.CharField(_("client's move id"), max_length=64, null=True, blank=True)
    by_server = models.BooleanField(_("by the server"), default=False)  # a bot's move or a clock's
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_seq"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"],
                condition=Q(client_move_id__isnull=False),
                name="one_move_per_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of game {self.game_id}"


class ClockBeat(models.Model):
    """When a server clock last ran: a long gap means the site was down, and turn
    deadlines that passed meanwhile are extended rather than enforced."""

    name = models.CharField(max_length=32, unique=True)
    beat_at = models.DateTimeField()
