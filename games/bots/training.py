"""Training the learned discard model (``manage.py train_bot``): expert iteration's first step.

Self-play: greedy's moves, except where greedy would throw a card. There every discard of
the hand is played in the same sampled deals with Hard's rollouts (``TEACHER``: Hard's
sampler and opponents' model, without the learned model, none dropped), and the best is
thrown. Each such moment is a position: every card of the hand with its features
(``learned.discard_features``) and its value, the mean chips after throwing it. A ridge
regression of the values on the standardised features, both taken relative to the
position's average (what matters is which card of a hand is worth more), is the model; it is
written as JSON weights that ``learned.DiscardModel`` reads without numpy.

Until 3 December 2026 the label was the card Hard threw (a logistic regression): Hard
throws greedy's card nine times in ten, so that model mostly learned greedy (docs/bots.md).

The same seed and count give the same positions, the same fit and the same file.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from games.engine import apply, new_game, seat_view
from games.engine.moves import DISCARD, Move
from games.engine.state import Phase

from . import greedy, learned, search
from .knowledge import read

Position = tuple[list[list[float]], list[float]]  # each card's features, and its value

# The teacher: Hard's rollouts without the learned model (so that a training reads no earlier
# model, and the same seed and count give the same file whatever model the repository holds),
# every discard of the hand played in the same deals to the end, none dropped.
TEACHER = replace(
    search.DEFAULT_BUDGET,
    learned_rollouts=False,
    learned_order=False,
    drop_z=1e9,
    max_worlds=32,
    max_plies=10**9,
)


def self_play_positions(
    seed: int, count: int, progress: Callable[[int, int], None] | None = None
) -> list[Position]:
    """``count`` positions of discards in self-play from ``seed``, each card of the hand with
    its value: the mean chips the teacher's rollouts give after throwing it."""
    out: list[Position] = []
    game = 0
    while len(out) < count:
        state = new_game(random.Random(f"train/{seed}/{game}").getrandbits(64))
        while state.outcome is None and len(out) < count:
            view = seat_view(state, state.turn)
            r = read(view)
            move = greedy.choose_read(r)
            if view.phase is Phase.PLAY and move.type == DISCARD and r.hand.bit_count() > 1:
                rng = random.Random(f"train/{seed}/{game}/{state.ply}")
                values = search.discard_values(view, rng, TEACHER)
                rows = learned.discard_features(r)
                out.append(([f for _, f in rows], [values[c] for c, _ in rows]))
                # The teacher's best card is played, as Hard would play it.
                best = max(rows, key=lambda cf: (values[cf[0]], -cf[0]))[0]
                move = Move(DISCARD, r.me, 1 << best)
                if progress and len(out) % 100 == 0:
                    progress(len(out), game + 1)
            state = apply(state, move)
        game += 1
    return out


RIDGE = 1.0  # the fit's penalty on the standardised weights


def fit(positions: list[Position], random_state: int, meta: dict | None = None) -> dict:
    """The model's JSON object, fitted to ``positions`` (``fitted``). ``random_state`` is
    kept for the command's signature: the least-squares fit draws nothing."""
    weights, mean, scale = fitted(positions)
    return learned.model_dict(weights.tolist(), 0.0, mean.tolist(), scale.tolist(), **(meta or {}))


def fitted(positions: list[Position]):
    """(the weights, the features' means, their scales): a ridge regression of each card's
    value on its standardised features ``(x - mean) / scale``, both taken relative to their
    position's average, so that what is learned is which card of a hand is worth more."""
    import numpy as np

    x = features_matrix(positions)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    ys, at = [], 0
    for rows, values in positions:
        n = len(rows)
        z[at : at + n] -= z[at : at + n].mean(axis=0)
        v = np.array(values, dtype=float)
        ys.append(v - v.mean())
        at += n
    y = np.concatenate(ys)
    gram = z.T @ z + RIDGE * np.eye(z.shape[1])
    weights = np.linalg.solve(gram, z.T @ y)
    return weights, mean, scale


def features_matrix(positions: list[Position]):
    import numpy as np

    return np.array([f for rows, _ in positions for f in rows], dtype=float)


def regret(model: learned.DiscardModel, positions: list[Position]) -> dict[str, float]:
    """The model's and greedy's mean chips short of the best card's value (by the teacher's
    rollouts), and how often each throws that best card."""
    if not positions:
        return {}
    g = learned.FEATURES.index("greedy_score")
    lost = {"model": 0.0, "greedy": 0.0}
    top = {"model": 0, "greedy": 0}
    for rows, values in positions:
        best = max(values)
        scores = [model.score(f) for f in rows]
        picks = {
            "model": max(range(len(rows)), key=lambda i: (scores[i], -i)),
            "greedy": min(range(len(rows)), key=lambda i: (rows[i][g], i)),
        }
        for who, i in picks.items():
            lost[who] += best - values[i]
            top[who] += values[i] == best
    n = len(positions)
    return {
        "model_regret": round(lost["model"] / n, 4),
        "greedy_regret": round(lost["greedy"] / n, 4),
        "model_top": round(top["model"] / n, 4),
        "greedy_top": round(top["greedy"] / n, 4),
    }


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
    figures = regret(held, positions[cut:])
    progress(
        f"held-out positions {len(positions) - cut}: chips short of the teacher's best card "
        f"{figures['model_regret']:.3f} by the model, {figures['greedy_regret']:.3f} by greedy; "
        f"its best card thrown {figures['model_top']:.1%} and {figures['greedy_top']:.1%}"
    )
    data = fit(
        positions,
        seed,
        {
            "seed": seed,
            "positions": len(positions),
            "trained_on": (
                "each discard's value in Hard's rollouts, self-play (games.bots.training)"
            ),
            "held_out": figures,
        },
    )
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(data, indent=1) + "\n")
    progress(f"wrote {out}: {data['version']}")
    return data
