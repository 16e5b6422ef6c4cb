"""The daily deal's arithmetic over random days (hypothesis): a place, the median, the
histogram, chips against par and the duplicate score with its interval."""

from __future__ import annotations

import math
import statistics

from hypothesis import given
from hypothesis import strategies as st

from games.daily import scores

chips = st.integers(min_value=-60, max_value=60)
days = st.lists(chips, min_size=1, max_size=80)


@given(days, st.data())
def test_a_place_is_one_more_than_the_results_above_it_and_ties_share_it(results, data):
    mine = data.draw(st.sampled_from(results))
    place = scores.place(mine, results)
    assert place == 1 + len([r for r in results if r > mine])
    assert 1 <= place <= len(results)
    assert scores.place(max(results), results) == 1


@given(days)
def test_the_median_has_at_most_half_the_results_below_it_and_at_most_half_above(results):
    middle = scores.median(results)
    assert 2 * len([r for r in results if r < middle]) <= len(results)
    assert 2 * len([r for r in results if r > middle]) <= len(results)
    assert min(results) <= middle <= max(results)
    assert scores.median([]) is None


@given(days, st.data())
def test_the_histogram_counts_every_result_once_and_marks_only_the_persons_bar(results, data):
    mine = data.draw(st.sampled_from(results))
    bars = scores.histogram(results, mine)
    assert sum(b.count for b in bars) == len(results)
    assert len(bars) <= 12 and [b for b in bars if b.mine] == [
        b for b in bars if b.low <= mine <= b.high
    ]
    assert bars[0].low == min(results) and bars[-1].high >= max(results)
    for before, after in zip(bars, bars[1:], strict=False):
        assert after.low == before.high + 1  # no gap, no overlap
    for bar in bars:
        assert bar.count == len([r for r in results if bar.low <= r <= bar.high])


@given(st.lists(st.tuples(chips, chips), min_size=1, max_size=60))
def test_the_duplicate_score_is_the_mean_of_chips_minus_par_over_the_last_30_days(played):
    mine, pars = [c for c, _ in played], [p for _, p in played]
    diffs = scores.differences(mine, pars)
    score = scores.duplicate(diffs)

    window = diffs[: scores.WINDOW]
    assert score.days == len(window)
    assert math.isclose(score.mean, sum(window) / len(window), abs_tol=1e-9)
    # Par counts against the person one for one: a par higher by k lowers the score by k.
    raised = scores.duplicate(scores.differences(mine, [p + 3 for p in pars]))
    assert math.isclose(raised.mean, score.mean - 3, abs_tol=1e-9)


@given(st.lists(chips, min_size=1, max_size=60))
def test_the_interval_holds_the_mean_and_narrows_as_the_days_agree(diffs):
    score = scores.duplicate(diffs)
    if score.days < 2:
        assert score.low is None and score.half_width is None
        return
    assert score.low <= score.mean <= score.high
    spread = statistics.stdev(diffs[: scores.WINDOW])
    assert (score.high - score.low == 0) == (spread == 0)
    steady = scores.duplicate([round(score.mean)] * score.days)
    assert steady.half_width == 0


def test_the_interval_is_students_t_for_a_known_case():
    # 1, 2, 3, 4, 5: mean 3, sd 1.5811; t(0.975, 4 df) = 2.7764 → 3 ± 1.9632.
    score = scores.duplicate([1, 2, 3, 4, 5])
    assert math.isclose(score.low, 3 - 1.9632, abs_tol=1e-3)
    assert math.isclose(score.high, 3 + 1.9632, abs_tol=1e-3)


def test_a_months_board_counts_all_its_days_not_only_thirty():
    assert scores.duplicate(list(range(31)), window=None).days == 31
    assert scores.duplicate(list(range(31))).days == 30
    assert scores.duplicate([]) is None
