"""Training the learned discard model (``manage.py train_bot``): expert iteration's first step.

Self-play: greedy's moves, except at each play step where greedy would throw a card, where
the search (Hard, without the learned model: ``TEACHER``) decides from that seat's view and
its move is played. Each such decision
that ends in a discard is a position: every card of the hand with its features
(``learned.discard_features``), the one Hard threw labelled 1. A logistic regression
(scikit-learn, imported here only) over the standardised features is the model; it is
written as JSON weights that ``learned.DiscardModel`` reads without scikit-learn.

The same seed and count give the same positions, the same fit and the same file.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from games.engine import apply, new_game, seat_view
from games.engine.moves import DISCARD
from games.engine.state import Phase

from . import greedy, learned, search
from .knowledge import read

Position = tuple[list[list[float]], int]  # each card's features, the index Hard threw

# The teacher: Hard without the learned model, so that a training reads no earlier model
# and the same seed and count give the same file whatever model the repository holds; and
# without the reading of random players that came after the repository's model
# (``random_above``), so that ``train_bot --seed 1`` still writes that model (its
# self-play is greedy's, where the reading changes about one decision in a hundred); and
# drawing each rollout's randomness in turn, as it did then (``paired_rollouts`` off).
TEACHER = replace(
    search.DEFAULT_BUDGET,
    learned_rollouts=False,
    learned_order=False,
    random_above=1.01,
    paired_rollouts=False,
)


def self_play_positions(
    seed: int, count: int, progress: Callable[[int, int], None] | None = None
) -> list[Position]:
    """``count`` positions of Hard's discards in self-play from ``seed``."""
    out: list[Position] = []
    game = 0
    while len(out) < count:
        state = new_game(random.Random(f"train/{seed}/{game}").getrandbits(64))
        while state.outcome is None and len(out) < count:
            view = seat_view(state, state.turn)
            r = read(view)
            if view.phase is Phase.PLAY and greedy.before_discard(r) is None:
                rng = random.Random(f"train/{seed}/{game}/{state.ply}")
                move = search.choose_with(view, rng, TEACHER)
                if move.type == DISCARD and r.hand.bit_count() > 1:
                    rows = learned.discard_features(r)
                    chosen = next(i for i, (c, _) in enumerate(rows) if 1 << c == move.cards)
                    out.append(([f for _, f in rows], chosen))
                    if progress and len(out) % 100 == 0:
                        progress(len(out), game + 1)
            else:
                move = greedy.choose_read(r)
            state = apply(state, move)
        game += 1
    return out


def fit(positions: list[Position], random_state: int, meta: dict | None = None) -> dict:
    """The model's JSON object, fitted to ``positions`` (scikit-learn's logistic regression)."""
    clf, mean, scale = fitted(positions, random_state)
    return learned.model_dict(
        clf.coef_[0].tolist(),
        float(clf.intercept_[0]),
        mean.tolist(),
        scale.tolist(),
        **(meta or {}),
    )


def fitted(positions: list[Position], random_state: int):
    """(scikit-learn's classifier, the features' means, their scales): the standardised
    features ``(x - mean) / scale`` are what it was fitted on and predicts from."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = features_matrix(positions)
    y = np.array([int(i == chosen) for rows, chosen in positions for i in range(len(rows))])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=1.0, max_iter=2000, random_state=random_state)
    clf.fit((x - mean) / scale, y)
    return clf, mean, scale


def features_matrix(positions: list[Position]):
    import numpy as np

    return np.array([f for rows, _ in positions for f in rows], dtype=float)


def agreement(model: learned.DiscardModel, positions: list[Position]) -> tuple[float, float]:
    """(the model's, greedy's) share of positions where it throws the card Hard threw."""
    if not positions:
        return 0.0, 0.0
    mine = theirs = 0
    g = learned.FEATURES.index("greedy_score")
    for rows, chosen in positions:
        scores = [model.score(f) for f in rows]
        mine += max(range(len(rows)), key=lambda i: (scores[i], -i)) == chosen
        theirs += min(range(len(rows)), key=lambda i: (rows[i][g], i)) == chosen
    return mine / len(positions), theirs / len(positions)


def train(
    seed: int,
    count: int,
    out: Path | str,
    progress: Callable[[str], None] = lambda _: None,
) -> dict:
    """Generate ``count`` positions from ``seed``, fit on four fifths, report the held-out
    fifth's agreement with Hard, refit on all and write the model to ``out``."""
    positions = self_play_positions(
        seed, count, lambda n, g: progress(f"{n} of {count} positions ({g} games)")
    )
    cut = len(positions) * 4 // 5
    held = learned.DiscardModel(fit(positions[:cut], seed))
    model_on, greedy_on = agreement(held, positions[cut:])
    progress(
        f"held-out positions {len(positions) - cut}: the model throws Hard's card in "
        f"{model_on:.1%}, greedy in {greedy_on:.1%}"
    )
    data = fit(
        positions,
        seed,
        {
            "seed": seed,
            "positions": len(positions),
            "trained_on": "Hard's discards in self-play (games.bots.training)",
            "held_out_agreement": {"model": round(model_on, 4), "greedy": round(greedy_on, 4)},
        },
    )
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(data, indent=1) + "\n")
    progress(f"wrote {out}: {data['version']}")
    return data
