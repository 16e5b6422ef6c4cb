"""How often each honest style passes up a take of the discard into a meld, the open
signal's evidence (``games.fairplay.features.TakeChance``), against the quiet dumper and an
honest beginner who only draws from the stock.

    python -m bench.fairplay_takes [--games N] [--seed S]

Games of three seats, each a style drawn from ``bench.colluders.HONEST``, tuned greedy,
random legal moves, ``stock-only`` (``bench.colluders.BEGINNERS``: greedy that never takes
the discard) or a quiet dumper (``quiet-dump``, next to its next seat); every start
step with a take that sheds ``TAKE_SHED`` points or more is read from the log exactly as the
site reads it. The stock-only beginner passes up every take, as the quiet dumper does: why
open is evidence shown to staff and not counted in the score that flags (issue 49). Engine
and bots only.
"""

from __future__ import annotations

import argparse
import random
import sys

from games.fairplay.detector import OPEN_NULL
from games.fairplay.features import TAKE_SHED, game_features

from .colluders import BEGINNERS, FULL, HONEST, colluder, honest
from .fairplay_sim import play

STYLES = (*HONEST, "tuned", "random", *BEGINNERS, "quiet-dump")


def shares(games: int, seed: int) -> dict[str, tuple[int, int]]:
    """Per style: (chances, passed up)."""
    rng = random.Random(seed)
    out = {style: [0, 0] for style in STYLES}
    for i in range(games):
        kinds = [rng.choice(STYLES) for _ in range(3)]
        policies = [
            colluder((s + 1) % 3, FULL, "greedy", k) if k == "quiet-dump" else honest(k)
            for s, k in enumerate(kinds)
        ]
        game = play(seed * 1_000_003 + i, policies, i)
        for take in game_features(game.start(), game.moves).takes:
            out[kinds[take.seat]][0] += 1
            out[kinds[take.seat]][1] += not take.taken
    return {k: (n, passed) for k, (n, passed) in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fairplay_takes", description=__doc__)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"takes that shed {TAKE_SHED}+ points, passed up (the null: at most {OPEN_NULL:.0%})")
    for style, (n, passed) in shares(args.games, args.seed).items():
        print(f"  {style:11} {passed:5} of {n:5}  {passed / max(n, 1):.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
