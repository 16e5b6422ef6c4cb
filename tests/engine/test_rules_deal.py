"""R2: the deal. A game is its deal plus its moves."""

from __future__ import annotations

import pytest

from games.engine import Phase, deal_from_seed, new_game
from games.engine.cards import cards_of
from games.engine.record import load_record, replay

from .conftest import deal, play


@pytest.mark.parametrize("seed", range(30))
def test_the_dealer_gets_13_cards_the_others_12_and_the_stock_15_R2(seed: int) -> None:
    dealer, hands, stock = deal_from_seed(seed)
    assert [len(h) for h in hands] == [13 if s == dealer else 12 for s in range(3)]
    assert len(stock) == 15
    assert sorted([c for h in hands for c in h] + stock) == list(range(52))


def test_the_dealer_is_chosen_at_random_for_each_game_R2() -> None:
    dealers = [deal_from_seed(seed)[0] for seed in range(60)]
    assert set(dealers) == {0, 1, 2}


def test_the_same_seed_always_gives_the_same_deal_and_others_differ_R2() -> None:
    assert deal_from_seed(1234) == deal_from_seed(1234)
    assert deal_from_seed(1234) != deal_from_seed(1235)


def test_a_new_game_starts_with_an_empty_discard_pile_and_15_in_the_stock_R2() -> None:
    state = new_game(7)
    dealer, hands, stock = deal_from_seed(7)
    assert state.discards == ()
    assert state.melds == ()
    assert state.stock_left == 15
    assert state.stock[state.stock_pos] == stock[0]  # the stock keeps the dealt order
    assert [sorted(cards_of(h)) for h in state.hands] == [sorted(h) for h in hands]
    # The dealer acts first, straight in the play step (R3).
    assert (state.turn, state.phase) == (dealer, Phase.PLAY)


def test_a_game_is_fully_determined_by_its_deal_and_moves_R2() -> None:
    record = deal(
        hands=["7C 7D 7S KH", "", ""],
        stock="QS JS",
        moves=["0 meld 7C 7D 7S", "0 discard KH", "1 draw", "1 discard QS", "2 draw"],
    )
    first, second = play(record), play(record)
    assert first == second
    assert first is not second
    # Only the deal and the moves matter: other keys are ignored (docs/record.md).
    decorated = {**record, "players": ["alice", "bob", "carol"], "id": 7}
    assert replay(load_record(decorated)).state == first


def test_the_record_helper_fills_a_deal_of_52_distinct_cards() -> None:
    record = deal(hands=["AC", "2C 3C", ""], stock="KS", dealer=2)
    sizes = [len(h) for h in record["hands"]]
    assert sizes == [12, 12, 13]
    every = [c for h in record["hands"] for c in h] + record["stock"]
    assert len(every) == len(set(every)) == 52
    assert record["stock"][0] == "KS"
    assert "AC" in record["hands"][0] and {"2C", "3C"} <= set(record["hands"][1])
