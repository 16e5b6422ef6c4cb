"""R7: calling Draw, folding and fighting. Tables from ``opened_table`` (conftest):
everyone has opened with a run from the ace, and seat 0 is at its start step."""

from __future__ import annotations

from games.engine import Phase, legal_moves

from .conftest import DIAMONDS, after, legal, moves, opened_table, rejected

# Kept cards (9 each) with their points; the default keeps are 69 each.
LOW0 = "4C 5C 6C 7C 8C 9C TC JC 2S"  # 61
LOW1 = "4D 5D 6D 7D 8D 9D TD JD 5S"  # 64
TIE0 = "4C 5C 6C 7C 8C 9C TC 4S 6S"  # 59
TIE1 = "4D 5D 6D 7D 8D 9D TD 4S 6S"  # 59
TIE2 = "4H 5H 6H 7H 8H 9H TH 3S 7S"  # 59


def ended(state):
    assert state.outcome is not None, "the game should have ended"
    assert legal_moves(state) == []
    return state.outcome


def test_an_opened_unblocked_player_may_call_draw_at_the_start_step_R7() -> None:
    assert legal(opened_table()) == moves("0 call", "0 draw")


def test_a_player_who_has_not_opened_may_not_call_draw_R7() -> None:
    state = opened_table(opens="12")
    assert legal(state) == moves("0 draw")
    assert "R7" in str(rejected(state, "0 call"))


def test_draw_may_not_be_called_after_the_draw_R7() -> None:
    state = after(opened_table(), "0 draw")
    assert "R7" in str(rejected(state, "0 call"))


def test_fold_and_fight_only_answer_a_call_R7() -> None:
    state = opened_table()
    rejected(state, "0 fold")
    rejected(state, "0 fight")


def test_the_others_answer_in_turn_order_the_callers_next_seat_first_R7() -> None:
    state = after(opened_table(), "0 call")
    assert (state.turn, state.phase, state.caller) == (1, Phase.ANSWER, 0)
    assert legal(state) == moves("1 fold", "1 fight")
    assert "R3" in str(rejected(state, "2 fold"))
    assert "R7" in str(rejected(state, "1 draw"))
    state = after(state, "1 fold")
    assert (state.turn, state.phase) == (2, Phase.ANSWER)
    assert legal(state) == moves("2 fold", "2 fight")


def test_the_answers_start_after_the_caller_and_wrap_around_R7() -> None:
    state = opened_table(stock="KS QS JS", moves=["0 draw", "0 discard JS", "1 call"])
    assert (state.turn, state.phase) == (2, Phase.ANSWER)
    state = after(state, "2 fold")
    assert (state.turn, state.phase) == (0, Phase.ANSWER)


def test_if_both_fold_the_caller_wins_an_unfought_draw_R7() -> None:
    state = opened_table(LOW0, LOW1, TIE2, moves=["0 call", "1 fold", "2 fold"])
    outcome = ended(state)
    # Seat 0 wins with the highest hand: nobody fought, so points do not matter.
    assert (outcome.winner, outcome.end) == (0, "draw")
    assert state.answers == ("", "fold", "fold")


def test_an_unopened_player_is_folded_for_and_no_move_is_logged_R7() -> None:
    # Seat 2 has not opened: after seat 1 folds, the call is settled.
    state = opened_table(opens="01", moves=["0 call"])
    assert (state.turn, state.phase) == (1, Phase.ANSWER)
    state = after(state, "1 fold")
    outcome = ended(state)
    assert (outcome.winner, outcome.end) == (0, "draw")
    assert state.answers[2] == "auto"


def test_an_unopened_next_seat_is_skipped_and_the_other_answers_R7() -> None:
    state = opened_table(opens="02", moves=["0 call"])
    assert (state.turn, state.phase) == (2, Phase.ANSWER)
    assert "R3" in str(rejected(state, "1 fold"))
    assert "R3" in str(rejected(state, "1 fight"))
    outcome = ended(after(state, "2 fight"))
    # Seat 2 ties the caller at 69 and wins; seat 1 still holds AD 2D 3D (75).
    assert (outcome.winner, outcome.end, outcome.points) == (2, "fought_draw", (69, 75, 69))


def test_if_neither_other_player_has_opened_the_caller_wins_at_once_R7() -> None:
    state = opened_table(opens="0", moves=["0 call"])
    outcome = ended(state)
    assert (outcome.winner, outcome.end) == (0, "draw")
    assert state.answers == ("", "auto", "auto")


def test_a_fighter_with_the_lowest_hand_wins_a_fought_draw_R7() -> None:
    outcome = ended(opened_table(keep1=LOW1, moves=["0 call", "1 fight", "2 fold"]))
    assert (outcome.winner, outcome.end, outcome.points) == (1, "fought_draw", (69, 64, 69))


def test_the_caller_with_the_lowest_hand_wins_a_fought_draw_R7() -> None:
    outcome = ended(opened_table(LOW0, moves=["0 call", "1 fight", "2 fight"]))
    assert (outcome.winner, outcome.end, outcome.points) == (0, "fought_draw", (61, 69, 69))


def test_a_fighter_who_ties_the_caller_beats_the_caller_R7() -> None:
    outcome = ended(opened_table(moves=["0 call", "1 fold", "2 fight"]))
    assert (outcome.winner, outcome.end, outcome.points) == (2, "fought_draw", (69, 69, 69))


def test_between_tied_fighters_the_first_after_the_caller_wins_R7() -> None:
    outcome = ended(opened_table(keep1=TIE1, keep2=TIE2, moves=["0 call", "1 fight", "2 fight"]))
    assert (outcome.winner, outcome.points) == (1, (69, 59, 59))


def test_between_tied_fighters_the_first_after_the_caller_wins_around_the_table_R7() -> None:
    # Seat 1 calls; seat 2 is first after it, then seat 0 (not the lower seat number).
    state = opened_table(
        TIE0,
        DIAMONDS,
        TIE2,
        stock="KS QS JS",
        moves=["0 draw", "0 discard JS", "1 call", "2 fight", "0 fight"],
    )
    outcome = ended(state)
    assert (outcome.winner, outcome.end, outcome.points) == (2, "fought_draw", (59, 69, 59))


def test_a_three_way_tie_goes_to_the_first_fighter_after_the_caller_R7() -> None:
    outcome = ended(opened_table(moves=["0 call", "1 fight", "2 fight"]))
    assert (outcome.winner, outcome.points) == (1, (69, 69, 69))


def test_a_player_who_folds_loses_even_with_the_lowest_hand_R7() -> None:
    outcome = ended(opened_table(keep2=TIE2, moves=["0 call", "1 fight", "2 fold"]))
    assert (outcome.winner, outcome.end, outcome.points) == (1, "fought_draw", (69, 69, 59))
