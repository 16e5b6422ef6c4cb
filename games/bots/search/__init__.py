"""The search bot: determinized Monte Carlo over the cards this seat cannot see.

From its seat's view alone it samples deals of the unseen cards that fit everything the
view shows (each hand's size, the melds, the pile, the stock's size, the secret sets), plays
each candidate move forward in every sampled deal with the greedy bot in all three seats to
the end of the game, and picks the move with the best mean chips for its seat.

Improvements on the plain method:

- every candidate is played in the same deals (common random numbers), and, where it
  takes a seat for a random player, with the same rollout randomness, so the comparison
  between two moves is not drowned in the luck of the deals or of that seat's moves;
- cheap pruning first: only the few best discards by greedy's score, the few best melds,
  takes and lay-offs by deadwood, and greedy's own move always;
- racing: after each batch of deals, a candidate clearly behind the leader is dropped, so
  close calls get the remaining deals;
- a budget counted in moves simulated rather than in seconds, so the same seed always gives
  the same move, and long rollouts early in a game cost fewer deals rather than more time;
- Draw decisions (to call, to fold or fight) go to the best mean chips, with no bar in
  favour of greedy's rule of thumb: the bot calls when calling is worth more by its own
  estimate;
- not every opponent is taken for greedy: in each deal an opponent may be a noisy player
  (a plain hand, any legal move half the time in rollouts), the more likely the more low
  cards it has thrown (``noisy_chance``); one that also has not opened after its turns
  (``random_chance``) is taken for a player who makes any legal move, in every deal;
- its own seat's throws in the rollouts, and the discards it tries, come from a small
  learned model of its own throws (``games.bots.learned``, ``manage.py train_bot``).

The deals are not uniform: the other seats are taken to play like a bot that melds what
it can (greedy), so a seat that has finished a turn holds no meld, no pair for a discard it
let go by, and has thrown its worst card; a seat that calls Draw holds a low hand; and of a
few deals, the one is kept in which each other seat would have thrown the discard it last
threw. Dealing uniformly overrates their points (the bot then calls and fights too often);
shaping their hands by more than one throw underrates them (it then fails to call). Most
of what the search gains on greedy comes from these guesses: with the other hands known, the
same search is worth some 0.5 chips a decision more than greedy.

Greedy's moves in the rollouts are read straight from each sampled state's masks
(``state_reading``), not from a seat view built for every move: the same moves, cheaper.

It builds full states only from its own guesses (``state_from_view``); the real state never
reaches it, which tests/test_search.py checks by playing it in different deals that share
one view.

This package is Hard's one entry point: the race is here, its pieces beside it
(``budget``, ``opponents``: the model of the other seats, ``deals``: the sampler,
``rollouts``), and what others call of them (the coach, the benches) is reached through
this module, so that a change to the bot flows into them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.engine.melds import deadwood
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.rules import apply
from games.engine.state import GameState, Phase
from games.engine.view import SeatView

from .. import greedy, learned
from ..knowledge import Reading, read
from .budget import DEFAULT_BUDGET, Budget
from .deals import model_deal, sample_deal, sample_world
from .opponents import noisy_chance, random_chance, random_players
from .rollouts import rollout, rollout_with, state_reading

# What the coach and the benches call, besides the bot's own choose.
__all__ = [
    "DEFAULT_BUDGET",
    "Budget",
    "Sampler",
    "choose",
    "choose_with",
    "is_draw_decision",
    "model_deal",
    "noisy_chance",
    "race_scores",
    "random_chance",
    "rollout",
    "sample_deal",
    "sample_world",
    "state_reading",
]


def choose(view: SeatView, rng: random.Random) -> Move:
    """The search bot's move for the seat whose view this is."""
    return choose_with(view, rng, DEFAULT_BUDGET)


# A sampler of deals: (view, rng, budget) -> a state that fits the view.
Sampler = Callable[[SeatView, random.Random, Budget], GameState]


def choose_with(
    view: SeatView, rng: random.Random, budget: Budget, sampler: Sampler | None = None
) -> Move:
    """The search's move with ``budget``; ``sampler`` replaces the deals it plays in (the
    oracle bench gives it deals that know more than the view, to measure what knowing
    would be worth; the bot itself always samples from the view)."""
    r = read(view)
    default = greedy.choose_read(r, greedy.TUNED if budget.own_tuned else greedy.NORMAL)
    if len(view.legal) == 1 or _obvious(r):
        return default
    if view.phase is Phase.PLAY and not budget.search_play:
        return default
    if view.phase is Phase.START and not budget.search_start:
        return default
    candidates = _candidates(r, default, budget)
    if len(candidates) == 1:
        return candidates[0]
    return _race(view, candidates, rng, budget, sampler)


def _obvious(r: Reading) -> bool:
    """Greedy's move empties the hand this turn: a Tongits (R3) is never worth searching."""
    return r.view.phase is Phase.PLAY and greedy.tongits_step(r) is not None


def _candidates(r: Reading, default: Move, budget: Budget) -> list[Move]:
    """Greedy's move first, then the few others worth a rollout."""
    legal = r.view.legal
    if r.view.phase is Phase.ANSWER:
        picked = list(legal)
    elif r.view.phase is Phase.START:
        picked = [m for m in legal if m.type in (CALL, DRAW)]
        picked += _by_deadwood(r, [m for m in legal if m.type == TAKE], budget.others)
    else:
        picked = [m for m in legal if m.type == SECRET]
        for kind in (MELD, LAYOFF):
            picked += _by_deadwood(r, [m for m in legal if m.type == kind], budget.others)
        discards = [m for m in legal if m.type == DISCARD]
        if budget.learned_order:
            rank = {c: i for i, c in enumerate(learned.default_model().ranked(r))}
            discards.sort(key=lambda m: rank[m.card])
        else:
            discards.sort(key=lambda m: greedy.discard_score(r, m.card))
        picked += discards[: budget.discards]
    return [default, *(m for m in dict.fromkeys(picked) if m != default)]


def _by_deadwood(r: Reading, moves: list[Move], keep: int) -> list[Move]:
    return sorted(moves, key=lambda m: (deadwood(r.hand & ~m.cards), -m.cards.bit_count()))[:keep]


def _race(
    view: SeatView,
    candidates: list[Move],
    rng: random.Random,
    budget: Budget,
    sampler: Sampler | None,
) -> Move:
    """The race's choice among the candidates that ``race_scores`` left."""
    scores, alive = race_scores(view, candidates, rng, budget, sampler)
    best = max(alive, key=lambda i: (_mean(scores[i]), -i))
    if budget.draw_by_value and is_draw_decision(candidates):
        # Calling Draw, or answering a call, is worth what the rollouts say it is worth:
        # the move with the best mean chips, whatever greedy's rule of thumb would do.
        return candidates[best]
    # Greedy's move (index 0) is a good move already, and the best of several noisy means
    # looks better than it is: another move must beat it clearly in the same deals.
    if best != 0 and 0 in alive and _edge(scores[best], scores[0], budget.beat_z) <= 0:
        return candidates[0]
    return candidates[best]


def race_scores(
    view: SeatView,
    candidates: list[Move],
    rng: random.Random,
    budget: Budget,
    sampler: Sampler | None = None,
) -> tuple[list[list[float]], list[int]]:
    """The race itself: play the live candidates in batches of the same sampled deals and
    drop the clearly worse. Returns each candidate's chips deal by deal (the i-th score of
    every candidate still in the race comes from the same deal), and the candidates left."""
    custom = sampler is not None
    me = view.seat
    scores: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    plies = worlds = 0
    others = ((me + 1) % 3, (me + 2) % 3)
    chances = [noisy_chance(view, s, budget) for s in others]
    anyone = random_players(view, others, budget)
    paired = budget.paired_rollouts and anyone != 0
    learned_args: dict = {}
    if budget.learned_rollouts:
        learned_args = {"model": learned.default_model(), "learned_seats": 1 << me}
    if budget.own_tuned:
        learned_args["tuned_seats"] = 1 << me
    while len(alive) > 1 and worlds < budget.max_worlds and plies < budget.max_plies:
        for _ in range(budget.batch):
            noisy = 0
            if budget.noisy_share > 0:
                noisy = sum(
                    1 << s for s, p in zip(others, chances, strict=True) if rng.random() < p
                )
            if custom:
                world = sampler(view, rng, budget)
            else:
                world = sample_world(
                    view, rng, budget.shape, budget.tries, budget.discard_tries,
                    plain=noisy | anyone,
                )  # fmt: skip
            roll = rng.getrandbits(64) if paired else 0
            for i in alive:
                outcome, used = rollout_with(
                    apply(world, candidates[i]),
                    random.Random(roll) if paired else rng,
                    noisy & ~anyone if budget.noise > 0 else 0,
                    budget.noise,
                    anyone=anyone,
                    **learned_args,
                )
                scores[i].append(outcome.chips[me] + budget.win_bonus * (outcome.winner == me))
                plies += used
        worlds += budget.batch
        alive = _survivors(alive, scores, budget.drop_z)
    return scores, alive


def is_draw_decision(candidates: list[Move]) -> bool:
    """Whether the choice is about a Draw call: to call one (R7), or to fold or fight one."""
    return any(m.type in (CALL, FOLD, FIGHT) for m in candidates)


def _survivors(alive: list[int], scores: list[list[float]], z: float) -> list[int]:
    leader = max(alive, key=lambda i: (_mean(scores[i]), -i))
    return [i for i in alive if i == leader or _edge(scores[i], scores[leader], -z) >= 0]


def _edge(mine: list[float], theirs: list[float], z: float) -> float:
    """The paired mean difference less ``z`` standard errors (both played in the same deals)."""
    n = len(mine)
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = _mean(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
    # A floor on the spread, so a handful of identical differences is not taken as certain.
    return mean - z * max(spread, 0.5 / math.sqrt(n))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
