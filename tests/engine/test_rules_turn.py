"""R3: a turn (start, draw or take, play, discard), whose turn it is, and Tongits."""

from __future__ import annotations

from games.engine import Phase

from .conftest import after, cards, code_set, hand, legal, meld_cards, moves, position, rejected

# The dealer's 13 cards hold one meld only (7C 7D 7S), so its first turn's legal moves
# are that meld and the 13 discards.
DEALER = "7C 7D 7S KH 2C 4D 6H 8S TC QD AH 3S 5C"
# Seat 1 can take KH two ways (KD KS, or JH QH) and nothing else.
SEAT1 = "KD KS QH JH 2D 4C 6D 8D TS 7H 5S 9C"


def first_turn():
    return position(hands=[DEALER, SEAT1, ""], stock="QS JS")


def test_the_dealers_first_turn_starts_at_the_play_step_without_a_draw_R3() -> None:
    state = first_turn()
    assert (state.turn, state.phase) == (0, Phase.PLAY)
    discards = [f"0 discard {c}" for c in DEALER.split()]
    assert legal(state) == moves("0 meld 7C 7D 7S", *discards)


def test_the_dealer_may_not_draw_take_or_call_on_the_first_turn_R3() -> None:
    state = first_turn()
    for text in ("0 draw", "0 take 7C 7D", "0 call"):
        rejected(state, text)
    assert state.stock_left == 15


def test_the_dealer_may_meld_then_discard_straight_away_R3() -> None:
    state = after(first_turn(), "0 meld 7C 7D 7S", "0 discard KH")
    assert meld_cards(state, 0) == cards("7C 7D 7S") and state.melds[0].owner == 0
    assert (state.turn, state.phase) == (1, Phase.START)
    assert code_set(state.discards) == {"KH"}


def test_the_dealer_may_discard_at_once_without_melding_R3() -> None:
    state = after(first_turn(), "0 discard 2C")
    assert (state.turn, state.phase, state.melds) == (1, Phase.START, ())


def test_the_next_seat_starts_by_drawing_or_taking_into_a_new_meld_R3() -> None:
    state = after(first_turn(), "0 discard KH")
    assert legal(state) == moves("1 draw", "1 take KD KS", "1 take JH QH")


def test_it_rejects_meld_lay_off_or_discard_before_the_draw_R3() -> None:
    state = after(first_turn(), "0 meld 7C 7D 7S", "0 discard KH")
    rejected(state, "1 discard 2D")
    rejected(state, "1 meld KD KH KS")
    rejected(state, "1 layoff 0 7H")
    assert "1 layoff 0 7H" in legal(after(state, "1 draw"))  # fine once drawn


def test_a_player_may_discard_only_a_card_in_the_hand_R3() -> None:
    state = after(first_turn(), "0 discard KH", "1 draw")
    rejected(state, "1 discard AS")
    rejected(state, "1 discard KH")  # on the pile already
    assert "1 discard QS" in legal(state)  # the card just drawn may go straight back


def test_draw_takes_the_top_card_of_the_stock_R3() -> None:
    state = after(first_turn(), "0 discard KH", "1 draw")
    assert "QS" in hand(state, 1)
    assert state.stock_left == 14
    assert state.phase is Phase.PLAY
    rejected(state, "1 draw")
    rejected(state, "1 take KD KS")


def test_taking_the_discard_lays_it_at_once_in_a_new_face_up_meld_R3() -> None:
    state = after(first_turn(), "0 discard KH", "1 take KD KS")
    (meld,) = state.melds
    assert (meld.owner, meld.secret) == (1, False)
    assert meld_cards(state, 0) == cards("KD KH KS")
    assert "KH" not in hand(state, 1) and not {"KD", "KS"} & hand(state, 1)
    assert state.discards == ()
    assert state.has_opened(1)
    assert state.phase is Phase.PLAY
    assert not any(m.startswith("1 draw") for m in legal(state))


def test_a_take_needs_two_or_more_hand_cards_that_meld_with_the_top_R3() -> None:
    state = after(first_turn(), "0 discard KH")
    rejected(state, "1 take KD")
    rejected(state, "1 take KD QH")
    rejected(state, "1 take KD KS KH")  # KH is on the pile, not in the hand


def test_the_taken_card_may_not_be_laid_off_instead_R3() -> None:
    # Seat 0 melds 7C 8C 9C and throws TC, which fits only that meld; seat 1 holds no
    # pair that makes a new meld with TC, so it cannot take TC at all.
    state = position(
        hands=["7C 8C 9C TC", "JC 2C TD 3D 5H 6S 8H 9S QD KS AH 4S", ""],
        stock="QS",
        moves=["0 meld 7C 8C 9C", "0 discard TC"],
    )
    assert legal(state) == moves("1 draw")
    rejected(state, "1 take JC")
    rejected(state, "1 take JC TD")
    rejected(state, "1 take")


def test_the_taken_card_may_not_join_a_secret_set_R3() -> None:
    state = position(
        hands=["7S KH", "7C 7D 7H", ""],
        stock="QS",
        moves=["0 discard 7S"],
    )
    takes = moves("1 take 7C 7D", "1 take 7C 7H", "1 take 7D 7H", "1 take 7C 7D 7H")
    assert takes <= legal(state)
    rejected(state, "1 secret 7C 7D 7H 7S")
    state = after(state, "1 take 7C 7D 7H")
    assert state.melds[0].secret is False  # a four-set completed with the discard (R4)
    assert not any(" secret " in m for m in legal(state))


def test_the_play_step_allows_any_number_of_melds_and_lay_offs_in_any_order_R3() -> None:
    state = position(
        hands=["KH", "2C 3C 4C 9D 9H 9S 5C 9C 6C QS QD QH", ""],
        stock="7C",
        moves=["0 discard KH", "1 draw"],
    )
    state = after(
        state,
        "1 meld 9D 9H 9S",
        "1 meld 2C 3C 4C",
        "1 layoff 1 5C",
        "1 layoff 0 9C",
        "1 layoff 1 6C 7C",
    )
    assert meld_cards(state, 0) == cards("9C 9D 9H 9S")
    assert meld_cards(state, 1) == cards("2C 3C 4C 5C 6C 7C")
    assert hand(state, 1) == cards("QS QD QH")
    assert (state.turn, state.phase) == (1, Phase.PLAY)
    state = after(state, "1 discard QS")
    assert (state.turn, state.phase) == (2, Phase.START)


def test_only_the_seat_whose_turn_it_is_may_act_R3() -> None:
    state = first_turn()
    for text in ("1 draw", "2 discard QS", "1 meld KD KS KH"):
        err = rejected(state, text)
        assert "R3" in str(err)
    state = after(state, "0 discard KH")
    assert "R3" in str(rejected(state, "2 draw"))
    assert "R3" in str(rejected(state, "0 draw"))
