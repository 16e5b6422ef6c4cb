"""Paired arena: ``python -m bench.paired [--deals N] [--hero hard] [--base greedy]``.

Each deal is played twice, ``hero`` in one seat and then ``base`` in that same seat, against
the same two opponents (each opponent mix in turn: greedy+greedy, random+random,
easy+easy); the seat turns with the deal. The difference of the two games is the deal's
figure, so the luck of the cards cancels out. It prints, for each mix, the mean chips and
the win rate of hero over base with their paired 95% intervals, and for each side the hand's
mean length in moves and the points held at its Draw calls (R7) in quantiles.
``manage.py arena --paired`` prints the same. The last line of standard output is one JSON
object for scripts. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import json
import sys

from games.bots.arena import MIXES, PairedResult, play_paired


def describe(result: PairedResult) -> list[str]:
    """The lines a person reads for one paired run."""
    mean, low, high = result.chip_diff()
    wmean, wlow, whigh = result.win_diff()
    lines = [
        f"{result.hero} over {result.base} against {'+'.join(result.opponents)}, "
        f"{result.deals} deals: chips {mean:+.3f} a deal (95% CI {low:+.3f} to {high:+.3f}), "
        f"win rate {wmean:+.1%} (95% CI {wlow:+.1%} to {whigh:+.1%})"
    ]
    for name, stats in (
        (result.hero, result.to_dict()["hero_stats"]),
        (result.base, result.to_dict()["base_stats"]),
    ):
        q = stats["call_points_q"]  # type: ignore[index]
        quart = "/".join(str(x) for x in q) if q else "-"
        lines.append(
            f"  {name:<7} mean chips {stats['mean_chips']:+.3f}, wins {stats['win_rate']:.1%}, "  # type: ignore[index]
            f"{stats['mean_plies']:.1f} moves a hand, {stats['calls']} Draw calls "  # type: ignore[index]
            f"({stats['calls_won']} won), points at a call p10/25/50/75/90 {quart}, "  # type: ignore[index]
            f"max {stats['call_points_max']}"  # type: ignore[index]
        )
    return lines


def parse_mixes(text: str) -> list[str]:
    mixes = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in mixes if m not in MIXES]
    if unknown or not mixes:
        raise ValueError(f"unknown opponent mix {unknown}: choose from {', '.join(MIXES)}")
    return mixes


def main(argv: list[str] | None = None) -> list[dict[str, object]]:
    parser = argparse.ArgumentParser(prog="python -m bench.paired", description=__doc__)
    parser.add_argument("--deals", type=int, default=30, help="deals per opponent mix (30)")
    parser.add_argument("--hero", default="hard", help="the bot under test (hard)")
    parser.add_argument("--base", default="greedy", help="the baseline in its seat (greedy)")
    parser.add_argument("--mixes", default=",".join(MIXES), help="opponent mixes to play")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (1)")
    args = parser.parse_args(argv)
    try:
        mixes = parse_mixes(args.mixes)
    except ValueError as e:
        parser.error(str(e))
    out = []
    for mix in mixes:
        result = play_paired(
            args.hero, args.base, MIXES[mix], args.deals, args.seed, jobs=args.jobs
        )
        print("\n".join(describe(result)), flush=True)
        out.append(result.to_dict())
    print(json.dumps(out))
    sys.stdout.flush()
    return out


if __name__ == "__main__":
    main()
