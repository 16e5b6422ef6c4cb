"""The hand arranged for the Arrange button, and the card a tap on the discard pile throws
when none is chosen (games/table/arrange.py): helpers over the seat's own cards."""

from __future__ import annotations

from games.engine.cards import parse_card
from games.table.arrange import arrange, arrangement_attr, suggested_discard


def hand(codes: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes.split())


def test_melds_come_first_then_near_melds_then_the_deadwood():
    # R4: a run of hearts and a set of eights; 5S 6S wait for a 4 or 7, KD and AC are dead.
    dealt = hand("KD 8C 5H 6S 8D 7H AC 6H 8H 5S")
    groups = arrange(dealt)
    assert [kind for kind, _ in groups] == ["meld", "meld", "near", "dead"]
    assert ("meld", ("5H", "6H", "7H")) in groups
    assert ("meld", ("8C", "8D", "8H")) in groups
    assert groups[2] == ("near", ("5S", "6S"))
    assert groups[3] == ("dead", ("AC", "KD"))
    assert arrangement_attr(dealt).endswith("|near:5S 6S|dead:AC KD")
    # Every card once.
    assert sorted(c for _, cards in groups for c in cards) == sorted(
        "KD 8C 5H 6S 8D 7H AC 6H 8H 5S".split()
    )


def test_the_suggested_throw_is_the_deadwood_that_costs_most():
    # R1: the king counts 10, more than any other card left over.
    assert suggested_discard(hand("5H 6H 7H 2C KD 3S")) == "KD"
    # A card of a meld is kept: the 4 of clubs breaks nothing, the 9s would.
    assert suggested_discard(hand("9C 9D 9H 4C")) == "4C"
    assert suggested_discard(()) == ""
