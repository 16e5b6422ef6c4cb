"""The coach's judgement of one move, from what the seat that made it knew then.

Pure: no Django, no clock. ``evaluate`` is given a ``SeatView`` (never a state) and the
move that was played; it samples deals of the unseen cards that fit the view (the search
bot's ``sample_world``), plays every legal move forward in each deal with the greedy bot in
all seats to the end of the game, and compares mean chips. Every move is played in the same
deals (common random numbers), so the difference between two moves is measured far more
precisely than either value.

Two rounds: all legal moves in a few deals, then the best few and the move played in more
deals, so the verdict on the move played rests on the most deals. Each move's seed comes
from the move's number and seat alone, so the same game gives the same analysis, and two
games that agree up to a move get the same evaluations up to it.

Marks (``MARKS``), in expected chips lost against the best move found. The thresholds are
set above the noise of the measure: evaluating the same positions again with other seeds
(``python -m bench.analysis --calibrate``) shows how much a move that was in fact best
seems to lose by chance alone; an Inaccuracy starts above nearly all of that.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.bots import greedy
from games.bots.search import sample_world
from games.engine.cards import code, codes_of, mask_of_codes, parse_card, short
from games.engine.melds import is_set
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.rules import apply
from games.engine.state import GameState, Phase
from games.engine.view import SeatView, seat_view

# (name, chips lost at least), worst first. See the module's docstring and docs/coach.md:
# with the default budget a move that was in fact best seems to lose 0.84 chips or more by
# chance in one judgement in ten, 1.21 in one in twenty, 1.43 in one in a hundred; an
# Inaccuracy starts above all that, a Mistake at twice it, a Blunder at four times.
MARKS = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.5))
MARK_NAMES = {
    "blunder": gettext_lazy("Blunder"),
    "mistake": gettext_lazy("Mistake"),
    "inaccuracy": gettext_lazy("Inaccuracy"),
}


@dataclass(frozen=True)
class Budget:
    """How hard the coach looks at one move. The defaults analyse a typical game in well
    under 30 s on one core (``python -m bench.analysis``)."""

    first_worlds: int = 10  # deals every legal move is played in
    worlds: int = 48  # deals the finalists and the move played are played in, in all
    finalists: int = 3  # the best moves of the first round that get the extra deals
    max_plies: int = 30000  # moves simulated at most for one move (about 0.03 ms each)
    shape: int = 6  # see games.bots.search.sample_world
    tries: int = 20


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Evaluation:
    """The coach's view of one move."""

    seq: int  # the move's number in the log, 1 first
    seat: int
    played: Move
    best: Move
    played_chips: float  # expected chips for the seat at the end, after the move played
    best_chips: float  # the same after the best move found
    choices: int  # legal moves there were
    worlds: int  # deals the move played was judged in

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chips - self.played_chips)

    @property
    def mark(self) -> str:
        return mark_for(self.loss) if self.best != self.played else ""


def mark_for(loss: float) -> str:
    for name, threshold in MARKS:
        if loss >= threshold:
            return name
    return ""


def move_seed(seq: int, seat: int, salt: str = "coach/1") -> int:
    """The seed of the deals a move is judged in: from its place in the game alone."""
    digest = hashlib.sha256(f"{salt}/{seq}/{seat}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def evaluate(
    view: SeatView, played: Move, seq: int, budget: Budget = DEFAULT_BUDGET, salt: str = "coach/1"
) -> Evaluation:
    """Judge ``played`` against every legal move of ``view``, from ``view`` alone. (Another
    ``salt`` samples other deals: ``bench.analysis --calibrate`` measures the noise so.)"""
    legal = list(view.legal)
    if played not in legal:
        raise ValueError(f"move {seq} is not one the seat could make")
    me = view.seat
    rng = random.Random(move_seed(seq, me, salt))
    deals = [sample_world(view, rng, budget.shape, budget.tries) for _ in range(budget.worlds)]
    scores: dict[Move, list[float]] = {m: [] for m in legal}
    plies = 0
    # Round one: every legal move (only one: nothing to compare, yet its value is shown).
    first = budget.first_worlds if len(legal) > 1 else min(budget.first_worlds, 4)
    for deal in deals[:first]:
        for move in legal:
            chips, used = _rollout(apply(deal, move), me)
            scores[move].append(chips)
            plies += used
    # Round two: the best few and the move played, in the rest of the deals.
    ranked = sorted(legal, key=lambda m: -_mean(scores[m]))
    finalists = list(dict.fromkeys([*ranked[: budget.finalists], played]))
    if len(legal) > 1:
        for deal in deals[first:]:
            if plies >= budget.max_plies:
                break
            for move in finalists:
                chips, used = _rollout(apply(deal, move), me)
                scores[move].append(chips)
                plies += used
    # The best of the finalists in the same deals as the move played; a tie goes to the
    # move played (no mark for a move as good as any).
    best = max(finalists, key=lambda m: (_mean(scores[m]), m == played))
    return Evaluation(
        seq=seq,
        seat=me,
        played=played,
        best=best,
        played_chips=round(_mean(scores[played]), 2),
        best_chips=round(_mean(scores[best]), 2),
        choices=len(legal),
        worlds=len(scores[played]),
    )


def _rollout(state: GameState, me: int) -> tuple[int, int]:
    plies = 0
    while state.outcome is None:
        state = apply(state, greedy.choose(seat_view(state, state.turn), _NO_RNG))
        plies += 1
    return state.outcome.chips[me], plies


_NO_RNG = random.Random(0)  # greedy takes one for the signature and never uses it


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# --- The better move: its steps as data, put into words where it is read -------------------


def better_steps(view: SeatView, best: Move, seq: int) -> list[dict]:
    """The best move, and for a meld, secret set or lay-off the rest of the turn as the
    coach's rollouts played it (greedy), which the seat's own hand decides, so it is known
    from the view alone: each a ``step`` (stored with the verdict; ``say_better`` words it
    in the reader's language)."""
    steps = [step(view, best)]
    if view.phase is Phase.PLAY and best.type != DISCARD:
        rng = random.Random(move_seed(seq, view.seat, "coach/turn"))
        state = apply(sample_world(view, rng), best)
        while state.outcome is None and state.turn == view.seat and state.phase is Phase.PLAY:
            mine = seat_view(state, view.seat)
            move = greedy.choose(mine, _NO_RNG)
            steps.append(step(mine, move))
            state = apply(state, move)
            if move.type == DISCARD:
                break
    return steps


def step(view: SeatView, move: Move) -> dict:
    """What saying ``move`` needs, read from the view it is played in: its type, seat and
    cards (codes), a take's discard, a lay-off's meld owner and kind."""
    found: dict = {"type": move.type, "seat": move.seat, "cards": codes_of(move.cards)}
    if move.type == TAKE:
        found["top"] = code(view.discards[-1]) if view.discards else ""
    elif move.type == LAYOFF:
        meld = view.melds[move.meld]
        found["owner"] = meld.owner
        found["kind"] = "set" if meld.cards and is_set(sum(1 << c for c in meld.cards)) else "run"
    return found


def better_text(view: SeatView, best: Move, seq: int, names: Sequence[str]) -> str:
    """ "Better: meld 7♠ 8♠ 9♠ and discard K♣", in the active language."""
    return say_better(better_steps(view, best, seq), names)


def say_better(steps: Sequence[dict], names: Sequence[str]) -> str:
    """Stored steps as the coach's advice, in the active language, with the replay's own
    words for cards, melds and lists (``games.words.narration``, ``games.table.story``)."""
    from games.table.story import _and

    words = [say(s, names) for s in steps]
    return pgettext("coach's advice", "Better: %(moves)s") % {"moves": _and(words)}


def say(found: dict, names: Sequence[str]) -> str:
    """One step as an instruction: "meld 7♠ 8♠ 9♠", "take 5♦ with 5♣ 5♥", "call Draw"."""
    from games.words.narration import KINDS, cards_text

    kind = found["type"]
    cards = cards_text(mask_of_codes(found["cards"]))
    if kind == TAKE:
        top = short(parse_card(found["top"])) if found.get("top") else None
        return pgettext("coach's advice", "take %(top)s with %(cards)s") % {
            "top": top or pgettext("coach's advice", "the discard"),
            "cards": cards,
        }
    if kind == LAYOFF:
        values = {"cards": cards, "kind": KINDS[found["kind"]]}
        if found["owner"] == found["seat"]:
            return pgettext("coach's advice", "lay off %(cards)s on your own %(kind)s") % values
        values["owner"] = names[found["owner"]]
        return pgettext("coach's advice", "lay off %(cards)s on %(owner)s's %(kind)s") % values
    return str(_ADVICE[kind]) % {"cards": cards}


_ADVICE = {
    DRAW: pgettext_lazy("coach's advice", "draw from the stock"),
    MELD: pgettext_lazy("coach's advice", "meld %(cards)s"),
    SECRET: pgettext_lazy("coach's advice", "lay %(cards)s down as a secret set"),
    DISCARD: pgettext_lazy("coach's advice", "discard %(cards)s"),
    CALL: pgettext_lazy("coach's advice", "call Draw"),
    FOLD: pgettext_lazy("coach's advice", "fold"),
    FIGHT: pgettext_lazy("coach's advice", "fight"),
}
