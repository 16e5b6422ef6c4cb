"""The search bot and the deals it samples: it plays from a seat's view alone, and the same
seed always gives the same move."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bench.posterior import Chain
from bench.sampler import discard_moments
from games.bots import choose, greedy, search
from games.bots.knowledge import unseen_mask
from games.bots.search import opponents
from games.engine import GameState, Move, apply, new_game, seat_view
from games.engine.cards import RANK_MASKS, mask_of
from games.engine.determinize import WorldError, state_from_view
from games.engine.melds import all_melds
from games.engine.moves import CALL, DISCARD, DRAW, SECRET
from games.engine.state import Outcome, Phase
from games.engine.view import SeatView
from tests.same_view import same_view_other_deal

REPO = Path(__file__).resolve().parent.parent
# A small budget keeps the tests quick; the rules of the search are the same.
SMALL = replace(search.DEFAULT_BUDGET, batch=4, max_worlds=8, max_plies=800)


def greedy_until(seed: int, plies: int) -> GameState:
    """The game dealt from ``seed`` after ``plies`` greedy moves (or at its end)."""
    state = new_game(seed)
    for _ in range(plies):
        if state.outcome is not None:
            break
        state = apply(state, greedy.choose(seat_view(state, state.turn), random.Random(0)))
    return state


def decision_points(count: int) -> list[GameState]:
    """Mid-game states where the seat to act has a real choice among several moves."""
    out = []
    for seed in range(200):
        for plies in (4, 9, 14):
            state = greedy_until(seed, plies)
            if state.outcome is None and len(seat_view(state, state.turn).legal) > 3:
                out.append(state)
        if len(out) >= count:
            return out[:count]
    return out


def search_move(state: GameState, seed: int) -> Move:
    return search.choose_with(seat_view(state, state.turn), random.Random(seed), SMALL)


def test_a_sampled_deal_fits_everything_the_seat_has_seen():
    for state in decision_points(6):
        view = seat_view(state, state.turn)
        for seed in range(5):
            world = search.sample_world(view, random.Random(seed), shape=3)
            # The seat sees the same thing in the sampled deal as in the real one.
            assert seat_view(world, state.turn) == view
            assert sorted(world.all_cards()) == list(range(52))


def test_sampled_hands_of_seats_that_have_finished_a_turn_hold_no_meld():
    # A bot that melds what it can ends each turn without a meld in hand, so a sample gives
    # such seats none either: that is what makes their points low, as they really are.
    for state in decision_points(6):
        view = seat_view(state, state.turn)
        finished = [s for s in range(3) if s != state.turn and s in opponents.played_a_turn(view)]
        assert finished
        for seed in range(5):
            world = search.sample_world(view, random.Random(seed), shape=3)
            assert all(not all_melds(world.hands[s]) for s in finished)


def test_a_sampled_deal_hides_each_secret_set_among_the_cards_nobody_has_seen():
    # Seat 1 holds the four sevens and lays them down secretly (R4); seat 0 never saw them.
    sevens = RANK_MASKS[6]
    rest = [c for c in range(52) if not sevens >> c & 1]
    hands = [mask_of(rest[:13]), sevens | mask_of(rest[13:21]), mask_of(rest[21:33])]
    state = GameState.new(0, hands, tuple(rest[33:]))
    state = apply(state, Move(DISCARD, 0, 1 << rest[0]))
    state = apply(state, Move(DRAW, 1))
    state = apply(state, Move(SECRET, 1, sevens))
    view = seat_view(state, 0)
    assert [m.cards for m in view.melds if m.secret] == [()]
    for seed in range(10):
        world = search.sample_world(view, random.Random(seed))
        secret = next(m for m in world.melds if m.secret)
        # Any rank whose four cards seat 0 has not seen could be the secret set.
        assert secret.cards in RANK_MASKS and secret.cards & ~unseen_mask(view) == 0
        assert sorted(world.all_cards()) == list(range(52))
        assert seat_view(world, 0) == view


def test_a_guess_that_does_not_fit_the_view_is_refused():
    state = greedy_until(5, 6)
    view = seat_view(state, state.turn)
    stock = list(state.stock[state.stock_pos :])
    with pytest.raises(WorldError, match="stock holds"):
        state_from_view(view, state.hands, stock[1:])
    with pytest.raises(WorldError, match="repeats"):
        state_from_view(view, state.hands, [*stock[:-1], stock[0]])
    other = (state.turn + 1) % 3
    grown = list(state.hands)
    grown[other] |= 1 << stock[0]
    with pytest.raises(WorldError, match="cards in the view"):
        state_from_view(view, grown, stock)
    # The real hidden cards are a guess that fits.
    assert state_from_view(view, state.hands, stock) == _as_rebuilt(state)


def test_the_search_bot_only_ever_plays_a_legal_move_and_finishes_games():
    for seed in range(3):
        state, rng = new_game(seed), random.Random(seed)
        kinds = ["search", "greedy", "greedy"]
        while state.outcome is None:
            view = seat_view(state, state.turn)
            if kinds[state.turn] == "search":
                move = search.choose_with(view, rng, SMALL)
            else:
                move = choose("greedy", view, rng)
            assert move in view.legal
            state = apply(state, move)
        assert sum(state.outcome.chips) == 0


def test_the_same_seed_gives_the_same_move():
    for state in decision_points(5):
        assert search_move(state, 11) == search_move(state, 11)


def test_the_search_bot_moves_the_same_in_any_deal_that_looks_the_same_from_its_seat():
    # The hidden cards differ, the view does not: a bot that reads only its view cannot tell
    # the two apart, so with the same seed it must make the same move, rollouts included.
    assert_reads_only_the_view(search_move)


def test_a_bot_that_peeks_at_the_hidden_cards_fails_the_view_only_check(monkeypatch):
    # The control: plant a peek (the sampler hands back the real deal) and the check must
    # catch it, or the check above would prove nothing.
    real: dict[str, GameState] = {}

    def peeking_sample(view: SeatView, rng: random.Random, *guide: int, **kw: int) -> GameState:
        return real["state"]

    def peeking_move(state: GameState, seed: int) -> Move:
        real["state"] = state
        return search_move(state, seed)

    monkeypatch.setattr(search, "sample_world", peeking_sample)
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_reads_only_the_view(peeking_move)


def assert_reads_only_the_view(move_of) -> None:
    differ = 0
    for state in decision_points(8):
        first = move_of(state, 7)
        for deal in range(3):
            other = same_view_other_deal(state, deal)
            assert seat_view(other, other.turn) == seat_view(state, state.turn)
            differ += move_of(other, 7) != first
    assert differ == 0, f"{differ} moves changed with the hidden cards alone"


def test_the_search_with_the_learned_model_reads_only_the_view():
    # The learned discard model in its rollouts and in its choice of candidates: the same
    # view with other hidden cards still gives the same move.
    budget = replace(SMALL, learned_rollouts=True, learned_order=True)

    def learned_move(state: GameState, seed: int) -> Move:
        return search.choose_with(seat_view(state, state.turn), random.Random(seed), budget)

    assert_reads_only_the_view(learned_move)


def _as_rebuilt(state: GameState) -> GameState:
    """``state`` with its stock cut to what is left, as ``state_from_view`` builds it."""
    out = state.copy()
    out.stock, out.stock_pos = state.stock[state.stock_pos :], 0
    return out


def test_the_search_bench_prints_its_move_times_last_and_never_imports_django():
    figures = bench_figures("search", "--games", "2")
    assert {"moves", "wall_p50_ms", "wall_p95_ms", "cpu_p50_ms", "cpu_p95_ms"} <= set(figures)
    assert figures["moves"] > 0 and figures["cpu_p95_ms"] >= figures["cpu_p50_ms"]


def test_the_oracle_bench_measures_a_knowing_search_and_the_bot_never_imports_it():
    """bench.oracle gives the search deals that know the truth, to measure what better
    guesses would be worth; the bot players meet samples from their own view only."""
    figures = bench_figures(
        "oracle", "--games", "3", "--jobs", "1", "--know", "next", "--phases", "play"
    )
    assert figures["games"] == 3 and figures["know"] == "next"
    low, high = figures["win_rate_95"]
    assert 0 <= low <= figures["win_rate"] <= high <= 1
    for module in (REPO / "games").rglob("*.py"):
        text = module.read_text()
        assert "from bench" not in text and "import bench" not in text, module


def test_the_sampler_bench_scores_the_bots_guesses_against_the_truth():
    """bench.sampler compares the search bot's sampled deals with the real hands at greedy
    games' discards, without Django: every figure is there for every sampler, in its range
    (a mean absolute error of the hands' points, R1, is never below its mean signed one)."""
    figures = bench_figures("sampler", "--games", "2", "--states", "8", "--deals", "3")
    assert figures["states"] == 8 and figures["deals"] == 3
    for name in ("random", "fitted", "bot"):
        result = figures[name]
        assert 0 < result["ll_next"] and 0 < result["ll_prev"]
        assert 0 <= result["take_brier"] <= 1
        assert result["mae_next"] >= abs(result["bias_next"])
        assert result["mae_prev"] >= abs(result["bias_prev"])


def test_the_inference_bench_learns_on_half_the_games_and_tests_on_the_other():
    """bench.inference measures how much the public move log says of the next seat's hand
    against greedy, without Django: both figures for the cards and for the points (R1)."""
    figures = bench_figures("inference", "--games", "6")
    assert figures["moments"] > 0
    assert set(figures["card_log_loss"]) == {"count", "learned"}
    assert all(0 < v < 1 for v in figures["card_log_loss"].values())
    assert set(figures["points_mae"]) == {"count", "scaled", "learned"}
    assert all(v >= 0 for v in figures["points_mae"].values())


def test_the_posterior_bench_deals_only_what_fits_the_record_and_guesses_from_it():
    """bench.posterior's chain gives deals in which greedy, replayed from the first move,
    makes every move the other seats made: each looks to the seat exactly as the real
    moment does (R2, R4: the same hand, pile, melds and hand sizes), while the other hands
    differ between deals. Its figures, and the oracle's games with it, come out whole."""
    moments = [(f, s, log[:]) for _, f, s, log in discard_moments(1, 3)]
    first, truth, log = moments[len(moments) // 2]
    me = truth.turn
    deals = Chain(first, log, me, random.Random(1)).deals(6)
    expected = seat_view(truth, me)
    others = {tuple(w.hands[s] for s in range(3) if s != me) for w in deals}
    assert all(seat_view(w, me) == expected for w in deals)
    assert len(others) > 1
    figures = bench_figures("posterior", "--games", "2", "--states", "3", "--deals", "4")
    assert figures["states"] == 3
    for name in ("size", "bot", "posterior"):
        assert 0 < figures[name]["ll_next"] < 1 and figures[name]["mae_prev"] >= 0
    games = bench_figures(
        "oracle", "--games", "1", "--jobs", "1", "--know", "posterior", "--phases", "play"
    )
    assert games["games"] == 1 and games["know"] == "posterior"


def bench_figures(module: str, *args: str) -> dict:
    """Run ``python -m bench.<module> args`` in a fresh interpreter, check that it never
    imported Django (a bench of the bots needs no site), and return its last line's JSON."""
    script = (
        f"import sys, bench.{module} as b; b.main({list(args)!r}); "
        "assert 'django' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def draw_decision_points(count: int, start_only: bool = False) -> list[GameState]:
    """States where the seat to act decides about a Draw call (R7): it may call one at its
    start step, or it answers one, fold or fight; the first such moment of each game."""
    out: list[GameState] = []
    for seed in range(300):
        state = new_game(seed)
        while state.outcome is None and len(out) < count:
            view = seat_view(state, state.turn)
            wanted = not start_only or state.phase is Phase.START
            if search.is_draw_decision(view.legal) and len(view.legal) > 1 and wanted:
                out.append(state)
                break
            state = apply(state, greedy.choose(view, random.Random(0)))
        if len(out) >= count:
            break
    return out


def test_draw_decisions_are_searched_and_read_only_the_view():
    # Calling Draw and answering a call go to the rollouts' best mean chips (no bar in
    # favour of greedy's rule): that path too must not change with the hidden cards alone.
    states = draw_decision_points(6)
    assert len(states) == 6
    differ = 0
    for state in states:
        first = search_move(state, 7)
        assert first in seat_view(state, state.turn).legal
        for deal in range(3):
            other = same_view_other_deal(state, deal)
            assert seat_view(other, other.turn) == seat_view(state, state.turn)
            differ += search_move(other, 7) != first
    assert differ == 0, f"{differ} Draw decisions changed with the hidden cards alone"


def test_a_draw_call_is_made_when_the_rollouts_value_it_higher_not_by_greedys_rule(monkeypatch):
    # Rollouts in which calling is worth a tenth of a chip more than playing on: the search
    # calls though greedy's rule would not; with the old bar (``draw_by_value`` off) a move
    # must beat greedy's by two standard errors, so it kept greedy's move.
    state = next(
        s
        for s in draw_decision_points(40, start_only=True)
        if greedy.choose(seat_view(s, s.turn), random.Random(0)).type != CALL
    )
    view = seat_view(state, state.turn)

    def fake_rollout(after: GameState, rng, noisy=0, noise=0.0, **learned_args):
        called = after.phase is Phase.ANSWER or after.outcome is not None
        chips = [0.0, 0.0, 0.0]
        chips[view.seat] = 0.1 if called else 0.0
        return Outcome(view.seat, "draw", (0, 0, 0), (False,) * 3, tuple(chips), ()), 1

    monkeypatch.setattr(search, "rollout_with", fake_rollout)
    assert search.choose_with(view, random.Random(1), SMALL).type == CALL
    old = replace(SMALL, draw_by_value=False)
    assert search.choose_with(view, random.Random(1), old).type != CALL


def test_an_opponent_that_throws_low_cards_is_more_likely_taken_for_a_noisy_player():
    # Greedy throws its costliest card (a 10 two times in three); a player who throws any
    # card often throws a low one. The pile's cards count for the seat that threw them,
    # counting turns from the dealer, and the chance stays between 5% and 95%.
    state = greedy_until(3, 0)
    view = seat_view(state, state.turn)
    budget = search.DEFAULT_BUDGET
    assert search.noisy_chance(view, 1, budget) == budget.noisy_share
    kings = [12, 25, 38, 51, 11, 24]  # kings and queens: 10 points each
    aces = [0, 13, 26, 39, 1, 14]  # aces and twos
    high = replace(view, dealer=0, discards=tuple(kings))
    low = replace(view, dealer=0, discards=tuple(aces))
    # Seat 1 threw the pile's cards 1 and 4 (counting from 0): two kings or two aces.
    assert 0.05 <= search.noisy_chance(high, 1, budget) < budget.noisy_share
    assert budget.noisy_share < search.noisy_chance(low, 1, budget) <= 0.95
    assert search.noisy_chance(low, 1, replace(budget, read_discards=False)) == 0.25


def random_players_until(seed: int, plies: int) -> GameState:
    """The game dealt from ``seed`` after ``plies`` moves: greedy in seat 0, any legal move
    (the random bot) in seats 1 and 2."""
    state = new_game(seed)
    for _ in range(plies):
        if state.outcome is not None:
            break
        kind = "greedy" if state.turn == 0 else "random"
        state = apply(state, choose(kind, seat_view(state, state.turn), random.Random(plies)))
    return state


def test_a_seat_still_unopened_after_its_turns_is_taken_for_a_random_player():
    # R6: greedy opens as soon as it holds a meld, a player who makes any move seldom
    # does. A seat that threw low cards and is still unopened after three turns is taken
    # for a random player; one that threw kings is not, opened or not, and having opened
    # counts against it.
    state = greedy_until(3, 0)
    budget = search.DEFAULT_BUDGET
    kings = [12, 25, 38, 51, 11, 24, 10, 23, 9]
    aces = [0, 13, 26, 39, 1, 14, 27, 40, 2]
    view = replace(seat_view(state, state.turn), dealer=0, discards=tuple(aces))
    seats = list(view.seats)
    unopened = replace(view, seats=tuple(replace(s, opened=False) for s in seats))
    opened = replace(view, seats=tuple(replace(s, opened=True) for s in seats))
    high = replace(unopened, discards=tuple(kings))
    assert opponents.turns_finished(unopened, 1) == 3
    assert search.random_chance(unopened, 1, budget) > budget.random_above
    assert search.random_chance(opened, 1, budget) < search.random_chance(unopened, 1, budget)
    assert search.random_chance(high, 1, budget) < budget.random_above
    assert search.random_chance(replace(opened, discards=tuple(kings)), 1, budget) < 0.1
    # Before a seat has finished a turn nothing but its discards counts.
    fresh = replace(unopened, discards=(), stock_left=15)
    assert search.random_chance(fresh, 1, budget) == pytest.approx(budget.noisy_share)


def moments_with_random_players(budget: search.Budget, count: int) -> list[GameState]:
    """Up to ``count`` moments of seat 0 (greedy, after 13 moves against two random
    players) with a choice to make, where the search takes a seat for a random player."""
    states = []
    for seed in range(60):
        state = random_players_until(seed, 13)
        view = seat_view(state, state.turn)
        if state.outcome is None and state.turn == 0 and len(view.legal) > 2:
            if opponents.random_players(view, (1, 2), budget):
                states.append(state)
        if len(states) >= count:
            break
    return states


def test_the_search_reads_only_the_view_against_players_it_takes_for_random():
    # Against two random players the search takes them for players who make any move
    # (deals unshaped, every rollout move any move): still the view alone decides.
    states = moments_with_random_players(search.DEFAULT_BUDGET, 4)
    assert states, "no moment found where the search takes a seat for a random player"
    for state in states:
        first = search_move(state, 7)
        for deal in range(3):
            other = same_view_other_deal(state, deal)
            assert seat_view(other, other.turn) == seat_view(state, state.turn)
            assert search_move(other, 7) == first


def test_every_candidate_meets_the_same_rollout_luck_in_a_deal():
    # Paired rollouts: at a table the search takes for random players, every rollout move
    # of theirs is any legal move; a move raced against itself must then score alike in
    # every deal, or the race would be comparing luck. Drawing each rollout's randomness
    # in turn (as before) makes the two copies differ.
    budget = replace(SMALL, drop_z=99.0)
    states = moments_with_random_players(budget, 1)
    assert states, "no moment found where the search takes a seat for a random player"
    view = seat_view(states[0], 0)
    move = greedy.choose(view, random.Random(0))
    scores, alive = search.race_scores(view, [move, move], random.Random(5), budget)
    assert alive == [0, 1] and len(scores[0]) >= budget.batch
    assert scores[0] == scores[1]
    unpaired = replace(budget, paired_rollouts=False)
    scores, _ = search.race_scores(view, [move, move], random.Random(5), unpaired)
    assert scores[0] != scores[1]
