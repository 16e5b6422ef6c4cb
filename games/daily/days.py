"""The daily deal's days: a day is a date of Manila (Asia/Manila, UTC+8 all year), from
00:00 to 00:00 there. Pure: no Django, no clock but the ``now`` given."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

MANILA = ZoneInfo("Asia/Manila")


def day_of(now: datetime) -> date:
    """The Manila date at the instant ``now`` (an aware datetime)."""
    return now.astimezone(MANILA).date()


def starts(day: date) -> datetime:
    """The instant ``day`` begins: its 00:00 in Manila."""
    return datetime.combine(day, time(0), MANILA)


def ends(day: date) -> datetime:
    """The instant ``day`` ends: the next day's 00:00 in Manila."""
    return starts(day + timedelta(days=1))


def month_of(day: date) -> date:
    """The first day of ``day``'s month."""
    return day.replace(day=1)


def next_month(month: date) -> date:
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)
