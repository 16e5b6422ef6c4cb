"""R5: laying off (sapaw) and the block it puts on the meld's owner."""

from __future__ import annotations

from games.engine import Phase

from .conftest import (
    after,
    cards,
    hand,
    legal,
    meld_cards,
    moves,
    opened_table,
    position,
    rejected,
)


def run_on_the_table():
    # Seat 0 melds 5C 6C 7C; seat 1 holds 3C 4C 8C 9C around it, and 7H for nothing.
    return position(
        hands=["5C 6C 7C KH", "3C 4C 8C 9C 7H", ""],
        stock="QS",
        moves=["0 meld 5C 6C 7C", "0 discard KH", "1 draw"],
    )


def test_a_lay_off_adds_the_next_cards_at_either_end_of_a_run_or_both_at_once_R5() -> None:
    state = run_on_the_table()
    layoffs = {m for m in legal(state) if " layoff " in m}
    assert layoffs == moves(
        "1 layoff 0 4C",
        "1 layoff 0 3C 4C",
        "1 layoff 0 8C",
        "1 layoff 0 8C 9C",
        "1 layoff 0 4C 8C",
        "1 layoff 0 4C 8C 9C",
        "1 layoff 0 3C 4C 8C",
        "1 layoff 0 3C 4C 8C 9C",
    )
    state = after(state, "1 layoff 0 3C 4C 8C 9C")
    assert meld_cards(state, 0) == cards("3C 4C 5C 6C 7C 8C 9C")
    assert state.melds[0].owner == 0  # the meld stays its owner's
    assert not cards("3C 4C 8C 9C") & hand(state, 1)


def test_a_lay_off_must_leave_a_valid_meld_R5() -> None:
    state = run_on_the_table()
    for text in ("1 layoff 0 3C", "1 layoff 0 9C", "1 layoff 0 7H", "1 layoff 0 3C 9C"):
        assert "R5" in str(rejected(state, text))


def test_a_lay_off_needs_a_meld_with_that_number_and_cards_from_the_hand_R5() -> None:
    state = run_on_the_table()
    rejected(state, "1 layoff 1 4C")
    rejected(state, "1 layoff 0 TC")  # not in the hand
    rejected(state, "1 layoff 0")


def test_the_fourth_card_of_a_set_lays_off_and_then_the_set_is_full_R5() -> None:
    state = position(
        hands=["7C 7D 7S KH", "7H", ""],
        stock="QS",
        moves=["0 meld 7C 7D 7S", "0 discard KH", "1 draw"],
    )
    assert moves("1 layoff 0 7H") <= legal(state)
    state = after(state, "1 layoff 0 7H")
    assert meld_cards(state, 0) == cards("7C 7D 7H 7S")
    assert not any(" layoff " in m for m in legal(state))


def test_a_player_may_lay_off_several_times_a_turn_without_having_opened_R5_R6() -> None:
    state = after(run_on_the_table(), "1 layoff 0 4C", "1 layoff 0 8C", "1 layoff 0 3C")
    assert meld_cards(state, 0) == cards("3C 4C 5C 6C 7C 8C")
    assert not state.has_opened(1)  # laying off does not open (R6)
    assert (state.turn, state.phase) == (1, Phase.PLAY)


# Blocks, on the opened table (conftest). Seat 1 keeps 4C and 5C instead of 4D and 5D,
# so it can lay off on seat 0's AC 2C 3C (meld #0); the stock then gives JS, TS, 9S ...
SEAT0 = "4D 5D 6C 7C 8C 9C TC JC QC"
SEAT1 = "4C 5C 6D 7D 8D 9D TD JD QD"
STOCK = "KS QS JS TS 9S 8S 7S 6S"


def test_it_blocks_the_meld_owner_from_calling_draw_on_the_next_turn_R5() -> None:
    assert "0 call" in legal(opened_table(SEAT0, SEAT1, stock=STOCK))  # for comparison
    state = opened_table(SEAT0, SEAT1, plays={1: ["1 layoff 0 4C"]}, stock=STOCK)
    assert (state.turn, state.phase) == (0, Phase.START)
    assert state.is_blocked(0)
    assert not state.is_blocked(1)  # laying off on another's meld does not block you
    assert legal(state) == moves("0 draw")
    assert "R5" in str(rejected(state, "0 call"))


def test_a_block_lasts_exactly_until_the_owners_next_start_step_has_passed_R5() -> None:
    state = opened_table(SEAT0, SEAT1, plays={1: ["1 layoff 0 4C"]}, stock=STOCK)
    state = after(state, "0 draw")
    assert not state.is_blocked(0)
    state = after(state, "0 discard JS", "1 draw", "1 discard TS", "2 draw", "2 discard 9S")
    assert "0 call" in legal(state)


def test_taking_the_discard_also_passes_the_start_step_and_ends_the_block_R5() -> None:
    # Seat 0 keeps QC QD, so it can take the QS that seat 2 throws in the opening round.
    state = opened_table(
        "4D 5D 6C 7C 8C 9C TC QD QC",
        "4C 5C 6D 7D 8D 9D TD JD JC",
        plays={1: ["1 layoff 0 4C"]},
        stock=STOCK,
    )
    assert legal(state) == moves("0 draw", "0 take QC QD")
    state = after(state, "0 take QC QD")
    assert not state.is_blocked(0)


def test_laying_off_on_your_own_meld_blocks_you_on_your_own_next_turn_R5() -> None:
    state = opened_table(plays={1: ["1 layoff 1 4D"]}, stock=STOCK)
    assert state.is_blocked(1) and not state.is_blocked(0)
    state = after(state, "0 draw", "0 discard JS")
    assert (state.turn, state.phase) == (1, Phase.START)
    assert "1 call" not in legal(state)
    assert "R5" in str(rejected(state, "1 call"))
    state = after(state, "1 draw", "1 discard TS", "2 draw", "2 discard 9S")
    state = after(state, "0 draw", "0 discard 8S")
    assert "1 call" in legal(state)


def test_the_dealer_laying_off_on_its_own_meld_on_the_first_turn_is_blocked_next_turn_R5() -> None:
    state = opened_table(plays={0: ["0 layoff 0 4C"]}, stock=STOCK)
    assert (state.turn, state.phase) == (0, Phase.START)
    assert "0 call" not in legal(state)


def test_a_new_lay_off_after_the_start_step_blocks_again_R5() -> None:
    state = opened_table(SEAT0, SEAT1, plays={1: ["1 layoff 0 4C"]}, stock=STOCK)
    state = after(state, "0 draw", "0 discard JS", "1 draw", "1 layoff 0 5C", "1 discard TS")
    state = after(state, "2 draw", "2 discard 9S")
    assert state.is_blocked(0)
    assert "0 call" not in legal(state)


def test_a_blocked_player_may_still_fight_a_call_R5_R7() -> None:
    state = opened_table(
        SEAT0,
        SEAT1,
        moves=["0 draw", "0 discard JS", "1 draw", "1 layoff 0 4C", "1 discard TS", "2 call"],
        stock=STOCK,
    )
    assert state.is_blocked(0)
    assert (state.turn, state.phase) == (0, Phase.ANSWER)
    assert legal(state) == moves("0 fold", "0 fight")
    state = after(state, "0 fight", "1 fold")
    # 69 against 69: the fighter who ties the caller wins (R7).
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.end) == (0, "fought_draw")
