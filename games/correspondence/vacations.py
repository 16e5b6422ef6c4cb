"""Vacations: a person pauses their correspondence clocks, up to
``TONGITS_VACATION_DAYS`` (14) days a calendar year (UTC), booked in whole days.

How a clock pauses. A turn's deadline is its start plus the table's turn time plus the
time of its person's vacations that fell inside it (``deadline``: the fixed point, since a
longer turn can reach into a later vacation). It is worked out from the turn's start each
time, never added onto the stored deadline, so nothing is counted twice:

- when a vacation starts or ends early, for each of that person's turns now running
  (``reset``), so the table's clock and the "Your turn" page show the new deadline;
- when the server clock finds a correspondence game due (``hold``, play's ``on_due``
  hook): a turn that began during a vacation is due by its plain time, and is held
  until the vacation's end plus its turn. A live game is never asked about (no query).

The people at the table see it: the table says "on vacation until …" (the template tag
``vacations_at``), and so does the "Your turn" page.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import CORRESPONDENCE_SECONDS, Game, Seat, is_correspondence
from games.play import telling

from .models import Vacation


class VacationError(Exception):
    def __init__(self, message) -> None:
        super().__init__(message)
        self.message = message


def allowance() -> timedelta:
    return timedelta(days=settings.TONGITS_VACATION_DAYS)


def used(user_id: int, now: datetime) -> timedelta:
    """The vacation time booked in ``now``'s year (UTC): a vacation counts in the year it
    starts, as booked, or as long as it ran when its person came back early."""
    start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    rows = Vacation.objects.filter(user_id=user_id, starts_at__gte=start)
    return sum((e - s for s, e in rows.values_list("starts_at", "ends_at")), timedelta())


def days_left(user_id: int, now: datetime | None = None) -> int:
    """Whole days of vacation still to book this year."""
    now = now or timezone.now()
    return max(0, (allowance() - used(user_id, now)).days)


def current(user_id: int, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    rows = Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
    return rows.order_by("-ends_at").first()


def on_vacation(user_ids, now: datetime | None = None) -> dict[int, datetime]:
    """Those of these people on vacation now, and when it ends: one query."""
    now = now or timezone.now()
    rows = Vacation.objects.filter(
        user_id__in=[u for u in user_ids if u], starts_at__lte=now, ends_at__gt=now
    ).values_list("user_id", "ends_at")
    return dict(rows)


def start(user, days: int, now: datetime | None = None) -> Vacation:
    """Begin a vacation of ``days`` whole days now. Refused (changing nothing) while one
    runs, or beyond what is left of the year's allowance."""
    now = now or timezone.now()
    if not isinstance(days, int) or days < 1:
        raise VacationError(_("Choose how many days: one or more."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if current(user.pk, now) is not None:
            raise VacationError(_("You are on vacation already."))
        if days > days_left(user.pk, now):
            raise VacationError(_("That is more vacation than you have left this year."))
        made = Vacation.objects.create(
            user_id=user.pk, starts_at=now, ends_at=now + timedelta(days=days)
        )
        reset(user.pk, now)
    return made


def end(user, now: datetime | None = None) -> bool:
    """Come back early: the vacation ends now, and so does its pause. True if one ran."""
    now = now or timezone.now()
    with transaction.atomic():
        running = current(user.pk, now)
        if running is None:
            return False
        Vacation.objects.filter(pk=running.pk).update(ends_at=now)
        reset(user.pk, now)
    return True


def deadline(started: datetime, turn: timedelta, vacations: list[tuple[datetime, datetime]]):
    """A turn's deadline with its person's vacations inside it paused (see the module)."""
    due = started + turn
    while True:
        paused = sum(
            (min(e, due) - max(s, started) for s, e in vacations if s < due and e > started),
            timedelta(),
        )
        later = started + turn + paused
        if later <= due:
            return due
        due = later


def _spans(user_id: int, since: datetime) -> list[tuple[datetime, datetime]]:
    rows = Vacation.objects.filter(user_id=user_id, ends_at__gt=since)
    return list(rows.values_list("starts_at", "ends_at"))


def reset(user_id: int, now: datetime) -> int:
    """Work out again the deadline of each correspondence turn of this person now running;
    returns how many moved."""
    turns = Game.objects.filter(
        status=Game.Status.PLAYING, turn_seconds__gte=CORRESPONDENCE_SECONDS,
        seats__user_id=user_id, seats__index=F("turn_seat"), turn_started_at__isnull=False,
    ).values_list("pk", "seq", "turn_started_at", "turn_seconds", "due_at")  # fmt: skip
    moved = 0
    for game_id, seq, started, seconds, due_at in turns:
        due = deadline(started, timedelta(seconds=seconds), _spans(user_id, started))
        moved += _move(game_id, seq, due_at, due)
    return moved


def _move(game_id: int, seq: int, was: datetime | None, due: datetime) -> int:
    # Only if the game has not moved since it was read: a move sets its own deadline.
    if was == due:
        return 0
    changed = Game.objects.filter(pk=game_id, seq=seq, due_at=was).update(
        due_at=due, rev=F("rev") + 1
    )
    if changed:
        rev = Game.objects.values_list("rev", flat=True).get(pk=game_id)
        transaction.on_commit(lambda: telling.notify_game(game_id, rev), robust=True)
    return changed


def hold(game_id: int, turn_seconds: int, now: datetime) -> bool:
    """Play's ``on_due`` hook: hold the clock's move for a person whose vacation paused
    this turn (its deadline moved on). No query for a live game."""
    if not is_correspondence(turn_seconds):
        return False
    row = (
        Game.objects.filter(pk=game_id, status=Game.Status.PLAYING)
        .values_list("seq", "turn_seat", "turn_started_at", "due_at")
        .first()
    )
    if row is None or row[2] is None:
        return False
    seq, turn_seat, started, due_at = row
    person = (
        Seat.objects.filter(game_id=game_id, index=turn_seat, user__isnull=False, bot_kind="")
        .values_list("user_id", flat=True)
        .first()
    )
    if person is None:
        return False
    spans = _spans(person, started)
    if not any(s < now for s, _e in spans):
        return False
    due = deadline(started, timedelta(seconds=turn_seconds), spans)
    if due <= now:
        return False
    with transaction.atomic():
        return bool(_move(game_id, seq, due_at, due))
