"""R4: sets, runs, meld owners and numbers, secret sets."""

from __future__ import annotations

import pytest

from games.engine import InvalidMoveError, Move, seat_view
from games.engine.cards import mask_of_codes
from games.engine.melds import is_meld, is_run, is_set

from .conftest import after, cards, hand, legal, meld_cards, move_dict, position, rejected


@pytest.mark.parametrize(
    ("meld", "valid"),
    [
        ("7C 7D 7S", True),
        ("7C 7D 7H 7S", True),
        ("AC 2C 3C", True),  # ace low
        ("9H TH JH QH KH", True),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", True),
        ("QH KH AH", False),  # the ace is never high
        ("KH AH 2H", False),  # no wrapping
        ("7C 7D", False),  # two cards are not a set
        ("7C 8C", False),
        ("7C 8C 9D", False),  # a run is of one suit
        ("7C 8C TC", False),  # no gaps
        ("7C 7D 8C", False),
        ("JC QC KC AD", False),  # does not run on into the next suit
    ],
)
def test_a_set_is_three_or_four_of_a_rank_and_a_run_three_or_more_in_a_suit_R4(
    meld: str, valid: bool
) -> None:
    assert is_meld(mask_of_codes(meld.split())) is valid


def test_sets_and_runs_are_told_apart_R4() -> None:
    assert is_set(mask_of_codes("7C 7D 7S".split()))
    assert not is_run(mask_of_codes("7C 7D 7S".split()))
    assert is_run(mask_of_codes("AC 2C 3C".split()))
    assert not is_set(mask_of_codes("AC 2C 3C".split()))


# Seat 1 (not the dealer) draws 8S and plays; its hand holds every kind of near-meld.
SEAT1 = "QH KH AH KC AC 2C 7C 7D 8C 9D TC 5S"


def seat_1_to_play():
    return position(hands=["KD", SEAT1, ""], stock="8S", moves=["0 discard KD", "1 draw"])


@pytest.mark.parametrize(
    "meld",
    [
        "1 meld QH KH AH",
        "1 meld KC AC 2C",
        "1 meld 7C 8C 9D",
        "1 meld 7C 8C TC",
        "1 meld 7C 7D 8C",
    ],
)
def test_it_rejects_a_meld_that_is_neither_a_set_nor_a_run_R4(meld: str) -> None:
    err = rejected(seat_1_to_play(), meld)
    assert "R4" in str(err)


def test_it_rejects_a_two_card_set_R4() -> None:
    rejected(seat_1_to_play(), "1 meld 7C 7D")


def test_it_rejects_a_meld_of_cards_not_in_the_hand_R4() -> None:
    err = rejected(seat_1_to_play(), "1 meld 7C 7D 7H")
    assert "7H" in str(err)


def test_a_meld_listing_a_card_twice_is_malformed_R4() -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_dict(move_dict("1 meld 7C 7C 7D"))


def test_a_card_belongs_to_one_meld_only_R4() -> None:
    state = position(hands=["KD", "7C 7D 7S 8C 9C", ""], stock="QS", moves=["0 discard KD"])
    state = after(state, "1 draw", "1 meld 7C 7D 7S")
    assert "1 meld 7C 8C 9C" not in legal(state)
    rejected(state, "1 meld 7C 8C 9C")


# Melds are numbered in the order they reach the table, whoever lays them (R4):
#   #0 seat 0  9D 9H 9S (+9C laid off by seat 2: numbers do not change)
#   #1 seat 0  secret set of fives, face down
#   #2 seat 1  KD KH KS, taken
#   #3 seat 1  2H 3H 4H
#   #4 seat 2  6S 7S 8S
NUMBERED = [
    "0 meld 9H 9D 9S",
    "0 secret 5C 5D 5H 5S",
    "0 discard KD",
    "1 take KH KS",
    "1 meld 2H 3H 4H",
    "1 discard JC",
    "2 draw",
    "2 layoff 0 9C",
    "2 meld 6S 7S 8S",
    "2 discard QC",
]


def numbered_table():
    return position(
        hands=["5C 5D 5H 5S 9H 9D 9S KD 6C", "KH KS 2H 3H 4H JC", "9C 6S 7S 8S QC"],
        stock="2S",
        moves=NUMBERED,
    )


def test_melds_are_numbered_in_the_order_they_reach_the_table_secret_sets_included_R4() -> None:
    state = numbered_table()
    assert [m.owner for m in state.melds] == [0, 0, 1, 1, 2]
    assert [m.secret for m in state.melds] == [False, True, False, False, False]
    assert meld_cards(state, 0) == cards("9C 9D 9H 9S")
    assert meld_cards(state, 2) == cards("KD KH KS")
    assert meld_cards(state, 4) == cards("6S 7S 8S")


def test_a_secret_set_is_four_cards_of_a_rank_from_the_hand_R4() -> None:
    state = position(hands=["5C 5D 5H 5S 9H KD", "", ""], stock="2S")
    assert {
        "0 secret 5C 5D 5H 5S",
        "0 meld 5C 5D 5H 5S",
        "0 meld 5C 5D 5H",
        "0 meld 5D 5H 5S",
    } <= legal(state)
    assert "R4" in str(rejected(state, "0 secret 5C 5D 5H 9H"))
    rejected(state, "0 secret 5C 5D 5H")
    state = after(state, "0 secret 5C 5D 5H 5S")
    assert state.melds[0].secret and state.melds[0].owner == 0
    assert not cards("5C 5D 5H 5S") & hand(state, 0)


def test_a_secret_set_counts_as_a_meld_for_opening_R4_R6() -> None:
    state = position(hands=["5C 5D 5H 5S KD", "", ""], stock="2S")
    assert not state.has_opened(0)
    assert after(state, "0 secret 5C 5D 5H 5S").has_opened(0)


def test_nobody_else_sees_a_secret_sets_cards_until_the_end_R4() -> None:
    state = numbered_table()
    for seat in (1, 2, None):
        meld = seat_view(state, seat).melds[1]
        assert (meld.secret, meld.cards, meld.size, meld.owner) == (True, (), 4, 0)
    # Face-up melds are seen by all.
    assert len(seat_view(state, 1).melds[0].cards) == 4


def test_nothing_can_be_laid_off_on_a_secret_set_R4() -> None:
    state = after(numbered_table(), "0 draw")
    assert not any(m.startswith("0 layoff 1 ") for m in legal(state))
    # A set of four is full anyway; the engine must say why it refuses (R4).
    assert "R4" in str(rejected(state, "0 layoff 1 6C"))


def test_a_four_card_set_laid_face_up_is_not_secret_R4() -> None:
    state = position(hands=["5C 5D 5H 5S KD", "", ""], stock="2S")
    state = after(state, "0 meld 5C 5D 5H 5S")
    assert state.melds[0].secret is False
    assert len(seat_view(state, 1).melds[0].cards) == 4
