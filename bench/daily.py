"""The daily deal's duplicate score, measured: ``python -m bench.daily [--deals N]
[--players easy,greedy] [--seed S]``.

Each deal is played as the site plays a daily deal (games.daily.par): the player in seat 0
against two Normal bots, every bot seeded by the seed and the move number, and Hard in the
same seat for par. It prints, per player kind, the spread (standard deviation) of its chips
a deal and of its chips minus par, and its mean chips minus par with the 95% interval the
site shows (games.daily.scores), then how long par takes a deal. The luck a duplicate
score takes out is the spread it removes. Nothing here imports Django; the last line of
standard output is one JSON object for scripts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time

from games import bots
from games.daily import par, scores
from games.engine import apply, new_game, seat_view


def deal_seed(seed: int, n: int) -> int:
    """A seed as long as the site's (128 bits), made from the run's seed and the deal's."""
    return int.from_bytes(hashlib.sha256(f"bench.daily/{seed}/{n}".encode()).digest()[:16], "big")


def chips_of(kind: str, seed: int) -> int:
    """Seat 0's chips with ``kind`` in it against the day's two seeded Normal bots."""
    state = new_game(seed)
    while state.outcome is None:
        who = kind if state.turn == par.SEAT else par.OPPONENTS
        rng = random.Random(bots.bot_seed(str(seed), state.ply, state.turn))
        state = apply(state, bots.choose(who, seat_view(state, state.turn), rng))
    return state.outcome.chips[par.SEAT]


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.daily", description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="deals (200)")
    parser.add_argument("--players", default="easy,greedy", help="kinds in the daily seat")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed (0)")
    args = parser.parse_args(argv)
    seeds = [deal_seed(args.seed, n) for n in range(args.deals)]
    started = time.process_time()
    pars = [par.play(s).chips for s in seeds]
    par_ms = 1000 * (time.process_time() - started) / len(seeds)
    out: dict[str, object] = {"deals": args.deals, "par_ms_cpu": round(par_ms), "par": {}}
    out["par"] = {"mean": statistics.fmean(pars), "sd": statistics.stdev(pars)}
    print(f"par (Hard): mean {out['par']['mean']:+.2f}, sd {out['par']['sd']:.2f} chips")
    for kind in args.players.split(","):
        chips = [chips_of(kind, s) for s in seeds]
        diffs = scores.differences(chips, pars)
        score = scores.duplicate(diffs, window=None)
        row = {
            "sd_chips": statistics.stdev(chips),
            "sd_against_par": statistics.stdev(diffs),
            "mean_against_par": score.mean,
            "interval": [score.low, score.high],
        }
        out[kind] = row
        print(
            f"{kind}: sd of chips {row['sd_chips']:.2f}, of chips − par "
            f"{row['sd_against_par']:.2f}; duplicate score {score.mean:+.2f} "
            f"({score.low:+.2f} … {score.high:+.2f}) over {args.deals} deals"
        )
    print(f"par: {par_ms:.0f} ms of CPU a deal")
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
