"""A game's moves as a score people read: "Bea takes 7♣ with 7♦ 7♥", "Alice calls Draw".

Built by stepping the engine through the record, because a move alone does not say which
card a take picks up or whose meld a lay-off lands on: the state before the move does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine.cards import cards_of, short
from games.engine.melds import is_set
from games.engine.moves import IllegalMoveError, InvalidMoveError, Move
from games.engine.record import Record
from games.engine.rules import apply
from games.engine.state import GameState, Outcome


@dataclass(frozen=True)
class Line:
    seq: int  # the move's number in the log, 1 first; also its replay step
    seat: int
    text: str


@dataclass(frozen=True)
class Narration:
    lines: list[Line]
    end: str  # how the game ended, or "" if the record does not end it


def distinct_names(names: Sequence[str]) -> list[str]:
    """Seat names a score can tell apart: two greedy bots become "Greedy bot 2" and
    "Greedy bot 3" (by seat, counted from 1)."""
    return [
        f"{name} {seat + 1}" if names.count(name) > 1 else name for seat, name in enumerate(names)
    ]


def narrate(record: Record, names: Sequence[str]) -> Narration:
    """One line per logged move, plus a sentence for the end.

    Stops quietly at the first move the engine refuses: a damaged log is reported by the
    replay itself, and the lines before it are still true.
    """
    state = record.initial_state()
    lines = []
    for seq, raw in enumerate(record.moves, start=1):
        try:
            move = raw if isinstance(raw, Move) else Move.from_dict(raw)
            text = describe(state, move, names)
            state = apply(state, move)
        except (InvalidMoveError, IllegalMoveError):
            break
        lines.append(Line(seq, move.seat, text))
    return Narration(lines, describe_end(state.outcome, names) if state.outcome else "")


def describe(state: GameState, move: Move, names: Sequence[str]) -> str:
    """The move as a sentence, read against the state it is played in."""
    return _PHRASES[move.type](state, move, names)


def describe_end(outcome: Outcome, names: Sequence[str]) -> str:
    return _ENDS[outcome.end].format(winner=names[outcome.winner])


def cards_text(mask: int) -> str:
    return " ".join(short(c) for c in cards_of(mask))


def _draw(state: GameState, move: Move, names: Sequence[str]) -> str:
    last = " the last card" if state.stock_left == 1 else ""
    return f"{names[move.seat]} draws{last}"


def _take(state: GameState, move: Move, names: Sequence[str]) -> str:
    top = short(state.discards[-1]) if state.discards else "?"
    return f"{names[move.seat]} takes {top} with {cards_text(move.cards)}"


def _layoff(state: GameState, move: Move, names: Sequence[str]) -> str:
    name = names[move.seat]
    if not 0 <= move.meld < len(state.melds):
        return f"{name} lays off {cards_text(move.cards)}"
    meld = state.melds[move.meld]
    owner = names[meld.owner]
    kind = "set" if is_set(meld.cards) else "run"
    whose = "their own" if meld.owner == move.seat else f"{owner}'s"
    # R5: a lay-off blocks the meld's owner from calling Draw on their next turn.
    return f"{name} lays off {cards_text(move.cards)} on {whose} {kind}: {owner} blocked"


def _simple(verb: str) -> Callable[[GameState, Move, Sequence[str]], str]:
    return lambda state, move, names: f"{names[move.seat]} {verb}"


def _with_cards(verb: str) -> Callable[[GameState, Move, Sequence[str]], str]:
    return lambda state, move, names: f"{names[move.seat]} {verb} {cards_text(move.cards)}"


_PHRASES: dict[str, Callable[[GameState, Move, Sequence[str]], str]] = {
    "draw": _draw,
    "take": _take,
    "meld": _with_cards("melds"),
    "secret": _simple("lays a secret set"),
    "layoff": _layoff,
    "discard": _with_cards("discards"),
    "call": _simple("calls Draw"),
    "fold": _simple("folds"),
    "fight": _simple("fights"),
}

_ENDS = {
    "tongits": "{winner} wins by Tongits",
    "draw": "{winner} wins the Draw call: nobody fights",
    "fought_draw": "{winner} wins the fought Draw",
    "stock": "{winner} wins when the stock runs out",
}
