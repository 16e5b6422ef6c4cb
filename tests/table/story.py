"""A game scripted move by move on a deal fixed by hand, for the tests of what the table
tells (tests/table/test_table_story.py draws the table; the browser tests use it too).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.engine.cards import CODES
from games.models import Game, Seat
from games.play import dealing, moves
from games.play.live import snapshots
from tests.table.support import SEED

HANDS = [
    "7S 8S 9S 5H 5D 5C 5S AC 2C 3C AD AS KC".split(),
    "TS 6C 2D 3H 4S 9C 9D JH QS KD 8C 7D".split(),
    "6H 6D 2H 3S 4C 8D 8H JC QC KH TH TC".split(),
]
STOCK_TOP = ["QH", "AH"]
MOVES = [
    {"seat": 0, "type": "meld", "cards": ["7S", "8S", "9S"]},
    {"seat": 0, "type": "secret", "cards": ["5C", "5D", "5H", "5S"]},
    {"seat": 0, "type": "discard", "card": "KC"},
    {"seat": 1, "type": "draw"},
    {"seat": 1, "type": "layoff", "meld": 0, "cards": ["TS"]},
    {"seat": 1, "type": "discard", "card": "6C"},
    {"seat": 2, "type": "take", "cards": ["6D", "6H"]},
    {"seat": 2, "type": "discard", "card": "KH"},
    {"seat": 0, "type": "draw"},
    {"seat": 0, "type": "meld", "cards": ["AC", "2C", "3C"]},
    {"seat": 0, "type": "meld", "cards": ["AD", "AH", "AS"]},
]
BLOCKED = 8  # after Carol's discard: Alice's turn starts, blocked


def deal_as_scripted(game: Game) -> Game:
    """Replace the game's deal by the one above (seat 0 deals), before any move."""
    dealt = {c for hand in HANDS for c in hand} | set(STOCK_TOP)
    stock = STOCK_TOP + [c for c in CODES if c not in dealt]
    deal = {"dealer": 0, "hands": HANDS, "stock": stock}
    Game.objects.filter(pk=game.pk).update(deal=deal, dealer=0, turn_seat=0)
    snapshots.forget()
    game.refresh_from_db()
    return game


def play(game: Game, people, upto: int) -> Game:
    """Play the script's moves up to move ``upto`` (from where the game is)."""
    for payload in MOVES[game.seq : upto]:
        moves.submit_move(game.pk, people[payload["seat"]], payload)
        game.refresh_from_db()
    return game


def set_up(usernames: list[str], password: str, upto: int) -> int:
    """Three new people at the scripted game, played up to move ``upto``; the game's id.
    For a test server's database (``manage.py shell``)."""
    User = get_user_model()
    people = [User.objects.create_user(name, password=password) for name in usernames]
    game = Game.objects.create(created_by=people[0], public=False)
    for index, user in enumerate(people):
        Seat.objects.create(game=game, index=index, user=user)
    dealing.start_game(game, seed=SEED)
    return play(deal_as_scripted(game), people, upto).pk
