"""Small charts drawn on the server as inline SVG: the geometry here, the markup in
``templates/games/history/charts.html``. No chart library and no CDN: a page that shows a
chart works without JavaScript and says in words what the chart shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.utils import formats
from django.utils.translation import gettext, ngettext

WIDTH, HEIGHT, PAD = 320, 120, 8


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    path: str  # the SVG path of the line
    zero_y: float  # where the 0 line runs
    last_x: float
    last_y: float
    summary: str  # the accessible name: what the chart says, in words


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int
    label_x: float  # the middle of the bar, for its texts
    value_y: float


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: list[Bar]
    base_y: float
    label_y: float
    summary: str


def signed(n: int) -> str:
    """+3, 0, −4 (a real minus sign, which screen readers say as "minus")."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def cumulative_chips(gains: Sequence[int]) -> LineChart | None:
    """The running total of net chips, starting from 0 before the first game given."""
    if not gains:
        return None
    totals = [0]
    for gain in gains:
        totals.append(totals[-1] + gain)
    low, high = min(totals), max(totals)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / len(gains)

    def y(value: int) -> float:
        return round(PAD + (high - value) * (HEIGHT - 2 * PAD) / span, 1)

    points = [(round(PAD + i * step, 1), y(v)) for i, v in enumerate(totals)]
    path = "M" + " L".join(f"{x},{yy}" for x, yy in points)
    values = {
        "n": len(gains),
        "total": signed(totals[-1]),
        "low": signed(low),
        "high": signed(high),
    }
    summary = (
        ngettext(
            "Net chips over the last game: %(total)s in all, lowest %(low)s, highest %(high)s.",
            "Net chips over the last %(n)s games: %(total)s in all, lowest %(low)s, "
            "highest %(high)s.",
            len(gains),
        )
        % values
    )
    return LineChart(WIDTH, HEIGHT, path, y(0), points[-1][0], points[-1][1], summary)


def games_per_day(counts: Sequence[tuple[date, int]]) -> BarChart:
    """One bar per day, oldest first, each labelled with its weekday and count."""
    top = max((n for _, n in counts), default=0) or 1
    slot = (WIDTH - 2 * PAD) / max(len(counts), 1)
    base = HEIGHT - 20
    bars = []
    for i, (day, n) in enumerate(counts):
        height = round(n * (base - PAD - 14) / top, 1)
        x = round(PAD + i * slot + slot * 0.15, 1)
        width = round(slot * 0.7, 1)
        label = f"{formats.date_format(day, 'D')} {day.day}"
        y = round(base - height, 1)
        bars.append(Bar(x, y, width, height, label, n, round(x + width / 2, 1), round(y - 3, 1)))
    words = ", ".join(f"{b.label}: {b.value}" for b in bars)
    summary = gettext("Games started per day, the last %(n)s days: %(words)s.") % {
        "n": len(bars),
        "words": words,
    }
    return BarChart(WIDTH, HEIGHT, bars, base, HEIGHT - 5, summary)
