"""The Easy bot: the greedy bot that sometimes misses.

Now and then (``MISS_RATE``) it makes any legal move instead of greedy's, as a beginner
overlooks a meld or throws the wrong card. Which moves it misses comes from the ``rng`` the
caller gives it; the server seeds that from the game's seed (``games.bots.bot_rng``), so
the same game plays out the same way.
"""

from __future__ import annotations

import random

from games.engine.moves import Move
from games.engine.view import SeatView

from . import greedy

# About one move in three: a person beats it easily, yet it still wins its share of games
# against careless play (``manage.py arena --seats easy,greedy,greedy``).
MISS_RATE = 0.3


def choose(view: SeatView, rng: random.Random) -> Move:
    move = greedy.choose(view, rng)
    if len(view.legal) > 1 and rng.random() < MISS_RATE:
        return rng.choice(view.legal)
    return move
