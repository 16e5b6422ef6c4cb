"""What each way of teaming up is worth to the pair: chips a game, on paired deals.

    python -m bench.fairplay_gain [--deals N] [--hard-deals N] [--seed S] [--jobs N]

Each deal is played twice with the same seats, bases and bot seed: once with the pair
colluding (a kind of ``bench.colluders``), once with the same two seats playing the same
bases honestly. The difference of the pair's chips (both seats' together) is the deal's
gain, so the luck of the cards cancels out; the printed figure is its mean per hand with
a 95% interval. Series kinds (the chip dumps) are played as series of ``SERIES_HANDS``
hands with an ante of 1, the pot worked out by the site's ledger, and the gain is per
hand; for them the receiver's own gain is printed too (what the dump moves to it). The
third seat plays the same base as the pair (a mixed kind: each seat's base is drawn).

Engine and bots only (no database). The last line is a JSON object for bench.fairplay.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from multiprocessing import Pool

from .colluders import KINDS, MIXED_BASES, PROBES, SERIES_KINDS, honest, kind_policies
from .fairplay_sim import play, play_series, series_pots

SERIES_HANDS = 12
PAIRS = ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1))
# Kinds played on Hard's base (about a second a game a Hard seat, so few deals): all but
# the mixed ones, whose seats draw their bases from greedy's family.
HARD_KINDS = tuple(k for k in KINDS if not k.startswith("mixed"))


# The honest game of a deal, kept: Hard's rows share their deals, so each is played once
# for all the kinds (a process's own; Hard is measured in one process).
_HONEST: dict[tuple, tuple[int, int, int]] = {}


def one_deal(kind: str, base: str, seed: int) -> tuple[float, ...]:
    """(the pair's gain, the second seat's gain) per hand on one deal (or series); for a
    series also the pot's part of each (pot chips a hand) and the second seat's pots won
    with the dump less without it (per series)."""
    rng = random.Random(seed)
    pair = PAIRS[rng.randrange(len(PAIRS))]
    bases = [base] * 3
    if kind.startswith("mixed"):
        bases = [rng.choice(MIXED_BASES) for _ in range(3)]
    fair = [honest(b) for b in bases]
    cheat = list(fair)
    decide = random.Random(seed ^ 0x5EED)  # which decisions collude, apart from the game's rng
    chosen = (bases[pair[0]], bases[pair[1]])
    cheat[pair[0]], cheat[pair[1]] = kind_policies(kind, pair, chosen, decide)
    if kind in SERIES_KINDS:
        games, with_cheat = play_series(seed, cheat, SERIES_HANDS, 1)
        honest_games, without = play_series(seed, fair, SERIES_HANDS, 1)
        hands = SERIES_HANDS
        (pot, won), (pot_0, won_0) = series_pots(games, 1), series_pots(honest_games, 1)
        gain = sum(with_cheat[s] - without[s] for s in pair) / hands
        return (
            gain, (with_cheat[pair[1]] - without[pair[1]]) / hands,
            sum(pot[s] - pot_0[s] for s in pair) / hands, (pot[pair[1]] - pot_0[pair[1]]) / hands,
            won[pair[1]] - won_0[pair[1]],
        )  # fmt: skip
    else:
        with_cheat = play(seed, cheat, seed).chips
        key = (seed, tuple(bases))
        if key not in _HONEST:
            _HONEST[key] = play(seed, fair, seed).chips
        without = _HONEST[key]
        hands = 1
    gain = sum(with_cheat[s] - without[s] for s in pair) / hands
    return gain, (with_cheat[pair[1]] - without[pair[1]]) / hands


def _job(args: tuple[str, str, list[int]]) -> list[tuple[float, ...]]:
    kind, base, seeds = args
    return [one_deal(kind, base, s) for s in seeds]


def measure(kind: str, base: str, deals: int, seed: int, jobs: int) -> dict:
    # Hard's kinds play the same deals (their honest games are played once).
    salt = hash_kind("", base) if base == "hard" else hash_kind(kind, base)
    seeds = [seed * 1_000_003 + salt * 10_007 + i for i in range(deals)]
    chunks = [(kind, base, seeds[i::jobs]) for i in range(jobs)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_job, chunks)
    else:
        parts = [_job(c) for c in chunks]
    rows = [row for part in parts for row in part]
    return summary(kind, base, rows)


def hash_kind(kind: str, base: str) -> int:
    """A stable number per kind and base (Python's hash() of a str changes per run)."""
    return sum((i + 1) * ord(ch) for i, ch in enumerate(f"{kind}/{base}")) % 9973


def summary(kind: str, base: str, rows: list[tuple[float, ...]]) -> dict:
    n = len(rows)
    mean, half = _interval([row[0] for row in rows])
    receiver, receiver_half = _interval([row[1] for row in rows])
    out = {
        "kind": kind, "base": base, "deals": n, "gain": mean, "half_width": half,
        "receiver": receiver, "receiver_half_width": receiver_half,
    }  # fmt: skip
    if rows and len(rows[0]) > 2:  # a series: the pot's part
        out["pot"], out["pot_half_width"] = _interval([row[2] for row in rows])
        out["receiver_pot"], out["receiver_pot_half_width"] = _interval([row[3] for row in rows])
        out["receiver_pots_won"] = sum(row[4] for row in rows) / n
    return out


def _interval(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% interval's half width."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    return mean, 1.96 * sd / math.sqrt(n)


def plan(deals: int, hard_deals: int) -> list[tuple[str, str, int]]:
    out = []
    for kind in (*KINDS, *PROBES):
        bases = ("mixed",) if kind.startswith("mixed") else ("greedy", "easy")
        out += [(kind, base, deals) for base in bases if deals]
    if hard_deals:
        out += [(kind, "hard", hard_deals) for kind in HARD_KINDS]
    return out


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(prog="python -m bench.fairplay_gain", description=__doc__)
    parser.add_argument("--deals", type=int, default=3000, help="deals per kind and base")
    parser.add_argument("--hard-deals", type=int, default=0, help="deals on Hard's base")
    parser.add_argument("--kinds", help="only these kinds (comma-separated)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    out = []
    print(f"{'kind':10} {'base':7} {'deals':>6} {'pair gain/hand':>16} {'receiver':>9}")
    for kind, base, deals in plan(args.deals, args.hard_deals):
        if args.kinds and kind not in args.kinds.split(","):
            continue
        if not args.kinds and kind in PROBES:
            continue  # a probe is measured when named
        row = measure(kind, base, deals, args.seed, args.jobs)
        out.append(row)
        print(
            f"{kind:10} {base:7} {row['deals']:6} {row['gain']:+8.2f} ± {row['half_width']:.2f}"
            f" {row['receiver']:+9.2f}",
            flush=True,
        )
        if "pot" in row:
            print(
                f"{'':18} of which the pot's: pair {row['pot']:+.2f} ± {row['pot_half_width']:.2f},"
                f" receiver {row['receiver_pot']:+.2f} ± {row['receiver_pot_half_width']:.2f}"
                f" (receiver ± {row['receiver_half_width']:.2f}); the receiver's pots won"
                f" {row['receiver_pots_won']:+.2f} a series",
                flush=True,
            )
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
    sys.exit(0)
