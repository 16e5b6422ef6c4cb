"""What a shipped puzzle costs to mine: ``python -m bench.puzzles [--seeds A-B,C-D]
[--stages] [--shipped]``.

It mines the seeded bot games ``A`` to ``B`` and ``C`` to ``D`` (by default 17 games with a
random seat 0, whose cost under the first filters was logged: docs/puzzles.md) as
``manage.py make_puzzle_fixture`` does (``games.puzzles.mining.mine_bot_game``), in this
one process, and prints for each game its puzzles and CPU time, then the puzzles per
CPU-minute and the CPU seconds a puzzle. ``--stages`` adds where the CPU went: the first
look, the first judgement, the alternatives and the second judgement, with how many
positions each step judged (the steps as ``mining.judge`` runs them). ``--shipped`` judges
instead every shipped puzzle again, as ``mining.judge`` would now from its stored view: how
many it finds again, each the same puzzle (answer, moves as good, figures, why, line), and
which it passes over (what a change to the filters costs in puzzles). CPU time is the
process's, which other programs on a busy machine do not inflate; run it with ``nice``.
Nothing here imports Django; the last line of standard output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import asdict

from games.engine import Move
from games.puzzles import mining, shipped
from games.puzzles.positions import view_of

SEEDS = "1094-1097,1104-1107,1114-1122"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=SEEDS, help="seeds of the games: A-B,C-D")
    parser.add_argument("--stages", action="store_true", help="CPU by step of the judgement")
    parser.add_argument("--shipped", action="store_true", help="judge the shipped puzzles again")
    args = parser.parse_args()
    if args.shipped:
        return _shipped_again()
    seeds = [
        seed
        for part in args.seeds.split(",")
        for seed in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)
    ]
    seconds, counts, puzzles = Counter(), Counter(), 0
    if args.stages:
        _time_the_steps(seconds, counts)
    start = time.process_time()
    for seed in seeds:
        t = time.process_time()
        found = mining.mine_bot_game(seed)
        puzzles += len(found)
        print(f"seed {seed}: {len(found)} puzzles, {time.process_time() - t:.1f} s CPU", flush=True)
    cpu = time.process_time() - start
    figures = {
        "games": len(seeds),
        "puzzles": puzzles,
        "cpu_s": round(cpu, 1),
        "puzzles_per_cpu_min": round(puzzles / cpu * 60, 2),
        "cpu_s_per_puzzle": round(cpu / puzzles, 1) if puzzles else None,
    }
    if args.stages:
        for step, s in seconds.most_common():
            print(f"  {step:18s} {s:7.1f} s CPU {100 * s / cpu:5.1f}%, {counts[step]} positions")
        print(f"  clear: {counts['first clear']} first, {counts['second clear']} second")
        figures["stages"] = {k: round(v, 1) for k, v in seconds.items()}
        figures["positions"] = dict(counts)
    print(f"{puzzles} puzzles in {cpu:.0f} s of CPU: {figures['puzzles_per_cpu_min']} a minute")
    print(json.dumps(figures))


def _shipped_again() -> None:
    counts, start = Counter(), time.process_time()
    for row in shipped.read()["puzzles"]:
        view, played = view_of(row["view"]), Move.from_dict(row["played"])
        found = mining.judge(view, played, row["seq"], mining.BOT_BUDGET)
        if found is None:
            counts["passed over"] += 1
            print(
                f"{row['key']}: passed over (first judged in {row['figures']['first']['worlds']})"
            )
            continue
        got = asdict(found)
        changed = [k for k in shipped.FIELDS if got[k] != row[k]]
        counts["changed" if changed else "the same"] += 1
        if changed:
            print(f"{row['key']}: found, but changed: {', '.join(changed)}", flush=True)
    figures = {**counts, "cpu_s": round(time.process_time() - start, 1)}
    print(json.dumps(figures))


def _time_the_steps(seconds: Counter, counts: Counter) -> None:
    """Add each step's CPU time to ``seconds`` and its positions to ``counts`` (with how
    many of the two judgements were clear)."""
    steps = {
        mining.SCREEN_SALT: "first look",
        mining.FIRST_SALT: "first",
        mining.RECHECK_SALT: "second",
    }
    evaluate, near = mining.evaluate, mining._Near.__init__

    def timed_evaluate(view, played, seq, budget, salt, **kw):
        t = time.process_time()
        e = evaluate(view, played, seq, budget, salt, **kw)
        seconds[steps[salt]] += time.process_time() - t
        counts[steps[salt]] += 1
        counts[f"{steps[salt]} clear"] += mining.clear(e)
        return e

    def timed_near(self, *a, **kw):
        t = time.process_time()
        near(self, *a, **kw)
        seconds["alternatives"] += time.process_time() - t
        counts["alternatives"] += 1

    mining.evaluate = timed_evaluate
    mining._Near.__init__ = timed_near


if __name__ == "__main__":
    main()
