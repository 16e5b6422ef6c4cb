"""The random bot: any legal move, each as likely as the next."""

from __future__ import annotations

import random

from games.engine.moves import Move
from games.engine.view import SeatView


def choose(view: SeatView, rng: random.Random) -> Move:
    return rng.choice(view.legal)
