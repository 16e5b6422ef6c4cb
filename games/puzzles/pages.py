"""What a puzzle's page shows, from the stored view alone: the seat's hand, the melds on the
table (a secret set face down), the pile's top card, the stock's size, each other hand's
size, and the seat's legal moves in words (the coach's own words for a move). Before an
answer, nothing else of the puzzle is read here: not the move played, not the answer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext

from games.analysis.coach import say, say_better, say_why, step
from games.engine.moves import DISCARD
from games.engine.state import Phase
from games.table.pieces import faces

from . import rating
from .models import Puzzle
from .positions import meld_kind, view_of

PROMPTS = {
    Phase.START: gettext_lazy("Your turn: call Draw, draw from the stock or take the discard."),
    Phase.PLAY: gettext_lazy("Your turn: meld, lay off or discard."),
    Phase.ANSWER: gettext_lazy("Draw is called: fold or fight?"),
}


def seat_names(me: int) -> list[str]:
    """Names for the seats as the coach's words need them: nobody's name, only where they
    sit from the puzzle's seat."""
    names = ["", "", ""]
    names[me] = gettext("you")
    names[(me + 1) % 3] = gettext("Next player")
    names[(me + 2) % 3] = gettext("Previous player")
    return names


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def choices(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The seat's legal moves, in the stored order, each with its words."""
    view = view_of(puzzle.view)
    names = seat_names(view.seat or 0)
    found = []
    for i, move in enumerate(view.legal):
        text = _capital(say(step(view, move), names))
        # A discard shows its card alone (named in full for a screen reader), in a grid.
        card = faces((move.card,))[0] if move.type == DISCARD else None
        found.append({"index": i, "text": text, "card": card})
    return found


def position(puzzle: Puzzle) -> dict[str, Any]:
    data = puzzle.view
    view = view_of(data)
    me = view.seat or 0
    names = seat_names(me)
    seats = []
    for seat in (me, (me + 1) % 3, (me + 2) % 3):
        info = view.seats[seat]
        melds = [
            {"secret": m.secret, "size": m.size, "cards": faces(m.cards),
             "kind": meld_kind(view, m.index)}
            for m in view.melds if m.owner == seat
        ]  # fmt: skip
        seats.append({
            "me": seat == me, "name": _capital(names[seat]), "cards": info.cards,
            "opened": info.opened, "blocked": info.blocked, "melds": melds,
            "dealer": seat == view.dealer, "caller": seat == view.caller,
        })  # fmt: skip
    return {
        "hand": faces(view.hand),
        "points": view.hand_points,
        "seats": seats,
        "top": faces(view.discards[-1:])[0] if view.discards else None,
        "discards": len(view.discards),
        "stock_left": view.stock_left,
        "prompt": PROMPTS.get(view.phase, ""),
    }


def answer_words(puzzle: Puzzle) -> dict[str, str]:
    """After an answer: the best move (and the rest of its turn) and the coach's why."""
    me = puzzle.view["seat"]
    line = puzzle.line or [step(view_of(puzzle.view), _answer_move(puzzle))]
    why = say_why(puzzle.why)
    return {"better": say_better(line, seat_names(me)), "why": why}


def _answer_move(puzzle: Puzzle):
    from games.engine import Move

    return Move.from_dict(puzzle.answer)


def theme_label(puzzle: Puzzle) -> str:
    return str(puzzle.get_theme_display())


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """What the puzzle's JSON sends before an answer: the position and the choices."""
    data = puzzle.view
    return {
        "id": puzzle.pk,
        "theme": puzzle.theme,
        "rating": rating.shown(puzzle.mu),
        "position": {k: data[k] for k in data if k != "legal"},
        "choices": [
            {"index": c["index"], "text": c["text"], "move": m}
            for c, m in zip(choices(puzzle), data["legal"], strict=True)
        ],
        "question": pgettext("puzzle", "What would you do?"),
    }
