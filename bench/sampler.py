"""How well the search bot guesses the cards it cannot see: ``python -m bench.sampler``.

The search bot plays every candidate move in deals it samples of the unseen cards
(``games.bots.search.sample_world``). This bench measures those deals against the truth,
offline and in about a minute, where ``bench.oracle`` measures what a perfect guess would
be worth in games and takes several. It plays greedy in all three seats from a seed, stops
at the moments a seat is about to discard (the decision where ``bench.oracle`` found the
value of knowing), asks each sampler for ``--deals`` deals from that seat's view, and
scores them against the real hands:

- ``ll_next`` / ``ll_prev``: per-card log loss. For every card the seat has not seen, the
  share of deals that put it in the next seat's hand (the previous seat's), scored against
  where the card is. Lower is better.
- ``take_brier``: for every card of the seat's hand, the share of deals in which the next
  seat holds two cards that would let it take that card from the pile (R3), scored against
  whether it truly could (Brier score, lower is better). This is what a discard risks.
- ``mae_next`` / ``mae_prev`` and ``bias_next`` / ``bias_prev``: the mean absolute and the
  mean signed error of the deals' mean hand points for each other seat (R1), the figure the
  Draw calls and fights turn on (R7).

Samplers:

- ``random``: the unseen cards dealt at random to the other hands and the stock (secret
  sets as the truth has them, so the counts fit), the baseline;
- ``fitted``: the bot's constraints without its shaping (``sample_world(view, rng)``: a
  seat that has played holds no meld and no pair for a discard it let go by);
- ``bot``: the bot's own sampler with its default budget (``search.sample_deal``).

The last line of standard output is one JSON object. A tool for research: nothing under
``games/`` imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Iterator

from games.bots import greedy, search
from games.engine import GameState, apply, new_game, seat_view
from games.engine.cards import FULL_DECK, cards_of, points
from games.engine.melds import take_options
from games.engine.moves import DISCARD, Move
from games.engine.state import Phase
from games.engine.view import SeatView

# A sampler here gets the truth too: only ``random`` reads it, for the secret sets.
Deal = Callable[[SeatView, GameState, random.Random], GameState]
METRICS = ("ll_next", "ll_prev", "take_brier", "mae_next", "mae_prev", "bias_next", "bias_prev")


def random_deal(view: SeatView, truth: GameState, rng: random.Random) -> GameState:
    """The other hands and the rest of the stock dealt again at random from their cards."""
    me = truth.turn
    world = truth.copy()
    world.hands = world.hands[:]
    others = [(me + 1) % 3, (me + 2) % 3]
    pool = [c for s in others for c in cards_of(world.hands[s])]
    pool += world.stock[world.stock_pos :]
    rng.shuffle(pool)
    for seat in others:
        count = world.hands[seat].bit_count()
        world.hands[seat] = sum(1 << c for c in pool[:count])
        pool = pool[count:]
    world.stock = (*world.stock[: world.stock_pos], *pool)
    return world


SAMPLERS: dict[str, Deal] = {
    "random": random_deal,
    "fitted": lambda view, truth, rng: search.sample_world(view, rng),
    "bot": lambda view, truth, rng: search.sample_deal(view, rng, search.DEFAULT_BUDGET),
}


def discard_moments(
    games: int, seed: int
) -> Iterator[tuple[int, GameState, GameState, list[Move]]]:
    """(game number, the game's first state, state, the moves so far) at each moment of
    ``games`` greedy games at which the seat to play is about to discard. The list of moves
    grows as the game goes on: read it before asking for the next moment."""
    rng = random.Random(seed)
    for number in range(games):
        first = new_game(rng.randrange(1 << 30))
        state, log = first, []
        while state.outcome is None:
            view = seat_view(state, state.turn)
            move = greedy.choose(view, rng)
            if state.phase is Phase.PLAY and move.type == DISCARD and len(view.legal) > 1:
                yield number, first, state, log
            log.append(move)
            state = apply(state, move)


def unseen(state: GameState) -> int:
    """The cards the seat to play has not seen: not in its hand, the pile or a face-up meld
    (nor in a secret set of its own)."""
    me = state.turn
    seen = state.hands[me] | sum(1 << c for c in state.discards)
    for meld in state.melds:
        if not meld.secret or meld.owner == me:
            seen |= meld.cards
    return FULL_DECK & ~seen


def score(states: list[GameState], deal: Deal, deals: int, seed: int) -> dict[str, float]:
    """The sampler's figures over ``states`` (see the module's docstring)."""
    rng = random.Random(seed)
    sums = dict.fromkeys(METRICS, 0.0)
    card_terms = [0, 0]
    take_terms = 0
    for truth in states:
        me = truth.turn
        view = seat_view(truth, me)
        others = ((me + 1) % 3, (me + 2) % 3)
        held = [[0] * 52, [0] * 52]
        mean_points = [0.0, 0.0]
        takes = dict.fromkeys(cards_of(truth.hands[me]), 0)
        for _ in range(deals):
            world = deal(view, truth, rng)
            for i, seat in enumerate(others):
                for card in cards_of(world.hands[seat]):
                    held[i][card] += 1
                mean_points[i] += points(world.hands[seat]) / deals
            for card in takes:
                takes[card] += bool(take_options(world.hands[others[0]], card))
        hidden = unseen(truth)
        for i, seat in enumerate(others):
            name = ("next", "prev")[i]
            for card in cards_of(hidden):
                # A little smoothing, so one deal's miss is not an infinite loss.
                p = (held[i][card] + 0.25) / (deals + 0.5)
                sums[f"ll_{name}"] -= math.log(p if truth.hands[seat] >> card & 1 else 1 - p)
                card_terms[i] += 1
            error = mean_points[i] - points(truth.hands[seat])
            sums[f"mae_{name}"] += abs(error)
            sums[f"bias_{name}"] += error
        for card, count in takes.items():
            real = bool(take_options(truth.hands[others[0]], card))
            sums["take_brier"] += (count / deals - real) ** 2
            take_terms += 1
    n = len(states)
    divisors = {"ll_next": card_terms[0], "ll_prev": card_terms[1], "take_brier": take_terms}
    return {k: round(v / max(divisors.get(k, n), 1), 4) for k, v in sums.items()}


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.sampler", description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="greedy games to stop in (100)")
    parser.add_argument("--states", type=int, default=600, help="moments scored at most (600)")
    parser.add_argument("--deals", type=int, default=32, help="deals a sampler gives each (32)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and deals (1)")
    parser.add_argument(
        "--samplers", default=",".join(SAMPLERS), help=f"of {', '.join(SAMPLERS)} (all)"
    )
    args = parser.parse_args(argv)
    names = [s for s in args.samplers.split(",") if s]
    if not names or set(names) - set(SAMPLERS):
        parser.error(f"--samplers: a comma-separated list of {', '.join(SAMPLERS)}")
    states = [state for _, _, state, _ in discard_moments(args.games, args.seed)]
    random.Random(args.seed).shuffle(states)
    states = states[: args.states]
    print(f"{len(states)} moments before a discard, {args.deals} deals each", file=sys.stderr)
    print(f"{'sampler':8}" + "".join(f"{m:>12}" for m in METRICS))
    figures: dict[str, object] = {"states": len(states), "deals": args.deals}
    for name in names:
        result = score(states, SAMPLERS[name], args.deals, args.seed)
        figures[name] = result
        print(f"{name:8}" + "".join(f"{result[m]:>12.4f}" for m in METRICS), flush=True)
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
