"""R3: Tongits. A hand that becomes empty during its owner's turn wins at once, however
it got empty (take, meld, lay-off, secret set or discard), opened or not."""

from __future__ import annotations

from games.engine import Phase, legal_moves

from .conftest import after, cards, meld_cards, position, rejected

# Seat 1's twelve cards are four runs; the dealer throws 2S first.
FOUR_RUNS = "AC 2C 3C 4D 5D 6D 7H 8H 9H JS QS KS"
THREE_RUNS = ["1 meld AC 2C 3C", "1 meld 4D 5D 6D", "1 meld 7H 8H 9H"]


def won_by_tongits(state, winner: int):
    assert state.outcome is not None, "the game should have ended"
    assert (state.outcome.winner, state.outcome.end) == (winner, "tongits")
    assert state.phase is Phase.ENDED
    assert legal_moves(state) == []
    assert state.hands[winner] == 0
    return state.outcome


def seat_1_drew(card: str, hand: str = FOUR_RUNS):
    return position(hands=["2S", hand, ""], stock=card, moves=["0 discard 2S", "1 draw"])


def test_tongits_by_discard_R3() -> None:
    state = after(seat_1_drew("5S"), *THREE_RUNS, "1 meld JS QS KS")
    assert state.outcome is None  # 5S is still in the hand
    won_by_tongits(after(state, "1 discard 5S"), 1)


def test_tongits_by_meld_ends_the_game_without_a_discard_R3() -> None:
    state = after(seat_1_drew("TS"), *THREE_RUNS, "1 meld TS JS QS KS")
    won_by_tongits(state, 1)
    assert "R11" in str(rejected(state, "1 discard KS"))  # no discard after Tongits


def test_tongits_by_lay_off_R3() -> None:
    state = after(seat_1_drew("TS"), *THREE_RUNS, "1 meld JS QS KS", "1 layoff 3 TS")
    won_by_tongits(state, 1)
    assert meld_cards(state, 3) == cards("TS JS QS KS")


def test_tongits_by_secret_set_R3() -> None:
    state = seat_1_drew("KS", "AC 2C 3C 4D 5D 6D 7H 8H 9H KC KD KH")
    won_by_tongits(after(state, *THREE_RUNS, "1 secret KC KD KH KS"), 1)


def test_tongits_by_take_R3() -> None:
    # Seat 1 lays ten cards and throws KD, keeping 5H 5S; seat 0 later throws 5C.
    state = position(
        hands=["2S 5C", "AC 2C 3C 4C 4D 5D 6D 7H 8H 9H 5H 5S", ""],
        stock="KD QD JD",
        moves=[
            "0 discard 2S",
            "1 draw",
            "1 meld AC 2C 3C 4C",
            *THREE_RUNS[1:],
            "1 discard KD",
            "2 draw",
            "2 discard QD",
            "0 draw",
            "0 discard 5C",
        ],
    )
    assert state.hands[1].bit_count() == 2
    won_by_tongits(after(state, "1 take 5H 5S"), 1)


def test_the_dealer_may_win_by_tongits_on_the_first_turn_R3() -> None:
    state = position(hands=["AC 2C 3C AD 2D 3D AH 2H 3H AS 2S 3S KH", "", ""])
    state = after(
        state,
        "0 meld AC 2C 3C",
        "0 meld AD 2D 3D",
        "0 meld AH 2H 3H",
        "0 meld AS 2S 3S",
        "0 discard KH",
    )
    outcome = won_by_tongits(state, 0)
    # Base 3, four aces in the winner's melds, and both losers burned (R10).
    assert outcome.burned == (False, True, True)
    assert outcome.chips == (16, -8, -8)


def test_a_player_who_never_opened_may_win_by_tongits_and_is_not_burned_R3_R6() -> None:
    # Seat 1 only lays off: ten clubs on seat 0's AC 2C 3C, two diamonds on AD 2D 3D.
    state = position(
        hands=["AC 2C 3C AD 2D 3D QS", "4C 5C 6C 7C 8C 9C TC JC QC KC 4D 5D", ""],
        stock="KS",
        moves=["0 meld AC 2C 3C", "0 meld AD 2D 3D", "0 discard QS", "1 draw"],
    )
    state = after(state, "1 layoff 0 4C 5C 6C 7C 8C 9C TC JC QC KC", "1 layoff 1 4D 5D")
    assert not state.has_opened(1)
    outcome = won_by_tongits(after(state, "1 discard KS"), 1)
    assert outcome.burned == (False, False, True)
    # Base 3; seat 2, who never opened, pays 1 more (R10).
    assert outcome.chips == (-3, 7, -4)


def test_no_move_is_accepted_once_tongits_has_ended_the_game_R3_R11() -> None:
    state = after(seat_1_drew("5S"), *THREE_RUNS, "1 meld JS QS KS", "1 discard 5S")
    for text in ("2 draw", "1 draw", "0 call", "2 fold"):
        assert "R11" in str(rejected(state, text))
