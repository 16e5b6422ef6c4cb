"""An arena's pairing pool (games.tournaments.pairing), pure: examples and properties."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import BOT_WAIT, Waiting, pair

NOW = datetime(2026, 12, 3, 5, 0, tzinfo=UTC)


def w(key, rating=1000.0, ago=0.0, met=()):
    return Waiting(key, rating, NOW - timedelta(seconds=ago), frozenset(met))


def test_three_waiting_are_seated_at_once_and_two_wait():
    assert [t.people for t in pair([w(1), w(2), w(3)], NOW)] == [(1, 2, 3)]
    assert pair([w(1), w(2)], NOW) == []


def test_near_ratings_sit_together():
    people = [w(1, 1000), w(2, 1500), w(3, 1010), w(4, 1490), w(5, 990), w(6, 1510)]
    tables = {frozenset(t.people) for t in pair(people, NOW)}
    assert tables == {frozenset({1, 3, 5}), frozenset({2, 4, 6})}


def test_the_same_two_people_are_not_seated_together_again_when_another_choice_exists():
    # 1 and 2 just played together; all six are near in rating.
    people = [w(1, 1000, met={2}), w(2, 1001, met={1}), w(3, 1002), w(4, 1003), w(5, 1004),
              w(6, 1005)]  # fmt: skip
    tables = pair(people, NOW)
    assert all(not {1, 2} <= set(t.people) for t in tables)
    assert sum(len(t.people) for t in tables) == 6


def test_the_same_three_alone_play_again_rather_than_wait():
    people = [w(1, met={2, 3}), w(2, met={1, 3}), w(3, met={1, 2})]
    assert [t.people for t in pair(people, NOW)] == [(1, 2, 3)]


def test_bots_fill_the_table_of_one_or_two_who_waited_twenty_seconds():
    secs = BOT_WAIT.total_seconds()
    assert pair([w(1, ago=secs - 1)], NOW) == []
    [table] = pair([w(1, ago=secs)], NOW)
    assert table.people == (1,) and table.bots == 2
    [table] = pair([w(1, ago=secs + 5), w(2, ago=1)], NOW)
    assert set(table.people) == {1, 2} and table.bots == 1


def test_those_left_over_are_the_last_to_come():
    people = [w(1, ago=30), w(2, ago=29), w(3, ago=28), w(4, ago=1)]
    tables = pair(people, NOW)
    assert len(tables) == 1 and set(tables[0].people) == {1, 2, 3}


waiting = st.lists(
    st.builds(
        w,
        key=st.integers(1, 40),
        rating=st.floats(600, 1800),
        ago=st.floats(0, 60),
        met=st.frozensets(st.integers(1, 40), max_size=2),
    ),
    max_size=40,
)


# Drawing a crowd is slow on a busy machine (CI's two cores are shared): not a failure.
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(waiting)
def test_nobody_is_seated_twice_and_nobody_waits_while_two_others_wait(people):
    tables = pair(people, NOW)
    seated = [k for t in tables for k in t.people]
    assert len(seated) == len(set(seated))
    keys = {p.key for p in people}
    assert set(seated) <= keys
    assert len(keys - set(seated)) < 3
    for t in tables:
        assert 1 <= len(t.people) <= 3 and len(t.people) + t.bots == 3
        assert t.bots == 0 or len(tables) == tables.index(t) + 1  # bots only at the last


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(waiting)
def test_bots_sit_only_with_someone_who_waited_long_enough(people):
    by_key = {p.key: p for p in people}
    for t in pair(people, NOW):
        if t.bots:
            assert max(NOW - by_key[k].since for k in t.people) >= BOT_WAIT
