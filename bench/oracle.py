"""What knowing more would be worth to the search bot: ``python -m bench.oracle``.

The search bot guesses the cards its seat cannot see. This bench plays it against two
greedy bots, in the arena's rotation of seats and shared deals, with its guesses replaced
by deals that know some of the truth (an oracle), and prints its win rate with the 95%
interval, its mean chips and how its games ended. It measures ceilings for whoever works on
the bot's guesses; nobody ever plays against an oracle, and nothing under ``games/`` imports
this file.

``--know``:
- ``nothing``: the bot's own sampler, the control (the same as ``arena``'s search seat);
- ``hands``: both other hands exactly; the stock's order is still shuffled;
- ``next`` / ``prev``: the next seat's (the seat after ours) or the previous seat's hand
  exactly, the other hand and the stock shuffled together from the rest;
- ``stock``: which cards are in the stock (in a shuffled order), the two other hands dealt
  at random from the rest;
- ``points``: the bot's own deals, of up to 300 the first whose two other hands are each
  within ``--tolerance`` points of the truth (else the nearest): how much knowing the
  others' points, and nothing more, would be worth;
- ``posterior``: deals that fit the whole public record if the other seats play greedy
  (``bench.posterior``'s chain, started at the truth): the best guess reading the record
  allows. Slow: some 2 s a game.

``--phases`` says at which of the bot's decisions the oracle is asked (``start``: call,
draw or take; ``play``: melds, lay-offs, the discard; ``answer``: fold or fight); at the
others it samples as usual. The last line of standard output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from bench import posterior
from games.bots import greedy, search
from games.bots.arena import default_jobs, schedule, wilson_interval
from games.engine import GameState, apply, new_game, seat_view
from games.engine.cards import cards_of, points
from games.engine.state import Phase

KNOWS = ("nothing", "hands", "next", "prev", "stock", "points", "posterior")
PHASES = {"start": Phase.START, "play": Phase.PLAY, "answer": Phase.ANSWER}
POINT_TRIES = 300


def oracle(truth: GameState, know: str, tolerance: int) -> search.Sampler:
    """A sampler of deals that knows ``know`` of ``truth``, the game's real state."""
    me = truth.turn

    def hands(view, rng, budget):
        world = truth.copy()
        world.hands = world.hands[:]
        nxt, prev = (me + 1) % 3, (me + 2) % 3
        redealt = {"hands": (), "next": (prev,), "prev": (nxt,), "stock": (nxt, prev)}[know]
        stock = list(world.stock[world.stock_pos :])
        rng.shuffle(stock)
        # A hand not known is dealt from the cards it could be: with the stock, unless
        # the stock's cards are what is known.
        pool = [c for seat in redealt for c in cards_of(world.hands[seat])]
        if know != "stock":
            pool, stock = pool + stock, []
        rng.shuffle(pool)
        for seat in redealt:
            count = world.hands[seat].bit_count()
            world.hands[seat] = sum(1 << c for c in pool[:count])
            pool = pool[count:]
        world.stock = (*world.stock[: world.stock_pos], *stock, *pool)
        return world

    def near_points(view, rng, budget):
        best, best_error = None, None
        for _ in range(POINT_TRIES):
            world = search.sample_deal(view, rng, budget)
            error = max(
                abs(points(world.hands[s]) - points(truth.hands[s])) for s in range(3) if s != me
            )
            if best_error is None or error < best_error:
                best, best_error = world, error
            if error <= tolerance:
                break
        return best

    return near_points if know == "points" else hands


def play(args: tuple[tuple[int, int, int], str, frozenset[Phase], int]) -> tuple[int, str, int]:
    """One game: (the oracle's chips, how the game ended, 1 if the oracle won)."""
    (number, deal_seed, rng_seed), know, phases, tolerance = args
    state, rng = new_game(deal_seed), random.Random(rng_seed)
    first, log = state, []
    me = number % 3  # the arena's rotation: entry 0 sits in seat g % 3 in game g
    while state.outcome is None:
        view = seat_view(state, state.turn)
        if state.turn != me:
            move = greedy.choose(view, rng)
        elif know != "nothing" and state.phase in phases:
            if know == "posterior":
                chain_rng = random.Random(rng_seed * 1000 + state.ply)
                sampler = posterior.sampler(first, log, me, chain_rng)
            else:
                sampler = oracle(state, know, tolerance)
            move = search.choose_with(view, rng, search.DEFAULT_BUDGET, sampler)
        else:
            move = search.choose(view, rng)
        log.append(move)
        state = apply(state, move)
    won = state.outcome.winner == me
    return state.outcome.chips[me], state.outcome.end, int(won)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.oracle", description=__doc__)
    parser.add_argument("--games", type=int, default=450, help="games to play (450)")
    parser.add_argument("--know", choices=KNOWS, default="hands", help="what the oracle knows")
    parser.add_argument(
        "--phases", default="start,play,answer", help="decisions the oracle is asked at"
    )
    parser.add_argument("--tolerance", type=int, default=3, help="points, for --know points")
    parser.add_argument("--seed", type=int, default=0, help="the arena's seed (0)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="processes")
    args = parser.parse_args(argv)
    asked = [p for p in args.phases.split(",") if p]
    if not asked or set(asked) - set(PHASES):
        parser.error(f"--phases: a comma-separated list of {', '.join(PHASES)}")
    phases = frozenset(PHASES[p] for p in asked)
    work = [(g, args.know, phases, args.tolerance) for g in schedule(args.games, args.seed)]
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, result in enumerate(pool.map(play, work, chunksize=4), 1):
            results.append(result)
            if done % max(1, args.games // 20) == 0 or done == args.games:
                print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(r[2] for r in results)
    low, high = wilson_interval(wins, len(results))
    figures: dict[str, object] = {
        "know": args.know,
        "phases": args.phases,
        "games": len(results),
        "win_rate": round(wins / len(results), 3),
        "win_rate_95": [round(low, 3), round(high, 3)],
        "mean_chips": round(sum(r[0] for r in results) / len(results), 3),
        "wins_by_end": dict(Counter(r[1] for r in results if r[2])),
    }
    print(
        f"search knowing {args.know} at {args.phases}: wins {figures['win_rate']:.1%} "
        f"(95% {low:.1%}-{high:.1%}) of {len(results)} games against greedy, greedy; "
        f"mean chips {figures['mean_chips']:+.2f}; wins by end {figures['wins_by_end']}"
    )
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
