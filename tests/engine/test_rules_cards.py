"""R1: seats, cards and points."""

from __future__ import annotations

import pytest

from games.engine import InvalidCardError, parse_card
from games.engine.cards import CODES, POINTS, code, mask_of_codes, points, short

from .conftest import after, position


def test_a_card_is_written_rank_then_suit_R1() -> None:
    for text in ("AS", "TD", "7H", "KC", "2C", "QS"):
        assert code(parse_card(text)) == text


@pytest.mark.parametrize("text", ["10D", "td", "Td", "1D", "AX", "ZC", "", " AS", "AS ", None, 7])
def test_it_refuses_card_text_that_is_not_exact_R1(text: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(text)


def test_the_deck_is_52_distinct_cards_with_no_jokers_R1() -> None:
    assert len(CODES) == len(set(CODES)) == 52
    assert {c[0] for c in CODES} == set("A23456789TJQK")
    assert {c[1] for c in CODES} == set("CDHS")


def test_ten_is_shown_to_people_as_10_R1() -> None:
    assert short(parse_card("TD")) == "10♦"
    assert short(parse_card("AS")) == "A♠"
    assert short(parse_card("7H")) == "7♥"


@pytest.mark.parametrize(
    ("card", "value"),
    [("AC", 1), ("2D", 2), ("5H", 5), ("9S", 9), ("TC", 10), ("JD", 10), ("QH", 10), ("KS", 10)],
)
def test_an_ace_is_one_point_pips_their_value_and_picture_cards_ten_R1(
    card: str, value: int
) -> None:
    assert POINTS[parse_card(card)] == value


def test_a_hands_points_are_the_sum_over_its_cards_R1() -> None:
    # 1 + 10 + 10 + 7 + 7 + 7 = 42: cards that could form a meld still count (R9).
    assert points(mask_of_codes(["AS", "TD", "KH", "7C", "7D", "7S"])) == 42
    assert points(0) == 0
    assert points(mask_of_codes(CODES)) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)


def test_play_passes_to_the_next_seat_and_wraps_from_2_to_0_R1() -> None:
    state = position(hands=["", "KH", ""], stock="QS JS", dealer=1)
    state = after(state, "1 discard KH")
    assert state.turn == 2
    state = after(state, "2 draw", "2 discard QS")
    assert state.turn == 0
    state = after(state, "0 draw", "0 discard JS")
    assert state.turn == 1
