"""How long the search bot takes a move on one core: ``python -m bench.search [--games N]``.

It plays N games of the search bot against two greedy bots in one process (the seats rotate
as in ``manage.py arena``) and times every move the search bot makes: its moves with a single
legal choice or an obvious one count too, since a player waits for those as well. The target
is at most 300 ms a move at the 95th percentile.

The last line of standard output is one JSON object for scripts. Nothing here imports Django.
"""

from __future__ import annotations

import argparse
import json

from games.bots.arena import play_arena

SEATS = ("search", "greedy", "greedy")


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games to play (60)")
    parser.add_argument("--seed", type=int, default=0, help="the arena's seed (0)")
    args = parser.parse_args(argv)
    result = play_arena(SEATS, args.games, args.seed, jobs=1)
    entry = result.entries[0]
    p50, p95, p99 = (entry.ms_percentile(share) for share in (0.5, 0.95, 0.99))
    print(
        f"search bot, {args.games} games against two greedy bots on one core: {entry.moves} "
        f"moves, p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, "
        f"mean {entry.ms_per_move:.1f} ms a move"
    )
    print(f"(win rate {entry.win_rate:.1%}, mean chips {entry.mean_chips:+.2f}: too few games)")
    figures = {
        "moves": entry.moves,
        "p50_ms": round(p50, 2),
        "p95_ms": round(p95, 2),
        "p99_ms": round(p99, 2),
        "mean_ms": round(entry.ms_per_move, 2),
    }
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
