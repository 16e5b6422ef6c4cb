"""A game scripted to the table's busiest positions, on a deal fixed by hand: the two
other seats lay down three melds each (one grown by a lay-off) before the third seat's
turn, whose hand holds thirteen cards once it draws; then that seat lays down three more,
nine melds on the felt. The browser tests of the table's layout start from it
(tests/browser/test_card_table_in_browser.py)."""

from __future__ import annotations

from django.conf import settings
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
    # The turn clock as the server is set (a browser test's module may give ten minutes, so
    # that nobody's turn is played by the server while earlier tests run).
    game = Game.objects.create(
        created_by=people[0], public=False, turn_seconds=settings.TONGITS_TURN_SECONDS
    )
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


# Whole games by taps alone, short: deals on which the browser test's player (below) and
# two Normal bots end the game in a few turns, the player having drawn from the stock and
# taken the discard by a tap (tests/browser/test_card_table_in_browser.py plays them at
# the sizes other than the long game's). The bots' moves are the server's: seeded from the
# game's seed, seq and seat (games.bots.bot_seed). Found by ``short_deals``.
SHORT_SEEDS = (1832, 2528)  # a Draw called by a bot (and folded) ends each, in 13 and 15 moves


def taps_alone(seed: int, limit: int = 200) -> dict | None:
    """The browser test's player in seat 0 (the table's maker) against two Normal bots on
    the deal of ``seed``, in the engine: take the discard when it melds (one way only:
    None if a take would be asked about), else draw; meld the arrangement's first meld
    while that leaves a card to throw; else throw the suggested card; fold a Draw call.
    Its moves by type, all moves, and who won (-1 if nobody, a draw)."""
    import random

    from games.bots import bot_seed
    from games.bots import choose as bot_choose
    from games.engine import apply, legal_moves, new_game, seat_view
    from games.engine.cards import cards_of, mask_of_codes, parse_card
    from games.engine.melds import take_options
    from games.engine.moves import DISCARD, DRAW, FOLD, MELD, TAKE, Move
    from games.table.arrange import arrange, suggested_discard

    state = new_game(seed)
    counts = {DRAW: 0, TAKE: 0, MELD: 0, DISCARD: 0, FOLD: 0, "all": 0}
    while state.outcome is None and state.ply < limit:
        legal = legal_moves(state)
        types = {m.type for m in legal}
        if state.turn == 0:
            hand = state.hands[0]
            if FOLD in types:
                move = Move(FOLD, 0)
            elif DRAW in types:
                top = state.discards[-1] if state.discards else None
                options = take_options(hand, top) if top is not None and TAKE in types else []
                if len(options) > 1:
                    return None
                move = Move(TAKE, 0, options[0]) if options else Move(DRAW, 0)
            else:
                cards = tuple(cards_of(hand))
                melds = [codes for kind, codes in arrange(cards) if kind == "meld"]
                if melds and MELD in types and len(cards) > len(melds[0]) + 1:
                    move = Move(MELD, 0, mask_of_codes(melds[0]))
                else:
                    move = Move.discard(0, parse_card(suggested_discard(cards)))
            if move not in legal:
                return None
            counts[move.type] += 1
        else:
            rng = random.Random(bot_seed(str(seed), state.ply, state.turn))
            move = bot_choose("normal", seat_view(state, state.turn), rng)
        state = apply(state, move)
        counts["all"] += 1
    if state.outcome is None:
        return None
    counts["winner"] = state.outcome.winner
    counts["end"] = state.outcome.end
    return counts


def short_deals(tries: int = 3000, count: int = 8) -> list[tuple[int, dict[str, int]]]:
    """Seeds 1 .. ``tries`` on which ``taps_alone`` draws and takes the discard at least
    once each and the game ends soonest."""
    found = []
    for seed in range(1, tries + 1):
        c = taps_alone(seed)
        if c and c["draw"] and c["take"]:
            found.append((c["all"], seed, c))
    return [(seed, c) for _, seed, c in sorted(found)[:count]]
