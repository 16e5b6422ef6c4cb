"""R8: the stock runs out. Every test plays a whole game to the last stock card.

The table is the opened table of conftest, dealt by any seat: seat ``s`` holds the ace run
of suit C, D or H (s = 0, 1, 2) and keeps 9 cards; the dealer also holds KC and throws it.
In the first round each seat named in ``opens`` lays its ace run; after that everybody
draws and throws the card drawn, so hands keep their points. Fifteen draws, one a turn,
starting after the dealer: the dealer draws the last card.
"""

from __future__ import annotations

from games.engine import Phase, legal_moves

from .conftest import (
    ACE_RUNS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    after,
    cards,
    deal,
    hand,
    legal,
    move_dict,
    play,
)

TIE0 = "4C 5C 6C 7C 8C 9C TC 4S 6S"  # 59
TIE1 = "4D 5D 6D 7D 8D 9D TD 2S 8S"  # 59
TIE2 = "4H 5H 6H 7H 8H 9H TH 3S 7S"  # 59
LOW1 = "4D 5D 6D 7D 8D 9D TD JD 5S"  # 64
TINY0 = "4C 5C 6C 7C 2S 3S 4S 5S 6S"  # 42, and 48 with AC 2C 3C still in hand
TINY2 = "4H 5H 6H 7H 2S 3S 4S 6S 7S"  # 44, and 50 with AH 2H 3H still in hand


def stock_game(keeps=(CLUBS, DIAMONDS, HEARTS), dealer=0, opens="012", last=None):
    """The state reached (see above). ``last``: the drawer's moves after drawing the last
    card, instead of throwing it."""
    hands = [f"{ACE_RUNS[s]} {keeps[s]}" for s in range(3)]
    hands[dealer] += " KC"
    record = deal(hands, "KS QS", dealer)
    moves = [f"{dealer} meld {ACE_RUNS[dealer]}"] if str(dealer) in opens else []
    moves.append(f"{dealer} discard KC")
    seat = dealer
    for i, card in enumerate(record["stock"]):
        seat = (seat + 1) % 3
        moves.append(f"{seat} draw")
        if i < 2 and str(seat) in opens:
            moves.append(f"{seat} meld {ACE_RUNS[seat]}")
        if i == 14 and last is not None:
            moves += last
        else:
            moves.append(f"{seat} discard {card}")
    record["moves"] = [move_dict(m) for m in moves]
    return play(record)


def ended(state):
    assert state.outcome is not None and state.outcome.end == "stock"
    assert legal_moves(state) == []
    return state.outcome


def test_the_player_who_draws_the_last_card_plays_on_and_the_game_ends_at_the_discard_R8() -> None:
    state = stock_game(last=[])
    assert state.stock_left == 0
    assert (state.turn, state.phase, state.outcome) == (0, Phase.PLAY, None)
    assert "0 meld 4C 5C 6C" in legal(state)
    state = after(state, "0 meld 4C 5C 6C", "0 layoff 3 7C")
    assert state.outcome is None
    (drawn,) = hand(state, 0) - cards("8C 9C TC JC QC")
    outcome = ended(after(state, f"0 discard {drawn}"))
    assert outcome.winner == 0


def test_the_opened_player_with_the_lowest_hand_wins_R8() -> None:
    outcome = ended(stock_game((CLUBS, LOW1, HEARTS)))
    assert (outcome.winner, outcome.points) == (1, (69, 64, 69))
    # Base 1 and the ace of the winner's run: 2 from each loser (R10).
    assert outcome.chips == (-2, 4, -2)


def test_a_tie_that_includes_the_drawer_goes_to_the_drawer_R8() -> None:
    # Seat 1 deals, so seat 1 draws the last card; it ties seat 0 at 59.
    outcome = ended(stock_game((TIE0, TIE1, HEARTS), dealer=1))
    assert (outcome.winner, outcome.points) == (1, (59, 59, 69))


def test_a_three_way_tie_goes_to_the_drawer_R8() -> None:
    outcome = ended(stock_game(dealer=2))
    assert (outcome.winner, outcome.points) == (2, (69, 69, 69))


def test_a_tie_without_the_drawer_goes_to_the_first_after_the_drawer_R8() -> None:
    # Seat 1 draws last; seats 2 and 0 tie below it: seat 2 comes first after seat 1.
    outcome = ended(stock_game((TIE0, DIAMONDS, TIE2), dealer=1))
    assert (outcome.winner, outcome.points) == (2, (59, 69, 59))


def test_an_unopened_player_is_never_a_candidate_while_anyone_has_opened_R8() -> None:
    outcome = ended(stock_game((CLUBS, LOW1, TINY2), opens="01"))
    assert (outcome.winner, outcome.points) == (1, (69, 64, 50))
    assert outcome.burned == (False, False, True)


def test_an_unopened_drawer_is_not_a_candidate_either_R8() -> None:
    # Seat 0 draws last with the lowest hand but never opened; 1 and 2 tie at 69, and
    # seat 1 is first after the drawer.
    outcome = ended(stock_game((TINY0, DIAMONDS, HEARTS), opens="12"))
    assert (outcome.winner, outcome.points) == (1, (48, 69, 69))
    assert outcome.burned == (True, False, False)


def test_when_nobody_has_opened_all_are_candidates_and_both_losers_are_burned_R8_R6() -> None:
    outcome = ended(stock_game((CLUBS, DIAMONDS, TINY2), opens=""))
    assert (outcome.winner, outcome.points) == (2, (75, 75, 50))
    assert outcome.burned == (True, True, False)
    # Base 1, no ace (AH 2H 3H is in the hand: +1), burned +1: 3 from each (R10).
    assert outcome.chips == (-3, -3, 6)


def test_when_nobody_has_opened_a_tie_still_goes_to_the_drawer_R8() -> None:
    outcome = ended(stock_game(dealer=1, opens=""))
    assert (outcome.winner, outcome.points) == (1, (75, 75, 75))
    assert outcome.burned == (True, False, True)


def test_tongits_is_still_possible_on_the_last_card_turn_R8_R3() -> None:
    # Seat 0 keeps the run 4C..QC: after the last draw it melds it and throws the card.
    last = ["0 meld 4C 5C 6C 7C 8C 9C TC JC QC"]
    state = stock_game(last=last)
    (drawn,) = hand(state, 0)
    state = after(state, f"0 discard {drawn}")
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.end) == (0, "tongits")


def test_the_game_does_not_end_before_the_last_card_is_drawn_R8_R11() -> None:
    state = stock_game(last=[])
    assert state.ply > 0 and state.outcome is None
