"""Which positions become puzzles: the coach's judgement, twice. Pure (no Django models).

A move of a finished game is a puzzle when, from its seat's view alone:

0. a first look in a few deals (``SCREEN``) finds the move played worse than another by
   more than the least mark's line (``SCREEN_SHARE`` of it: a filter that spares the coach
   most moves);
1. the coach (``games.analysis.coach.evaluate``, its own measure and seeds ``FIRST_SALT``,
   the ones a replay's analysis uses, on the finer scale ``FINE_MARKS``: Inaccuracy,
   a quarter of the stake, included, as the coach's marks were until 7 December 2026)
   found a better move than the one played, and the loss's whole interval clears a line
   (a mark, not a close call: the gain of the best move over the move played clears the
   threshold with its interval); a close call that cannot clear is given up from
   ``FIRST_GIVE_UP`` deals on (no puzzle either way);
2. judged again with other deals and rollout seeds (``RECHECK_SALT``), the same best move
   wins, again with a mark and no close call (the deals stop once it cannot: ``want``).

The answer is that best move; the coach's why-line and the rest of its turn as Hard would
play it (``better_steps``) are kept to show after an answer. ``alternatives`` finds the
other moves that are not clearly worse than the best (in paired deals of a third seed, the
lower end of their loss's interval under the least mark's line): an answer naming one of
them is counted right too, for the puzzle asks for a clear best, not for the coach's taste
between two moves it cannot tell apart; and a position where more than half of the moves
are right that way is no puzzle (``too_easy``). They are found before the second judgement:
a position too easy even at the least line any stake gives is dropped without it.

What a puzzle guarantees does not depend on the cheap steps: an answer kept is the verdict
of both judgements as the full budget gives it (the deals stop early only to reject). The
filters only pass over positions, most of which the judgements would reject; the figures
per CPU-second and what they lose are in docs/puzzles.md (``python -m bench.puzzles``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from games.analysis.coach import (
    DEFAULT_BUDGET,
    FINE_MARKS,
    Budget,
    Evaluation,
    _Deals,
    _interval,
    _Scores,
    better_steps,
    evaluate,
    move_seed,
    thresholds,
)
from games.bots import bot_seed, choose
from games.engine import Move, SeatView, apply, new_game, seat_view

from .positions import theme, view_dict

FIRST_SALT = "coach/2"  # the site's analysis: a game's stored verdicts are this judgement
RECHECK_SALT = "puzzles/recheck"
ALTERNATIVES_SALT = "puzzles/alternatives"
SCREEN_SALT = "puzzles/screen"
TEST_SALT = "puzzles/test"  # the shipped puzzles' test judges them with a third seed
ALTERNATIVE_WORLDS = 48  # paired deals the near-best moves are looked for in
# A first look, a few deals only, before the coach's own judgement: a move whose loss there
# is under this share of the least mark's line is passed over (most moves are, and the
# close calls among them would cost the coach up to 4,096 deals each). Only a filter: what
# it lets through is judged twice by the coach's own budget.
SCREEN = Budget(
    first_worlds=8, worlds=24, finalists=2, mark_worlds=24, finalist_worlds=24,
    max_worlds=24, give_up_worlds=24, marks=FINE_MARKS, lower=False, second_look=0,
    reopen_all_worlds=0, look_melds=False, spend=0.0, give_up_odds=0.0,
)  # fmt: skip
# Of the 42 puzzles first shipped (mined with 0.75), one had a first look under 1.25 of
# the line; between the two lay a third of the coach's time, on positions it rejected.
SCREEN_SHARE = 1.25
# A first judgement's close call is given up from this many deals on when it could not
# clear the line at the budget's most (``Budget.give_up_worlds``, 512 for a replay's
# analysis). With SCREEN_SHARE it passed over 3 of those 42 puzzles, for a third of the
# judging time (docs/puzzles.md).
FIRST_GIVE_UP = 128
# The coach's judgement as puzzles are mined with it: the finer scale (a puzzle asks for a
# move clearly better by a quarter of the stake at least), and the rules and rounds of the
# coach the shipped puzzles were mined with (any line inside the interval a close call, no
# second look, a mark on 128 deals, a close call given up from 512), so a change to the
# replay's coach does not change which positions are puzzles.
PUZZLE_BUDGET = replace(
    DEFAULT_BUDGET,
    marks=FINE_MARKS, lower=False, mark_worlds=128, give_up_worlds=512, second_look=0,
    runners=1, reopen_worlds=0, reopen_all_worlds=0, look_melds=False, spend=0.0,
    give_up_odds=0.0, margin=0.0,
)  # fmt: skip


def puzzle_budget(budget: Budget) -> Budget:
    """``budget`` (a site's coach budget, say) on the puzzles' scale and rounds."""
    return replace(
        budget,
        marks=FINE_MARKS,
        lower=False,
        second_look=0,
        runners=PUZZLE_BUDGET.runners,
        reopen_worlds=PUZZLE_BUDGET.reopen_worlds,
        reopen_all_worlds=PUZZLE_BUDGET.reopen_all_worlds,
        look_melds=PUZZLE_BUDGET.look_melds,
        mark_worlds=PUZZLE_BUDGET.mark_worlds,
        give_up_worlds=min(budget.give_up_worlds, PUZZLE_BUDGET.give_up_worlds),
        give_up_odds=PUZZLE_BUDGET.give_up_odds,
        spend=PUZZLE_BUDGET.spend,
        margin=PUZZLE_BUDGET.margin,
    )


@dataclass(frozen=True)
class Found:
    """A position that makes a puzzle, as data ready to store."""

    seq: int
    seat: int
    view: dict[str, Any]
    played: dict[str, Any]
    answer: dict[str, Any]
    also: list[dict[str, Any]]
    theme: str
    why: dict[str, Any]
    line: list[dict[str, Any]]
    mark: str
    figures: dict[str, Any] = field(default_factory=dict)


def clear(e: Evaluation) -> bool:
    """A verdict that makes a puzzle: a better move, a mark, no close call."""
    return e.best != e.played and bool(e.mark) and not e.close


def figures(e: Evaluation) -> dict[str, Any]:
    return {
        "best_chips": e.best_chips, "played_chips": e.played_chips, "loss_low": e.loss_low,
        "loss_high": e.loss_high, "stake": e.stake, "worlds": e.worlds, "mark": e.mark,
    }  # fmt: skip


def judge(
    view: SeatView,
    played: Move,
    seq: int,
    budget: Budget = PUZZLE_BUDGET,
    first: Evaluation | None = None,
) -> Found | None:
    """The puzzle ``view`` makes with ``played`` as the move made there, or None. ``first``:
    the coach's verdict already made with ``FIRST_SALT`` (a replay's stored analysis), kept
    when it is a mark (a Mistake or a Blunder is a mark on the finer scale too); a quiet
    move or a close call of the replay's coach may still be an Inaccuracy, so it is judged
    again on the puzzles' scale."""
    if len(view.legal) < 2 or played not in view.legal:
        return None
    budget = puzzle_budget(budget)
    if first is not None and not clear(first):
        first = None
    if first is None and budget.max_worlds > SCREEN.max_worlds:
        look = evaluate(view, played, seq, SCREEN, SCREEN_SALT)
        line = thresholds(look.stake, FINE_MARKS)[-1][1]
        if look.best == played or look.loss < SCREEN_SHARE * line:
            return None
    if first is None:
        cheaper = replace(budget, give_up_worlds=min(budget.give_up_worlds, FIRST_GIVE_UP))
        first = evaluate(view, played, seq, cheaper, FIRST_SALT)
    if not clear(first):
        return None
    near = _Near(view, first.best, seq, min(ALTERNATIVE_WORLDS, budget.worlds))
    if too_easy(len(view.legal), len(near.moves(LEAST_LINE))):
        return None  # too easy at any stake: the second judgement is spared
    again = evaluate(view, played, seq, budget, RECHECK_SALT, want=first.best)
    if not clear(again) or again.best != first.best:
        return None
    also = near.moves(thresholds(again.stake, FINE_MARKS)[-1][1])
    if too_easy(len(view.legal), len(also)):
        return None
    return Found(
        seq=seq,
        seat=view.seat if view.seat is not None else 0,
        view=view_dict(view),
        played=played.to_dict(),
        answer=first.best.to_dict(),
        also=[m.to_dict() for m in also],
        theme=theme(view, first.best, played),
        why=first.why,
        line=better_steps(view, first.best, seq),
        mark=first.mark,
        figures={"first": figures(first), "again": figures(again)},
    )


def too_easy(choices: int, also: int) -> bool:
    """A position where more than half the moves are right asks nothing: no puzzle."""
    return also + 1 > choices / 2


def alternatives(
    view: SeatView, best: Move, seq: int, stake: float, worlds: int = ALTERNATIVE_WORLDS
) -> list[Move]:
    """The legal moves other than ``best`` not clearly worse than it: in paired deals (the
    coach's own, another seed), the lower end of their loss's interval is under the least
    mark's line at this stake."""
    return _Near(view, best, seq, worlds).moves(thresholds(stake, FINE_MARKS)[-1][1])


LEAST_LINE = thresholds(0.0, FINE_MARKS)[-1][1]  # the least mark's line at the smallest stake


class _Near:
    """Every legal move played in the same ``worlds`` paired deals, to tell which are not
    clearly worse than ``best`` for a given line (the more, the higher the line)."""

    def __init__(self, view: SeatView, best: Move, seq: int, worlds: int) -> None:
        me = view.seat if view.seat is not None else 0
        deals = _Deals(view, move_seed(seq, me, ALTERNATIVES_SALT))
        self.best, self.legal = best, list(view.legal)
        self.s = _Scores(self.legal)
        for i in range(worlds):
            for move in self.legal:
                self.s.play(deals, i, move, me)

    def moves(self, line: float) -> list[Move]:
        z = DEFAULT_BUDGET.z
        return [
            m for m in self.legal if m != self.best and _interval(self.s, self.best, m, z)[0] < line
        ]


# --- Seeded bot games, the shipped puzzles' source -----------------------------------------

# The levels people meet (as bench.analysis plays them): Easy's slips give the coach
# something to find, Normal sits between. Only the Easy seats are mined (Normal's moves
# seldom make a puzzle, and the time is better spent on more games).
BOT_KINDS = ("easy", "normal", "easy")
BOT_SEATS = (0, 2)
# From this seed on, seat 0 is a random player: nearly every move of its has a better one,
# so many more of its positions pass, at the cost of hands a person would seldom hold.
RANDOM_FROM = 1000
RANDOM_KINDS = ("random", "normal", "easy")


def bot_kinds(seed: int) -> tuple[str, str, str]:
    return RANDOM_KINDS if seed >= RANDOM_FROM else BOT_KINDS


# The coach's budget with fewer deals for a close call: a verdict settled by 1,024 deals is
# the very one the full budget gives (its rounds are the same up to there); one that is not
# is a close call here, which makes no puzzle either way. Spares most of the time.
BOT_BUDGET = replace(PUZZLE_BUDGET, max_worlds=1024)


def bot_game(seed: int) -> list[tuple[SeatView, Move, int]]:
    """(view, move, its number) of every move of a seeded game of bots."""
    state, moments, kinds = new_game(seed), [], bot_kinds(seed)
    while state.outcome is None:
        view = seat_view(state, state.turn)
        rng = random.Random(bot_seed(str(seed), state.ply, 0))
        move = choose(kinds[state.turn], view, rng)
        moments.append((view, move, state.ply + 1))
        state = apply(state, move)
    return moments


def mine_bot_game(seed: int, budget: Budget = BOT_BUDGET) -> list[Found]:
    """Every puzzle of the seeded bot game ``seed`` (its Easy seats judged)."""
    found = []
    for view, move, seq in bot_game(seed):
        if len(view.legal) < 2 or view.seat not in BOT_SEATS:
            continue
        puzzle = judge(view, move, seq, budget)
        if puzzle is not None:
            found.append(puzzle)
    return found
