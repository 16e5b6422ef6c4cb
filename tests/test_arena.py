"""The arena: bots play in the engine alone; ``manage.py arena`` reports how each entry did."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.bots import arena
from games.bots.arena import EntryResult, play_arena

REPO = Path(__file__).resolve().parent.parent


def run_arena(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("arena", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_arena_json_ends_its_output_with_one_entry_per_listed_seat():
    out, err = run_arena("--games", "20", "--seats", "greedy,random,random", "--json")
    result = json.loads(out.strip().splitlines()[-1])
    assert list(result) == ["games", "seats"]
    assert result["games"] == 20
    assert [s["kind"] for s in result["seats"]] == ["greedy", "random", "random"]
    for seat in result["seats"]:
        assert list(seat) == ["kind", "win_rate", "win_rate_95", "mean_chips", "mean_chips_95"]
        assert 0 <= seat["win_rate_95"][0] <= seat["win_rate"] <= seat["win_rate_95"][1] <= 1
        low, high = seat["mean_chips_95"]
        assert low <= seat["mean_chips"] <= high
    # One winner a game, and chips only change hands.
    assert sum(s["win_rate"] for s in result["seats"]) == pytest.approx(1, abs=0.002)
    assert sum(s["mean_chips"] for s in result["seats"]) == pytest.approx(0, abs=0.002)
    assert "20/20" in err


def test_arena_without_json_prints_a_line_per_entry_for_people():
    out, _ = run_arena("--games", "3", "--seats", "random,greedy,random")
    assert "greedy" in out and "win rate" in out
    assert not out.strip().splitlines()[-1].startswith("{")


def test_the_mean_chips_interval_is_spread_between_rotations_that_share_a_deal():
    """The three games of a rotation share one deal, so the interval of the mean chips is
    taken from how rotations differ, not games; a last short rotation weighs its games."""
    steady = EntryResult("greedy", 6, 2, 6, rotation_chips=(3, 3))
    assert steady.mean_chips_interval() == (1.0, 1.0)
    # Rotations of 0 and 6 chips: each 3 from the mean of 3 a rotation, so the spread of
    # the total is sqrt(2 * 18) = 6 and of the mean 6 / 6 = 1 chip.
    swinging = EntryResult("greedy", 6, 2, 6, rotation_chips=(0, 6))
    low, high = swinging.mean_chips_interval()
    assert (low, high) == pytest.approx((1 - 1.96, 1 + 1.96))
    short = EntryResult("greedy", 4, 1, 4, rotation_chips=(3, 1))  # 3 games, then 1
    assert short.mean_chips_interval() == (1.0, 1.0)
    assert EntryResult("greedy", 3, 1, 3, rotation_chips=(3,)).mean_chips_interval() is None


def test_the_arena_prints_both_intervals_and_more_games_narrow_the_chips_one():
    few = play_arena(["greedy", "random", "random"], 30, seed=2).entries[0]
    many = play_arena(["greedy", "random", "random"], 300, seed=2).entries[0]
    low_few, high_few = few.mean_chips_interval()
    low_many, high_many = many.mean_chips_interval()
    assert low_many <= many.mean_chips <= high_many
    assert high_many - low_many < high_few - low_few
    out, _ = run_arena("--games", "6", "--seats", "greedy,random,random")
    assert out.count("95% CI") == 6  # win rate and mean chips, for each entry


def test_the_same_seed_plays_the_same_arena_and_another_seed_another():
    first = play_arena(["greedy", "random", "greedy"], 30, seed=4)
    assert play_arena(["greedy", "random", "greedy"], 30, seed=4) == first
    assert play_arena(["greedy", "random", "greedy"], 30, seed=5) != first


def test_games_split_over_processes_give_the_same_result_as_in_one():
    one = play_arena(["greedy", "random", "greedy"], 24, seed=8, jobs=1)
    assert play_arena(["greedy", "random", "greedy"], 24, seed=8, jobs=2) == one


def test_arena_jobs_keeps_its_progress_bar_and_its_figures():
    one, _ = run_arena("--games", "12", "--seats", "greedy,random,random", "--jobs", "1", "--json")
    two, err = run_arena(
        "--games", "12", "--seats", "greedy,random,random", "--jobs", "2", "--json"
    )
    assert one.strip().splitlines()[-1] == two.strip().splitlines()[-1]
    assert "12/12" in err and "95% CI" in two


def test_each_entry_sits_in_each_seat_in_turn(monkeypatch):
    seatings = []
    real = arena.play_game

    def spy(kinds_by_seat, state, rng, clock=None):
        seatings.append(tuple(kinds_by_seat))
        return real(kinds_by_seat, state, rng, clock)

    monkeypatch.setattr(arena, "play_game", spy)
    play_arena(["greedy", "random", "random"], 6, seed=0)
    greedy_seats = [kinds.index("greedy") for kinds in seatings]
    assert greedy_seats == [0, 1, 2, 0, 1, 2]


def test_greedy_beats_two_random_bots_far_more_often_than_a_third_of_the_time():
    result = play_arena(["greedy", "random", "random"], 150, seed=1)
    assert result.entries[0].win_rate > 0.6


@pytest.mark.parametrize(
    "args",
    [
        ["--seats", "greedy,random"],
        ["--seats", "greedy,clever,random"],
        ["--games", "0"],
        ["--jobs", "0"],
    ],
)
def test_arena_rejects_a_bad_seating_or_game_count(args):
    with pytest.raises(CommandError):
        run_arena(*args)


def test_the_engine_bench_prints_its_figures_last_and_never_imports_django():
    script = (
        "import sys, bench.engine as b; b.main(['--seconds', '0.05', '--records', '3']);"
        "assert 'django' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"games_per_s", "moves_per_s", "replay_ms", "replay_ms_bot_games"} <= set(figures)
    assert all(value > 0 for value in figures.values())


# --- Paired games ------------------------------------------------------------------------


def test_a_bot_paired_with_itself_plays_each_deal_twice_the_same_way():
    # The same deal, the same seat, the same opponents and the same randomness a move: the
    # two games of a pair are one game twice, even for bots that move at random.
    for kind, mix in (
        ("greedy", "greedy+greedy"),
        ("random", "random+random"),
        ("easy", "easy+easy"),
    ):
        result = arena.play_paired(kind, kind, arena.MIXES[mix], 6, seed=3)
        assert result.hero_games == result.base_games
        assert result.chip_diff() == (0.0, 0.0, 0.0) and result.win_diff() == (0.0, 0.0, 0.0)


def test_paired_games_rotate_the_seat_under_test_and_the_same_seed_plays_them_again(
    monkeypatch,
):
    seats = []
    real = arena._seat_game

    def spy(kinds, seat, state, rng_seed, policy=None):
        seats.append((tuple(kinds), seat))
        return real(kinds, seat, state, rng_seed, policy)

    monkeypatch.setattr(arena, "_seat_game", spy)
    first = arena.play_paired("easy", "greedy", ("random", "random"), 6, seed=5)
    monkeypatch.setattr(arena, "_seat_game", real)
    assert [seat for _, seat in seats] == [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]
    assert all(kinds[seat] in ("easy", "greedy") for kinds, seat in seats)
    assert [kinds.count("random") for kinds, _ in seats] == [2] * 12
    assert arena.play_paired("easy", "greedy", ("random", "random"), 6, seed=5) == first
    assert arena.play_paired("easy", "greedy", ("random", "random"), 6, seed=5, jobs=2) == first


def test_the_paired_interval_is_that_of_the_differences():
    assert arena.paired_mean([1, 3]) == pytest.approx((2, 2 - 1.96, 2 + 1.96))
    assert arena.paired_mean([]) == (0.0, 0.0, 0.0)
    assert arena.quantiles([5, 1, 9, 3], (0.0, 0.5, 1.0)) == [1, 5, 9]


def test_arena_paired_prints_both_differences_with_intervals_for_each_mix():
    out, err = run_arena(
        "--paired", "--hero", "easy", "--base", "greedy", "--games", "4", "--jobs", "1",
        "--mixes", "greedy+greedy,random+random", "--json",
    )  # fmt: skip
    lines = out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert [f["opponents"] for f in figures] == ["greedy+greedy", "random+random"]
    for f in figures:
        assert f["deals"] == 4 and f["hero"] == "easy" and f["base"] == "greedy"
        for name in ("chip_diff", "win_diff"):
            mean, low, high = f[name]
            assert low <= mean <= high
        for side in ("hero_stats", "base_stats"):
            stats = f[side]
            assert stats["mean_plies"] > 0 and stats["calls_won"] <= stats["calls"]
            assert stats["call_points_q"] == sorted(stats["call_points_q"])
    assert sum("95% CI" in line and "deals" in line for line in lines) == 2
    assert "Draw calls" in out and "moves a hand" in out and "4/4" in err


@pytest.mark.parametrize(
    "args",
    [["--mixes", "greedy+clever"], ["--hero", "clever"], ["--base", "x"], ["--mixes", ""]],
)
def test_arena_paired_rejects_an_unknown_bot_or_mix(args):
    with pytest.raises(CommandError):
        run_arena("--paired", "--games", "2", "--jobs", "1", *args)


def test_the_paired_bench_prints_its_figures_last_and_never_imports_django():
    script = (
        "import sys, bench.paired as b; b.main(['--deals', '3', '--hero', 'easy', '--mixes',"
        " 'easy+easy']); assert 'django' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert [f["opponents"] for f in figures] == ["easy+easy"] and figures[0]["deals"] == 3


def test_the_variants_bench_plays_hard_greedy_and_each_variant_in_the_same_deals():
    # A variant that changes nothing (the default noisy share) plays every deal as Hard;
    # the last line is the figures, and the bench never imports Django.
    script = (
        "import sys, bench.variants as b; b.main(['--deals', '3', '--mix', 'random+random',"
        " '--set', 'noisy_share=0.25', '--set', 'max_worlds=8,max_plies=200,read_discards=off',"
        " '--seed', '4']); assert 'django' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["deals"] == 3 and figures["opponents"] == "random+random"
    same, smaller = figures["variants"]
    assert same["over_hard"]["chip_diff"] == [0.0, 0.0, 0.0]
    assert same["over_greedy"] == figures["hard_over_greedy"]
    assert smaller["set"] == {"max_worlds": 8, "max_plies": 200, "read_discards": False}


def test_the_tuning_bench_tries_each_rule_of_thumb_in_the_same_deals_and_keeps_the_best():
    script = (
        "import sys, bench.tune as b; b.main(['--deals', '2', '--rounds', '1', '--jobs', '1',"
        " '--start', 'out_weight=3']); assert 'django' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    lines = done.stdout.splitlines()
    from bench.tune import GRID

    assert [line.split(":")[0] for line in lines[: len(GRID)]] == [
        f"round 1, {name}" for name in GRID
    ]
    assert lines[len(GRID)].startswith("found: Params(call_share=")
    assert lines[-1].startswith("over Normal on these deals: ")


@pytest.mark.parametrize("text", ["nope=1", "out_weight", "out_weight=much"])
def test_the_tuning_bench_refuses_what_is_not_a_rule_of_thumb(text):
    from bench.tune import parse_start

    with pytest.raises(ValueError):
        parse_start(text)


@pytest.mark.parametrize(
    "text", ["no_such_field=1", "max_worlds", "max_worlds=many", "paired_rollouts=maybe", ""]
)
def test_the_variants_bench_refuses_what_is_not_a_budget_change(text):
    from bench.variants import parse_variant

    with pytest.raises(ValueError):
        parse_variant(text)
