"""How long the search bot takes a move on one core:
``python -m bench.search [--games N] [--opponents KIND]``.

It plays N games of the search bot against two greedy bots (or two ``--opponents`` bots:
``random`` for the players it takes for random ones) in one process, the search bot
in each seat in turn, and times every move the search bot makes (moves with one legal choice
or an obvious one count too: a player waits for those as well). Two clocks: wall time, and
the process's CPU time, which other programs on a busy machine do not inflate. The target is
at most 300 ms a move at the 95th percentile.

The last line of standard output is one JSON object for scripts. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from games.bots import choose
from games.engine import apply, new_game, seat_view


def search_move_times(
    games: int, seed: int, kind: str = "search", opponents: str = "greedy"
) -> tuple[list[float], list[float], int]:
    """(wall seconds, CPU seconds) of each search move, and the search bot's wins."""
    master = random.Random(seed)
    wall: list[float] = []
    cpu: list[float] = []
    wins = 0
    for game in range(games):
        state, rng, me = new_game(master.getrandbits(64)), random.Random(game), game % 3
        while state.outcome is None:
            view = seat_view(state, state.turn)
            if state.turn != me:
                state = apply(state, choose(opponents, view, rng))
                continue
            started, started_cpu = time.perf_counter(), time.process_time()
            move = choose(kind, view, rng)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            state = apply(state, move)
        wins += state.outcome.winner == me
    return wall, cpu, wins


def percentile_ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games to play (60)")
    parser.add_argument("--seed", type=int, default=0, help="for the deals (0)")
    parser.add_argument(
        "--kind", default="search", help="the bot timed: search (Hard) or a trial kind of it"
    )
    parser.add_argument(
        "--opponents", default="greedy", help="the other two seats' bot kind (greedy)"
    )
    args = parser.parse_args(argv)
    wall, cpu, wins = search_move_times(args.games, args.seed, args.kind, args.opponents)
    figures: dict[str, float] = {"moves": len(wall)}
    for name, values in (("wall", wall), ("cpu", cpu)):
        p50, p95, p99 = (percentile_ms(values, share) for share in (0.5, 0.95, 0.99))
        mean = 1000 * sum(values) / len(values)
        print(
            f"search bot, {name} time a move over {len(values)} moves in {args.games} games: "
            f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, mean {mean:.1f} ms"
        )
        figures |= {f"{name}_p50_ms": round(p50, 2), f"{name}_p95_ms": round(p95, 2)}
        figures[f"{name}_mean_ms"] = round(mean, 2)
    print(
        f"(it won {wins} of {args.games} games against two {args.opponents} bots: too few to judge)"
    )
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
