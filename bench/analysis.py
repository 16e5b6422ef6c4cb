"""How long the coach takes to analyse a game, and how well its marks hold:
``python -m bench.analysis [--games N] [--reproduce] [--calibrate] [--jobs J]``.

It plays N typical games (``--games``, default 5) in which people are stood in for by bots
of the levels people meet (Easy, Normal, Easy: slips included, so the coach has something
to find) and analyses every move of all three seats, as for three people, with the coach's
default budget, timing each game by wall and by CPU time (the process's, which other
programs on a busy machine do not inflate). The target is under 30 s a game on one core.

``--reproduce`` judges every move again with deals and rollout seeds from another seed
(another salt) and prints both figures of docs/coach.md: the moves with a choice keeping
their mark (a close call has none), and of the moves either judgement marked, those carrying
the same mark (the target is 90% or more), with the flips between a Blunder and no mark (the
target is none), the moves that changed, how many marked moves were measured
against another best move in one judgement, and whether the intervals state the noise (the
losses of two judgements apart, in standard errors). ``--salts A,B,C`` judges every move once with
each salt and gives the figures for every pair; ``--log`` keeps each game's figures as it
ends, ``--summary`` prints them again (of a run cut short too), ``--part K/N`` runs a slice
of the games, ``--rejudge`` judges again only the moves logged marked or close. The CPU
time is of one analysis of one game (one salt). With ``COACH_TRACE=1`` each game's log line
also holds, per salt and move, the looks that decided its mark (deals, best move, interval,
stake) and its finalists' chips deal by deal, to re-score rules offline.

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
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations, product

from games.analysis import coach
from games.analysis.coach import DEFAULT_BUDGET, FINE_MARKS, MARKS, judge_game
from games.bots import bot_seed, choose
from games.engine import apply, new_game, seat_view

KINDS = ("easy", "normal", "easy")
FIRST_SALT, OTHER_SALT = "coach/2", "coach/reproduce"  # the site's seeds, and the pair tuned on


def typical_game(seed: int) -> list[tuple]:
    """(view, move, seq) of every move of a game of bots of the levels people meet."""
    state, moments = new_game(seed), []
    while state.outcome is None:
        view = seat_view(state, state.turn)
        move = choose(KINDS[state.turn], view, random.Random(bot_seed(str(seed), state.ply, 0)))
        moments.append((view, move, state.ply + 1))
        state = apply(state, move)
    return moments


def one_game(seed: int, salts: tuple[str, ...]) -> dict:
    """Every move of the game judged once with each salt (another salt: other deals, other
    rollout seeds), and the CPU time of each whole analysis."""
    moments = typical_game(seed)
    out = {"seed": seed, "moves": len(moments), "wall": [], "cpu": [], "rows": []}
    judged, traces = [], []
    for salt in salts:
        if os.environ.get("COACH_TRACE"):  # each move's looks and deals, for a diagnosis
            coach.TRACE = []
        wall, cpu = time.perf_counter(), time.process_time()
        judged.append(list(judge_game(moments, DEFAULT_BUDGET, salt)))
        out["wall"].append(time.perf_counter() - wall)
        out["cpu"].append(time.process_time() - cpu)
        traces.append(coach.TRACE)
    if os.environ.get("COACH_TRACE"):
        out["trace"] = traces
    for k, (_, _, seq) in enumerate(moments):
        if judged[0][k].choices < 2:
            continue
        out["rows"].append({"seq": seq, "by": [_row(j[k]) for j in judged]})
    return out


def _row(e) -> dict:
    return {
        "mark": e.mark, "close": e.close, "loss": e.loss, "low": e.loss_low,
        "high": e.loss_high, "stake": e.stake, "worlds": e.worlds, "best": e.best.to_dict(),
        "plies": e.plies,
    }  # fmt: skip


def compare(rows: list[dict], a: int, b: int) -> dict:
    """How two judgements of the same moves (salts ``a`` and ``b``) agree: all moves with a
    choice keeping their mark (a close call has none), the moves either marked carrying the
    same mark, and the flips between a Blunder and no mark (a close call or quiet)."""
    pairs = [(r["by"][a], r["by"][b]) for r in rows]
    marked = [(x, y) for x, y in pairs if x["mark"] or y["mark"]]
    flips = [(x, y) for x, y in marked if {x["mark"], y["mark"]} == {"blunder", ""}]
    return {
        "moves": len(pairs),
        "same": sum(x["mark"] == y["mark"] for x, y in pairs),
        "marked": len(marked),
        "marked_same": sum(x["mark"] == y["mark"] for x, y in marked),
        "blunder_unmarked": len(flips),
        "blunder_close": sum(x["close"] or y["close"] for x, y in flips),
        # The marked moves that changed: a mark against a close call, against a quiet move
        # (neither a mark nor a close call), or against another mark (a level).
        "mark_close": sum(
            not (x["mark"] and y["mark"]) and (x["close"] or y["close"]) for x, y in marked
        ),
        "mark_quiet": sum(
            not (x["mark"] and y["mark"]) and not (x["close"] or y["close"]) for x, y in marked
        ),
        "level": sum(x["mark"] != y["mark"] and bool(x["mark"] and y["mark"]) for x, y in marked),
        "close": [sum(x["close"] for x, _ in pairs), sum(y["close"] for _, y in pairs)],
        "other_best": sum(x["best"] != y["best"] for x, y in marked),
        # Whether the intervals state the noise: over the moves marked or close in either
        # judgement, both on the deals a mark needs (256) and with the same best move, the
        # root mean square of the two losses' difference in standard errors (1.0: exact;
        # over 1: the intervals are too narrow).
        "z_rms": _z_rms(
            [
                (x, y)
                for x, y in pairs
                if (x["mark"] or y["mark"] or x["close"] or y["close"])
                and min(x["worlds"], y["worlds"]) >= 256
                and x["best"] == y["best"]
            ]
        ),
    }


def _z_rms(pairs: list[tuple[dict, dict]]) -> list:
    """[root mean square of the standardised differences, pairs] (the interval is the mean
    give or take z standard errors, z as the coach's)."""
    z = DEFAULT_BUDGET.z
    zs = []
    for x, y in pairs:
        # The upper end is the mean (the loss) give or take z standard errors; the lower end
        # may lie further (``Budget.spend``).
        se = math.hypot((x["high"] - x["loss"]) / z, (y["high"] - y["loss"]) / z)
        if se > 0:
            zs.append((x["loss"] - y["loss"]) / se)
    return [round(math.sqrt(sum(v * v for v in zs) / len(zs)), 2) if zs else 0.0, len(zs)]


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.1f}%)" if whole else f"{part} of 0"


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
    parser.add_argument(
        "--salts",
        help="judge every move once with each of these salts, "
        "comma-separated, and compare every pair (implies --reproduce)",
    )
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--rows", help="write each judged move's figures to this JSON file")
    parser.add_argument(
        "--log",
        help="append each game's figures to this file as it ends "
        "(the games already in it are not judged again)",
    )
    parser.add_argument(
        "--summary", help="print the figures of --log files (partial too), comma-separated"
    )
    parser.add_argument(
        "--rejudge",
        help="judge again, with the coach now and the same salts, the moves any salt of "
        "these --log files (comma-separated) marked or called close, and write their games "
        "to --log with those moves' figures replaced (the rest and the CPU times as logged)",
    )
    parser.add_argument(
        "--part",
        default="1/1",
        help="K/N: only the K-th of N slices of the "
        "games (to run one seed's games in several processes, each --log)",
    )
    args = parser.parse_args()
    if args.summary:
        games = []
        for name in args.summary.split(","):
            with open(name) as f:
                games += [json.loads(line) for line in f if line.strip()]
        salts = tuple(games[0]["salts"]) if games else ()
        return report(games, salts, args)
    if args.rejudge:
        return rejudge(args.rejudge.split(","), args.log, args.part)
    master = random.Random(args.seed)
    seeds = [master.getrandbits(64) for _ in range(args.games)]
    k, parts = (int(x) for x in args.part.split("/"))
    seeds = seeds[k - 1 :: parts]
    if args.log and os.path.exists(args.log):  # a run cut short goes on where it stopped
        with open(args.log) as f:
            logged = {json.loads(line)["seed"] for line in f if line.strip()}
        seeds = [s for s in seeds if s not in logged]
    args.reproduce = args.reproduce or args.calibrate or bool(args.salts)
    if args.salts:
        salts = tuple(args.salts.split(","))
    else:
        salts = (FIRST_SALT, OTHER_SALT) if args.reproduce else (FIRST_SALT,)
    jobs = [(s, salts) for s in seeds]
    games = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    done = pool.map(one_game, *zip(*jobs, strict=True)) if pool else (one_game(*j) for j in jobs)
    for g in done:
        g["salts"] = list(salts)
        games.append(g)
        if args.log:
            with open(args.log, "a") as f:
                f.write(json.dumps(g) + "\n")
    if pool:
        pool.shutdown()
    report(games, salts, args)


def rejudge(names: list[str], log: str, part: str = "1/1") -> None:
    """Judge again, with the coach now, the moves of logged games that any salt marked or
    called close (with the same salts), and append the games to ``log`` with those moves'
    figures replaced. A rule that only makes a mark harder to give (a margin) changes no
    other move's mark: each of those stopped quiet, its interval's upper end under the
    Mistake line, which such a rule leaves where it was (the game's budget aside)."""
    games = []
    for name in names:
        with open(name) as f:
            games += [json.loads(line) for line in f if line.strip()]
    k, parts = (int(x) for x in part.split("/"))
    for g in games[k - 1 :: parts]:
        moments = typical_game(g["seed"])
        for r in g["rows"]:
            if any(x["mark"] or x["close"] for x in r["by"]):
                view, move, seq = moments[r["seq"] - 1]
                r["by"] = [
                    _row(coach.evaluate(view, move, seq, DEFAULT_BUDGET, salt))
                    for salt in g["salts"]
                ]
        g.pop("trace", None)
        with open(log, "a") as f:
            f.write(json.dumps(g) + "\n")


def report(games: list[dict], salts: tuple[str, ...], args) -> None:
    rows = []
    for n, g in enumerate(games, start=1):
        cpu = " / ".join(f"{c:.1f}" for c in g["cpu"])
        print(f"game {n}: {g['moves']} moves, {max(g['wall']):.1f} s wall, {cpu} s CPU")
        rows += g["rows"]
    walls = [w for g in games for w in g["wall"]]
    cpus = [c for g in games for c in g["cpu"]]  # one analysis of one game each
    result = {
        "games": len(games),
        "salts": list(salts),
        "moves_median": statistics.median(g["moves"] for g in games) if games else 0,
        "seconds_wall_median": round(statistics.median(walls), 2) if walls else 0,
        "seconds_wall_max": round(max(walls, default=0), 2),
        "seconds_cpu_median": round(statistics.median(cpus), 2) if cpus else 0,
        "seconds_cpu_max": round(max(cpus, default=0), 2),
        "seconds_cpu_per_move": round(
            sum(cpus) / max(1, sum(g["moves"] for g in games) * len(salts)), 3
        ),  # fmt: skip
        "judged": len(rows),
        "marks": {name: sum(r["by"][0]["mark"] == name for r in rows) for name, _, _ in MARKS},
        "close": sum(r["by"][0]["close"] for r in rows),
    }
    print(f"CPU a game (one analysis): median {result['seconds_cpu_median']} s, "
          f"max {result['seconds_cpu_max']} s")  # fmt: skip
    if len(salts) > 1:
        result["pairs"] = {}
        for a, b in combinations(range(len(salts)), 2):
            c = compare(rows, a, b)
            result["pairs"][f"{salts[a]}:{salts[b]}"] = c
            for r in rows:
                x, y = r["by"][a], r["by"][b]
                if x["mark"] != y["mark"] and (x["mark"] or y["mark"]):
                    print(
                        f"changed ({salts[a]} / {salts[b]}): move {r['seq']}: "
                        f"{_state(x)} -> {_state(y)} (loss {x['loss']:.2f} / {y['loss']:.2f}, "
                        f"interval {x['low']:.2f}..{x['high']:.2f} / "
                        f"{y['low']:.2f}..{y['high']:.2f}, "
                        f"stake {x['stake']:.2f} / {y['stake']:.2f}, "
                        f"deals {x['worlds']} / {y['worlds']}"
                        f"{', other best' if x['best'] != y['best'] else ''})"
                    )  # fmt: skip
            print(
                f"{salts[a]} / {salts[b]}: all moves with a choice keeping their mark: "
                f"{_share(c['same'], c['moves'])}; marked moves carrying the same mark: "
                f"{_share(c['marked_same'], c['marked'])}; Blunder <-> no mark: "
                f"{c['blunder_unmarked']} ({c['blunder_close']} of them a close call); "
                f"close calls {c['close'][0]} / {c['close'][1]}; the marks that changed: "
                f"{c['mark_close']} against a close call, {c['mark_quiet']} against a quiet "
                f"move, {c['level']} another level; {c['other_best']} of the marked moves "
                f"with another best; the intervals' honesty (same best, rms in standard "
                f"errors, 1.0 exact): {c['z_rms'][0]} over {c['z_rms'][1]} moves"
            )  # fmt: skip
        first = result["pairs"][f"{salts[0]}:{salts[1]}"]
        result["marks_same"] = first["same"]
        result["marks_same_share"] = round(first["same"] / len(rows), 4) if rows else 1.0
    if getattr(args, "calibrate", False) and len(salts) > 1:
        calibrate(rows, result)
    if getattr(args, "rows", None):
        with open(args.rows, "w") as f:
            json.dump(rows, f)
    print(json.dumps(result))


def _state(x: dict) -> str:
    return x["mark"] or ("close call" if x["close"] else "-")


def calibrate(rows: list[dict], result: dict) -> None:
    """What the thresholds are chosen from (the first two salts' judgements)."""
    one = [r["by"][0] for r in rows]
    two = [r["by"][1] for r in rows]
    shares = [max(0.0, x["low"]) / x["stake"] for x in one]
    result["share_low"] = _percentiles(shares, (50, 75, 90, 95, 99))
    print("Share of the stake the loss's lower end reaches:", result["share_low"])
    floors = tuple(floor for _, _, floor in FINE_MARKS)
    grid = []
    for b, m, i in product((0.5, 0.6, 0.7, 0.8), (0.3, 0.35, 0.4, 0.45), (0.15, 0.2, 0.25)):
        marks = tuple(zip(("blunder", "mistake", "inaccuracy"), (b, m, i), floors, strict=True))
        same = sum(_mark(x["low"], x["stake"], marks) == _mark(y["low"], y["stake"], marks)
                   for x, y in zip(one, two, strict=True))  # fmt: skip
        given = sum(bool(_mark(x["low"], x["stake"], marks)) for x in one)
        grid.append((b, m, i, given, same))
    print("blunder mistake inaccuracy (shares of the stake) | marked | the same")
    for b, m, i, given, same in grid:
        print(f"{b:.2f} {m:.2f} {i:.2f} | {given} | {same} of {len(rows)}")
    result["grid"] = grid


if __name__ == "__main__":
    main()
