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

from games.bots.arena import MIXES, describe_paired, parse_mixes, play_paired


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
        print("\n".join(describe_paired(result)), flush=True)
        out.append(result.to_dict())
    print(json.dumps(out))
    sys.stdout.flush()
    return out


if __name__ == "__main__":
    main()
