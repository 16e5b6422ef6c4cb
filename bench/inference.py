"""How much the public record says about another seat's hidden hand: ``python -m bench.inference``.

``bench.oracle`` finds that the search bot would win far more often if it knew who holds
which card, and ``bench.sampler`` that its guesses of that are no better than a random
deal. This bench asks whether better guesses exist to be made against greedy: it plays
greedy in all three seats, and at each moment a seat is about to discard it looks at the
next seat's hand through everything the table has seen so far, the whole public move log
included (who threw which card, who let a discard go by, who took, the melds), which is
more than a ``SeatView`` carries. Half the games (by number) teach, the other half test.

- Cards: for every card the seat has not seen, the chance that it is in the next seat's
  hand. ``count`` says only the hand's share of the unseen cards; ``learned`` multiplies
  that by a ratio learnt per bucket of what the log says of the card (the seat threw or let
  go by a card of its rank, or of a neighbour in its suit; it would lay off on a meld on the
  table; its points; the seat's turns so far). Per-card log loss, lower is better.
- Points: the next seat's hand points (R1). ``count`` guesses its card count times the
  unseen cards' mean (greedy's own guess); ``scaled`` fits that guess to the truth by least
  squares; ``learned`` adds the seat's turns, takes and melds, the points of its last and
  its mean discard and whether it has opened. Mean absolute error, in points.

The last line of standard output is one JSON object. Nothing under ``games/`` imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict

from bench.sampler import discard_moments, unseen
from games.bots.knowledge import mean_unseen_points
from games.engine import GameState
from games.engine.cards import RANK_MASKS, points
from games.engine.moves import DISCARD, DRAW, TAKE, Move

Log = list[Move]


def extensions(meld: int) -> int:
    """The cards that would lay off on a face-up meld by themselves (R5)."""
    low, high = (meld & -meld).bit_length() - 1, meld.bit_length() - 1
    if low % 13 == high % 13:
        return RANK_MASKS[low % 13] & ~meld
    floor = low - low % 13
    return (1 << (low - 1) if low > floor else 0) | (1 << (high + 1) if high < floor + 12 else 0)


def passes(log: Log, seat: int) -> list[int]:
    """The discards ``seat`` let go by: thrown by the seat before it, followed by its draw."""
    out = []
    for i, move in enumerate(log):
        if move.type == DISCARD and move.seat == (seat + 2) % 3:
            after = next((m for m in log[i + 1 :] if m.seat == seat), None)
            if after is not None and after.type == DRAW:
                out.append(move.card)
    return out


def card_rows(state: GameState, log: Log) -> list[tuple[float, tuple[int, ...], int]]:
    """(the hand's share of the unseen cards, the card's bucket, 1 if held) for every card
    the seat to play has not seen, about the next seat's hand."""
    nxt = (state.turn + 1) % 3
    lay = 0
    for meld in state.melds:
        if not meld.secret:
            lay |= extensions(meld.cards)
    hidden = unseen(state)
    unseen_cards = [c for c in range(52) if hidden >> c & 1]
    share = state.hands[nxt].bit_count() / len(unseen_cards)
    thrown = [m.card for m in log if m.seat == nxt and m.type == DISCARD]
    passed = passes(log, nxt)
    turns = sum(1 for m in log if m.seat == nxt and m.type in (DRAW, TAKE))
    rows = []
    for card in unseen_cards:
        rank, suit = card % 13, card // 13

        def near(cards: list[int], rank: int = rank, suit: int = suit) -> int:
            return int(any(c // 13 == suit and 0 < abs(c % 13 - rank) <= 2 for c in cards))

        bucket = (
            int(any(c % 13 == rank for c in thrown)),
            int(any(c % 13 == rank for c in passed)),
            near(thrown) | near(passed),
            lay >> card & 1,
            0 if rank < 4 else 1 if rank < 9 else 2,
            min(turns // 2, 2),
        )
        rows.append((share, bucket, state.hands[nxt] >> card & 1))
    return rows


def point_row(state: GameState, log: Log) -> tuple[list[float], int]:
    """(features, the truth) for the next seat's hand points."""
    nxt = (state.turn + 1) % 3
    count = state.hands[nxt].bit_count()
    guess = count * mean_unseen_points(unseen(state))
    thrown = [points(1 << m.card) for m in log if m.seat == nxt and m.type == DISCARD]
    last = thrown[-1] if thrown else 6.5
    mean = sum(thrown) / len(thrown) if thrown else 6.5
    features = [
        guess,
        sum(1 for m in log if m.seat == nxt and m.type in (DRAW, TAKE)),
        sum(1 for m in log if m.seat == nxt and m.type == TAKE),
        sum(1 for m in state.melds if m.owner == nxt),
        count * last,
        count * mean,
        float(state.opened >> nxt & 1),
    ]
    return features, points(state.hands[nxt])


def play(games: int, seed: int) -> list[tuple[int, list, tuple[list[float], int]]]:
    """For every moment before a discard in ``games`` greedy games: (game, cards, points)."""
    return [
        (number, card_rows(state, log), point_row(state, log))
        for number, _, state, log in discard_moments(games, seed)
    ]


def log_loss(rows: list[tuple[float, int]]) -> float:
    total = 0.0
    for p, held in rows:
        p = min(max(p, 1e-6), 1 - 1e-6)
        total -= math.log(p if held else 1 - p)
    return total / len(rows)


def card_figures(teach: list, test: list) -> dict[str, float]:
    held, expected = defaultdict(float), defaultdict(float)
    for rows in teach:
        for share, bucket, y in rows:
            held[bucket] += y
            expected[bucket] += share
    # Shrunk towards 1 by as many cards' worth of evidence as ``prior`` says.
    prior = 20.0
    ratio = {b: (held[b] + prior) / (expected[b] + prior) for b in expected}
    count = [(share, y) for rows in test for share, _, y in rows]
    learned = [(share * ratio.get(b, 1.0), y) for rows in test for share, b, y in rows]
    return {"count": round(log_loss(count), 4), "learned": round(log_loss(learned), 4)}


def least_squares(xs: list[list[float]], ys: list[int]) -> list[float]:
    """Weights (the last one a constant) by the normal equations, a little ridge for safety."""
    rows = [[*x, 1.0] for x in xs]
    k = len(rows[0])
    a = [
        [sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0) for j in range(k)]
        for i in range(k)
    ]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    for col in range(k):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(k):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def point_figures(teach: list, test: list) -> dict[str, float]:
    def mae(weights: list[float], columns: list[int]) -> float:
        errors = [
            abs(sum(weights[i] * x[c] for i, c in enumerate(columns)) + weights[-1] - y)
            for x, y in test
        ]
        return round(sum(errors) / len(errors), 3)

    everything = list(range(len(teach[0][0])))
    scaled = least_squares([[x[0]] for x, _ in teach], [y for _, y in teach])
    learned = least_squares([x for x, _ in teach], [y for _, y in teach])
    return {
        "count": mae([1.0, 0.0], [0]),
        "scaled": mae(scaled, [0]),
        "learned": mae(learned, everything),
    }


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.inference", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="greedy games (300)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the games (5)")
    args = parser.parse_args(argv)
    found = play(args.games, args.seed)
    teach = [f for f in found if f[0] % 2 == 0]
    test = [f for f in found if f[0] % 2 == 1]
    if not teach or not test:
        parser.error("--games: at least 2, so that some teach and some test")
    cards = card_figures([f[1] for f in teach], [f[1] for f in test])
    hands = point_figures([f[2] for f in teach], [f[2] for f in test])
    figures = {"moments": len(found), "card_log_loss": cards, "points_mae": hands}
    print(
        f"{len(found)} moments before a discard; the next seat's hand, on the test half: "
        f"per-card log loss {cards['count']:.4f} from its size alone, {cards['learned']:.4f} "
        f"learnt from the log; points off by {hands['count']:.2f} (size times the mean), "
        f"{hands['scaled']:.2f} (scaled), {hands['learned']:.2f} (learnt)",
        file=sys.stderr,
    )
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
