"""Tune greedy's rules of thumb by paired self-play: ``python -m bench.tune [--deals N]
[--seed S] [--rounds R] [--mix greedy+greedy] [--jobs N] [--start FIELD=VALUE,...]``.

A coordinate search over the fields of ``games.bots.greedy.Params``: for each field in
turn, every value of its grid is played in one seat of the same ``--deals`` paired deals
(``bench.paired``'s deals of ``--seed``) against the mix, next to Normal in that seat, and
the value with the best mean chips over Normal is kept; up to ``--rounds`` rounds, or
until a round keeps every value. It prints each field's values with their chips over
Normal, and at the end the set found as ``Params(...)``; ``greedy.TUNED`` was written from
such a run (docs/bots.md). A greedy game takes about a millisecond, so 10,000 deals a
value are cheap. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from games.bots import greedy
from games.bots.arena import MIXES, paired_mean, paired_plan, parse_mixes, seat_kinds, seat_record
from games.bots.knowledge import read

# The values tried for each field, around Normal's and the tuned set's.
GRID: dict[str, tuple[float, ...]] = {
    "call_share": (0.7, 0.75, 0.8, 0.85, 0.9, 0.95),
    "caller_share": (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2),
    "threat_share": (0.0, 0.3, 0.6, 0.9),
    "block_budget": (0, 3, 6),
    "take_slack": (2, 5, 10),
    "out_weight": (1.5, 2.5, 3, 3.5),
    "feed_opened": (6, 8, 10, 12),
    "feed_unopened": (0, 3, 5, 8, 14),
}


class _Policy:
    """Greedy by ``params`` (a class, not a closure, so the workers can take it)."""

    def __init__(self, params: greedy.Params) -> None:
        self.params = params

    def __call__(self, view, rng):
        return greedy.choose_read(read(view), self.params)


def _deal(job) -> list[int]:
    sets, opponents, deal = job
    kinds = seat_kinds("greedy", opponents, deal)
    base = seat_record(kinds, deal).chips
    return [seat_record(kinds, deal, _Policy(p)).chips - base for p in sets]


def over_normal(
    sets: list[greedy.Params], deals: int, seed: int, mix: str, jobs: int
) -> list[tuple[float, float, float]]:
    """Each set's mean chips over Normal in the same seat and deals, with its interval."""
    work = [(sets, MIXES[mix], deal) for deal in paired_plan(deals, seed)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        rows = list(pool.map(_deal, work, chunksize=max(1, min(50, deals // (jobs * 8)))))
    return [paired_mean([row[i] for row in rows]) for i in range(len(sets))]


def parse_start(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        if not eq or name.strip() not in GRID:
            raise ValueError(f"{part!r} is not FIELD=VALUE of {', '.join(GRID)}")
        out[name.strip()] = float(value)
    return out


def main(argv: list[str] | None = None) -> greedy.Params:
    parser = argparse.ArgumentParser(prog="python -m bench.tune", description=__doc__)
    parser.add_argument("--deals", type=int, default=2000, help="paired deals a value (2000)")
    parser.add_argument("--seed", type=int, default=11, help="the deals' seed (11)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds at most (2)")
    parser.add_argument("--mix", default="greedy+greedy", help="the opponents (greedy+greedy)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--start", default="", help="FIELD=VALUE,... to start from")
    args = parser.parse_args(argv)
    try:
        (mix,) = parse_mixes(args.mix)
        start = parse_start(args.start)
    except ValueError as e:
        parser.error(str(e))
    if min(args.deals, args.rounds, args.jobs) < 1:
        parser.error("--deals, --rounds and --jobs must be at least 1")
    current = dataclasses.replace(greedy.NORMAL, **start)
    began = time.monotonic()
    for round_ in range(1, args.rounds + 1):
        changed = False
        for name, values in GRID.items():
            sets = [dataclasses.replace(current, **{name: v}) for v in values]
            figures = over_normal(sets, args.deals, args.seed, mix, args.jobs)
            best = max(range(len(values)), key=lambda i: figures[i][0])
            shown = ", ".join(
                f"{v:g}: {m:+.3f}" for v, (m, _, _) in zip(values, figures, strict=True)
            )
            print(
                f"round {round_}, {name}: {shown}; keeps {values[best]:g} "
                f"({time.monotonic() - began:.0f} s)",
                flush=True,
            )
            changed |= values[best] != getattr(current, name)
            current = sets[best]
        if not changed:
            break
    ((mean, low, high),) = over_normal([current], args.deals, args.seed, mix, args.jobs)
    print(f"found: {current}", flush=True)
    print(f"over Normal on these deals: {mean:+.3f} ({low:+.3f} to {high:+.3f})", flush=True)
    print(f"{time.monotonic() - began:.0f} s", file=sys.stderr)
    return current


if __name__ == "__main__":
    main()
