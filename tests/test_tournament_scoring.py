"""An arena's scoring (games.tournaments.scoring): examples, then properties over random
runs of games (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.tournaments import scoring
from games.tournaments.scoring import SECOND, TONGITS, WIN, Result, score, standings

WON = Result(1)
SECOND_PLACE = Result(2)
LOST = Result(3)


def test_a_win_a_tongits_second_place_and_a_loss_score_as_how_to_play_says():
    assert score([WON]).points == WIN
    assert score([Result(1, tongits=True)]).points == TONGITS > WIN
    assert score([SECOND_PLACE]).points == SECOND
    assert score([LOST]).points == 0


def test_a_game_ended_away_scores_nothing_even_a_win_and_breaks_the_streak():
    assert score([Result(1, away=True)]).points == 0
    assert score([Result(2, away=True)]).points == 0
    s = score([WON, WON, Result(1, away=True), WON])
    assert s.marks == (WIN, WIN, 0, WIN)


def test_after_two_wins_in_a_row_points_double_until_a_game_is_not_won():
    s = score([WON, WON, WON, Result(1, tongits=True), SECOND_PLACE, WON])
    assert s.marks == (WIN, WIN, 2 * WIN, 2 * TONGITS, 2 * SECOND, WIN)
    assert s.streak == 1 and not s.on_fire


def test_second_place_goes_by_chips_and_equal_chips_are_both_second():
    assert scoring.place_of(0, 0, [10, -4, -6]) == 1
    assert scoring.place_of(1, 0, [10, -4, -6]) == 2
    assert scoring.place_of(2, 0, [10, -4, -6]) == 3
    assert scoring.place_of(1, 0, [10, -5, -5]) == scoring.place_of(2, 0, [10, -5, -5]) == 2


def test_ties_in_points_go_to_the_better_performance_and_equal_ones_share_a_rank():
    strong = [Result(1, opponents=(1200.0, 1100.0))]
    weak = [Result(1, opponents=(900.0, 1000.0))]
    table = standings([("w", "Wen", weak), ("s", "Sol", strong), ("t", "Tess", weak)])
    assert [row.key for row in table] == ["s", "t", "w"]
    assert [row.rank for row in table] == [1, 2, 2]


results = st.builds(
    Result,
    place=st.integers(1, 3),
    tongits=st.booleans(),
    away=st.booleans(),
    opponents=st.tuples(st.floats(500, 2000), st.floats(500, 2000)),
)
runs = st.lists(results, max_size=30)


@given(runs)
def test_points_are_the_sum_of_the_marks_and_never_negative(run):
    s = score(run)
    assert s.points == sum(s.marks) >= 0
    assert s.games == len(run) and len(s.marks) == len(run)


@given(runs, st.sampled_from([LOST, Result(2, away=True), Result(1, away=True)]))
def test_a_loss_or_an_away_game_adds_nothing(run, nothing):
    assert score([*run, nothing]).points == score(run).points


@given(runs, results)
def test_another_game_never_takes_points_away(run, more):
    assert score([*run, more]).points >= score(run).points


@given(runs)
def test_a_mark_is_doubled_exactly_when_the_two_games_before_were_won(run):
    s = score(run)
    for i, (result, mark) in enumerate(zip(run, s.marks, strict=True)):
        assert mark == scoring.base_points(result) * (2 if _on_fire(run, i) else 1)


def _on_fire(run, i) -> bool:
    return i >= 2 and run[i - 1].won and run[i - 2].won


@given(st.lists(runs, min_size=1, max_size=8), st.randoms())
def test_standings_are_ordered_by_points_then_performance_whatever_order_people_come(people, rnd):
    named = [(i, f"p{i}", run) for i, run in enumerate(people)]
    table = standings(named)
    shuffled = named[:]
    rnd.shuffle(shuffled)
    assert [r.key for r in standings(shuffled)] == [r.key for r in table]
    keys = [(r.score.points, r.score.performance) for r in table]
    assert keys == sorted(keys, reverse=True)
    assert table[0].rank == 1
    for a, b in zip(table, table[1:], strict=False):
        assert b.rank == a.rank if (a.score.points, a.score.performance) == (
            b.score.points, b.score.performance
        ) else b.rank > a.rank  # fmt: skip


# --- Away: a seat the server played most of ------------------------------------------------


def test_a_seat_is_away_when_the_server_played_more_than_half_of_its_turns():
    # Seat 0: three turns, the server made a move in two (the second it only finished).
    # Seat 1: two turns, the server played one: half is not most.
    log = [
        (0, True), (0, True), (1, False), (1, False), (2, False),
        (0, False), (0, True), (1, True), (1, True), (2, False), (0, False), (0, False),
    ]  # fmt: skip
    assert scoring.served_most(log) == {0}
    assert scoring.served_most([]) == frozenset()


turn_logs = st.lists(st.tuples(st.integers(0, 2), st.booleans()), max_size=60)


@given(turn_logs)
def test_a_seat_that_made_every_move_itself_is_never_away_and_one_left_to_the_server_is(log):
    own = [(seat, by_server and seat != 0) for seat, by_server in log]
    assert 0 not in scoring.served_most(own)
    served = [(seat, by_server or seat == 0) for seat, by_server in log]
    assert (0 in scoring.served_most(served)) == any(seat == 0 for seat, _ in log)


@given(turn_logs, st.integers(1, 5))
def test_turns_played_in_person_at_the_end_never_make_a_seat_away(log, more):
    # The person comes back and plays: whatever the server played before, no more of it.
    before = scoring.served_most(log)
    after = scoring.served_most([*log, *[(s, False) for _ in range(more) for s in (0, 1, 2)]])
    assert after <= before
