"""Helpers shared by the history, replay, record, dashboard and integrity tests."""

from __future__ import annotations

import io
import re
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone

from games.engine.cards import CODES
from games.models import Game
from games.play import moves as play_moves
from games.play import server_moves

# A seed long enough that finding it in a page means the page shows it.
SEED = 918_273_645_546_372_819

# Later than any clock: every seat's time is up, so the server plays every seat.
FAR_FUTURE = timezone.now() + timedelta(days=3650)

# A hand-made game (docs/rules.md, docs/record.md): Alice deals; Bea takes, Carl lays off on Alice's
# run, Alice lays a secret set, Bea calls Draw, Carl cannot fight (never opened) and Alice
# fights and loses, 44 points against Bea's 39. Bea holds three aces: Alice pays 3 + 3 = 6,
# Carl, burned, 7.
ALICE = ["5S", "6S", "7S", "KH", "4C", "4D", "4H", "4S", "9D", "TD", "JC", "QC", "2H"]
BEA = ["KD", "KS", "2C", "AC", "AD", "AH", "3D", "3H", "6D", "7D", "8D", "9H"]
CARL = ["8S", "3C", "5C", "6C", "7C", "8C", "9C", "TC", "JD", "QD", "KC", "2D"]
STOCK = [c for c in CODES if c not in ALICE + BEA + CARL]  # 5D (Carl draws it), 5H (Alice) …
SCRIPTED_MOVES = [
    {"seat": 0, "type": "meld", "cards": ["5S", "6S", "7S"]},
    {"seat": 0, "type": "discard", "card": "KH"},
    {"seat": 1, "type": "take", "cards": ["KD", "KS"]},
    {"seat": 1, "type": "discard", "card": "2C"},
    {"seat": 2, "type": "draw"},
    {"seat": 2, "type": "layoff", "meld": 0, "cards": ["8S"]},
    {"seat": 2, "type": "discard", "card": "3C"},
    {"seat": 0, "type": "draw"},
    {"seat": 0, "type": "secret", "cards": ["4C", "4D", "4H", "4S"]},
    {"seat": 0, "type": "discard", "card": "2H"},
    {"seat": 1, "type": "call"},
    {"seat": 0, "type": "fight"},
]


def scripted_record(moves: list | None = None) -> dict:
    return {
        "format": "tongits-record/1",
        "dealer": 0,
        "hands": [ALICE, BEA, CARL],
        "stock": STOCK,
        "moves": SCRIPTED_MOVES if moves is None else moves,
        "players": ["Alice", "Bea", "Carl"],
    }


def finish(game: Game) -> Game:
    """Let the server play every seat until the game ends."""
    for _ in range(500):
        if server_moves.play_due(game.pk, now=FAR_FUTURE) is None:
            break
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def play_some(game: Game, moves: int) -> Game:
    """A few server moves, leaving the game in play."""
    for _ in range(moves):
        server_moves.play_due(game.pk, now=FAR_FUTURE)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


def seed_games(username: str, games: int, seed: int = 1, **options) -> None:
    """``manage.py seed_games``; ``options`` such as rated=True, series_every=4."""
    call_command(
        "seed_games", user=username, games=games, seed=seed,
        stdout=io.StringIO(), stderr=io.StringIO(), **options,
    )  # fmt: skip


def hand_codes(game: Game) -> set[str]:
    """Every card in any seat's hand now: what no page may show while the game is on."""
    state = play_moves.game_state(game)
    return {CODES[c] for hand in state.hands for c in range(52) if hand >> c & 1}


def shown_cards(html: str) -> set[str]:
    return set(re.findall(r'data-card="([0-9A-Z]{2})"', html))


def cards_in(html: str, label: str) -> list[str]:
    """The data-card codes inside the group labelled ``label`` (a hand on a replay)."""
    match = re.search(rf'aria-label="{re.escape(label)}">(.*?)</div>', html, re.S)
    assert match, f"no group labelled {label!r}"
    return re.findall(r'data-card="([0-9A-Z]{2})"', match.group(1))
