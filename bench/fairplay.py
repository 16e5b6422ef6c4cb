"""Fair play's error rates: how soon colluding pairs are flagged, how rarely honest ones are.

    python -m bench.fairplay                 # the figures in docs/fair-play.md
    python -m bench.fairplay --small         # a quick smoke run (tests use it)
    python -m bench.fairplay --svg docs/fair-play-roc.svg

Engine and bots only (no database). Three pools of games are played with fresh seeded
deals: honest games (each seat one of the honest styles of ``bench.colluders``, drawn at
random), and games where two seats collude fully or lightly against an honest third. Each
game's features come from ``games.fairplay.features`` on the deal and the move log, exactly
as the site computes them, and give one piece of evidence per pair of seats.

A pair of accounts is then a sequence of shared hands drawn from its pool (with
replacement, keeping the pair's styles fixed for honest pairs), checked after every hand by
``games.fairplay.detector``: the share of pairs flagged within 50, 100, 200 and 400 hands
is the detection rate (colluders) or the false-positive rate (honest pairs, with a one-sided
95% Clopper-Pearson upper bound). The pools are the independent data; resampling them into
pairs shows how evidence accumulates. The honest pool's calibration (discards that fitted
the next hand against the chances the seats' own views gave) is printed too.

Last, the detector's cost: features and scores of 10,000 finished games from their logs,
on one core.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp
from scipy.stats import beta

from bench.colluders import FULL, HONEST, LIGHT, colluder, honest
from games.engine import apply, new_game
from games.fairplay.detector import ODDS, THRESHOLD, PairScore, feed_log_ratios
from games.fairplay.features import feeds_between, game_features

HANDS = (50, 100, 200, 400)
# The ROC is drawn at 50 shared hands: by 200 both kinds of colluders are all flagged.
ROC_HANDS = 50


@dataclass
class PlayedGame:
    seed: int
    moves: list
    kinds: tuple[str, str, str]
    pair: tuple[int, int] | None  # the colluding seats, if any


def play(seed: int, kinds: tuple[str, str, str], pair=None, share: float = FULL) -> PlayedGame:
    rng = random.Random(seed)
    policies = [honest(k) for k in kinds]
    if pair is not None:
        a, b = pair
        policies[a], policies[b] = colluder(b, share), colluder(a, share)
    state, moves = new_game(seed), []
    while not state.finished:
        move = policies[state.turn](state, state.turn, rng)
        moves.append(move)
        state = apply(state, move)
    return PlayedGame(seed, moves, kinds, pair)


def evidence(game: PlayedGame, a: int, b: int) -> np.ndarray:
    """The log likelihood ratios (one per odds ratio) of one game for seats a and b."""
    features = game_features(new_game(game.seed), game.moves)
    total = np.zeros(len(ODDS))
    for feed in feeds_between(features, a, b):
        total += feed_log_ratios(feed.chance, feed.fits)
    return total


def honest_pool(games: int, seed: int) -> tuple[dict, list[PlayedGame], dict]:
    """Evidence per pair-game keyed by the pair's two styles (sorted); and calibration."""
    rng = random.Random(seed)
    pool: dict[tuple[str, str], list[np.ndarray]] = {}
    played = []
    # Per receiving seat's style: [discards, fits, expected fits].
    calibration = {kind: [0, 0, 0.0] for kind in HONEST}
    for i in range(games):
        kinds = tuple(rng.choice(HONEST) for _ in range(3))
        game = play(seed * 1_000_003 + i, kinds)
        played.append(game)
        features = game_features(new_game(game.seed), game.moves)
        for feed in features.feeds:
            row = calibration[kinds[feed.nxt]]
            row[0] += 1
            row[1] += feed.fits
            row[2] += feed.chance
        for a, b in ((0, 1), (0, 2), (1, 2)):
            total = np.zeros(len(ODDS))
            for feed in feeds_between(features, a, b):
                total += feed_log_ratios(feed.chance, feed.fits)
            key = tuple(sorted((kinds[a], kinds[b])))
            pool.setdefault(key, []).append(total)
    return pool, played, calibration


def colluding_pool(games: int, share: float, seed: int) -> list[np.ndarray]:
    rng = random.Random(seed)
    out = []
    for i in range(games):
        pair = rng.choice(((0, 1), (0, 2), (1, 2)))
        kinds = tuple(rng.choice(HONEST) for _ in range(3))
        game = play(seed * 1_000_003 + i, kinds, pair, share)
        out.append(evidence(game, *pair))
    return out


def first_flags(samples: np.ndarray) -> np.ndarray:
    """For pairs × hands × odds evidence, the hand (1-based) each pair is first flagged at,
    or 0 when never."""
    scores = logsumexp(np.cumsum(samples, axis=1), axis=2) - math.log(samples.shape[2])
    crossed = scores >= THRESHOLD
    first = crossed.argmax(axis=1) + 1
    first[~crossed.any(axis=1)] = 0
    return first


def pairs_from(pool: list[np.ndarray], pairs: int, hands: int, rng: np.random.Generator):
    stack = np.stack(pool)
    picks = rng.integers(0, len(stack), size=(pairs, hands))
    return stack[picks]


def rate(first: np.ndarray, hands: int) -> float:
    return float(((first > 0) & (first <= hands)).mean())


def upper_bound(flagged: int, n: int, confidence: float = 0.95) -> float:
    """One-sided Clopper-Pearson upper bound of a rate."""
    return 1.0 if flagged >= n else float(beta.ppf(confidence, flagged + 1, n - flagged))


def roc(honest_scores: np.ndarray, bad_scores: np.ndarray) -> list[tuple[float, float]]:
    thresholds = np.unique(np.concatenate([honest_scores, bad_scores]))[::-1]
    points = [(0.0, 0.0)]
    for t in thresholds:
        points.append((float((honest_scores >= t).mean()), float((bad_scores >= t).mean())))
    points.append((1.0, 1.0))
    return points


def roc_svg(curves: dict[str, list[tuple[float, float]]], hands: int = ROC_HANDS) -> str:
    """A plain SVG of ROC curves at ``hands`` (false-positive rate on a log axis from 1e-4)."""
    size, pad = 320, 40
    colours = {"full": "#1b6e3a", "light": "#b8860b"}

    def xy(fp: float, tp: float) -> str:
        x = pad + size * (math.log10(max(fp, 1e-4)) + 4) / 4
        y = pad + size * (1 - tp)
        return f"{x:.1f},{y:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size + 2 * pad} '
        f'{size + 2 * pad}" role="img" aria-label="ROC of the fair-play detector">',
        f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
    ]
    for i, label in enumerate(("0.0001", "0.001", "0.01", "0.1", "1")):
        x = pad + size * i / 4
        parts.append(
            f'<text x="{x:.0f}" y="{pad + size + 16}" font-size="10" '
            f'text-anchor="middle">{label}</text>'
        )
    for share in (0.0, 0.5, 1.0):
        y = pad + size * (1 - share)
        parts.append(
            f'<text x="{pad - 4}" y="{y + 4:.0f}" font-size="10" text-anchor="end">{share:g}</text>'
        )
    parts.append(
        f'<text x="{pad + size / 2}" y="{pad + size + 32}" font-size="11" '
        'text-anchor="middle">honest pairs flagged</text>'
    )
    parts.append(
        f'<text x="10" y="{pad + size / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 10 {pad + size / 2})">colluding pairs flagged</text>'
    )
    for j, (name, points) in enumerate(curves.items()):
        coords = [xy(fp, tp) for fp, tp in points]
        line = " ".join(c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1])
        colour = colours.get(name, "#333")
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(
            f'<text x="{pad + size - 8}" y="{pad + size - 30 + 14 * j}" font-size="11" '
            f'text-anchor="end" fill="{colour}">{name} collusion, {hands} hands</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def detection_time(games: list[PlayedGame], total: int) -> float:
    """Seconds to compute features and update every pair's score for ``total`` games."""
    scores: dict[tuple[int, int, int], PairScore] = {}
    start = time.process_time()
    for i in range(total):
        game = games[i % len(games)]
        features = game_features(new_game(game.seed), game.moves)
        for a, b in ((0, 1), (0, 2), (1, 2)):
            key = (i % 500, a, b)  # some 1,500 pairs, each seeing many games
            scores.setdefault(key, PairScore()).add_game(feeds_between(features, a, b))
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="a quick smoke run")
    parser.add_argument("--honest-games", type=int, default=6000)
    parser.add_argument("--colluding-games", type=int, default=1000)
    parser.add_argument("--honest-pairs", type=int, default=3000)
    parser.add_argument("--colluding-pairs", type=int, default=500)
    parser.add_argument("--timed-games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--svg", help="write the ROC curves (50 hands) to this file")
    args = parser.parse_args(argv)
    if args.small:
        args.honest_games, args.colluding_games = 60, 30
        args.honest_pairs, args.colluding_pairs, args.timed_games = 50, 20, 60
    hands = HANDS if not args.small else (10, 20)
    started = time.perf_counter()
    pool, played, calibration = honest_pool(args.honest_games, args.seed)
    full = colluding_pool(args.colluding_games, FULL, args.seed + 1)
    light = colluding_pool(args.colluding_games, LIGHT, args.seed + 2)
    print(
        f"pools: {args.honest_games} honest games, {args.colluding_games} full and "
        f"{args.colluding_games} light colluding games, "
        f"played in {time.perf_counter() - started:.0f} s"
    )
    feeds, fits, expected = (sum(row[i] for row in calibration.values()) for i in range(3))
    print(
        f"honest calibration: {feeds} discards, {fits} fitted the next hand, "
        f"{expected:.1f} expected from the seats' views (ratio {fits / max(expected, 1e-9):.3f})"
    )
    print(
        "  by the receiving seat's style: "
        + ", ".join(f"{k} {row[1] / max(row[2], 1e-9):.3f}" for k, row in calibration.items())
    )
    rng = np.random.default_rng(args.seed)
    most = max(hands)
    print(f"\nflagged within N shared hands (threshold {THRESHOLD:.2f} nats):")
    print("pairs            n   " + "  ".join(f"{n:>6}" for n in hands))
    results = {}
    for name, bad in (("full", full), ("light", light)):
        first = first_flags(pairs_from(bad, args.colluding_pairs, most, rng))
        results[name] = first
        flagged = "  ".join(f"{rate(first, n):6.1%}" for n in hands)
        print(f"{name + ' collusion':15} {args.colluding_pairs:4}   {flagged}")
    kinds = sorted(pool)
    honest_first, honest_samples = [], []
    for i in range(args.honest_pairs):
        key = kinds[i % len(kinds)]
        samples = pairs_from(pool[key], 1, most, rng)
        honest_samples.append(samples[0])
        honest_first.append(first_flags(samples)[0])
    honest_first_arr = np.array(honest_first)
    flagged = "  ".join(f"{rate(honest_first_arr, n):6.2%}" for n in hands)
    print(f"{'honest':15} {args.honest_pairs:4}   {flagged}")
    n_flagged = int(((honest_first_arr > 0) & (honest_first_arr <= most)).sum())
    print(
        f"honest pairs flagged within {most} hands: {n_flagged} of {args.honest_pairs}, "
        f"95% upper bound {upper_bound(n_flagged, args.honest_pairs):.2%} "
        f"(styles: {', '.join('+'.join(k) for k in kinds)})"
    )
    peak = logsumexp(np.cumsum(np.stack(honest_samples), axis=1), axis=2).max(axis=1)
    peak -= math.log(len(ODDS))
    print(
        f"highest score an honest pair reached within {most} hands: {peak.max():.2f} nats "
        f"(threshold {THRESHOLD:.2f}); 99th percentile {np.percentile(peak, 99):.2f}"
    )
    for name, first in results.items():
        hit = first[first > 0]
        if len(hit):
            print(f"{name} collusion: median hands to flag {int(np.median(hit))}")
    if args.svg:
        at = min(ROC_HANDS, most)
        honest_scores = _scores_at(np.stack(honest_samples), at)
        curves = {}
        for name, bad in (("full", full), ("light", light)):
            bad_scores = _scores_at(pairs_from(bad, args.colluding_pairs, at, rng), at)
            curves[name] = roc(honest_scores, bad_scores)
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(roc_svg(curves, at))
        print(f"ROC written to {args.svg}")
    seconds = detection_time(played, args.timed_games)
    print(
        f"\ndetection over {args.timed_games} finished games (features from the logs and "
        f"scores): {seconds:.1f} s of CPU, {1000 * seconds / args.timed_games:.2f} ms a game"
    )
    return 0


def _scores_at(samples: np.ndarray, hands: int) -> np.ndarray:
    sums = samples[:, :hands, :].sum(axis=1)
    return logsumexp(sums, axis=1) - math.log(samples.shape[2])


if __name__ == "__main__":
    sys.exit(main())
