"""R10: what each loser pays the winner, term by term. Tables from ``opened_table``:
seat 0 opened with AC 2C 3C, so its own meld always holds one ace."""

from __future__ import annotations

from games.engine.state import Outcome

from .conftest import after, opened_table, position

LOW0 = "4C 5C 6C 7C 8C 9C TC JC 2S"  # 61
FOLD_BOTH = ["0 call", "1 fold", "2 fold"]


def terms(outcome: Outcome | None) -> dict[int, tuple[int, int, int, int]]:
    """loser -> (base, aces, secret sets, burned); checks the chips add up."""
    assert outcome is not None, "the game should have ended"
    assert sum(outcome.chips) == 0
    paid = {p.loser: p for p in outcome.payments}
    assert sorted(paid) == sorted({0, 1, 2} - {outcome.winner})
    for loser, p in paid.items():
        assert outcome.chips[loser] == -p.total
        assert p.total == p.base + p.aces + 3 * p.secret_sets + p.burned
    assert outcome.chips[outcome.winner] == sum(p.total for p in paid.values())
    return {loser: (p.base, p.aces, p.secret_sets, p.burned) for loser, p in paid.items()}


def test_an_unfought_draw_pays_a_base_of_1_R10() -> None:
    outcome = opened_table(moves=FOLD_BOTH).outcome
    assert terms(outcome) == {1: (1, 1, 0, 0), 2: (1, 1, 0, 0)}
    assert outcome.chips == (4, -2, -2)


def test_a_fought_draw_won_by_the_caller_pays_a_base_of_3_R10() -> None:
    outcome = opened_table(LOW0, moves=["0 call", "1 fight", "2 fold"]).outcome
    assert (outcome.winner, outcome.end) == (0, "fought_draw")
    # The folded seat pays the same as the beaten fighter.
    assert terms(outcome) == {1: (3, 1, 0, 0), 2: (3, 1, 0, 0)}
    assert outcome.chips == (8, -4, -4)


def test_a_fought_draw_won_by_a_fighter_pays_a_base_of_3_R10() -> None:
    outcome = opened_table(moves=["0 call", "1 fight", "2 fold"]).outcome
    assert (outcome.winner, outcome.end) == (1, "fought_draw")
    assert terms(outcome) == {0: (3, 1, 0, 0), 2: (3, 1, 0, 0)}  # AD in seat 1's run
    assert outcome.chips == (-4, 8, -4)


def test_tongits_pays_a_base_of_3_R10() -> None:
    # Seat 1 lays four runs (one with AC) and throws the card it drew; 0 and 2 never opened.
    state = position(
        hands=["2S", "AC 2C 3C 4D 5D 6D 7H 8H 9H JS QS KS", ""],
        stock="5S",
        moves=["0 discard 2S", "1 draw"],
    )
    state = after(
        state,
        "1 meld AC 2C 3C",
        "1 meld 4D 5D 6D",
        "1 meld 7H 8H 9H",
        "1 meld JS QS KS",
        "1 discard 5S",
    )
    outcome = state.outcome
    assert outcome.end == "tongits"
    assert terms(outcome) == {0: (3, 1, 0, 1), 2: (3, 1, 0, 1)}
    assert outcome.chips == (-5, 10, -5)


def test_each_ace_in_the_winners_hand_pays_1_more_R10() -> None:
    outcome = opened_table("4C 5C 6C 7C 8C 9C TC AS KD", moves=FOLD_BOTH).outcome
    assert terms(outcome) == {1: (1, 2, 0, 0), 2: (1, 2, 0, 0)}


def test_an_ace_another_player_laid_off_on_the_winners_meld_counts_R10() -> None:
    # Seat 0 opens with 2S 3S 4S; seat 1 lays AS off on it (which blocks seat 0 for a turn).
    state = opened_table(
        "4C 5C 6C 7C 8C 9C TC JC QC",
        "4D 5D 6D 7D 8D 9D TD JD AS",
        melds=("2S 3S 4S", "AD 2D 3D", "AH 2H 3H"),
        plays={1: ["1 layoff 0 AS"]},
        stock="KS QS JS TS 9S",
        moves=["0 draw", "0 discard JS", "1 draw", "1 discard TS", "2 draw", "2 discard 9S"],
    )
    outcome = after(state, *FOLD_BOTH).outcome
    assert outcome.winner == 0
    assert terms(outcome) == {1: (1, 1, 0, 0), 2: (1, 1, 0, 0)}


def test_an_ace_the_winner_laid_off_on_another_meld_does_not_count_R10() -> None:
    # Seat 1 opens with 2S 3S 4S and seat 0 lays its AS off on it; only AC counts.
    state = opened_table(
        "4C 5C 6C 7C 8C 9C TC JC AS",
        "4D 5D 6D 7D 8D 9D TD JD QD",
        melds=("AC 2C 3C", "2S 3S 4S", "AH 2H 3H"),
        stock="KS QS JS TS 9S",
        moves=[
            "0 draw",
            "0 layoff 1 AS",
            "0 discard JS",
            "1 draw",
            "1 discard TS",
            "2 draw",
            "2 discard 9S",
        ],
    )
    outcome = after(state, *FOLD_BOTH).outcome
    assert outcome.winner == 0
    assert terms(outcome) == {1: (1, 1, 0, 0), 2: (1, 1, 0, 0)}


def test_each_secret_set_the_winner_laid_pays_3_more_R10() -> None:
    state = opened_table(
        "5C 5D 5H 5S 6C 7C 8C 9C TC",
        "4D 6D 7D 8D 9D TD JD QD KD",
        "4H 6H 7H 8H 9H TH JH QH KH",
        plays={0: ["0 secret 5C 5D 5H 5S"]},
        moves=FOLD_BOTH,
    )
    assert terms(state.outcome) == {1: (1, 1, 1, 0), 2: (1, 1, 1, 0)}
    assert state.outcome.chips == (10, -5, -5)


def test_a_four_card_set_laid_face_up_is_no_secret_set_R10() -> None:
    state = opened_table(
        "5C 5D 5H 5S 6C 7C 8C 9C TC",
        "4D 6D 7D 8D 9D TD JD QD KD",
        "4H 6H 7H 8H 9H TH JH QH KH",
        plays={0: ["0 meld 5C 5D 5H 5S"]},
        moves=FOLD_BOTH,
    )
    assert terms(state.outcome) == {1: (1, 1, 0, 0), 2: (1, 1, 0, 0)}


def test_a_secret_set_of_aces_pays_for_its_aces_and_as_a_secret_set_R10() -> None:
    # Nobody else opens, so seat 0's call at its next start wins at once.
    state = position(
        hands=["AC AD AH AS 7C 7D 7S KH", "", ""],
        stock="QS JS",
        moves=[
            "0 secret AC AD AH AS",
            "0 meld 7C 7D 7S",
            "0 discard KH",
            "1 draw",
            "1 discard QS",
            "2 draw",
            "2 discard JS",
            "0 call",
        ],
    )
    assert terms(state.outcome) == {1: (1, 4, 1, 1), 2: (1, 4, 1, 1)}


def test_each_four_of_a_kind_in_the_winners_hand_pays_3_more_R10() -> None:
    state = opened_table(
        "5C 5D 5H 5S 6C 6D 6H 6S TC",
        "4D 7D 8D 9D TD JD QD KD 7S",
        "4H 7H 8H 9H TH JH QH KH 8S",
        moves=FOLD_BOTH,
    )
    assert terms(state.outcome) == {1: (1, 1, 2, 0), 2: (1, 1, 2, 0)}
    assert state.outcome.chips == (16, -8, -8)


def test_a_burned_loser_pays_1_more_and_an_opened_one_does_not_R10() -> None:
    outcome = opened_table(opens="01", moves=["0 call", "1 fold"]).outcome
    assert terms(outcome) == {1: (1, 1, 0, 0), 2: (1, 1, 0, 1)}
    assert outcome.chips == (5, -2, -3)
