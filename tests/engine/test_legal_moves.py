"""``legal_moves`` lists exactly what ``apply`` accepts, in constructed positions.

Every candidate below is a well-formed move (what ``Move.from_dict`` can produce): each
move type for each seat, with every group of up to five cards drawn from the acting
hand, the top discard and a few cards held elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import pytest

from games.engine import GameState, IllegalMoveError, Move, apply, legal_moves
from games.engine.cards import mask_of_codes
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE

from .conftest import CLUBS, after, opened_table, position


def candidates(state: GameState, strangers: str) -> Iterator[Move]:
    seat = state.turn
    pool = [c for c in range(52) if (state.hands[seat] | mask_of_codes(strangers.split())) >> c & 1]
    if state.discards:
        pool.append(state.discards[-1])
    groups = [sum(1 << c for c in g) for n in range(0, 6) for g in combinations(pool, n)]
    for s in range(3):
        yield from (Move(kind, s) for kind in (DRAW, CALL, FOLD, FIGHT))
        yield from (Move(DISCARD, s, 1 << c) for c in range(52))
        if s != seat:
            yield Move(MELD, s, groups[-1])
            continue
        for mask in groups:
            yield from (Move(kind, s, mask) for kind in (TAKE, MELD, SECRET))
            for index in range(len(state.melds) + 1):
                yield Move(LAYOFF, s, mask, index)


def accepted(state: GameState, move: Move) -> bool:
    try:
        apply(state, move)
    except IllegalMoveError:
        return False
    return True


def check_exact(state: GameState, strangers: str = "") -> None:
    listed = legal_moves(state)
    assert len(listed) == len(set(listed))
    for move in listed:
        assert accepted(state, move), f"{move} is listed but refused"
    listed_set = set(listed)
    for move in candidates(state, strangers):
        assert accepted(state, move) == (move in listed_set), f"{move}: apply and legal disagree"


# Seat 0 deals 13 cards: a four-of-a-kind, a run that shares a card with a set, a loose ace.
DEALER = "5C 5D 5H 5S 6S 7S 8S 8C 8D AH KD QC 2H"


def test_the_dealers_first_turn_R3() -> None:
    check_exact(position(hands=[DEALER, "", ""], stock="QS"), strangers="9S 4S 3H")


def test_a_start_step_with_a_call_and_several_takes_R3_R7() -> None:
    # Seat 2 throws QS and seat 0 holds QC QD: the call, the draw and one take.
    state = opened_table("4C 5C 6C 7C 8C 9C TC QD QC", "4D 5D 6D 7D 8D 9D TD JD JS")
    check_exact(state, strangers="QH JS 2S")


def test_a_play_step_with_runs_sets_and_a_secret_set_on_the_table_R4_R5() -> None:
    state = opened_table(
        "5C 5D 5H 5S 6C 7C 8C 9C TC",
        "4D 6D 7D 8D 9D TD JD QD KD",
        "4H 6H 7H 8H 9H TH JH QH KH",
        plays={0: ["0 secret 5C 5D 5H 5S"], 1: ["1 meld 7D 8D 9D"]},
        moves=["0 draw"],
    )
    check_exact(state, strangers="AS 5D")


def test_a_play_step_with_lay_offs_at_both_ends_and_on_a_set_R4_R5() -> None:
    state = position(
        hands=["5C 6C 7C 9H 9D 9S KH", "3C 4C 8C 9C KD KS 2D 3D 4D 5D JS QS", ""],
        stock="TC",
        moves=["0 meld 5C 6C 7C", "0 meld 9H 9D 9S", "0 discard KH", "1 draw"],
    )
    check_exact(state, strangers="KH 6C 2C")


def test_a_blocked_start_step_R5() -> None:
    state = opened_table(
        "4D 5D 6C 7C 8C 9C TC JC QC", "4C 5C 6D 7D 8D 9D TD JD QD", plays={1: ["1 layoff 0 4C"]}
    )
    check_exact(state)


def test_an_answer_to_a_call_R7() -> None:
    check_exact(opened_table(moves=["0 call"]), strangers="AS")
    check_exact(opened_table(moves=["0 call", "1 fight"]))


def test_the_last_stock_card_turn_R8() -> None:
    state = opened_table(CLUBS)
    while state.stock_left:
        if state.stock_left == 1:
            state = after(state, f"{state.turn} draw")
            break
        drawn = state.stock[state.stock_pos]
        state = apply(apply(state, Move(DRAW, state.turn)), Move(DISCARD, state.turn, 1 << drawn))
    assert state.stock_left == 0 and state.phase.name == "PLAY"
    check_exact(state)


@pytest.mark.parametrize(
    "answers", [["0 call", "1 fold", "2 fold"], ["0 call", "1 fight", "2 fight"]]
)
def test_nothing_is_legal_after_the_end_R11(answers: list[str]) -> None:
    state = opened_table(moves=answers)
    assert legal_moves(state) == []
    check_exact(state, strangers="AS")


# Moves built by hand rather than parsed from a record (Move.from_dict never makes these).
def test_apply_refuses_a_card_that_does_not_exist_as_an_illegal_move() -> None:
    state = position(hands=["KH", "", ""])
    with pytest.raises(IllegalMoveError):
        apply(state, Move(DISCARD, 0, 1 << 60))


def test_apply_refuses_a_draw_that_names_cards() -> None:
    state = position(hands=["KH", "", ""], moves=["0 discard KH"])
    move = Move(DRAW, 1, 1 << 5)
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMoveError):
        apply(state, move)
