"""The coach's judgement of one move, from what the seat that made it knew then.

Size: ~700 lines, kept whole: the measure, the scale and the words of a verdict (why the
better move is better, and what it is) are one judgement, read together.

Pure: no Django, no clock. ``evaluate`` is given a ``SeatView`` (never a state) and the
move that was played, and judges it with the Hard bot's own model of the game: deals of the
unseen cards drawn as the bot's search draws them (``search.model_deal`` with the bot's
budget: the same shape, and in some deals another seat taken for a noisy player), played to
the end by the bot's rollout policy (``search.rollout`` through ``play_out``, the one place
a learned policy would replace it), so a change to the bot flows into the coach and
"better" means better than what Hard would do.

Paired: every move is played in the same deals with the same rollout seeds, so the loss of
the move played against the best move is measured per deal, and its mean comes with an
interval. Two rounds: all legal moves in a few deals, then the best few and the move played
in more; then a close call (a threshold inside the loss's interval) is judged again in
twice the deals at a time, up to ``Budget.max_worlds``, while it could still clear. A move
is marked only when the interval's lower end clears the mark's line (a Mistake when the
interval still holds the Blunder's, ``verdict``; ``Budget.margin`` can move that end a
share of the stake further under the mean); one that still holds the Mistake line when the
deals stop is a close call (``Evaluation.close``: no mark, its figures shown), so
a Blunder never meets an unmarked move when the game is judged again with other seeds
(``python -m bench.analysis --reproduce``).

The scale (``MARKS``, docs/coach.md): a mark weighs the chips lost against the stake, what
the seat had riding on the game at that decision (the mean size of its result, won or paid,
after the best move). Each mark needs its share of the stake and a floor in chips: calling
Draw with a high hand that the others likely beat can lose as much as the whole stake, a
Blunder, though only a few chips. Each move's seeds come from its number and seat alone, so
the same game gives the same analysis.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.bots import search
from games.engine.cards import code, codes_of, mask_of, mask_of_codes, parse_card, short
from games.engine.melds import deadwood, is_set
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.rules import apply
from games.engine.state import GameState, Outcome, Phase
from games.engine.view import SeatView, seat_view

# (name, share of the stake, chips at least), worst first: a move is marked when the lower
# end of its loss's interval is at least the larger of the two (``verdict``). Two marks since
# 7 December 2026 (issue 53): an Inaccuracy's line, a quarter of the stake, lay where many
# moves' losses lie, and a move judged twice went from a mark to a close call too often
# (docs/coach.md). Calibrated on games (``python -m bench.analysis --calibrate``).
MARKS = (("blunder", 0.6, 1.5), ("mistake", 0.45, 1.0))
# The finer scale the coach had until then, Inaccuracy included: the puzzles are mined with
# it (games/puzzles/mining.py: a puzzle asks for a move clearly better than the one played,
# by a quarter of the stake at least), and analyses stored before keep its marks.
FINE_MARKS = (("blunder", 0.6, 1.5), ("mistake", 0.45, 1.0), ("inaccuracy", 0.25, 0.5))
MIN_STAKE = 1.0  # chips: the least a loser pays
# Diagnosis only (``COACH_TRACE=1 python -m bench.analysis``): when a list, each judged move
# appends its looks (deals, best, interval, stake) and its finalists' chips deal by deal.
TRACE: list | None = None
# Drawing a deal of the unseen cards with the bot's model costs about as much CPU as 35
# moves of a rollout (measured on the games of docs/coach.md): a game's work (``judge_game``)
# counts both, so a late position's cheap rollouts do not hide its deals' cost.
DEAL_WORK = 35
MARK_NAMES = {
    "blunder": gettext_lazy("Blunder"),
    "mistake": gettext_lazy("Mistake"),
    "inaccuracy": gettext_lazy("Inaccuracy"),
}


@dataclass(frozen=True)
class Budget:
    """How hard the coach looks at one move. The defaults analyse a typical game in well
    under 30 s on one core (``python -m bench.analysis``)."""

    first_worlds: int = 12  # deals every legal move is played in
    worlds: int = 64  # deals the finalists and the move played are played in, in all
    finalists: int = 3  # the best moves of the first round that get the extra deals
    # A second look before the finalists are picked: the best ``second_look`` moves of the
    # first round (and the move played) in ``second_worlds`` deals in all. In 12 deals a
    # meld worth 4 chips more than any discard can rank fourth, and a judgement that leaves
    # it out compares the move played with a lesser best: quiet one time, a Blunder another
    # (docs/coach.md, 7 December 2026). 0: none (the coach before, and the puzzles).
    second_look: int = 6
    second_worlds: int = 24
    # Deals a mark is given on at least: the best of a few moves looks better than it is in
    # the deals it was picked in, so a loss measured there alone is too large.
    mark_worlds: int = 512
    # A close call keeps the finalists in play up to this many deals, the best chosen again
    # after each round, so that two judgements with other seeds compare with the same best.
    finalist_worlds: int = 512
    # From then on, the best and up to ``runners`` - 1 finalists the deals cannot yet tell
    # apart from it (the paired interval of the best's lead over it holds 0) stay in play,
    # the best chosen again after each round: near-equal best moves, one picked at 512
    # deals and the other in another judgement, changed marks (docs/coach.md). 1: the best
    # alone (the coach until 7 December 2026, and the puzzles).
    runners: int = 2
    # At this many deals, a move still in question has its finalists chosen again: the
    # moves of the second look left out are played in all the deals so far, and the best
    # ``finalists`` of them all go on (in 24 deals the best can still rank fourth, and a
    # judgement without it compares the move played with a lesser best). 0: never (the
    # puzzles).
    reopen_worlds: int = 256
    # Before that, at this many deals, a move in question has every legal move played in
    # all the deals so far, and the best ``finalists`` of them go on (the best
    # ``second_look`` are the moves chosen from again at ``reopen_worlds``): in 12 deals the
    # best can rank under the second look's six, and three judgements of one move measured
    # it against three different best moves (docs/coach.md). 0: never (the puzzles).
    reopen_all_worlds: int = 64
    # Every meld and secret set joins the second look and the finalists, whatever its rank
    # (so it is played in ``worlds`` deals): a meld of three nines worth 3 chips more than
    # the move played ranked under six discards in 12 deals, and under three in 24, in two
    # judgements of three (docs/coach.md). False: by rank alone (the puzzles).
    look_melds: bool = True
    max_worlds: int = 4096  # deals a close call is judged in at most (doubling each round)
    # From this many deals on, a close call that could not clear its line at ``max_worlds``
    # is given up (``_hopeless``).
    give_up_worlds: int = 1024
    # How sure "could not clear" must be: given up when even a mean this many of its own
    # standard errors (of the mean at ``max_worlds`` given the mean now) higher would leave
    # the lower end at ``max_worlds`` under the line (2: a chance of some 2%). 0: the rule
    # until 7 December 2026 (and the puzzles'): given up when the line, the loss staying
    # where it is, would still lie inside the interval at ``max_worlds``, which also gave up
    # moves over the line with even odds of clearing it (docs/coach.md).
    give_up_odds: float = 2.0
    # Alpha spending: a mark's lower end at n deals is the mean less z (max_worlds / n) **
    # spend standard errors, so a mark cleared at an early look of the repeated ones (512,
    # 1,024 …) needs a wider margin than one cleared at the last (docs/coach.md: each look
    # is one more chance for a move just under a line to clear it by luck). 0: z at every
    # look (the coach until 7 December 2026, and the puzzles).
    spend: float = 0.25
    # A margin, a share of the stake: a mark's lower end lies that much further under the
    # mean, so a mark needs its line cleared by that much more, and a move whose loss lies
    # just over a line is a close call. 0: none, the coach and the puzzles (5% was tried on
    # 8 December 2026 and not kept: docs/coach.md, Lab notes).
    margin: float = 0.0
    batch: int = 32  # deals a round adds at least (a round doubles the deals judged so far)
    # The loss's interval: its mean, give or take z standard errors (97.5%). A move is
    # marked only when the interval's lower end clears the mark's line (docs/coach.md).
    z: float = 2.24
    max_plies: int = 240000  # moves simulated at most for one move
    # The work of a whole game's analysis at most (``judge_game``; work: moves simulated,
    # and ``DEAL_WORK`` for each deal drawn), shared by its moves in order: a move may
    # spend what is left less ``reserve_work`` for each move still to judge after it; what
    # still straddles a line when its share is spent is a close call. A count, never a
    # time, so a verdict never depends on the machine: 30 to 58 s of CPU on the project's
    # machine, by its load (docs/coach.md); the 60 s limit is issue 53's.
    game_work: int = 1_250_000
    reserve_work: int = 8_000
    marks: tuple = MARKS  # the scale the verdict is given on (FINE_MARKS for the puzzles)
    # An interval over one line and across a worse one gets the lesser mark (``verdict``);
    # without, a close call (the coach until 7 December 2026, and the puzzles).
    lower: bool = True


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
    loss_low: float = 0.0  # the loss's interval (paired, in the same deals)
    loss_high: float = 0.0
    stake: float = MIN_STAKE  # chips riding on the game at this decision (see MARKS)
    mark: str = ""
    # A close call: the loss's interval still straddles a threshold once the deals ran out,
    # so no mark is given (one could flip when judged again); the figures are shown instead.
    close: bool = False
    why: dict = field(default_factory=dict)  # the reason, as data (``say_why`` words it)
    plies: int = 0  # moves simulated to judge it

    @property
    def work(self) -> int:
        """What judging it cost: moves simulated, and ``DEAL_WORK`` a deal drawn (every deal
        drawn is one the move played was played in)."""
        return self.plies + DEAL_WORK * self.worlds

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chips - self.played_chips)


def thresholds(stake: float, marks: tuple = MARKS) -> list[tuple[str, float]]:
    """(mark, chips lost at least) for a decision with ``stake`` riding on it, worst first."""
    stake = max(stake, MIN_STAKE)
    return [(name, max(share * stake, floor)) for name, share, floor in marks]


def mark_for(loss_low: float, stake: float, marks: tuple = MARKS) -> str:
    """The mark of a move whose loss is at least ``loss_low`` (its interval's lower end)."""
    for name, threshold in thresholds(stake, marks):
        if loss_low >= threshold:
            return name
    return ""


def verdict(
    loss_low: float, loss_high: float, stake: float, marks: tuple = MARKS, lower: bool = True
) -> tuple[str, bool]:
    """(mark, close call) of a loss's interval: the mark its lower end falls under when its
    upper end does too, or (``lower``) when that end only reaches a worse mark (the move
    surely lost a Mistake's share; whether a Blunder's, the deals could not say: a Mistake,
    never a Blunder that could go); a close call when the least mark's line lies inside it
    (no mark: it could go either way), or without ``lower`` any line (the puzzles' rule)."""
    low, high = mark_for(loss_low, stake, marks), mark_for(loss_high, stake, marks)
    if low == high or (low and lower):
        return low, False
    return "", True


def settled(loss_low: float, loss_high: float, stake: float, marks: tuple = MARKS) -> bool:
    """Whether no line lies inside the interval (more deals would not change the mark)."""
    return mark_for(loss_low, stake, marks) == mark_for(loss_high, stake, marks)


def move_seed(seq: int, seat: int, salt: str = "coach/2") -> int:
    """The seed of the deals a move is judged in: from its place in the game alone."""
    digest = hashlib.sha256(f"{salt}/{seq}/{seat}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


class _Deals:
    """The deals a move is judged in, each with its own rollout seed, drawn on demand: deal
    ``i`` and its seed depend on the move's seed and ``i`` only, so every move played in
    deal ``i`` meets the same cards and the same rollout randomness (paired)."""

    def __init__(self, view: SeatView, seed: int) -> None:
        self.view, self.seed, self.made = view, seed, []

    def __getitem__(self, i: int) -> tuple[GameState, int, int]:
        while len(self.made) <= i:
            n = len(self.made)
            rng = random.Random(f"{self.seed}/deal/{n}")
            deal, noisy = search.model_deal(self.view, rng, search.DEFAULT_BUDGET)
            self.made.append((deal, noisy, hash_seed(self.seed, n)))
        return self.made[i]


def play_out(state: GameState, rng: random.Random, noisy: int) -> tuple[Outcome, int]:
    """The coach's rollout policy, the one place it plays a deal to the end: the Hard
    bot's own (``search.rollout``: greedy, and the seats of the mask ``noisy``, which the
    deal took for noisy players, making any legal move in some of theirs, or in all of
    theirs for a seat taken for a random player). A learned policy
    replaces it here. Returns the outcome and the moves played."""
    return search.rollout(state, rng, noisy)


def hash_seed(seed: int, n: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/roll/{n}".encode()).digest()[:8], "big")


class _Scores:
    """Each move's results, deal by deal: chips for the seat, and whether it won."""

    def __init__(self, moves: Sequence[Move]) -> None:
        self.chips: dict[Move, list[int]] = {m: [] for m in moves}
        self.won: dict[Move, list[bool]] = {m: [] for m in moves}
        self.plies = 0

    def play(self, deals: _Deals, i: int, move: Move, me: int) -> None:
        deal, noisy, roll = deals[i]
        outcome, used = play_out(apply(deal, move), random.Random(roll), noisy)
        self.chips[move].append(outcome.chips[me])
        self.won[move].append(outcome.winner == me)
        self.plies += used

    def mean(self, move: Move) -> float:
        return _mean(self.chips[move])


def evaluate(
    view: SeatView,
    played: Move,
    seq: int,
    budget: Budget = DEFAULT_BUDGET,
    salt: str = "coach/2",
    *,
    want: Move | None = None,
    max_work: int | None = None,
) -> Evaluation:
    """Judge ``played`` against every legal move of ``view``, from ``view`` alone. (Another
    ``salt`` samples other deals: ``bench.analysis --reproduce`` measures the marks so.)
    ``want``: only a verdict naming that move best is of use (a puzzle's second judgement):
    the deals stop as soon as it no longer can be (it is not a finalist), and the verdict
    returned then names another best. Until then the judgement is the very one without it.
    ``max_work``: this move's share of its game's work (``judge_game``): no more deals once
    it is spent (nor once ``budget.max_plies`` moves are simulated)."""
    legal = list(view.legal)
    if played not in legal:
        raise ValueError(f"move {seq} is not one the seat could make")
    me = view.seat
    deals = _Deals(view, move_seed(seq, me, salt))
    s = _Scores(legal)
    # Round one: every legal move (only one: nothing to compare, yet its value is shown).
    first = budget.first_worlds if len(legal) > 1 else min(budget.first_worlds, 4)
    for i in range(first):
        for move in legal:
            s.play(deals, i, move, me)
    ranked = sorted(legal, key=lambda m: -s.mean(m))
    melds = [m for m in ranked if m.type in (MELD, SECRET)] if budget.look_melds else []
    pool = ranked  # the moves the finalists may be chosen again from (``reopen_worlds``)
    reopened = False  # every legal move played on all the deals (``reopen_all_worlds``)
    n = first
    if len(legal) > budget.finalists and budget.second_look > 0 and n < budget.second_worlds:
        looked = list(dict.fromkeys([*ranked[: budget.second_look], *melds, played]))
        while n < budget.second_worlds:
            for move in looked:
                s.play(deals, n, move, me)
            n += 1
        ranked = pool = sorted(looked, key=lambda m: -s.mean(m))
    # Round two: the best few (every meld too) and the move played, in more deals.
    finalists = list(dict.fromkeys([*ranked[: budget.finalists], *melds, played]))
    if len(legal) > 1 and (want is None or want in finalists):
        while n < budget.worlds and _more(s, deals, budget, max_work):
            for move in finalists:
                s.play(deals, n, move, me)
            n += 1
    best = _best(s, finalists, played)
    looks: list = []
    # Close calls: while a threshold lies inside the loss's interval and could still be
    # cleared, the deals are doubled (the finalists kept in play at first, so the best is
    # chosen again on more deals; then only the best and the move played).
    while best != played and n < budget.max_worlds and _more(s, deals, budget, max_work):
        low, high = _judged(s, best, played, budget)
        stake = _stake(s, best)
        mark, close = verdict(low, high, stake, budget.marks, budget.lower)
        done = settled(low, high, stake, budget.marks)
        if TRACE is not None:
            looks.append(
                (n, str(best), round(low, 3), round(high, 3), round(stake, 3), mark, close)
            )
        if done and (not mark or n >= budget.mark_worlds):
            break  # settled
        if not done and n >= budget.give_up_worlds and _hopeless(low, high, stake, n, budget):
            break
        if budget.reopen_all_worlds and n >= budget.reopen_all_worlds and not reopened:
            reopened = True  # every legal move on all the deals so far, once
            for move in legal:
                for i in range(len(s.chips[move]), n):
                    s.play(deals, i, move, me)
            ranked = sorted(legal, key=lambda m: -s.mean(m))
            finalists = list(dict.fromkeys([*ranked[: budget.finalists], played]))
            pool = ranked[: max(budget.second_look, budget.finalists)]
            best = _best(s, finalists, played)
            low, high = _judged(s, best, played, budget)
            stake = _stake(s, best)
            if settled(low, high, stake, budget.marks) and not mark_for(low, stake, budget.marks):
                break  # against the best of them all, the move is not in question
        if budget.reopen_worlds and n >= budget.reopen_worlds and len(pool) > len(finalists):
            for move in pool:  # the finalists chosen again, once, on all the deals so far
                for i in range(len(s.chips[move]), n):
                    s.play(deals, i, move, me)
            ranked = sorted(pool, key=lambda m: -s.mean(m))
            finalists = list(dict.fromkeys([*ranked[: budget.finalists], played]))
            best, pool = _best(s, finalists, played), []
        if n >= budget.finalist_worlds:
            finalists = _runners(s, finalists, best, played, budget)
        if want is not None and want not in finalists:
            break  # it cannot be the best any more
        end = min(n + max(budget.batch, n), budget.max_worlds)
        while n < end and _more(s, deals, budget, max_work):
            for move in finalists:
                s.play(deals, n, move, me)
            n += 1
        best = _best(s, finalists, played)
    low, high = _judged(s, best, played, budget) if best != played else (0.0, 0.0)
    stake = _stake(s, best)
    mark, close = (
        verdict(low, high, stake, budget.marks, budget.lower) if best != played else ("", False)
    )
    if mark and len(s.chips[played]) < min(budget.mark_worlds, budget.max_worlds):
        mark, close = "", True  # the move budget ran out before a mark could be given
    if TRACE is not None:
        deep = {str(m): c for m, c in s.chips.items() if len(c) >= 256}
        TRACE.append(
            {
                "seq": seq,
                "looks": looks,
                "played": str(played),
                "best": str(best),
                "chips": deep if (mark or close or len(s.chips[played]) >= 256) else {},
                "work": s.plies + DEAL_WORK * len(deals.made),
                "max_work": max_work,
            }
        )
    return Evaluation(
        seq=seq,
        seat=me,
        played=played,
        best=best,
        played_chips=round(s.mean(played), 2),
        best_chips=round(s.mean(best), 2),
        choices=len(legal),
        worlds=len(s.chips[played]),
        loss_low=round(low, 2),
        loss_high=round(high, 2),
        stake=round(stake, 2),
        mark=mark,
        close=close,
        why=why_for(view, played, best, s),
        plies=s.plies,
    )


def _more(s: _Scores, deals: _Deals, budget: Budget, max_work: int | None) -> bool:
    """Whether a move's judgement may play another deal."""
    work = s.plies + DEAL_WORK * len(deals.made)
    return s.plies < budget.max_plies and (max_work is None or work < max_work)


def judge_game(
    moments: Sequence[tuple[SeatView, Move, int]],
    budget: Budget = DEFAULT_BUDGET,
    salt: str = "coach/2",
    spent: int = 0,
) -> Iterator[Evaluation]:
    """Judge each (view, move, seq) of a game's moments still to judge, in order, within
    the game's work (``Budget.game_work``), of which ``spent`` went on its moves judged
    before (a worker that died: their stored verdicts' ``Evaluation.work``). Each move may
    spend what is left less ``budget.reserve_work`` for each move after it, so a game's
    analysis never passes the budget by more than a move's first rounds, and the same game
    always gets the same verdicts (the shares are counts, not times)."""
    for k, (view, move, seq) in enumerate(moments):
        share = budget.game_work - spent - budget.reserve_work * (len(moments) - k - 1)
        found = evaluate(view, move, seq, budget, salt, max_work=max(share, 0))
        spent += found.work
        yield found


def _interval(s: _Scores, best: Move, played: Move, z: float) -> tuple[float, float]:
    """The paired loss of ``played`` against ``best``, give or take ``z`` standard errors
    (a floor on the spread, so a few equal results are not taken as certain)."""
    n = len(s.chips[played])
    diffs = [a - b for a, b in zip(s.chips[best][:n], s.chips[played], strict=True)]
    mean = _mean(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / max(n, 1))
    half = z * max(spread, 0.5 / math.sqrt(max(n, 1)))
    return mean - half, mean + half


def _judged(s: _Scores, best: Move, played: Move, budget: Budget) -> tuple[float, float]:
    """The loss's interval a verdict is given on: its upper end at ``budget.z`` standard
    errors, its lower end (a mark's) at more on fewer deals than ``budget.max_worlds``
    (``Budget.spend``) and ``Budget.margin`` of the stake further still (without a margin,
    the same interval as ``_interval`` at the most deals)."""
    low, high = _interval(s, best, played, budget.z)
    n = len(s.chips[played])
    mean, half = (low + high) / 2, (high - low) / 2
    return mean - half * _stretch(n, budget) - budget.margin * _stake(s, best), high


def _stretch(n: int, budget: Budget) -> float:
    """How much further than ``budget.z`` standard errors a mark's lower end lies on ``n``
    deals (alpha spending on fewer deals than ``budget.max_worlds``, ``Budget.spend``)."""
    if budget.spend and 0 < n < budget.max_worlds:
        return (budget.max_worlds / n) ** budget.spend
    return 1.0


def _runners(
    s: _Scores, finalists: Sequence[Move], best: Move, played: Move, budget: Budget
) -> list[Move]:
    """The finalists kept in play: the best, the move played, and the next best up to
    ``budget.runners`` in all that the deals cannot tell apart from the best yet (the
    paired interval of the best's lead over it holds 0). One dropped is not taken back."""
    kept = [best]
    others = sorted((m for m in finalists if m not in (best, played)), key=lambda m: -s.mean(m))
    for move in others:
        if len(kept) >= budget.runners:
            break
        if _interval(s, best, move, budget.z)[0] < 0:
            kept.append(move)
    return list(dict.fromkeys([*kept, played]))


def _best(s: _Scores, moves: Sequence[Move], played: Move) -> Move:
    """The best of ``moves`` in the deals they were all played in; a tie goes to the move
    played (no mark for a move as good as any)."""
    return max(moves, key=lambda m: (s.mean(m), m == played))


def _hopeless(low: float, high: float, stake: float, n: int, budget: Budget) -> bool:
    """Whether a close call cannot clear its threshold even at the most deals (``Budget.
    give_up_odds``: even were the deals to come luckier than the mean now foretells, the
    lower end at the most deals would stay under the least line inside the interval). The
    deals are then spared: the verdict would be the same. (Asked only from
    ``give_up_worlds`` deals on: the mean of fewer deals moves too much to give up on.)"""
    mean, half = _centre(low, high, n, budget, stake)
    narrowed = half * math.sqrt(n / budget.max_worlds)  # the half-width at the most deals
    lines = thresholds(stake, budget.marks)
    if not budget.give_up_odds:
        return any(low < t <= high and abs(mean - t) < narrowed for _, t in lines)
    # The mean at the most deals as foretold from the mean now (the loss itself unknown,
    # taken as likely as the deals say) spreads by the standard error at the most deals
    # times sqrt(deals to come / deals now).
    spread = narrowed / budget.z * math.sqrt(max(budget.max_worlds - n, 0) / n)
    # The least line inside is the one the move could still clear (one over the Mistake
    # line and across the Blunder line is a Mistake whatever the Blunder line does).
    inside = [t for _, t in lines if low < t <= high]
    clears = min(inside) + narrowed + budget.margin * max(stake, MIN_STAKE) if inside else 0.0
    return bool(inside) and mean + budget.give_up_odds * spread < clears


def _centre(low: float, high: float, n: int, budget: Budget, stake: float) -> tuple[float, float]:
    """(mean, half-width at ``budget.z``) of an interval from ``_judged``."""
    half = (high - low - budget.margin * max(stake, MIN_STAKE)) / (1 + _stretch(n, budget))
    return high - half, half


def _stake(s: _Scores, best: Move) -> float:
    """What the seat has riding on the game here: the mean size of its result, won or
    paid, after the best move (at least ``MIN_STAKE``)."""
    return max(MIN_STAKE, _mean([abs(c) for c in s.chips[best]]))


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# --- Why: the reason for a suggestion, from the seat's own view -----------------------------


def _percent(values: Sequence[bool]) -> int:
    return round(100 * sum(values) / len(values)) if values else 0


def why_for(view: SeatView, played: Move, best: Move, s: _Scores) -> dict:
    """The reason the best move beats the one played, as data: what the seat saw (its own
    hand's points and cards) and what the coach's deals say (shares of them). Worded in the
    reader's language by ``say_why``."""
    if played == best:
        return {}
    hand = mask_of(view.hand)
    found = {"points": view.hand_points, "cards": len(view.hand)}
    pay = _percent([c < 0 for c in s.chips[played]])
    win = _percent(s.won[played])
    best_win = _percent(s.won[best])
    if played.type == CALL:
        return {**found, "kind": "call", "pct": pay} if pay >= 50 else {
            **found, "kind": "call_early", "pct": win, "best_pct": best_win}  # fmt: skip
    if best.type == CALL:
        return {**found, "kind": "no_call", "pct": best_win}
    if played.type == FIGHT:
        return {**found, "kind": "fight", "pct": pay}
    if played.type == FOLD:
        return {**found, "kind": "fold", "pct": best_win}
    if played.type == DISCARD and best.type == DISCARD:
        return {
            "kind": "discard", "card": code(played.card), "best_card": code(best.card),
            "deadwood": deadwood(hand & ~played.cards),
            "best_deadwood": deadwood(hand & ~best.cards),
            "pct": win, "best_pct": best_win,
        }  # fmt: skip
    return {"kind": "odds", "pct": win, "best_pct": best_win, "pay": pay,
            "best_pay": _percent([c < 0 for c in s.chips[best]])}  # fmt: skip


def say_why(why: dict) -> str:
    """The reason in the reader's language: "Calling Draw: you hold 47 in 8 cards; the
    others likely hold less (est. 62% you pay)"."""
    kind = why.get("kind")
    if not kind or kind not in _WHY:
        return ""
    values = dict(why)
    for key in ("card", "best_card"):
        if key in values:
            values[key] = short(parse_card(values[key]))
    return str(_WHY[kind]) % values


_WHY = {
    "call": pgettext_lazy(
        "coach's reason",
        "Calling Draw: you hold %(points)s in %(cards)s cards; the others likely hold less "
        "(est. %(pct)s%% you pay)",
    ),
    "call_early": pgettext_lazy(
        "coach's reason",
        "Calling Draw: you hold %(points)s in %(cards)s cards; playing on was worth more "
        "(est. %(pct)s%% you win now, %(best_pct)s%% by playing on)",
    ),
    "no_call": pgettext_lazy(
        "coach's reason",
        "Not calling Draw: you hold %(points)s in %(cards)s cards; the others likely hold more "
        "(est. %(pct)s%% a call wins)",
    ),
    "fight": pgettext_lazy(
        "coach's reason",
        "Fighting: you hold %(points)s in %(cards)s cards; the caller likely holds less "
        "(est. %(pct)s%% you pay)",
    ),
    "fold": pgettext_lazy(
        "coach's reason",
        "Folding: you hold %(points)s in %(cards)s cards; the caller likely holds more "
        "(est. %(pct)s%% a fight wins)",
    ),
    "discard": pgettext_lazy(
        "coach's reason",
        "Discarding %(card)s leaves you %(deadwood)s points of deadwood, %(best_card)s "
        "%(best_deadwood)s; est. you win %(pct)s%% after it, %(best_pct)s%% after the better move",
    ),
    "odds": pgettext_lazy(
        "coach's reason",
        "After your move, est. you win %(pct)s%% and pay %(pay)s%%; after the better move, "
        "%(best_pct)s%% and %(best_pay)s%%",
    ),
}


# --- The better move: its steps as data, put into words where it is read -------------------


def better_steps(view: SeatView, best: Move, seq: int) -> list[dict]:
    """The best move, and for a meld, secret set or lay-off the rest of the turn as the
    Hard bot would play it (``search.choose``: its own search, from the seat's view after
    each step, with a seed from the move's place), so it is known from the view alone:
    each a ``step`` (stored with the verdict; ``say_better`` words it in the reader's
    language)."""
    steps = [step(view, best)]
    if view.phase is Phase.PLAY and best.type != DISCARD:
        rng = random.Random(move_seed(seq, view.seat, "coach/turn"))
        state = apply(search.sample_deal(view, rng, search.DEFAULT_BUDGET), best)
        while state.outcome is None and state.turn == view.seat and state.phase is Phase.PLAY:
            mine = seat_view(state, view.seat)
            move = search.choose(mine, rng)
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
