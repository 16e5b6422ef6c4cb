"""What one seat may see (the SeatView): its own hand and the public table, never another
hand, the stock or someone else's secret set, until the game has ended (R4)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import Move, seat_view
from games.engine.cards import cards_of, parse_card
from games.engine.moves import DISCARD

from .conftest import code_set, hidden_from, opened_table, visible_cards

SECRET_TABLE = dict(
    keep0="5C 5D 5H 5S 6C 7C 8C 9C TC",
    keep1="4D 6D 7D 8D 9D TD JD QD KD",
    keep2="4H 6H 7H 8H 9H TH JH QH KH",
    plays={0: ["0 secret 5C 5D 5H 5S"]},
)


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_a_seat_sees_no_hidden_card_before_the_end(seat: int | None) -> None:
    for moves in ([], ["0 call"], ["0 draw"]):
        state = opened_table(**SECRET_TABLE, moves=moves)
        visible = visible_cards(seat_view(state, seat))
        assert not visible & hidden_from(state, seat)
        if seat is not None:
            assert set(cards_of(state.hands[seat])) <= visible


def test_a_seat_sees_its_own_hand_and_the_count_of_the_others() -> None:
    state = opened_table(**SECRET_TABLE)
    view = seat_view(state, 1)
    assert view.hand == tuple(cards_of(state.hands[1]))
    assert [info.cards for info in view.seats] == [5, 9, 9]
    assert [info.opened for info in view.seats] == [True, True, True]
    assert seat_view(state, None).hand == ()


def test_only_the_acting_seat_is_shown_legal_moves() -> None:
    state = opened_table()
    assert {m.type for m in seat_view(state, 0).legal} == {"call", "draw"}
    assert seat_view(state, 1).legal == seat_view(state, 2).legal == ()
    assert seat_view(state, None).legal == ()


def test_everything_is_revealed_once_the_game_has_ended_R4() -> None:
    state = opened_table(**SECRET_TABLE, moves=["0 call", "1 fold", "2 fold"])
    view = seat_view(state, 2)
    assert view.finished and view.outcome == state.outcome
    assert code_set(view.melds[0].cards) == {"AC", "2C", "3C"}
    assert code_set(view.melds[1].cards) == {"5C", "5D", "5H", "5S"}
    assert view.revealed_hands == tuple(tuple(cards_of(h)) for h in state.hands)


# The scanner must be able to fail: plant a hidden card where a careless view might.
def plant(view, card: int, where: str):
    if where == "discards":
        return dataclasses.replace(view, discards=(*view.discards, card))
    if where == "legal":
        return dataclasses.replace(view, legal=(*view.legal, Move(DISCARD, 0, 1 << card)))
    if where == "meld":
        melds = list(view.melds)
        melds[1] = dataclasses.replace(melds[1], cards=(card,))
        return dataclasses.replace(view, melds=tuple(melds))
    if where == "revealed":
        return dataclasses.replace(view, revealed_hands=((card,), (), ()))
    raise AssertionError(where)


@pytest.mark.parametrize("where", ["discards", "legal", "meld", "revealed"])
def test_the_leak_scanner_catches_a_planted_card(where: str) -> None:
    state = opened_table(**SECRET_TABLE)
    view = seat_view(state, 0)
    assert not visible_cards(view) & hidden_from(state, 0)
    leaked = plant(view, parse_card("4D"), where)  # in seat 1's hand
    assert visible_cards(leaked) & hidden_from(state, 0) == {parse_card("4D")}


def test_the_leak_scanner_treats_a_new_int_field_as_a_card() -> None:
    @dataclasses.dataclass(frozen=True)
    class Careless:
        seat: int
        peeked: int

    assert visible_cards(Careless(seat=0, peeked=parse_card("4D"))) == {parse_card("4D")}
