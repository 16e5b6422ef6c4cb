"""R9: hand points at the end, and the held-melds-free variant."""

from __future__ import annotations

import pytest

from games.engine import seat_view
from games.engine.cards import mask_of_codes
from games.engine.melds import best_arrangement, deadwood, hand_points

from .conftest import HELD_MELDS_FREE, opened_table


def pts(hand: str, held_free: bool = False) -> int:
    return hand_points(mask_of_codes(hand.split()), held_free)


def test_every_card_left_in_a_hand_counts_held_melds_included_R9() -> None:
    assert pts("7H 7S 7D 8D 9D") == 38
    assert pts("3H 4H 5H 6H 7H 5S 5D") == 35


def test_held_melds_count_at_the_end_of_a_game_R9() -> None:
    # Every kept hand is a run (4..Q of one suit), and still counts its full 69 points.
    outcome = opened_table(moves=["0 call", "1 fight", "2 fight"]).outcome
    assert outcome is not None and outcome.points == (69, 69, 69)


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("7H 7S 7D 8D 9D", 14),  # the examples of docs/rules.md
        ("3H 4H 5H 6H 7H 5S 5D", 10),
        ("", 0),
        ("KS", 10),
        ("AC 2C 3C", 0),
        ("7C 7D 7H 7S 8S 9S", 0),  # 7C 7D 7H and 7S 8S 9S, not the four-set
        ("4C 5C 6C 7C 8C 9C", 0),
        ("AC 2C 3C 4C KD KH", 20),
    ],
)
def test_held_melds_free_scores_the_cards_left_after_the_best_arrangement_R9(
    hand: str, points: int
) -> None:
    assert pts(hand, held_free=True) == points


def test_the_best_arrangement_uses_each_card_in_one_meld_at_most_R9() -> None:
    hand = mask_of_codes("9H TH JH QH KH QS QD".split())
    # 9H..KH leaves QS QD (20); 9H TH JH + QH QS QD leaves KH (10): the latter wins.
    assert deadwood(hand) == 10
    melds, left = best_arrangement(hand)
    used = 0
    for meld in melds:
        assert meld & used == 0
        used |= meld
    assert left == hand & ~used
    assert left == mask_of_codes(["KH"])


def test_held_melds_free_can_change_the_winner_of_a_fought_draw_R9() -> None:
    # Seat 0 calls with no meld in hand (66 points); seat 1 fights holding two runs
    # (83 points, but 0 left over under held-melds-free).
    keep0 = "4C 6C 8C TC QC 4D 6D 8D TD"
    keep1 = "7H 8H 9H TH JH QH 9S TS JS"
    keep2 = "5C 7C 9C JC 5D 7D 9D JD QD"
    answers = ["0 call", "1 fight", "2 fold"]
    plain = opened_table(keep0, keep1, keep2, moves=answers).outcome
    free = opened_table(keep0, keep1, keep2, moves=answers, variants=[HELD_MELDS_FREE]).outcome
    assert plain is not None and free is not None
    assert (plain.winner, plain.points[:2]) == (0, (66, 83))
    assert (free.winner, free.points[:2]) == (1, (66, 0))
    assert free.end == plain.end == "fought_draw"


def test_held_melds_free_keeps_the_tie_rules_R9() -> None:
    # Every kept hand is a run: 0 points each under the variant, and a fighter who ties
    # the caller still beats the caller (R7).
    outcome = opened_table(
        moves=["0 call", "1 fold", "2 fight"], variants=[HELD_MELDS_FREE]
    ).outcome
    assert outcome is not None
    assert (outcome.winner, outcome.points) == (2, (0, 0, 0))


def test_held_melds_free_keeps_burning_R9() -> None:
    outcome = opened_table(
        opens="01", moves=["0 call", "1 fold"], variants=[HELD_MELDS_FREE]
    ).outcome
    assert outcome is not None and outcome.burned == (False, False, True)


def test_a_seat_sees_its_hand_points_by_the_tables_rule_R9() -> None:
    plain = opened_table()
    free = opened_table(variants=[HELD_MELDS_FREE])
    # Seat 0 holds the run 4C..QC.
    assert seat_view(plain, 0).hand_points == 69
    assert seat_view(free, 0).hand_points == 0
