"""Bots: they play only legal moves, only from a seat's view, and greedy plays sensibly."""

from __future__ import annotations

import ast
import random
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import BOT_KINDS, SEARCHING, choose, greedy, search, uniform
from games.bots.arena import play_game
from games.bots.knowledge import read
from games.engine import GameState, Move, apply, new_game, seat_view
from games.engine.cards import cards_of, code, mask_of_codes, parse_card
from games.engine.moves import CALL, LAYOFF, SECRET, TAKE

BOTS_DIR = Path(greedy.__file__).parent
# The arena and the learned model's training run games, so they hold states; the search bot
# plays moves forward in deals it samples from its view (tests/test_search.py checks it never
# reads the real one); every other module in games/bots is a policy that never touches a state.
POLICY_MODULES = sorted(
    p for p in BOTS_DIR.glob("*.py") if p.name not in ("arena.py", "search.py", "training.py")
)
FULL_STATE_NAMES = {
    "GameState", "legal_moves", "apply", "new_game", "deal_from_seed", "seat_view",
    "Record", "replay", "load_record",
}  # fmt: skip
# The search bot's rollouts take a few hundred ms a move: whole-game tests of every kind
# leave it out, and tests/test_search.py plays it with a small budget instead.
QUICK_KINDS = tuple(k for k in BOT_KINDS if k not in SEARCHING)


def cards(text: str) -> int:
    return mask_of_codes(text.split())


def game(dealer: int, hands: dict[int, str], stock: str = "") -> GameState:
    """A deal with the given cards in the given hands and on top of the stock; the rest of
    the deck fills the other hands, then the stock, in card order."""
    fixed = {seat: [parse_card(c) for c in hands.get(seat, "").split()] for seat in range(3)}
    top = [parse_card(c) for c in stock.split()]
    used = {c for cs in fixed.values() for c in cs} | set(top)
    spare = [c for c in range(52) if c not in used]
    masks = []
    for seat in range(3):
        need = (13 if seat == dealer else 12) - len(fixed[seat])
        masks.append(sum(1 << c for c in fixed[seat] + spare[:need]))
        spare = spare[need:]
    return GameState.new(dealer, masks, (*top, *spare))


def play(state: GameState, *moves: str) -> GameState:
    """Apply moves written ``"<seat> <type> [cards…]"``, like ``"0 meld 2C 3C 4C"``."""
    for text in moves:
        seat, kind, *codes = text.split()
        state = apply(state, Move(kind, int(seat), cards(" ".join(codes))))
    return state


def greedy_move(state: GameState) -> Move:
    return choose("greedy", seat_view(state, state.turn), random.Random(0))


@settings(max_examples=40, deadline=None)
@given(
    deal=st.integers(min_value=0, max_value=2**32),
    luck=st.integers(min_value=0, max_value=2**32),
    kinds=st.lists(st.sampled_from(QUICK_KINDS), min_size=3, max_size=3),
)
def test_bots_only_ever_choose_a_move_their_view_lists_as_legal(deal, luck, kinds):
    state, rng = new_game(deal), random.Random(luck)
    while state.outcome is None:
        view = seat_view(state, state.turn)
        move = choose(kinds[state.turn], view, rng)
        assert move in view.legal
        state = apply(state, move)


@pytest.mark.parametrize("kind", QUICK_KINDS)
def test_each_kind_finishes_whole_games_from_seat_views_alone(kind):
    for seed in range(30):
        outcome = play_game([kind] * 3, new_game(seed), random.Random(seed))
        assert sum(outcome.chips) == 0


def test_a_bot_given_the_full_state_refuses_it():
    with pytest.raises(TypeError, match="SeatView"):
        choose("greedy", new_game(1), random.Random(0))  # type: ignore[arg-type]


def test_a_bot_asked_out_of_turn_or_by_an_unknown_name_refuses():
    state = new_game(1)
    idle = (state.turn + 1) % 3
    with pytest.raises(ValueError, match="no move"):
        choose("greedy", seat_view(state, idle), random.Random(0))
    with pytest.raises(ValueError, match="unknown bot kind"):
        choose("clever", seat_view(state, state.turn), random.Random(0))


@pytest.mark.parametrize("policy", [greedy.choose, uniform.choose, search.choose])
def test_every_policy_takes_a_seat_view_and_an_rng(policy):
    hints = typing.get_type_hints(policy)
    assert hints["view"].__name__ == "SeatView"
    assert hints["rng"] is random.Random


@pytest.mark.parametrize("path", POLICY_MODULES, ids=lambda p: p.name)
def test_no_policy_module_imports_what_reads_or_builds_a_full_state(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported |= {alias.name for alias in node.names}
            assert node.module not in ("games.engine.rules", "games.engine.record")
        elif isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
    assert not imported & FULL_STATE_NAMES


def test_bots_use_the_rng_they_are_given_and_never_the_global_one():
    random.seed(5)
    before = random.getstate()
    first = play_game(["random", "greedy", "random"], new_game(9), random.Random(3))
    again = play_game(["random", "greedy", "random"], new_game(9), random.Random(3))
    assert random.getstate() == before
    assert first == again


def test_greedy_by_normals_rules_of_thumb_is_normal_and_the_tuned_set_plays_otherwise():
    """greedy.Params: Normal's are the module's constants; the search bot's own seat plays
    the tuned set (greedy.TUNED), which must be a different player."""
    differ = 0
    for seed in range(20):
        state = new_game(seed)
        while state.outcome is None:
            view = seat_view(state, state.turn)
            normal = greedy.choose(view, random.Random(0))
            assert greedy.choose_read(read(view), greedy.NORMAL) == normal
            assert choose("normal", view, random.Random(0)) == normal
            differ += choose("greedy-tuned", view, random.Random(0)) != normal
            state = apply(state, normal)
    assert differ > 0


def test_greedy_takes_a_tongits_rather_than_call_a_draw_it_would_win():
    # Seat 0 opened with 2C 3C 4C and may call Draw against two unopened seats, but the
    # 7H seat 2 throws makes 5H 6H 7H, and then 9C 9D 9S, JC QC KC and a 2D discard empty
    # the hand: Tongits (R3) pays 3 a loser, an unfought Draw 1 (R10).
    state = game(
        dealer=0,
        hands={0: "2C 3C 4C KD 5H 6H 9C 9D 9S JC QC KC 2D", 2: "7H"},
        stock="AS 2S",
    )
    state = play(
        state, "0 meld 2C 3C 4C", "0 discard KD", "1 draw", "1 discard AS", "2 draw",
        "2 discard 7H",
    )  # fmt: skip
    assert Move(CALL, 0) in seat_view(state, 0).legal
    assert greedy_move(state) == Move(TAKE, 0, cards("5H 6H"))
    while state.outcome is None and state.turn == 0:
        state = apply(state, greedy_move(state))
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.end) == (0, "tongits")


def test_greedy_calls_draw_when_neither_opponent_has_opened_and_so_cannot_fight():
    state = game(dealer=0, hands={0: "2C 3C 4C KD 5H 6H 9C 9D 9S JC QC KC 2D"}, stock="AS 2S")
    state = play(
        state, "0 meld 2C 3C 4C", "0 discard KD", "1 draw", "1 discard AS", "2 draw",
        "2 discard 2S",
    )  # fmt: skip
    assert greedy_move(state) == Move(CALL, 0)


# Seat 0 opened with 6C 7C 8C; seat 1 (greedy, not opened) draws JH and must play.
REACHABLE_MELD_HAND = "2C 3C 4C 5C KD QH 9S 7D JS 3S 5H TD"


def test_greedy_blocks_an_opened_rival_with_the_spare_end_of_its_own_four_card_run():
    # Seat 0 could call Draw next turn and win outright against unopened seat 1. Laying
    # 5C off on 6C 7C 8C blocks that call (R5) and costs nothing: 2C 3C 4C is still a run.
    state = game(dealer=0, hands={0: "6C 7C 8C", 1: REACHABLE_MELD_HAND}, stock="JH")
    state = play(state, "0 meld 6C 7C 8C", f"0 discard {_any_card(state, 0, '6C 7C 8C')}")
    state = play(state, "1 draw")
    move = greedy_move(state)
    assert move == Move(LAYOFF, 1, cards("5C"), 0)
    assert apply(state, move).is_blocked(0)


def test_greedy_lays_off_deadwood_on_a_rivals_meld():
    hand = REACHABLE_MELD_HAND.replace("KD", "9C")  # 9C fits above 6C 7C 8C
    state = game(dealer=0, hands={0: "6C 7C 8C", 1: hand}, stock="JH")
    state = play(state, "0 meld 6C 7C 8C", f"0 discard {_any_card(state, 0, '6C 7C 8C')}")
    state = play(state, "1 draw")
    move = greedy_move(state)
    assert move.type == LAYOFF and move.cards & cards("9C")


def test_greedy_lays_four_of_a_kind_down_as_a_secret_set():
    state = game(dealer=0, hands={0: "7C 7D 7H 7S KD QH 9S 2D JS 3S 5H TD 4C"})
    assert greedy_move(state) == Move(SECRET, 0, cards("7C 7D 7H 7S"))


def test_greedy_discards_its_highest_deadwood_not_a_card_of_a_meld():
    state = game(dealer=0, hands={0: "2C 3C 4C 5D 6D 7D 9H 9S AS AH 2H KD QH"})
    state = play(state, "0 meld 2C 3C 4C", "0 meld 5D 6D 7D")
    move = greedy_move(state)
    assert move.type == "discard" and move.card in (parse_card("KD"), parse_card("QH"))


def _any_card(state: GameState, seat: int, but: str) -> str:
    """A card of the seat's hand outside ``but``, for a discard that does not matter."""
    return code(next(c for c in cards_of(state.hands[seat]) if not cards(but) >> c & 1))
