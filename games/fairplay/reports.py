"""A person's report of another account: from the result screen (the game reported) or
from a profile (their recent finished games together).

One open report per reporter and reported account: reporting again adds the games to it
and is said to be a repeat, never a second row (a repeat with nothing new leaves the report
where it is in the staff's list). A reporter may send ``REPORTS_PER_HOUR`` reports an hour
(new ones or repeats, each counted in ``ReportSent``): more are refused with a message,
changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat

from .models import Report, ReportSent

RECENT_GAMES = 20  # a profile's report carries this many of the last games played together
NOTE_LENGTH = 500


class ReportRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Sent:
    report: Report
    repeat: bool  # the reporter had already reported this account (for these games)
    games: int  # games the report carries now


def per_hour() -> int:
    return getattr(settings, "TONGITS_REPORTS_PER_HOUR", 5)


def shared_games(one: AbstractBaseUser, other: AbstractBaseUser, last: int = RECENT_GAMES):
    """The ids of the last finished games both played, newest first."""
    theirs = Seat.objects.filter(user=other).values("game_id")
    return list(
        Game.objects.filter(
            status__in=(Game.Status.FINISHED, Game.Status.ABORTED), seats__user=one,
            pk__in=theirs, imported=False,
        )
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:last]
    )  # fmt: skip


def people_to_report(game: Game, reporter: AbstractBaseUser) -> list[AbstractBaseUser]:
    """The other accounts at a game the reporter played, once it is over; else none."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return []
    seats = list(game.seats.select_related("user__profile"))
    if not any(s.user_id == reporter.pk for s in seats):
        return []
    return [s.user for s in seats if s.user_id is not None and s.user_id != reporter.pk]


def send(
    reporter: AbstractBaseUser,
    reported: AbstractBaseUser,
    *,
    game: Game | None = None,
    note: str = "",
) -> Sent:
    """Report ``reported``: about ``game`` (one the reporter finished with them), or,
    without one, about their recent games together. Raises ReportRefused."""
    if reported.pk == reporter.pk:
        raise ReportRefused(_("You cannot report yourself."))
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise ReportRefused(_("Say what you saw in at most %(n)s characters.") % {"n": NOTE_LENGTH})
    if game is not None:
        if reported not in people_to_report(game, reporter):
            raise ReportRefused(
                _("You can report only someone you played this game with, once it is over.")
            )
        games = [game.pk]
    else:
        games = shared_games(reporter, reported)
    with transaction.atomic():
        since = timezone.now() - timedelta(hours=1)
        # The reporter's row lock: a burst of reports is counted one at a time.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).exists()
        sent = ReportSent.objects.filter(reporter=reporter)
        sent.filter(at__lt=since).delete()
        if sent.count() >= per_hour():
            raise ReportRefused(
                _("You have sent many reports in the last hour: please try again later.")
            )
        report = Report.objects.filter(
            reporter=reporter, reported=reported, closed_at__isnull=True
        ).first()
        repeat = report is not None
        if report is None:
            try:
                with transaction.atomic():
                    report = Report.objects.create(reporter=reporter, reported=reported, note=note)
            except IntegrityError:  # the same report, sent twice at once
                report = Report.objects.get(
                    reporter=reporter, reported=reported, closed_at__isnull=True
                )
                repeat = True
        ReportSent.objects.create(reporter=reporter)
        had = set(report.games.values_list("pk", flat=True))
        new = [g for g in games if g not in had]
        if new:
            report.games.add(*new)
        said = bool(note) and note not in report.note
        if said:  # the newest words are kept, should the notes outgrow the field
            report.note = f"{report.note}\n{note}".strip()[-NOTE_LENGTH * 4 :]
        if new or said or not repeat:
            report.save()  # updated_at: the staff page's order
        if game is None:
            repeat = repeat and not new
        else:
            repeat = repeat and game.pk in had
    return Sent(report, repeat, len(had) + len(new))
