"""The daily deal's arithmetic, pure: a day's results (place, median, histogram) and the
duplicate score (chips minus par, averaged over a person's days, with its interval).

Property tests (tests/test_daily_scores.py) hold it to what a person reads: a place is
one more than the results above it, the median splits the results, a histogram counts
each result once, and the duplicate score's interval holds its mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats

WINDOW = 30  # a person's duplicate score: their last this many played days with a par
CONFIDENCE = 0.95


def place(mine: int, results: Sequence[int]) -> int:
    """``mine``'s place among ``results`` (which hold it): one more than the results
    above it, so equal chips share a place (1, 2, 2, 4)."""
    return 1 + sum(r > mine for r in results)


def median(results: Sequence[int]) -> float | None:
    return statistics.median(results) if results else None


@dataclass(frozen=True)
class Bar:
    low: int  # chips, inclusive
    high: int  # chips, inclusive
    count: int
    mine: bool = False  # the person's own result falls in it


def histogram(results: Sequence[int], mine: int | None = None, bars: int = 12) -> list[Bar]:
    """The results in at most ``bars`` bars of equal width, lowest first, covering every
    result once; the bar holding ``mine`` is marked."""
    if not results:
        return []
    low, high = min(results), max(results)
    width = max(1, math.ceil((high - low + 1) / bars))
    count = (high - low) // width + 1
    tally = [0] * count
    for r in results:
        tally[(r - low) // width] += 1
    return [
        Bar(
            low + i * width,
            low + (i + 1) * width - 1,
            n,
            mine is not None and low + i * width <= mine < low + (i + 1) * width,
        )
        for i, n in enumerate(tally)
    ]


@dataclass(frozen=True)
class Duplicate:
    """A person's duplicate score: the mean of their chips minus par over ``days`` days,
    and its 95% interval (Student's t; None below two days, when no spread is known)."""

    mean: float
    days: int
    low: float | None = None
    high: float | None = None

    @property
    def half_width(self) -> float | None:
        return None if self.low is None else (self.high - self.low) / 2


def differences(chips: Sequence[int], pars: Sequence[int]) -> list[int]:
    """Each day's chips minus that day's par."""
    return [c - p for c, p in zip(chips, pars, strict=True)]


def duplicate(diffs: Sequence[int], window: int | None = WINDOW) -> Duplicate | None:
    """The duplicate score of these days' (chips − par), newest first; only the first
    ``window`` count (all with None: a month's board). None with no day."""
    window = list(diffs[:window])
    if not window:
        return None
    mean = statistics.fmean(window)
    if len(window) < 2:
        return Duplicate(mean, 1)
    spread = statistics.stdev(window)
    if spread == 0:
        return Duplicate(mean, len(window), mean, mean)
    half = stats.t.ppf((1 + CONFIDENCE) / 2, len(window) - 1) * spread / math.sqrt(len(window))
    return Duplicate(mean, len(window), mean - half, mean + half)
