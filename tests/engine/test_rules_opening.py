"""R6: opening (owning a meld on the table) and burned (sunog) losers."""

from __future__ import annotations

from .conftest import after, opened_table, position


def test_a_player_opens_by_laying_a_meld_R6() -> None:
    state = position(hands=["7C 7D 7S KH", "", ""])
    assert not state.has_opened(0)
    assert after(state, "0 meld 7C 7D 7S").has_opened(0)


def test_taking_the_discard_opens_since_it_lays_a_meld_R6() -> None:
    state = position(hands=["KH", "KD KS", ""], moves=["0 discard KH"])
    assert not state.has_opened(1)
    assert after(state, "1 take KD KS").has_opened(1)


def test_a_secret_set_opens_R6() -> None:
    state = position(hands=["5C 5D 5H 5S KH", "", ""])
    assert after(state, "0 secret 5C 5D 5H 5S").has_opened(0)


def test_laying_off_does_not_open_even_on_your_own_side_R6() -> None:
    state = position(
        hands=["7C 8C 9C KH", "TC JC", ""],
        stock="QS",
        moves=["0 meld 7C 8C 9C", "0 discard KH", "1 draw", "1 layoff 0 TC JC"],
    )
    assert not state.has_opened(1)


def test_a_player_stays_opened_after_others_lay_off_on_the_meld_R6() -> None:
    state = position(
        hands=["7C 8C 9C KH", "TC", ""],
        stock="QS",
        moves=["0 meld 7C 8C 9C", "0 discard KH", "1 draw", "1 layoff 0 TC"],
    )
    assert state.has_opened(0) and state.melds[0].owner == 0


def test_a_loser_who_never_opened_is_burned_and_pays_one_more_chip_R6_R10() -> None:
    # Seat 2 never lays its ace run; seat 0 calls and seat 1 folds.
    state = opened_table(opens="01", moves=["0 call", "1 fold"])
    outcome = state.outcome
    assert outcome is not None and outcome.winner == 0
    assert outcome.burned == (False, False, True)
    by_loser = {p.loser: p for p in outcome.payments}
    assert (by_loser[1].burned, by_loser[2].burned) == (0, 1)
    assert by_loser[2].total == by_loser[1].total + 1


def test_opened_losers_are_not_burned_R6() -> None:
    outcome = opened_table(moves=["0 call", "1 fold", "2 fold"]).outcome
    assert outcome is not None and outcome.burned == (False, False, False)
