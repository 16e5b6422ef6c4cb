"""A puzzle's position as stored data, and the theme of its decision. Pure (no Django).

A position is a ``SeatView`` and nothing else: the seat's own hand, the melds on the table
(a secret set's cards left out, as the view leaves them), the pile, the stock's size, each
hand's size, who has opened and who is blocked, and the seat's legal moves. Never another
hand, the stock's order or the deal's seed: ``view_dict`` takes a view, not a state, and
keeps only its fields (``outcome`` and ``revealed_hands`` are refused, a finished view is
no puzzle). ``view_of`` makes the view again, so the coach can judge the position once
more from the stored data alone (the shipped puzzles' test does).
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import codes_of, mask_of_codes
from games.engine.melds import is_set
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.state import Phase
from games.engine.view import MeldView, SeatInfo, SeatView

# The themes, from the types of the best move and the move played (``theme``).
DRAW_CALL = "draw"  # call Draw or play on
FOLD_FIGHT = "fold"  # answer a Draw: fold or fight
TAKE_DRAW = "take"  # take the discard or draw from the stock
DISCARD_WHICH = "discard"  # which card to throw
LAYOFF_BLOCK = "layoff"  # lay off on someone's meld, which blocks their Draw (R5)
KEEP_MELD = "meld"  # keep or break a meld: lay it down now, or hold it
THEMES = (DRAW_CALL, FOLD_FIGHT, TAKE_DRAW, DISCARD_WHICH, LAYOFF_BLOCK, KEEP_MELD)


def _codes(cards: tuple[int, ...]) -> list[str]:
    return codes_of(sum(1 << c for c in cards))


def view_dict(view: SeatView) -> dict[str, Any]:
    """The view as JSON-ready data: the seat's own knowledge only."""
    if view.seat is None or view.outcome is not None or view.revealed_hands is not None:
        raise ValueError("a puzzle is a seat's view of a game in play")
    return {
        "seat": view.seat,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": int(view.phase),
        "ply": view.ply,
        "hand": _codes(view.hand),
        "hand_points": view.hand_points,
        "seats": [
            {
                "seat": s.seat,
                "cards": s.cards,
                "opened": s.opened,
                "blocked": s.blocked,
                "answer": s.answer,
            }
            for s in view.seats
        ],  # fmt: skip
        "melds": [
            {
                "index": m.index,
                "owner": m.owner,
                "cards": [] if m.secret else _codes(m.cards),
                "secret": m.secret,
                "size": m.size,
            }
            for m in view.melds
        ],  # fmt: skip
        # The pile in its order (the top last): codes_of would sort it.
        "discards": [codes_of(1 << c)[0] for c in view.discards],
        "stock_left": view.stock_left,
        "caller": view.caller,
        "legal": [m.to_dict() for m in view.legal],
        "held_melds_free": view.held_melds_free,
    }


def _cards(codes: list[str]) -> tuple[int, ...]:
    mask = mask_of_codes(codes)
    return tuple(c for c in range(52) if mask >> c & 1)


def view_of(data: dict[str, Any]) -> SeatView:
    """The view ``view_dict`` stored, made again (cards in the engine's order)."""
    return SeatView(
        seat=data["seat"],
        dealer=data["dealer"],
        turn=data["turn"],
        phase=Phase(data["phase"]),
        ply=data["ply"],
        hand=_cards(data["hand"]),
        hand_points=data["hand_points"],
        seats=tuple(SeatInfo(**s) for s in data["seats"]),  # type: ignore[arg-type]
        melds=tuple(
            MeldView(m["index"], m["owner"], _cards(m["cards"]), m["secret"], m["size"])
            for m in data["melds"]
        ),
        discards=tuple(_cards([c])[0] for c in data["discards"]),
        stock_left=data["stock_left"],
        caller=data["caller"],
        legal=tuple(Move.from_dict(m) for m in data["legal"]),
        held_melds_free=data["held_melds_free"],
    )


def cards_in_view(data: dict[str, Any]) -> set[str]:
    """Every card code a stored view shows: the seat's hand, the open melds, the pile."""
    shown = set(data["hand"]) | set(data["discards"])
    for meld in data["melds"]:
        shown |= set(meld["cards"])
    return shown


def theme(view: SeatView, best: Move, played: Move) -> str:
    """The decision's theme, from the two moves' types (the best move's first)."""
    kinds = {best.type, played.type}
    if kinds & {FOLD, FIGHT}:
        return FOLD_FIGHT
    if CALL in kinds:
        return DRAW_CALL
    if kinds & {TAKE, DRAW}:
        return TAKE_DRAW
    if LAYOFF in kinds:
        layoff = best if best.type == LAYOFF else played
        owner = view.melds[layoff.meld].owner
        return LAYOFF_BLOCK if owner != view.seat else KEEP_MELD
    if kinds & {MELD, SECRET}:
        return KEEP_MELD
    if best.type == DISCARD and played.type == DISCARD:
        return DISCARD_WHICH
    return DISCARD_WHICH


def meld_kind(view: SeatView, index: int) -> str:
    """ "set" or "run": the kind of meld ``index`` of the view (a secret set is a set)."""
    meld = view.melds[index]
    if meld.secret or not meld.cards:
        return "set"
    return "set" if is_set(sum(1 << c for c in meld.cards)) else "run"
