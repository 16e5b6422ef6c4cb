"""Game records, ``tongits-record/1`` (docs/record.md): load, dump and replay."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import CODES, DECK_SIZE, InvalidCardError, mask_of, parse_card
from .moves import IllegalMoveError, InvalidMoveError, Move
from .rules import apply
from .state import KNOWN_VARIANTS, GameState

FORMAT = "tongits-record/1"


class RecordError(ValueError):
    """A record that cannot be read at all (exit status 2 of ``replay``)."""


@dataclass
class Record:
    dealer: int
    hands: list[list[int]]  # as dealt, in the record's order
    stock: list[int]  # the first is the top
    moves: list[Any] = field(default_factory=list)  # raw: each is parsed when replayed
    variants: list[str] = field(default_factory=list)

    def initial_state(self) -> GameState:
        hands = [mask_of(h) for h in self.hands]
        return GameState.new(self.dealer, hands, tuple(self.stock), frozenset(self.variants))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT}
        if self.variants:
            out["variants"] = list(self.variants)
        out["dealer"] = self.dealer
        out["hands"] = [[CODES[c] for c in hand] for hand in self.hands]
        out["stock"] = [CODES[c] for c in self.stock]
        out["moves"] = [m.to_dict() if isinstance(m, Move) else m for m in self.moves]
        return out


@dataclass
class Replay:
    """Where a replay got to: the last good state, how many moves applied, the error."""

    state: GameState
    applied: list[Move]
    error: str | None = None
    error_move: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def load_record(data: object) -> Record:
    """Check a record's shape and deal (not its moves); raise RecordError if unreadable."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except RecursionError:  # json's parser gives up on "[[[[…" nested thousands deep
            raise RecordError("it is nested too deeply") from None
        except ValueError:
            raise RecordError("the record is not JSON") from None
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be '{FORMAT}'")
    variants = _variants(data.get("variants", []))
    dealer = data.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 2:
        raise RecordError("dealer must be 0, 1 or 2")
    hands, stock = _deal(data, dealer)
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError("moves must be a list")
    return Record(dealer, hands, stock, list(moves), variants)


def _variants(value: object) -> list[str]:
    if not isinstance(value, list):
        raise RecordError("variants must be a list of names")
    # A name that is not a string (a list, an object) cannot even be looked up in a set.
    if not all(isinstance(name, str) for name in value):
        raise RecordError("variants must be a list of names")
    for name in value:
        if name not in KNOWN_VARIANTS:
            raise RecordError(f"unknown variant {name!r}")
    return list(value)


def _deal(data: dict, dealer: int) -> tuple[list[list[int]], list[int]]:
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 3:
        raise RecordError("hands must be a list of three hands")
    parsed = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(hands)]
    for seat, hand in enumerate(parsed):
        size = 13 if seat == dealer else 12
        if len(hand) != size:
            raise RecordError(f"hands[{seat}] must hold {size} cards")
    stock = _cards(data.get("stock"), "stock")
    every = [c for hand in parsed for c in hand] + stock
    if len(every) != DECK_SIZE or len(set(every)) != DECK_SIZE:
        raise RecordError("the deal must hold each of the 52 cards exactly once")
    return parsed, stock


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards")
    try:
        return [parse_card(c) for c in value]
    except InvalidCardError as e:
        raise RecordError(f"{where}: {e}") from None


def replay(record: Record, upto: int | None = None) -> Replay:
    """Apply the record's moves in order (the first ``upto`` of them, if given).

    Stops at the first malformed or illegal move: the result holds the state before it,
    the move's index and the engine's message.
    """
    state = record.initial_state()
    applied: list[Move] = []
    moves = record.moves if upto is None else record.moves[:upto]
    for index, raw in enumerate(moves):
        try:
            move = raw if isinstance(raw, Move) else Move.from_dict(raw)
            state = apply(state, move)
        except (InvalidMoveError, IllegalMoveError) as e:
            return Replay(state, applied, str(e), index)
        applied.append(move)
    return Replay(state, applied)


def summary(result: Replay) -> dict[str, Any]:
    """The JSON object ``manage.py replay`` prints for one record (docs/record.md)."""
    if not result.ok:
        return {"ok": False, "move": result.error_move, "error": result.error}
    state = result.state
    if state.outcome is None:
        return {"ok": True, "finished": False, "turn": state.turn}
    o = state.outcome
    return {
        "ok": True,
        "finished": True,
        "winner": o.winner,
        "end": o.end,
        "points": list(o.points),
        "burned": list(o.burned),
        "chips": list(o.chips),
    }


def replay_text(text: str | bytes) -> tuple[dict[str, Any], int]:
    """Replay a record given as JSON text: (the summary object, the exit status)."""
    try:
        record = load_record(text)
    except RecordError as e:
        return {"ok": False, "move": None, "error": str(e)}, 2
    result = replay(record)
    return summary(result), 0 if result.ok else 1
