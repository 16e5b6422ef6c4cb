"""R11: what ends a game (Tongits, the answers to a Draw call, the last stock card's
turn) and nothing else; no move after the end."""

from __future__ import annotations

from games.engine import Phase, legal_moves, seat_view
from games.engine.cards import CODES

from .conftest import after, opened_table, position, rejected


def test_a_move_after_the_end_is_rejected_R11() -> None:
    state = opened_table(moves=["0 call", "1 fold", "2 fold"])
    assert state.finished and state.phase is Phase.ENDED
    for text in ("1 draw", "0 draw", "2 fight", "0 call"):
        assert "R11" in str(rejected(state, text))


def test_nobody_has_a_legal_move_once_the_game_has_ended_R11() -> None:
    state = opened_table(moves=["0 call", "1 fold", "2 fold"])
    assert legal_moves(state) == []
    for seat in (0, 1, 2, None):
        assert seat_view(state, seat).legal == ()


def test_a_draw_call_ends_the_game_only_once_every_answer_is_in_R11() -> None:
    state = opened_table(moves=["0 call"])
    assert not state.finished
    state = after(state, "1 fight")
    assert not state.finished
    assert after(state, "2 fold").finished


def test_a_game_goes_on_however_few_cards_a_hand_holds_R11() -> None:
    # Seat 1 lays ten cards and is down to two after its discard: play goes on.
    state = position(
        hands=["2S", "AC 2C 3C 4C 4D 5D 6D 7H 8H 9H 5H 5S", ""],
        stock="KD QD",
        moves=[
            "0 discard 2S",
            "1 draw",
            "1 meld AC 2C 3C 4C",
            "1 meld 4D 5D 6D",
            "1 meld 7H 8H 9H",
            "1 discard KD",
        ],
    )
    assert state.hands[1].bit_count() == 2
    assert (state.finished, state.turn, state.phase) == (False, 2, Phase.START)


def test_the_game_goes_on_with_one_card_left_in_the_stock_R11() -> None:
    state = opened_table()
    # Draw and throw until one stock card is left.
    while state.stock_left > 1:
        drawn = state.stock[state.stock_pos]
        state = after(state, f"{state.turn} draw", f"{state.turn} discard {CODES[drawn]}")
    assert not state.finished
    assert state.phase is Phase.START
