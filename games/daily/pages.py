"""What the daily deal's pages show, made from ``services``: a day as one person may see
it, the histogram's geometry (inline SVG, as games.history.charts draws), the home page's
line and the month's board. Every result passes ``services.may_see_results`` first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext, ngettext

from accounts.models import display_name_for

from . import days, scores, services
from .models import Day

WIDTH, HEIGHT, PAD, LABELS = 320, 120, 4, 16


@dataclass(frozen=True)
class Column:
    x: float
    y: float
    width: float
    height: float
    bar: scores.Bar


def columns(bars: list[scores.Bar]) -> list[Column]:
    """The histogram's bars as SVG rectangles, the tallest reaching the top."""
    if not bars:
        return []
    tallest = max(b.count for b in bars)
    step = (WIDTH - 2 * PAD) / len(bars)
    room = HEIGHT - LABELS - PAD
    found = []
    for i, bar in enumerate(bars):
        height = room * bar.count / tallest
        found.append(Column(PAD + i * step + 1, PAD + room - height, step - 2, height, bar))
    return found


def histogram_summary(bars: list[scores.Bar], mine: int | None) -> str:
    """The histogram in words, its accessible name."""
    parts = [
        ngettext(
            "%(low)s to %(high)s chips: %(n)s player",
            "%(low)s to %(high)s chips: %(n)s players",
            b.count,
        )
        % {"low": _signed(b.low), "high": _signed(b.high), "n": b.count}
        for b in bars
        if b.count
    ]
    text = "; ".join(parts)
    if mine is not None:
        text = gettext("You: %(chips)s chips. ") % {"chips": _signed(mine)} + text
    return text


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def day_context(user, day: Day, now: datetime) -> dict[str, Any]:
    """A day's page for ``user``: always what anyone may know (the commitment, how many
    played, their own game); the results only if ``services.may_see_results``."""
    entry = services.entry_of(user, day)
    closed = services.is_closed(day, now)
    context: dict[str, Any] = {
        "day": day,
        "is_today": day.day == days.day_of(now),
        "closed": closed,
        "ends_at": days.ends(day.day),
        "entry": entry,
        "finished": entry is not None and entry.game.is_over,
        "played": services.played_count(day),
        "open": closed or services.has_finished(user, day),
    }
    if context["open"]:
        context.update(_results(user, day))
    return context


def _results(user, day: Day) -> dict[str, Any]:
    found = services.results(day)
    chips = [r.chips for r in found]
    mine = next((r.chips for r in found if r.user_id == getattr(user, "pk", None)), None)
    bars = scores.histogram(chips, mine)
    best = found[0] if found else None
    best_name = ""
    if best is not None:
        person = get_user_model().objects.select_related("profile").get(pk=best.user_id)
        best_name = display_name_for(person)
    return {
        "results": found,
        "mine": mine,
        "place": scores.place(mine, chips) if mine is not None else None,
        "median": scores.median(chips),
        "columns": columns(bars),
        "lowest": min(chips, default=0),
        "highest": max(chips, default=0),
        "summary": histogram_summary(bars, mine),
        "chart": {"width": WIDTH, "height": HEIGHT, "label_y": HEIGHT - 4},
        "best": best,
        "best_name": best_name,
        "par": day.par,
        "against_par": None if mine is None or day.par is None else mine - day.par,
    }


def home_line(user, now: datetime) -> dict[str, Any]:
    """The home page's "Today's deal: 1,284 played, median −1 chip": the median only for
    someone who has finished today's deal (it is a result of it)."""
    day = services.ensure_days(now)
    found = services.results(day)
    shown = services.may_see_results(user, day, now)
    median = scores.median([r.chips for r in found]) if shown and found else None
    return {
        "played": len(found),
        "median": median,
        "median_count": 1 if median is not None and abs(median) == 1 else 2,
        "mine": services.entry_of(user, day),
    }


def month_context(month: date, now: datetime) -> dict[str, Any]:
    this_month = days.month_of(days.day_of(now))
    before = days.month_of(month - timedelta(days=1))
    after = days.next_month(month)
    return {
        "month": month,
        "board": services.monthly_board(month, now),
        "min_days": services.MIN_DAYS,
        "before": before,
        "after": after if after <= this_month else None,
    }
