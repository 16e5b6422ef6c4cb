"""How long the coach takes to analyse a game on one core: ``python -m bench.analysis``.

It plays N typical games (``--games``, default 5) in which people are stood in for by bots
of the levels people meet (Easy, Normal, Easy: slips included, so the coach has something
to find) and analyses every move of all three seats, as for three people, with the coach's
default budget, timing each game by wall and by CPU time (the process's, which other
programs on a busy machine do not inflate). The target is under 30 s a game on one core.

``--calibrate`` measures the noise the marks must stand above: each move is judged twice,
with deals drawn from two different seeds; the move the first judgement found best is then
scored by the second, and what it seems to lose there is chance alone. The percentiles of
that loss are what the thresholds in games/analysis/coach.py (MARKS) are set above.

The last line of standard output is one JSON object for scripts. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from games.analysis.coach import DEFAULT_BUDGET, evaluate
from games.bots import bot_seed, choose
from games.engine import apply, new_game, seat_view

KINDS = ("easy", "normal", "easy")


def typical_game(seed: int) -> list[tuple]:
    """(view, move, seq) of every move of a game of bots of the levels people meet."""
    state, moments = new_game(seed), []
    while state.outcome is None:
        view = seat_view(state, state.turn)
        move = choose(KINDS[state.turn], view, random.Random(bot_seed(str(seed), state.ply, 0)))
        moments.append((view, move, state.ply + 1))
        state = apply(state, move)
    return moments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args()
    master = random.Random(args.seed)
    walls, cpus, moves, noise = [], [], [], []
    for n in range(args.games):
        moments = typical_game(master.getrandbits(64))
        wall, cpu = time.perf_counter(), time.process_time()
        judged = [evaluate(view, move, seq, DEFAULT_BUDGET) for view, move, seq in moments]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        moves.append(len(moments))
        print(f"game {n + 1}: {len(moments)} moves, {walls[-1]:.1f} s wall, {cpus[-1]:.1f} s CPU")
        if args.calibrate:
            for (view, _move, seq), first in zip(moments, judged, strict=True):
                if first.choices > 1:
                    again = evaluate(view, first.best, seq, DEFAULT_BUDGET, salt="calibrate")
                    noise.append(again.loss)
    result = {
        "games": args.games,
        "moves_median": statistics.median(moves),
        "seconds_wall_median": round(statistics.median(walls), 2),
        "seconds_wall_max": round(max(walls), 2),
        "seconds_cpu_median": round(statistics.median(cpus), 2),
        "seconds_cpu_max": round(max(cpus), 2),
        "seconds_cpu_per_move": round(sum(cpus) / sum(moves), 3),
    }
    if noise:
        noise.sort()
        at = {p: noise[min(len(noise) - 1, int(p / 100 * len(noise)))] for p in (50, 90, 95, 99)}
        result["noise_moves"] = len(noise)
        result.update({f"noise_p{p}": round(v, 2) for p, v in at.items()})
        print(
            "Chips a best move seems to lose by chance: "
            + ", ".join(f"p{p} {v:.2f}" for p, v in at.items())
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
