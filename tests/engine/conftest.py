"""Tables built from explicit deals, for scenario tests.

A scenario names the cards that matter: ``deal(hands=["7C 7D 7S KH", "", ""], stock="8C")``.
Whatever it leaves out is filled from a fixed "quiet" order of the deck (spread over ranks
and suits so the filler rarely makes a meld), so every deal has 52 distinct cards, 13 for
the dealer, 12 for the others and 15 in the stock. A test that asserts points or exact
legal moves gives the hands in full.

Moves are written as short strings, the way a person reads a game:
``"1 draw"``, ``"0 meld 7C 7D 7S"``, ``"2 take 8H 9H"``, ``"1 layoff 0 8C"`` (meld number
first), ``"0 discard KH"``, ``"2 secret 5C 5D 5H 5S"``, ``"0 call"``, ``"1 fight"``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from games.engine import GameState, IllegalMoveError, Move, apply, legal_moves
from games.engine.cards import CODES, cards_of, codes_of
from games.engine.record import load_record, replay

HELD_MELDS_FREE = "held-melds-free"

# Round r, step j: rank 2j mod 13, suit (j + r) mod 4. Thirteen consecutive cards have
# thirteen different ranks and no two same-suit neighbours in rank, so no meld.
QUIET_ORDER: tuple[str, ...] = tuple(
    "A23456789TJQK"[(2 * j) % 13] + "CDHS"[(j + r) % 4] for r in range(4) for j in range(13)
)
assert sorted(QUIET_ORDER) == sorted(CODES)


def _codes(cards: str | Iterable[str]) -> list[str]:
    return cards.split() if isinstance(cards, str) else list(cards)


def deal(
    hands: Sequence[str | Iterable[str]],
    stock: str | Iterable[str] = (),
    dealer: int = 0,
    moves: Iterable[str | dict[str, Any]] = (),
    variants: Iterable[str] = (),
) -> dict[str, Any]:
    """A ``tongits-record/1`` dict: the given cards, the rest of the deck filled in.

    ``stock`` lists the top of the stock, drawn first; filler goes below it.
    """
    given_hands = [_codes(h) for h in hands]
    given_stock = _codes(stock)
    used = [c for h in given_hands for c in h] + given_stock
    assert len(used) == len(set(used)), f"a card is given twice: {used}"
    spare = [c for c in QUIET_ORDER if c not in set(used)]
    full_hands = []
    for seat, hand in enumerate(given_hands):
        size = 13 if seat == dealer else 12
        assert len(hand) <= size, f"seat {seat} is given {len(hand)} cards"
        need = size - len(hand)
        full_hands.append(hand + spare[:need])
        spare = spare[need:]
    record: dict[str, Any] = {
        "format": "tongits-record/1",
        "dealer": dealer,
        "hands": full_hands,
        "stock": given_stock + spare,
        "moves": [m if isinstance(m, dict) else move_dict(m) for m in moves],
    }
    if variants:
        record["variants"] = list(variants)
    assert len(record["stock"]) == 15
    return record


def move_dict(text: str) -> dict[str, Any]:
    """``"1 layoff 0 8C 9C"`` -> the record's move object."""
    seat, kind, *rest = text.split()
    out: dict[str, Any] = {"seat": int(seat), "type": kind}
    if kind == "discard":
        (out["card"],) = rest
    elif kind == "layoff":
        out["meld"], out["cards"] = int(rest[0]), rest[1:]
    elif kind in ("take", "meld", "secret"):
        out["cards"] = rest
    return out


def parse(text: str) -> Move:
    return Move.from_dict(move_dict(text))


def notation(move: Move) -> str:
    """The short string of a move, cards in the engine's order (so strings compare)."""
    parts = [str(move.seat), move.type]
    if move.type == "layoff":
        parts.append(str(move.meld))
    return " ".join(parts + codes_of(move.cards))


def moves(*texts: str) -> set[str]:
    """Expected moves, normalised like ``legal``."""
    return {notation(parse(t)) for t in texts}


def legal(state: GameState) -> set[str]:
    listed = [notation(m) for m in legal_moves(state)]
    assert len(listed) == len(set(listed)), "legal_moves lists a move twice"
    return set(listed)


def play(record: dict[str, Any]) -> GameState:
    """Replay a record whose moves must all be legal; the state reached."""
    result = replay(load_record(record))
    assert result.ok, f"move {result.error_move} rejected: {result.error}"
    return result.state


def position(
    hands: Sequence[str | Iterable[str]],
    stock: str | Iterable[str] = (),
    dealer: int = 0,
    moves: Iterable[str | dict[str, Any]] = (),
    variants: Iterable[str] = (),
) -> GameState:
    """Deal (see ``deal``) and play ``moves``: the state reached."""
    return play(deal(hands, stock, dealer, moves, variants))


def after(state: GameState, *texts: str) -> GameState:
    """Apply moves to a state, each of which must be legal (and listed as legal)."""
    for text in texts:
        move = parse(text)
        assert notation(move) in legal(state), f"{text!r} is not listed as legal"
        state = apply(state, move)
    return state


def rejected(state: GameState, text: str) -> IllegalMoveError:
    """Assert the move is refused and is not among the legal moves; the error."""
    move = parse(text)
    assert notation(move) not in legal(state), f"{text!r} is listed as legal"
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value


def hand(state: GameState, seat: int) -> set[str]:
    return set(codes_of(state.hands[seat]))


def cards(text: str) -> set[str]:
    return set(text.split())


def meld_cards(state: GameState, index: int) -> set[str]:
    return set(codes_of(state.melds[index].cards))


def code_set(cards: Iterable[int]) -> set[str]:
    return {CODES[c] for c in cards}


# The opened table: everyone opens in the first round with a run from the ace (R6), and
# then it is seat 0's turn again, at its start step.
#
#   seat 0 (dealer)  [AC 2C 3C]  keep0 (9 cards)  + KC, discarded
#   seat 1           [AD 2D 3D]  keep1 (9 cards)  draws KS, discards it
#   seat 2           [AH 2H 3H]  keep2 (9 cards)  draws QS, discards it
#
# By default each seat keeps the 4..Q of its meld's suit: 69 points each, a three-way tie.
CLUBS = "4C 5C 6C 7C 8C 9C TC JC QC"
DIAMONDS = "4D 5D 6D 7D 8D 9D TD JD QD"
HEARTS = "4H 5H 6H 7H 8H 9H TH JH QH"
ACE_RUNS = ("AC 2C 3C", "AD 2D 3D", "AH 2H 3H")


def opened_table(
    keep0: str = CLUBS,
    keep1: str = DIAMONDS,
    keep2: str = HEARTS,
    moves: Iterable[str] = (),
    opens: str = "012",
    plays: dict[int, Sequence[str]] | None = None,
    stock: str = "KS QS",
    melds: Sequence[str] = ACE_RUNS,
    variants: Iterable[str] = (),
) -> GameState:
    """The state after the opening round (see above) and then ``moves``.

    ``opens`` names the seats that lay their meld; the others keep it in hand. ``plays``
    adds moves to a seat's first turn, after its meld and before its discard.
    """
    return play(opened_record(keep0, keep1, keep2, moves, opens, plays, stock, melds, variants))


def opened_record(
    keep0: str = CLUBS,
    keep1: str = DIAMONDS,
    keep2: str = HEARTS,
    moves: Iterable[str] = (),
    opens: str = "012",
    plays: dict[int, Sequence[str]] | None = None,
    stock: str = "KS QS",
    melds: Sequence[str] = ACE_RUNS,
    variants: Iterable[str] = (),
) -> dict[str, Any]:
    keeps = (keep0, keep1, keep2)
    assert all(len(k.split()) == 9 for k in keeps), "each seat keeps 9 cards"
    plays = plays or {}
    hands = [f"{melds[s]} {keeps[s]}" for s in range(3)]
    hands[0] += " KC"
    first, second = stock.split()[:2]
    opening: list[str] = []
    for seat, discard in ((0, "KC"), (1, first), (2, second)):
        if seat:
            opening.append(f"{seat} draw")
        if str(seat) in opens:
            opening.append(f"{seat} meld {melds[seat]}")
        opening += [*plays.get(seat, ()), f"{seat} discard {discard}"]
    return deal(hands, stock, 0, [*opening, *moves], variants)


# Fields of view objects whose ints are not cards: counts, seats, points, chips, flags.
NOT_CARDS = frozenset(
    {
        "seat", "dealer", "turn", "phase", "ply", "hand_points", "stock_left", "caller",
        "index", "owner", "size", "winner", "points", "chips", "loser", "base", "aces",
        "secret_sets", "burned", "opened", "blocked", "answer", "secret", "end",
        "held_melds_free",
    }
)  # fmt: skip


def visible_cards(obj: object) -> set[int]:
    """Every card that appears anywhere in a view object.

    Walks dataclass fields, tuples, lists and dicts. A ``Move`` shows the cards of its
    mask. An int in any field not named in ``NOT_CARDS`` counts as a card, except a bare
    int in a field called ``cards`` (a seat's card count), so a new field that carries
    cards is caught rather than missed.
    """
    found: set[int] = set()
    _walk(obj, found, field=None)
    return found


def _walk(obj: object, found: set[int], field: str | None) -> None:
    if isinstance(obj, Move):
        found.update(cards_of(obj.cards))
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name not in NOT_CARDS:
                _walk(getattr(obj, f.name), found, f.name)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:
            _walk(item, found, "item")
    elif isinstance(obj, dict):
        for item in obj.values():
            _walk(item, found, "item")
    elif isinstance(obj, int) and not isinstance(obj, bool) and field not in (None, "cards"):
        found.add(obj)


def hidden_from(state: GameState, seat: int | None) -> set[int]:
    """The cards ``seat`` may not see before the end: the other hands, the undrawn stock
    and the face-down secret sets of other seats (None: a spectator, who sees no hand)."""
    hidden = set(state.stock[state.stock_pos :])
    for other in range(3):
        if other != seat:
            hidden.update(cards_of(state.hands[other]))
    for meld in state.melds:
        if meld.secret and meld.owner != seat:
            hidden.update(cards_of(meld.cards))
    return hidden
