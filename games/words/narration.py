"""A game's moves as a score people read: "Bea takes 7♣ with 7♦ 7♥", "Alice calls Draw".

Built by stepping the engine through the record, because a move alone does not say which
card a take picks up or whose meld a lay-off lands on: the state before the move does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

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
    return str(_ENDS[outcome.end]) % {"winner": names[outcome.winner]}


def cards_text(mask: int) -> str:
    return " ".join(short(c) for c in cards_of(mask))


def _draw(state: GameState, move: Move, names: Sequence[str]) -> str:
    if state.stock_left == 1:
        return gettext("%(name)s draws the last card") % {"name": names[move.seat]}
    return gettext("%(name)s draws") % {"name": names[move.seat]}


def _take(state: GameState, move: Move, names: Sequence[str]) -> str:
    top = short(state.discards[-1]) if state.discards else "?"
    return gettext("%(name)s takes %(top)s with %(cards)s") % {
        "name": names[move.seat],
        "top": top,
        "cards": cards_text(move.cards),
    }


def _layoff(state: GameState, move: Move, names: Sequence[str]) -> str:
    name = names[move.seat]
    cards = cards_text(move.cards)
    if not 0 <= move.meld < len(state.melds):
        return gettext("%(name)s lays off %(cards)s") % {"name": name, "cards": cards}
    meld = state.melds[move.meld]
    owner = names[meld.owner]
    kind = KINDS["set" if is_set(meld.cards) else "run"]
    values = {"name": name, "cards": cards, "owner": owner, "kind": kind}
    # R5: a lay-off blocks the meld's owner from calling Draw on their next turn.
    if meld.owner == move.seat:
        return (
            gettext("%(name)s lays off %(cards)s on their own %(kind)s: %(owner)s blocked") % values
        )
    return (
        gettext("%(name)s lays off %(cards)s on %(owner)s's %(kind)s: %(owner)s blocked") % values
    )


KINDS = {"set": pgettext_lazy("meld kind", "set"), "run": pgettext_lazy("meld kind", "run")}


def _simple(text) -> Callable[[GameState, Move, Sequence[str]], str]:
    """``text``: a lazy sentence with %(name)s."""
    return lambda state, move, names: str(text) % {"name": names[move.seat]}


def _with_cards(text) -> Callable[[GameState, Move, Sequence[str]], str]:
    """``text``: a lazy sentence with %(name)s and %(cards)s."""
    return lambda state, move, names: (
        str(text)
        % {
            "name": names[move.seat],
            "cards": cards_text(move.cards),
        }
    )


_PHRASES: dict[str, Callable[[GameState, Move, Sequence[str]], str]] = {
    "draw": _draw,
    "take": _take,
    "meld": _with_cards(gettext_lazy("%(name)s melds %(cards)s")),
    "secret": _simple(gettext_lazy("%(name)s lays a secret set")),
    "layoff": _layoff,
    "discard": _with_cards(gettext_lazy("%(name)s discards %(cards)s")),
    "call": _simple(gettext_lazy("%(name)s calls Draw")),
    "fold": _simple(gettext_lazy("%(name)s folds")),
    "fight": _simple(gettext_lazy("%(name)s fights")),
}

_ENDS = {
    "tongits": gettext_lazy("%(winner)s wins by Tongits"),
    "draw": gettext_lazy("%(winner)s wins the Draw call: nobody fights"),
    "fought_draw": gettext_lazy("%(winner)s wins the fought Draw"),
    "stock": gettext_lazy("%(winner)s wins when the stock runs out"),
}


# --- What a move showed everyone -------------------------------------------------------


class Entry(NamedTuple):
    """One logged move as every seat saw it: nothing that was hidden when it was played
    (a drawn card and a secret set's cards are not here). The table's move list and each
    seat's last turn are told from these, from any seat's side."""

    seat: int
    type: str
    cards: int = 0  # the cards it showed face up: melded, laid off, taken with, discarded
    taken: int = -1  # take: the discard taken
    owner: int = -1  # layoff: the owner of the meld laid off on
    kind: str = ""  # take, meld, layoff: "set" or "run"
    meld: int = -1  # take, meld, secret: the meld it made; layoff: the meld laid off on
    last: bool = False  # draw: the stock's last card


def entry(after: GameState, move: Move) -> Entry:
    """The move as everyone saw it, read from the state it led to (a take's new meld is
    the last on the table; a lay-off's meld keeps its owner and its kind)."""
    kind, newest = move.type, len(after.melds) - 1
    if kind == "draw":
        return Entry(move.seat, kind, last=after.stock_left == 0)
    if kind == "take":
        meld = after.melds[-1].cards
        taken = (meld & ~move.cards).bit_length() - 1
        return Entry(move.seat, kind, move.cards, taken, kind=_kind(meld), meld=newest)
    if kind == "meld":
        return Entry(move.seat, kind, move.cards, kind=_kind(move.cards), meld=newest)
    if kind == "secret":  # its cards stay hidden
        return Entry(move.seat, kind, meld=newest)
    if kind == "layoff":
        target = after.melds[move.meld]
        return Entry(
            move.seat, kind, move.cards, owner=target.owner, kind=_kind(target.cards),
            meld=move.meld,
        )  # fmt: skip
    if kind == "discard":
        return Entry(move.seat, kind, move.cards)
    return Entry(move.seat, kind)  # call, fold, fight


def entries(initial: GameState, moves: Iterable[Move]) -> tuple[GameState, tuple[Entry, ...]]:
    """The state after ``moves`` from ``initial``, and each move as everyone saw it."""
    state, out = initial, []
    for move in moves:
        state = apply(state, move)
        out.append(entry(state, move))
    return state, tuple(out)


def _kind(mask: int) -> str:
    return "set" if is_set(mask) else "run"
