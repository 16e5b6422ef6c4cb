"""The daily deal's days and games, and who may see what of a day.

A day's deal is drawn ahead (``ensure_days``: today's and tomorrow's, from the server
clock's tick, a page or ``manage.py daily_deal``) and its par queued then. A person
starts their one game of today (``start``): a private table through
``games.play.tables``, dealt from the day's seed, played live like any game; the server
clock plays an away person's turns as usual, so a game left alone finishes by itself and
counts as it ends.

What of a day anyone may see (the one rule, asked by every page, partial and the replay
check): its results, and the best game's replay, once they have finished their own game of
it (``has_finished``), and everyone once the day is over (``is_closed``: past its Manila
midnight, and none of its games still in play). Until then a page says only how many have
played, and shows the seed's commitment, never the seed.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import display_name_for
from games.models import Game
from games.play import tables

from . import days, scores
from .models import Day, Entry

log = logging.getLogger(__name__)

OPPONENTS = ("normal", "normal")
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)
Person = AbstractBaseUser | AnonymousUser


# --- Days ---------------------------------------------------------------------------------


def ensure_days(now: datetime) -> Day:
    """Today's day, made if missing, and tomorrow's too: each seed is drawn (and its
    commitment shown) before its day begins. A new day's par is queued after the commit."""
    today = days.day_of(now)
    found = {d.day: d for d in Day.objects.filter(day__in=(today, today + timedelta(days=1)))}
    for day in (today, today + timedelta(days=1)):
        if day not in found:
            found[day] = _make_day(day)
    return found[today]


def _make_day(day: date) -> Day:
    seed = str(secrets.randbits(128))
    try:
        with transaction.atomic():
            made = Day.objects.create(day=day, seed=seed, commitment=Game.commit_to(seed))
    except IntegrityError:  # another worker made it just now: theirs stands
        return Day.objects.get(day=day)
    log.info("Daily deal of %s drawn; commitment %s.", day, made.commitment)
    transaction.on_commit(lambda: _queue_par(made.pk), robust=True)
    return made


def _queue_par(day_id: int) -> None:
    from .tasks import work_out_par  # the task module imports this one

    work_out_par.enqueue(day_id)


_ensured: date | None = None  # the Manila date this process last made the days for


def tick(now: datetime) -> None:
    """The server clock's tick: the days made once a date per process (a query a day, not
    a query a second)."""
    global _ensured
    if days.day_of(now) != _ensured:
        ensure_days(now)
        _ensured = days.day_of(now)


def is_closed(day: Day, now: datetime) -> bool:
    """Whether the day is over for everyone: past its Manila midnight, and none of its
    games still in play (one started at 23:59 ends first; its player must not meet the
    seed or the results mid-game)."""
    if now < days.ends(day.day):
        return False
    return not day.entries.exclude(game__status__in=OVER).exists()


# --- A person's game ----------------------------------------------------------------------


def entry_of(user: Person, day: Day) -> Entry | None:
    if not user.is_authenticated:
        return None
    return Entry.objects.select_related("game").filter(day=day, user_id=user.pk).first()


def has_finished(user: Person, day: Day) -> bool:
    """Whether ``user`` played ``day``'s deal to its end (or staff aborted their game)."""
    if not user.is_authenticated:
        return False
    return Entry.objects.filter(day=day, user_id=user.pk, game__status__in=OVER).exists()


def start(user: AbstractBaseUser, now: datetime | None = None) -> Game:
    """``user``'s game of today's deal: the one they started, or a new private table with
    two Normal bots, dealt from the day's seed. One a day: under the person's row lock, so
    a double click or two tabs make one game."""
    now = now or timezone.now()
    with transaction.atomic():
        list(get_user_model().objects.select_for_update().filter(pk=user.pk).values("pk"))
        day = ensure_days(now)
        entry = entry_of(user, day)
        if entry is not None:
            return entry.game
        game = tables.create_table(
            user, public=False, others=OPPONENTS, seed=int(day.seed), daily=True
        )
        Entry.objects.create(day=day, user=user, game=game)
    return game


# --- A day's results ----------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    user_id: int
    game_id: int
    chips: int
    finished_at: datetime


def results(day: Day) -> list[Result]:
    """Every finished game of the day, best first (equal chips: who finished first)."""
    rows = Entry.objects.filter(day=day, game__status=Game.Status.FINISHED).values_list(
        "user_id", "game_id", "game__chips", "game__finished_at"
    )
    found = [Result(u, g, chips[0], at) for u, g, chips, at in rows]
    return sorted(found, key=lambda r: (-r.chips, r.finished_at, r.game_id))


def played_count(day: Day) -> int:
    return Entry.objects.filter(day=day, game__status=Game.Status.FINISHED).count()


def may_see_results(user: Person, day: Day, now: datetime) -> bool:
    """The one rule: a day's results are for those who finished it, and everyone once it
    is over."""
    return has_finished(user, day) or is_closed(day, now)


def replay_rule(user: Person, game: Game) -> bool | None:
    """For ``games.access``: a daily game's replay, besides its player's, opens only to
    those who may see the day's results, and then only the day's best game (staff, who
    see any private game, likewise wait until they have played or the day is over)."""
    if not game.daily:
        return None
    entry = Entry.objects.select_related("day").filter(game_id=game.pk).first()
    if entry is None or (user.is_authenticated and entry.user_id == user.pk):
        return None
    if not may_see_results(user, entry.day, timezone.now()):
        raise PermissionDenied(
            gettext(
                "This is a game of a daily deal: it opens to you once you have played "
                "that deal yourself, or when its day is over."
            )
        )
    best = results(entry.day)[:1]
    return True if best and best[0].game_id == game.pk else None


# --- Duplicate scores ---------------------------------------------------------------------


def closed_days(now: datetime, first: date | None = None, last: date | None = None) -> QuerySet:
    """The ids of the days over for everyone (``is_closed``) that have a par, between
    ``first`` and ``last`` if given: a subquery of the caller's one query."""
    before = days.day_of(now)
    found = Day.objects.filter(day__lt=before, par__isnull=False)
    if first is not None:
        found = found.filter(day__gte=first)
    if last is not None:
        found = found.filter(day__lte=last)
    pending = Entry.objects.exclude(game__status__in=OVER).values("day_id")
    return found.exclude(pk__in=pending).values_list("pk", flat=True)


def _diffs(entries) -> dict[int, list[int]]:
    """Each person's (chips − par) over these entries, newest day first."""
    rows = entries.filter(game__status=Game.Status.FINISHED).order_by("-day__day")
    found: dict[int, list[int]] = {}
    for user_id, chips, par in rows.values_list("user_id", "game__chips", "day__par"):
        found.setdefault(user_id, []).append(chips[0] - par)
    return found


def duplicate_for(user: AbstractBaseUser, now: datetime) -> scores.Duplicate | None:
    """``user``'s duplicate score over their last 30 days that are over and have a par
    (today's counts from the next day on, so no score shows a day's result early)."""
    entries = Entry.objects.filter(user=user, day_id__in=closed_days(now))
    return scores.duplicate(_diffs(entries).get(user.pk, []))


@dataclass(frozen=True)
class Standing:
    user_id: int
    username: str
    name: str
    score: scores.Duplicate


MIN_DAYS = 5  # days of a month a person must have played to stand on its board


def monthly_board(month: date, now: datetime, limit: int = 50) -> list[Standing]:
    """The month's duplicate scores of people with an account (not unclaimed guests, as
    the site's other boards), who played ``MIN_DAYS`` or more of its days that are over;
    best first."""
    ids = closed_days(now, month, days.next_month(month) - timedelta(days=1))
    entries = Entry.objects.filter(day_id__in=ids).exclude(user__profile__is_guest=True)
    diffs = _diffs(entries)
    people = get_user_model().objects.select_related("profile").in_bulk(list(diffs))
    board = []
    for user_id, found in diffs.items():
        if len(found) >= MIN_DAYS:
            person = people[user_id]
            score = scores.duplicate(found, window=None)
            board.append(Standing(user_id, person.get_username(), display_name_for(person), score))
    board.sort(key=lambda s: (-s.score.mean, -s.score.days, s.username))
    return board[:limit]
