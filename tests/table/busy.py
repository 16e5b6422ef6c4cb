"""A game scripted to the table's busiest positions, on a deal fixed by hand: the two
other seats lay down three melds each (one grown by a lay-off) before the third seat's
turn, whose hand holds thirteen cards once it draws; then that seat lays down three more,
nine melds on the felt. The browser tests of the table's layout start from it
(tests/browser/test_card_table_in_browser.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.engine.cards import CODES
from games.models import Game, Seat
from games.play import dealing
from games.play import moves as play_moves
from games.play.live import snapshots
from tests.table.support import SEED

HANDS = [
    "AS 2S 3S 4H 4D 4C 9C TC JC KH QH 7D 3D".split(),
    "6S 7S 8S 2H 2D 2C JD QD KD 4S 5C 9H".split(),
    "5H 6H 7H 8D 8C 8H TS JS QS 3H AD 6D".split(),
]
STOCK_TOP = ["KC", "9S", "5S", "AH"]
MOVES = [
    {"seat": 0, "type": "meld", "cards": ["AS", "2S", "3S"]},
    {"seat": 0, "type": "meld", "cards": ["4H", "4D", "4C"]},
    {"seat": 0, "type": "meld", "cards": ["9C", "TC", "JC"]},
    {"seat": 0, "type": "discard", "card": "KH"},
    {"seat": 1, "type": "draw"},
    {"seat": 1, "type": "meld", "cards": ["6S", "7S", "8S"]},
    {"seat": 1, "type": "meld", "cards": ["2H", "2D", "2C"]},
    {"seat": 1, "type": "meld", "cards": ["JD", "QD", "KD"]},
    {"seat": 1, "type": "layoff", "meld": 0, "cards": ["4S"]},
    {"seat": 1, "type": "discard", "card": "KC"},
    # Seat 2's turn: it draws 9S and holds thirteen cards.
    {"seat": 2, "type": "draw"},
    {"seat": 2, "type": "meld", "cards": ["5H", "6H", "7H"]},
    {"seat": 2, "type": "meld", "cards": ["8D", "8C", "8H"]},
    {"seat": 2, "type": "meld", "cards": ["9S", "TS", "JS", "QS"]},
    {"seat": 2, "type": "discard", "card": "3H"},
]
THIRD_SEATS_TURN = 10  # six melds on the felt, seat 2 to draw (then 13 cards)
NINE_MELDS = 14  # nine melds, seat 2 to discard

# Another deal: the dealer throws the 5 of clubs, which the next seat's three other fives
# meld with in four ways (any two of them, or all three: R3).
MANY_WAYS = {
    "hands": [
        "5C KH QH JD 9C 7D 3D 2S 4H 8C TD AS 6D".split(),
        "5D 5H 5S KC QC JC 9H 7S 3C 2H 4D 8H".split(),
        "TS JS QS KS AH 2C 3H 4S 6H 7C 8S 9D".split(),
    ],
    "stock_top": ["AC"],
    "moves": [{"seat": 0, "type": "discard", "card": "5C"}],
}


def set_up(usernames: list[str], password: str, upto: int, script: dict | None = None) -> int:
    """Three new people at the scripted game (``script``: another deal and moves, as
    MANY_WAYS), played up to move ``upto``; the game's id. For a test server's database
    (``manage.py shell``)."""
    hands, stock_top, moves = (
        (script["hands"], script["stock_top"], script["moves"])
        if script
        else (HANDS, STOCK_TOP, MOVES)
    )
    User = get_user_model()
    people = [User.objects.create_user(name, password=password) for name in usernames]
    game = Game.objects.create(created_by=people[0], public=False)
    for index, user in enumerate(people):
        Seat.objects.create(game=game, index=index, user=user)
    dealing.start_game(game, seed=SEED)
    dealt = {c for hand in hands for c in hand} | set(stock_top)
    stock = stock_top + [c for c in CODES if c not in dealt]
    deal = {"dealer": 0, "hands": hands, "stock": stock}
    Game.objects.filter(pk=game.pk).update(deal=deal, dealer=0, turn_seat=0)
    snapshots.forget()
    game.refresh_from_db()
    for payload in moves[:upto]:
        play_moves.submit_move(game.pk, people[payload["seat"]], payload)
    return game.pk
