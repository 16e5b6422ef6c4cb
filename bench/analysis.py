"""How long the coach takes to analyse a game, and how well its marks hold:
``python -m bench.analysis [--games N] [--reproduce] [--calibrate] [--jobs J]``.

It plays N typical games (``--games``, default 5) in which people are stood in for by bots
of the levels people meet (Easy, Normal, Easy: slips included, so the coach has something
to find) and analyses every move of all three seats, as for three people, with the coach's
default budget, timing each game by wall and by CPU time (the process's, which other
programs on a busy machine do not inflate). The target is under 30 s a game on one core.

``--reproduce`` judges every move again with deals and rollout seeds from another seed
(another salt) and prints the share of moves with a choice whose mark is the same both
times (the target is 97% or more), and the moves that changed.

``--calibrate`` (which implies ``--reproduce``) prints what the thresholds in
games/analysis/coach.py (MARKS) are chosen from: for the moves with a choice, the share of
the stake the lower end of the loss's interval reaches, by percentile; and for a grid of
shares of the stake for the three marks, how many moves each set marks and how many marks
would be the same in the two judgements (each move's two intervals, as judged with the
thresholds in force, marked again by the set's). The set in MARKS is among the most
reproducible that still lets a Draw called with a high hand be a Blunder.

The last line of standard output is one JSON object for scripts. Nothing here imports
Django's settings: the coach's words are not needed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import product

from games.analysis.coach import DEFAULT_BUDGET, MARKS, evaluate
from games.bots import bot_seed, choose
from games.engine import apply, new_game, seat_view

KINDS = ("easy", "normal", "easy")
OTHER_SALT = "coach/reproduce"


def typical_game(seed: int) -> list[tuple]:
    """(view, move, seq) of every move of a game of bots of the levels people meet."""
    state, moments = new_game(seed), []
    while state.outcome is None:
        view = seat_view(state, state.turn)
        move = choose(KINDS[state.turn], view, random.Random(bot_seed(str(seed), state.ply, 0)))
        moments.append((view, move, state.ply + 1))
        state = apply(state, move)
    return moments


def one_game(seed: int, reproduce: bool) -> dict:
    moments = typical_game(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    judged = [evaluate(view, move, seq, DEFAULT_BUDGET) for view, move, seq in moments]
    out = {
        "moves": len(moments),
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "rows": [],
    }
    for (view, move, seq), first in zip(moments, judged, strict=True):
        if first.choices < 2:
            continue
        row = {
            "seq": seq,
            "mark": first.mark,
            "loss": first.loss,
            "low": first.loss_low,
            "high": first.loss_high,
            "stake": first.stake,
            "worlds": first.worlds,
        }
        if reproduce:
            again = evaluate(view, move, seq, DEFAULT_BUDGET, salt=OTHER_SALT)
            row.update(
                mark2=again.mark, loss2=again.loss, low2=again.loss_low,
                high2=again.loss_high, stake2=again.stake, worlds2=again.worlds,
            )  # fmt: skip
        out["rows"].append(row)
    return out


def _mark(low: float, stake: float, marks) -> str:
    stake = max(stake, 1.0)
    for name, share, floor in marks:
        if low >= max(share * stake, floor):
            return name
    return ""


def _percentiles(values: list[float], at=(50, 90, 95, 99)) -> dict[int, float]:
    values = sorted(values)
    if not values:
        return {}
    return {p: round(values[min(len(values) - 1, int(p / 100 * len(values)))], 2) for p in at}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1, help="processes (timing wants 1)")
    parser.add_argument("--reproduce", action="store_true")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--rows", help="write each judged move's figures to this JSON file")
    args = parser.parse_args()
    master = random.Random(args.seed)
    seeds = [master.getrandbits(64) for _ in range(args.games)]
    args.reproduce = args.reproduce or args.calibrate
    jobs = [(s, args.reproduce) for s in seeds]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(one_game, *zip(*jobs, strict=True)))
    else:
        games = [one_game(*job) for job in jobs]
    rows = []
    for n, g in enumerate(games, start=1):
        print(f"game {n}: {g['moves']} moves, {g['wall']:.1f} s wall, {g['cpu']:.1f} s CPU")
        rows += g["rows"]
    walls, cpus = [g["wall"] for g in games], [g["cpu"] for g in games]
    result = {
        "games": args.games,
        "moves_median": statistics.median(g["moves"] for g in games),
        "seconds_wall_median": round(statistics.median(walls), 2),
        "seconds_wall_max": round(max(walls), 2),
        "seconds_cpu_median": round(statistics.median(cpus), 2),
        "seconds_cpu_max": round(max(cpus), 2),
        "seconds_cpu_per_move": round(sum(cpus) / sum(g["moves"] for g in games), 3),
        "judged": len(rows),
        "marks": {name: sum(r["mark"] == name for r in rows) for name, _, _ in MARKS},
    }
    if args.reproduce:
        same = sum(r["mark"] == r["mark2"] for r in rows)
        result["marks_same"] = same
        result["marks_same_share"] = round(same / len(rows), 4) if rows else 1.0
        for r in rows:
            if r["mark"] != r["mark2"]:
                print(
                    f"changed: move {r['seq']}: {r['mark'] or '-'} -> {r['mark2'] or '-'} "
                    f"(loss {r['loss']:.2f} / {r['loss2']:.2f}, low {r['low']:.2f} / "
                    f"{r['low2']:.2f}, stake {r['stake']:.2f}, deals {r['worlds']})"
                )
        print(f"Marks the same with another seed: {same} of {len(rows)} moves with a choice")
    if args.calibrate:
        shares = [max(0.0, r["low"]) / r["stake"] for r in rows]
        result["share_low"] = _percentiles(shares, (50, 75, 90, 95, 99))
        print("Share of the stake the loss's lower end reaches:", result["share_low"])
        floors = tuple(floor for _, _, floor in MARKS)
        grid = []
        for b, m, i in product((0.5, 0.6, 0.7, 0.8), (0.3, 0.35, 0.4, 0.45), (0.15, 0.2, 0.25)):
            marks = tuple(zip(("blunder", "mistake", "inaccuracy"), (b, m, i), floors, strict=True))
            same = sum(_mark(r["low"], r["stake"], marks) == _mark(r["low2"], r["stake2"], marks)
                       for r in rows)  # fmt: skip
            given = sum(bool(_mark(r["low"], r["stake"], marks)) for r in rows)
            grid.append((b, m, i, given, same))
        print("blunder mistake inaccuracy (shares of the stake) | marked | the same")
        for b, m, i, given, same in grid:
            print(f"{b:.2f} {m:.2f} {i:.2f} | {given} | {same} of {len(rows)}")
        result["grid"] = grid
    if args.rows:
        with open(args.rows, "w") as f:
            json.dump(rows, f)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
