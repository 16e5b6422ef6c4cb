"""The Hard bot's learned model: which card to throw, scored from what a player weighs.

A linear model over each discard's features (``discard_features``), trained by
``manage.py train_bot`` (``games.bots.training``) on Hard's own choices in self-play and
kept as a small JSON file of weights (``models/discard.json``). Play reads that file with
plain Python: no scikit-learn, a few microseconds a card. The model's ``version`` is a hash
of its weights, so a record can say which model played (docs/record.md).

Features come from a ``Reading`` (a seat's view, or a rollout's sampled state read the
same way), never from a hidden card.

May import: the engine and the bots' own modules.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from games.engine.cards import cards_of, points
from games.engine.melds import deadwood
from games.engine.moves import DISCARD, Move
from games.engine.state import Phase

from . import greedy
from .knowledge import Reading, meld_partners, near_meld_outs

FORMAT = "tongits-bot-model/1"
MODEL_PATH = Path(__file__).with_name("models") / "discard.json"

FEATURES = (
    "deadwood_after",  # deadwood kept after the throw, less the least of this position's
    "greedy_score",  # greedy's discard score, less the least of this position's
    "card_points",  # the card's own points
    "outs",  # unseen cards that would make a meld of the card with one in hand
    "outs_x_stock",  # outs times the share of the stock left
    "feed_next",  # pairs of unseen cards that would take it, times the next seat's share²
    "feed_next_unopened",  # the same when the next seat has not opened (a take opens, R6)
    "feed_prev",  # the same for the seat after it (it sees the card after the next seat)
    "points_x_stock",  # the card's points times the share of the stock left
    "points_x_rival_opened",  # the card's points when an opponent has opened (a Draw call)
    "deadwood_x_opened",  # deadwood kept after the throw, when this seat has opened
    "partners_in_hand",  # hand cards of the same rank or within two of the same suit
)


def discard_features(r: Reading) -> list[tuple[int, list[float]]]:
    """(card, features) for every card of the hand, in the hand's order."""
    cards = cards_of(r.hand)
    unseen = r.unseen
    n_unseen = unseen.bit_count()
    nxt, prv = r.others()
    share_next = r.counts[nxt] / n_unseen if n_unseen else 0.0
    share_prev = r.counts[prv] / n_unseen if n_unseen else 0.0
    stock = r.stock_left / 15
    rival_opened = 1.0 if r.opened(nxt) or r.opened(prv) else 0.0
    opened = 1.0 if r.opened(r.me) else 0.0
    next_unopened = 0.0 if r.opened(nxt) else 1.0
    feed_weight = greedy.NORMAL.feed_opened if r.opened(nxt) else greedy.NORMAL.feed_unopened
    rows = []
    for card in cards:
        rest = r.hand & ~(1 << card)
        dw = deadwood(rest)
        outs = near_meld_outs(card, rest, unseen) if r.stock_left else 0
        partners = meld_partners(card, unseen)
        pts = points(1 << card)
        rank, low = card % 13, card - card % 13
        near = sum(
            1
            for c in cards
            if c != card and (c % 13 == rank or (c - c % 13 == low and abs(c - card) <= 2))
        )
        feed_next = partners * share_next * share_next
        rows.append(
            (
                card,
                [
                    float(dw),
                    # greedy.discard_score(r, card), from the parts already worked out
                    dw
                    + greedy.NORMAL.out_weight * outs
                    + feed_weight * partners * share_next * share_next,
                    float(pts),
                    float(outs),
                    outs * stock,
                    feed_next,
                    feed_next * next_unopened,
                    partners * share_prev * share_prev,
                    pts * stock,
                    pts * rival_opened,
                    dw * opened,
                    float(near),
                ],
            )
        )
    for i in (0, 1):  # relative to the position's best, so positions compare
        least = min(row[i] for _, row in rows)
        for _, row in rows:
            row[i] -= least
    return rows


class DiscardModel:
    """A linear score over ``FEATURES`` (standardised): the highest is thrown."""

    __slots__ = ("version", "weights", "bias", "mean", "scale", "meta")

    def __init__(self, data: dict) -> None:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} model")
        if list(data["features"]) != list(FEATURES):
            raise ValueError("the model's features are not this code's")
        self.version: str = data["version"]
        self.weights: list[float] = [float(w) for w in data["weights"]]
        self.bias: float = float(data["bias"])
        self.mean: list[float] = [float(m) for m in data["mean"]]
        self.scale: list[float] = [float(s) for s in data["scale"]]
        self.meta = {k: data[k] for k in ("seed", "positions", "trained_on") if k in data}

    def score(self, features: list[float]) -> float:
        total = self.bias
        for x, m, s, w in zip(features, self.mean, self.scale, self.weights, strict=True):
            total += (x - m) / s * w
        return total

    def discard(self, r: Reading) -> Move:
        best = max(discard_features(r), key=lambda cf: (self.score(cf[1]), -cf[0]))
        return Move(DISCARD, r.me, 1 << best[0])

    def ranked(self, r: Reading) -> list[int]:
        """The hand's cards, the model's first choice first."""
        rows = discard_features(r)
        rows.sort(key=lambda cf: (-self.score(cf[1]), cf[0]))
        return [c for c, _ in rows]


def model_dict(
    weights: list[float], bias: float, mean: list[float], scale: list[float], **meta: object
) -> dict:
    """The JSON object of a model, with its version: a hash of what it computes."""
    body = {
        "features": list(FEATURES),
        "weights": [round(w, 8) for w in weights],
        "bias": round(bias, 8),
        "mean": [round(m, 8) for m in mean],
        "scale": [round(s, 8) for s in scale],
    }
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return {"format": FORMAT, "version": f"discard-lr-{digest[:12]}", **meta, **body}


def load(path: Path | str) -> DiscardModel:
    return DiscardModel(json.loads(Path(path).read_text()))


@cache
def default_model() -> DiscardModel:
    """The model in the repository, read once a process."""
    return load(MODEL_PATH)


def choose_read(r: Reading, model: DiscardModel, p: greedy.Params = greedy.NORMAL) -> Move:
    """Greedy's move (by the rules of thumb ``p``), but the model's discard when greedy
    would discard."""
    if r.phase is not Phase.PLAY:
        return greedy.choose_read(r, p)
    move = greedy.before_discard(r, p)
    return move if move is not None else model.discard(r)
