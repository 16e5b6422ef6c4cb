"""Quiet hours, in the person's own time zone: whether an instant falls in them, and when
they end. A window may run over midnight (22:00 to 08:00). No time zone known: no quiet
hours, for in UTC they would fall at the wrong hours of the person's day."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def zone(name: str) -> ZoneInfo | None:
    """The time zone of that IANA name, or None for a blank or unknown name."""
    if not name or name not in zone_names():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _inside(clock: time, start: time, end: time) -> bool:
    if start == end:
        return False  # an empty window, not the whole day
    if start < end:
        return start <= clock < end
    return clock >= start or clock < end  # over midnight


def quiet_until(now: datetime, zone_name: str, start: time | None, end: time | None):
    """When the quiet hours around ``now`` (aware) end, as an aware datetime in UTC; None
    when ``now`` is outside them, they are not set, or the time zone is not known."""
    where = zone(zone_name)
    if where is None or start is None or end is None:
        return None
    local = now.astimezone(where)
    if not _inside(local.time().replace(tzinfo=None), start, end):
        return None
    day = local.date() if local.time().replace(tzinfo=None) < end else local.date() + timedelta(1)
    # Wall-clock time in the zone (a gap or fold of daylight saving time is resolved by
    # zoneinfo's rules); at least a minute on, so a clock at the edge never waits for nothing.
    ends = datetime.combine(day, end, tzinfo=where)
    return max(ends.astimezone(UTC), now + timedelta(minutes=1))


def local_now(now: datetime, zone_name: str) -> datetime | None:
    where = zone(zone_name)
    return None if where is None else now.astimezone(where)
