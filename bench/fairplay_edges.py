"""Fair play's edge cases with the edges as the site keeps them (issue 49): honest friends
of very different strength who always sit together, and a chip dump between friends in a
casual series.

    python -m bench.fairplay_edges --jobs 1          # the figures in docs/fair-play.md
    python -m bench.fairplay_edges --small           # a quick smoke run (tests use it)

``bench.fairplay`` gives every seat its style's edge measured over many games apart, a
shortcut. Here the two friends' edges are what the site would hold: each one's running
mean chips a game over its earlier games, drawn towards 0 by ``EDGE_PRIOR`` games as
``games.fairplay.scoring`` does, and since the friends always sit together, every one of
those games is a game together (so a chip dump between them moves their own edges). The
third seat, a style drawn afresh for each series (a stranger, or a bot level), has its
style's edge from games apart, as the site now sets the third's results apart from the
pair against its results with them.

- **friends**: a very strong player (tuned greedy) and a very weak one (random or Easy)
  play every hand together, in casual series of ``SERIES_HANDS`` hands (the winner deals
  the next, R1) beside a third; seats drawn at each series. Honest: none should be flagged.
- **dump**: two greedy friends in the same series, one dumping to the other
  (``bench.colluders`` ``dump``: never opens or calls, folds, blocks only the third).
- **quiet-dump**: the same, but the dumper treats both opponents alike (greedy's own
  lay-offs, on either): it only never opens, never calls and always folds
  (``bench.colluders`` ``quiet-dump``). A probe of what
  the chip signals see with the site's edges, not a kind the target covers.
- **stock-only**: honest friends, a greedy player and a beginner who only draws from the
  stock (``bench.colluders`` ``stock-only``), who always play together as the friends do:
  the beginner passes up every take of the discard, as the quiet dumper does, so the open
  signal's part rises in their pair; it is shown to staff, not counted, and none should be
  flagged.

Engine and bots only (no database). Prints the command's seeds, each group's flagged share
within 100, 400 and 1,000 hands, the highest score of the honest pairs and the parts of the
score at the flag (each signal's, counted or only shown: ``detector.COUNTED``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool

from games.fairplay.detector import COUNTED, SIGNALS, THRESHOLD, PairScore
from games.fairplay.features import game_features

from .colluders import HONEST, honest, kind_policies
from .fairplay import SEATINGS, SERIES_HANDS, style_edges, upper_bound
from .fairplay_sim import play

# As games.fairplay.scoring.EDGE_PRIOR (a test checks they agree): a player's edge is its
# chips over its games plus this many games at 0.
EDGE_PRIOR = 20
CHECKS = (100, 400, 1000)
GROUPS = ("friends", "dump", "quiet-dump", "stock-only")
HONEST_GROUPS = ("friends", "stock-only")


def run_pair(job: tuple) -> dict:
    """Play one pair's hands, series after series; its first flag, peak and parts."""
    group, seed, hands, stop, third_edges = job
    rng = random.Random(seed)
    if group == "friends":
        styles = ("tuned", rng.choice(("random", "easy")))
    elif group == "stock-only":
        styles = ("greedy", "stock-only")
    else:
        styles = ("greedy", "greedy")
    score, first = PairScore(), 0
    totals, counts = [0.0, 0.0], [0, 0]
    parts_at_flag: dict = {}
    pair, third, dealer = SEATINGS[0], HONEST[0], None
    for hand in range(hands):
        if hand % SERIES_HANDS == 0:
            pair, third, dealer = SEATINGS[rng.randrange(6)], rng.choice(HONEST), None
        policies = [honest(third)] * 3
        if group == "dump":
            # The first friend dumps to the second.
            policies[pair[0]], policies[pair[1]] = kind_policies("dump", pair, styles)
        elif group == "quiet-dump":
            policies[pair[0]], policies[pair[1]] = kind_policies("quiet-dump", pair, styles)
        else:  # honest friends
            policies[pair[0]], policies[pair[1]] = honest(styles[0]), honest(styles[1])
        game_seed = seed * 100_003 + hand
        game = play(game_seed, policies, game_seed, dealer)
        dealer = game.winner
        edges = [third_edges[third]] * 3
        for role in (0, 1):
            edges[pair[role]] = totals[role] / (counts[role] + EDGE_PRIOR)
        score.add_game(game_features(game.start(), game.moves), *pair, tuple(edges))
        for role in (0, 1):
            totals[role] += game.chips[pair[role]]
            counts[role] += 1
        if score.flagged and not first:
            first = hand + 1
            parts_at_flag = score.parts()
            if stop:
                break
    return {
        "group": group, "styles": styles, "first": first, "peak": score.peak,
        "hands": score.games, "parts": parts_at_flag or score.parts(),
        "edges": [totals[r] / (counts[r] + EDGE_PRIOR) for r in (0, 1)],
        "chips": [totals[r] / max(counts[r], 1) for r in (0, 1)],
    }  # fmt: skip


def jobs_for(args, third_edges: dict) -> list[tuple]:
    jobs = []
    for g, group in enumerate(GROUPS):
        count = {
            "friends": args.friends, "dump": args.dumps, "quiet-dump": args.quiet,
            "stock-only": args.stock_only,
        }[group]  # fmt: skip
        hands = args.friend_hands if group in HONEST_GROUPS else args.dump_hands
        for i in range(count):
            seed = args.seed * 10_000_000 + g * 1_000_000 + i
            jobs.append((group, seed, hands, group not in HONEST_GROUPS, third_edges))
    return jobs


def report(rows: list[dict]) -> None:
    for group in GROUPS:
        mine = [r for r in rows if r["group"] == group]
        if not mine:
            continue
        n = len(mine)
        flagged = [r for r in mine if r["first"]]
        shares = ", ".join(
            f"{sum(1 for r in mine if 0 < r['first'] <= c) / n:.0%} within {c}" for c in CHECKS
        )
        firsts = sorted(r["first"] for r in flagged)
        median = firsts[len(firsts) // 2] if firsts else "-"
        print(
            f"{group}: {n} pairs of up to {max(r['hands'] for r in mine)} hands, "
            f"{len(flagged)} flagged ({shares}; median {median} hands); "
            f"highest score {max(r['peak'] for r in mine):.2f} (threshold {THRESHOLD:.2f}); "
            f"one-sided 95% upper bound of the flagged share {upper_bound(len(flagged), n):.1%}"
        )
        heaviest: dict[str, int] = {}
        for r in mine:
            top = max(COUNTED, key=lambda s: r["parts"][s])
            heaviest[top] = heaviest.get(top, 0) + 1
        print(
            "  heaviest counted signal (at the flag, else at the end): "
            + ", ".join(f"{k} {v}" for k, v in sorted(heaviest.items()))
        )
        highest = {s: max(r["parts"][s] for r in mine) for s in SIGNALS}
        print(
            "  each signal's highest part: " + ", ".join(f"{s} {v:.2f}" for s, v in highest.items())
        )
        hands = sum(r["hands"] for r in mine)
        mean = [sum(r["chips"][k] * r["hands"] for r in mine) / max(hands, 1) for k in (0, 1)]
        print(f"  mean chips a hand, first and second friend: {mean[0]:+.2f}, {mean[1]:+.2f}")
        edges = [r["edges"] for r in mine]
        print(
            "  the friends' own edges at the end (first, second): "
            + ", ".join(f"({a:+.2f}, {b:+.2f})" for a, b in edges[:10])
            + (" …" if len(edges) > 10 else "")
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--friends", type=int, default=50, help="honest pairs of friends")
    parser.add_argument("--friend-hands", type=int, default=1000)
    parser.add_argument("--dumps", type=int, default=50, help="chip-dumping pairs")
    parser.add_argument("--dump-hands", type=int, default=400)
    parser.add_argument("--quiet", type=int, default=0, help="quiet-dump pairs (a probe)")
    parser.add_argument(
        "--stock-only", type=int, default=0, help="honest friends, one of them stock-only"
    )
    parser.add_argument("--edge-games", type=int, default=4000, help="games to measure edges")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--small", action="store_true", help="a smoke run")
    args = parser.parse_args(argv)
    if args.small:
        args.friends, args.friend_hands, args.dumps, args.dump_hands = 2, 24, 2, 24
        args.quiet = args.stock_only = 1
        args.edge_games = 60
    started = time.process_time(), time.time()
    print(
        f"python -m bench.fairplay_edges --seed {args.seed} --friends {args.friends} "
        f"--friend-hands {args.friend_hands} --dumps {args.dumps} --dump-hands "
        f"{args.dump_hands} --quiet {args.quiet} --stock-only {args.stock_only} --edge-games "
        f"{args.edge_games} --jobs {args.jobs}"
    )
    third_edges = style_edges(args.edge_games, args.seed)
    print("thirds' edges (mean chips a game apart, by style): " + ", ".join(
        f"{k} {v:+.2f}" for k, v in third_edges.items() if k in HONEST
    ))  # fmt: skip
    jobs = jobs_for(args, third_edges)
    print(f"pair seeds: {jobs[0][1]}… (group g, pair i: seed*10^7 + g*10^6 + i)" if jobs else "")
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            rows = list(pool.imap_unordered(run_pair, jobs))
    else:
        rows = [run_pair(job) for job in jobs]
    report(rows)
    print(
        f"CPU {time.process_time() - started[0]:.0f} s in this process, "
        f"wall {time.time() - started[1]:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
