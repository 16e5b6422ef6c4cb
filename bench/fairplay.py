"""Fair play's error rates: how soon each kind of colluding pair is flagged, how rarely
honest pairs are, and what each kind of teaming up is worth.

    python -m bench.fairplay --jobs 2                 # the figures in docs/fair-play.md
    python -m bench.fairplay --small                  # a quick smoke run (tests use it)

Engine and bots only (no database). Every pair plays its own games from fresh seeded
deals (nothing is resampled from a pool): a pair is a sequence of hands at one table with
a third seat, each hand's features computed by ``games.fairplay.features`` from the deal
and the log exactly as the site computes them, and the pair's score
(``games.fairplay.detector.PairScore``) checked after every hand.

Honest pairs (``HONEST_GROUPS``): two styles drawn from ``bench.colluders.HONEST`` beside a
third of a style drawn each hand; friends who always sit together for many hands; a very
strong player (tuned greedy) beside a very weak one (random or Easy); and friends
playing series with a pot for an ante of 1 against one third. The honest rate is printed
with its one-sided 95% Clopper-Pearson upper bound.

Colluding pairs: each kind of ``bench.colluders.KINDS`` on greedy's and Easy's bases
(mixed kinds on drawn bases), ``--colluding-pairs`` pairs each, played until flagged or
``--hands``; the chip dumps as series. Their gains come from ``bench.fairplay_gain`` (run
first, or read with ``--gains FILE``). Last, the detector's cost: features and scores of
10,000 finished games on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool

import numpy as np
from scipy.stats import beta

from games.fairplay.detector import SIGNALS, THRESHOLD, PairScore
from games.fairplay.features import game_features

from . import fairplay_gain
from .colluders import HONEST, KINDS, MIXED_BASES, SERIES_KINDS, honest, kind_policies
from .fairplay_roc import roc, roc_svg
from .fairplay_sim import play

CHECKS = (100, 400, 1000)
ROC_HANDS = 100
SERIES_HANDS = 12
HONEST_GROUPS = ("styles", "friends", "strong-weak", "series", "hard")
SEATINGS = ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1))


def style_edges(games: int, seed: int) -> dict[str, float]:
    """Each style's mean chips a game at tables of styles drawn at random: what a
    player's results elsewhere say of it (the chip signals' baseline). On the site it is
    the account's own mean over its other rated games; here the style's, as if measured
    over many games apart (a shortcut, said so in docs/fair-play.md)."""
    rng = random.Random(seed)
    styles = (*HONEST, "tuned", "random")
    sums = dict.fromkeys(styles, 0.0)
    counts = dict.fromkeys(styles, 0)
    for i in range(games):
        kinds = [rng.choice(styles) for _ in range(3)]
        game = play(seed * 1_000_003 + i, [honest(k) for k in kinds], i)
        for kind, chips in zip(kinds, game.chips, strict=True):
            sums[kind] += chips
            counts[kind] += 1
    return {k: sums[k] / max(counts[k], 1) for k in styles}


def hard_edge(games: int, seed: int) -> float:
    """Hard's mean chips a game in one seat beside two styles drawn at random (Hard is
    slow, so it is measured apart, on fewer games, and only when a base is Hard)."""
    rng = random.Random(seed + 5)
    total = 0.0
    for i in range(games):
        kinds = [rng.choice((*HONEST, "tuned", "random")) for _ in range(2)]
        seat = rng.randrange(3)
        kinds.insert(seat, "hard")
        game = play(seed * 2_000_003 + i, [honest(k) for k in kinds], i)
        total += game.chips[seat]
    return total / max(games, 1)


EDGES: dict[str, float] = {}
EACH = ("group", "kind", "base", "styles", "first", "peak", "hands", "parts")


def run_pair(job: tuple) -> dict:
    """Play one pair's hands; its first flag, peak, and each signal's part at the end."""
    group, kind, base, seed, hands, stop, edges = job
    rng = random.Random(seed)
    styles = _styles(group, kind, base, rng)
    score, at_roc, first, third = PairScore(), None, 0, rng.choice(HONEST)
    dealer = None
    for hand in range(hands):
        series = group == "series" or kind in SERIES_KINDS
        if not series or hand % SERIES_HANDS == 0:
            pair = SEATINGS[rng.randrange(6)]
            third, dealer = rng.choice(HONEST), None
        policies = _policies(group, kind, styles, pair, third, rng)
        game_seed = seed * 100_003 + hand
        game = play(game_seed, policies, game_seed, dealer)
        dealer = game.winner if series else None
        seats = [third] * 3
        seats[pair[0]], seats[pair[1]] = styles
        score.add_game(
            game_features(game.start(), game.moves), *pair, tuple(edges[k] for k in seats)
        )
        if hand + 1 == ROC_HANDS:
            at_roc = score.score
        if score.flagged and not first:
            first = hand + 1
            if stop and hand + 1 >= stop:
                break
    return {
        "group": group, "kind": kind, "base": base, "first": first, "peak": score.peak,
        "roc": score.score if at_roc is None else at_roc, "hands": score.games,
        "parts": score.parts(), "styles": styles,
    }  # fmt: skip


def _styles(group: str, kind: str, base: str, rng: random.Random) -> tuple[str, str]:
    if kind:
        if kind.startswith("mixed"):
            return rng.choice(MIXED_BASES), rng.choice(MIXED_BASES)
        return base, base
    if group == "strong-weak":
        return "tuned", rng.choice(("random", "easy"))
    if group == "hard":
        return "hard", "hard"
    return rng.choice(HONEST), rng.choice(HONEST)


def _policies(group, kind, styles, pair, third, rng):
    policies = [honest(third)] * 3
    if kind:
        policies[pair[0]], policies[pair[1]] = kind_policies(kind, pair, styles)
    else:
        policies[pair[0]], policies[pair[1]] = honest(styles[0]), honest(styles[1])
    return policies


def upper_bound(flagged: int, n: int, confidence: float = 0.95) -> float:
    """One-sided Clopper-Pearson upper bound of a rate."""
    return 1.0 if flagged >= n else float(beta.ppf(confidence, flagged + 1, n - flagged))


def within(rows: list[dict], hands: int) -> float:
    return sum(1 for r in rows if 0 < r["first"] <= hands) / max(len(rows), 1)


def honest_jobs(args) -> list[tuple]:
    n = args.honest_pairs
    sizes = {
        "styles": (n - args.friends - args.strong_weak - args.series, args.honest_hands),
        "friends": (args.friends, args.friend_hands),
        "strong-weak": (args.strong_weak, args.friend_hands),
        "series": (args.series, args.friend_hands),
        "hard": (args.hard_pairs, args.hard_hands),
    }
    jobs, seed = [], args.seed * 10_000_000
    for group in HONEST_GROUPS:
        count, hands = sizes[group]
        for i in range(count):
            jobs.append(
                (group, "", "", seed + HONEST_GROUPS.index(group) * 1_000_000 + i, hands, False)
                + (args.edges,)
            )
    return jobs


def colluding_jobs(args) -> list[tuple]:
    jobs, seed = [], (args.seed + 1) * 10_000_000
    for k, kind in enumerate(KINDS):
        if args.kinds and kind not in args.kinds.split(","):
            continue
        bases = ("mixed",) if kind.startswith("mixed") else args.bases.split(",")
        for b, base in enumerate(bases):
            for i in range(args.colluding_pairs):
                seed_i = seed + k * 100_000 + b * 10_000 + i
                stop = 1 if args.stop_at_flag else ROC_HANDS
                jobs.append(("colluding", kind, base, seed_i, args.hands, stop, args.edges))
    return jobs


def run_all(jobs: list[tuple], workers: int, each: bool = False, part: str = "") -> list[dict]:
    # Longest first, so that the last minutes are not one long pair on one core.
    jobs = sorted(jobs, key=lambda j: -j[4])
    if part:  # "A:B": only these pairs (the same seeds as in the whole run)
        start, stop = (int(x) if x else None for x in part.split(":"))
        jobs = jobs[start:stop]
    rows = []
    with Pool(workers) if workers > 1 else _Serial() as pool:
        for row in pool.imap_unordered(run_pair, jobs, chunksize=4 if workers > 1 else 1):
            rows.append(row)
            if each:  # a line a pair as it ends: a long run's pairs so far can be read
                print(json.dumps({k: row[k] for k in EACH}), flush=True)
    return rows


class _Serial:
    """``Pool``'s ``imap_unordered`` in this process."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def imap_unordered(self, fn, jobs, chunksize=1):
        return map(fn, jobs)


def report_honest(rows: list[dict]) -> None:
    n = len(rows)
    flagged = sum(1 for r in rows if r["first"])
    print(f"\nhonest pairs: {n}, flagged {flagged}, 95% upper bound {upper_bound(flagged, n):.3%}")
    for group in HONEST_GROUPS:
        part = [r for r in rows if r["group"] == group]
        if not part:
            continue
        peaks = np.array([r["peak"] for r in part])
        print(
            f"  {group:12} {len(part):6} pairs × {part[0]['hands']:4} hands: flagged "
            f"{sum(1 for r in part if r['first'])}, highest score {peaks.max():.2f}, "
            f"99th percentile {np.percentile(peaks, 99):.2f} (threshold {THRESHOLD:.2f})"
        )
    for signal in SIGNALS:
        values = np.array([r["parts"][signal] for r in rows])
        print(
            f"  {signal:7} at the end: highest {values.max():6.2f}, median {np.median(values):6.2f}"
        )


def report_colluding(rows: list[dict], gains: dict) -> list[dict]:
    out = []
    print(
        f"\n{'kind':10} {'base':7} {'gain/hand':>14} {'pairs':>5} "
        + " ".join(f"{h:>6}" for h in CHECKS)
        + "  median"
    )
    keys = sorted(
        {(r["kind"], r["base"]) for r in rows}, key=lambda kb: (KINDS.index(kb[0]), kb[1])
    )
    for kind, base in keys:
        part = [r for r in rows if (r["kind"], r["base"]) == (kind, base)]
        hits = [r["first"] for r in part if r["first"]]
        gain = gains.get((kind, base))
        shown = f"{gain['gain']:+.2f} ± {gain['half_width']:.2f}" if gain else "?"
        rates = [within(part, h) for h in CHECKS]
        median = int(np.median(hits)) if hits else 0
        print(
            f"{kind:10} {base:7} {shown:>14} {len(part):5} "
            + " ".join(f"{r:6.0%}" for r in rates)
            + f"  {median or '-':>6}"
        )
        out.append(
            {
                "kind": kind,
                "base": base,
                "pairs": len(part),
                "rates": rates,
                "median": median,
                "gain": gain,
            }
        )
    return out


def detection_cost(total: int, seed: int) -> float:
    """Seconds of CPU to compute features and update every pair's score for ``total``
    finished games (played first, not timed)."""
    rng = random.Random(seed)
    games = []
    for i in range(min(total, 2000)):
        policies = [honest(rng.choice(HONEST)) for _ in range(3)]
        games.append(play(seed * 7 + i, policies, i))
    scores: dict[tuple[int, int, int], PairScore] = {}
    start = time.process_time()
    for i in range(total):
        game = games[i % len(games)]
        features = game_features(game.start(), game.moves)
        for a, b in ((0, 1), (0, 2), (1, 2)):
            score = scores.setdefault((i % 500, a, b), PairScore())
            score.add_game(features, a, b, (0.1, -0.2, 0.1))
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="a quick smoke run")
    parser.add_argument("--honest-pairs", type=int, default=10_000)
    parser.add_argument("--honest-hands", type=int, default=10)
    parser.add_argument("--friends", type=int, default=150)
    parser.add_argument("--strong-weak", type=int, default=75)
    parser.add_argument("--series", type=int, default=75)
    parser.add_argument("--friend-hands", type=int, default=200)
    parser.add_argument(
        "--hard-pairs", type=int, default=0, help="honest pairs of two Hard seats (apart)"
    )
    parser.add_argument("--hard-hands", type=int, default=40, help="hands of each Hard pair")
    parser.add_argument("--each", action="store_true", help="print each pair as it ends")
    parser.add_argument("--part", default="", help="A:B, only these pairs of each part run")
    parser.add_argument("--colluding-pairs", type=int, default=20)
    parser.add_argument("--hands", type=int, default=1000, help="most hands a colluding pair plays")
    parser.add_argument("--bases", default="greedy,easy")
    parser.add_argument("--kinds", help="only these colluding kinds (comma-separated)")
    parser.add_argument("--gain-deals", type=int, default=3000)
    parser.add_argument(
        "--gains", help="read the gains from this JSON (bench.fairplay_gain's last line)"
    )
    parser.add_argument("--timed-games", type=int, default=10_000)
    parser.add_argument("--edge-games", type=int, default=4000, help="games to measure edges")
    parser.add_argument("--hard-edge-games", type=int, default=300, help="games for Hard's edge")
    parser.add_argument("--hard-edge", type=float, help="Hard's edge, measured before")
    parser.add_argument(
        "--stop-at-flag",
        action="store_true",
        help="a colluding pair stops when flagged, not after 100 hands (no ROC: for Hard)",
    )
    parser.add_argument("--only", choices=("honest", "colluding", "cost"), help="one part only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--svg", help="write the ROC curves at 100 hands to this file")
    parser.add_argument("--json", help="write every pair's result to this file")
    args = parser.parse_args(argv)
    if args.small:
        args.honest_pairs, args.honest_hands, args.friends, args.strong_weak = 12, 10, 2, 2
        args.series, args.friend_hands, args.colluding_pairs, args.hands = 2, 24, 1, 30
        args.gain_deals, args.timed_games, args.edge_games = 4, 40, 60
        args.kinds, args.bases = args.kinds or "full,soft,dump", "greedy"
    started = time.perf_counter()
    args.edges = style_edges(args.edge_games, args.seed)
    if "hard" in args.bases.split(",") or args.hard_pairs:
        args.edges["hard"] = args.hard_edge
        if args.hard_edge is None:
            args.edges["hard"] = hard_edge(args.hard_edge_games, args.seed)
    print(
        "edges (mean chips a game by style): "
        + ", ".join(f"{k} {v:+.2f}" for k, v in args.edges.items())
    )
    rows: list[dict] = []
    if args.only in (None, "honest"):
        honest_rows = run_all(honest_jobs(args), args.jobs, args.each, args.part)
        rows += honest_rows
        report_honest(honest_rows)
    if args.only in (None, "colluding"):
        gains = _gains(args)
        bad = run_all(colluding_jobs(args), args.jobs, args.each, args.part)
        rows += bad
        report_colluding(bad, gains)
    if args.svg and args.only is None:
        _write_roc(args.svg, rows)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out)
    print(f"\nplayed and scored in {time.perf_counter() - started:.0f} s")
    if args.only in (None, "cost"):
        seconds = detection_cost(args.timed_games, args.seed)
        print(
            f"detection over {args.timed_games} finished games (features from the logs and "
            f"scores): {seconds:.1f} s of CPU, {1000 * seconds / args.timed_games:.2f} ms a game"
        )
    return 0


def _gains(args) -> dict:
    if args.gains == "none":
        return {}
    if args.gains:
        with open(args.gains, encoding="utf-8") as f:
            rows = json.loads(f.read().strip().splitlines()[-1])
    else:
        argv = ["--deals", str(args.gain_deals), "--jobs", str(args.jobs), "--seed", str(args.seed)]
        rows = fairplay_gain.main(argv + (["--kinds", args.kinds] if args.kinds else []))
    return {(r["kind"], r["base"]): r for r in rows}


def _write_roc(path: str, rows: list[dict]) -> None:
    # Honest pairs that played at least ROC_HANDS hands (the short ones never got there).
    honest_scores = np.array([r["roc"] for r in rows if not r["kind"] and r["hands"] >= ROC_HANDS])
    curves = {}
    for kind in ("light", "mixed-25", "cheap", "subtle"):
        bad = np.array([r["roc"] for r in rows if r["kind"] == kind])
        if len(bad):
            curves[kind] = roc(honest_scores, bad)
    with open(path, "w", encoding="utf-8") as out:
        out.write(roc_svg(curves, ROC_HANDS))
    print(f"ROC written to {path}")


if __name__ == "__main__":
    sys.exit(main())
