"""Variants of Hard in the same deals: ``python -m bench.variants --set FIELD=VALUE[,...]
[--set ...] [--deals N] [--mix greedy+greedy] [--seed S] [--jobs N]``.

Each ``--set`` is one variant: Hard with those fields of its ``Budget``
(``games.bots.search``) changed, say ``--set noisy_share=0.1`` or ``--set
max_worlds=64,max_plies=2400``. Every deal is played by Hard, by greedy and by each variant
in the same seat against the same two opponents, the seat turning with the deal and the
deals those of ``bench.paired`` for the same seed; Hard's and greedy's games are played
once for all the variants. It prints Hard over greedy, then each variant over Hard and over
greedy: mean chips a game with paired 95% intervals, and the win rate's difference. The
last line of standard output is one JSON object for scripts. The tries in docs/bots.md
were played this way. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from games.bots import search
from games.bots.arena import (
    MIXES,
    PairedResult,
    SeatRecord,
    paired_plan,
    parse_mixes,
    seat_kinds,
    seat_record,
)

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no"}


def parse_variant(text: str) -> dict[str, object]:
    """``field=value,...`` as the ``Budget`` fields it changes, each of its field's type."""
    changes: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or not hasattr(search.DEFAULT_BUDGET, name):
            fields = ", ".join(f.name for f in dataclasses.fields(search.Budget))
            raise ValueError(f"{part!r} is not FIELD=VALUE of a Budget field: {fields}")
        kind = type(getattr(search.DEFAULT_BUDGET, name))
        value = value.strip()
        if kind is bool:
            if value.lower() not in _TRUE | _FALSE:
                raise ValueError(f"{name} takes true or false, not {value!r}")
            changes[name] = value.lower() in _TRUE
        else:
            try:
                changes[name] = kind(value)
            except ValueError:
                raise ValueError(f"{name} takes a {kind.__name__}, not {value!r}") from None
    if not changes:
        raise ValueError("a variant changes at least one field")
    return changes


def _deal(job) -> list[SeatRecord]:
    budgets, opponents, deal = job
    hard = seat_kinds("hard", opponents, deal)
    records = [seat_record(hard, deal), seat_record(seat_kinds("greedy", opponents, deal), deal)]
    for budget in budgets:
        policy = functools.partial(search.choose_with, budget=budget)
        records.append(seat_record(hard, deal, policy))
    return records


def _diff(
    games: list[list[SeatRecord]], a: int, b: int, opponents: tuple[str, str]
) -> dict[str, list[float]]:
    """Column ``a`` over column ``b``: the paired run's chip and win differences."""
    result = PairedResult(
        str(a), str(b), opponents, tuple(g[a] for g in games), tuple(g[b] for g in games)
    ).to_dict()
    return {"chip_diff": result["chip_diff"], "win_diff": result["win_diff"]}


def _line(name: str, figures: dict[str, list[float]]) -> str:
    (c, cl, ch), (w, wl, wh) = figures["chip_diff"], figures["win_diff"]
    return (
        f"{name}: chips {c:+.3f} ({cl:+.3f} to {ch:+.3f}), "
        f"win rate {w:+.1%} ({wl:+.1%} to {wh:+.1%})"
    )


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.variants", description=__doc__)
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE[,...]",
        help="one variant of Hard's budget (repeat for more)",
    )
    parser.add_argument("--deals", type=int, default=30, help="deals (30)")
    parser.add_argument("--mix", default="greedy+greedy", help="the opponents (greedy+greedy)")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (1)")
    args = parser.parse_args(argv)
    try:
        (mix,) = parse_mixes(args.mix)
        variants = [parse_variant(text) for text in args.set]
    except ValueError as e:
        parser.error(str(e))
    if not variants:
        parser.error("give at least one variant with --set")
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    budgets = [dataclasses.replace(search.DEFAULT_BUDGET, **v) for v in variants]
    jobs = [(budgets, MIXES[mix], deal) for deal in paired_plan(args.deals, args.seed)]
    games: list[list[SeatRecord]] = []
    start = time.monotonic()
    step = max(1, args.deals // 10)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, records in enumerate(pool.map(_deal, jobs, chunksize=1), 1):
            games.append(records)
            if done % step == 0 or done == args.deals:
                print(
                    f"{done} of {args.deals} deals, {time.monotonic() - start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    out: dict[str, object] = {
        "opponents": mix,
        "deals": args.deals,
        "seed": args.seed,
        "hard_over_greedy": _diff(games, 0, 1, MIXES[mix]),
        "variants": [],
    }
    print(_line(f"hard over greedy against {mix}, {args.deals} deals", out["hard_over_greedy"]))
    for i, (text, changes) in enumerate(zip(args.set, variants, strict=True)):
        over_hard = _diff(games, 2 + i, 0, MIXES[mix])
        over_greedy = _diff(games, 2 + i, 1, MIXES[mix])
        print(_line(f"  {text} over hard", over_hard))
        print(_line(f"  {text} over greedy", over_greedy))
        out["variants"].append({"set": changes, "over_hard": over_hard, "over_greedy": over_greedy})
    print(json.dumps(out), flush=True)
    return out


if __name__ == "__main__":
    main()
