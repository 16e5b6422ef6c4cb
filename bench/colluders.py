"""Bots that cheat as a pair, and honest bots of several styles, for measuring fair play.

A colluding seat plays the greedy bot (``games.bots.greedy``) but sees its partner's hand,
as two people on the phone would, and plays for the pair:

- feeding: when the partner sits next, it discards a card the partner can take into a meld
  (the cheapest such card for its own hand);
- soft play: it never lays off on the partner's melds (which would block the partner's Draw
  call, R5), folds to the partner's Draw call, and does not call Draw when the partner holds
  more points than the third seat is likely to (the partner would pay most).

``share`` is the part of its decisions in which it colludes: 1.0 is full collusion, and the
light colluder (``LIGHT``) hides by colluding in only some of them.

The honest styles (``HONEST``) differ on purpose, so that a detector cannot flag a pair for
playing unlike greedy: greedy, Easy (a random move a third of the time), a noisy greedy (one
in ten) and a careless greedy that never thinks about what its discard gives the next seat.
The search bot (Hard) takes about 4 s a game, too slow for thousands of games here.

Only the engine and the bots: no database. The bots get the full ``GameState`` only to read
the partner's hand (the cheat being simulated); every honest seat plays from its own view.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots import choose as bot_choose
from games.bots.greedy import choose_read, discard_score
from games.bots.knowledge import near_meld_outs, read
from games.engine.cards import cards_of
from games.engine.melds import deadwood, take_options
from games.engine.moves import CALL, DISCARD, DRAW, FOLD, LAYOFF, Move
from games.engine.scoring import hand_points
from games.engine.state import GameState, Phase
from games.engine.view import seat_view

FULL = 1.0
LIGHT = 0.25

Policy = Callable[[GameState, int, random.Random], Move]


def honest(kind: str) -> Policy:
    """An honest seat of one of the ``HONEST`` styles, from its own view only."""
    if kind == "noisy":
        return _noisy
    if kind == "careless":
        return _careless
    return lambda state, seat, rng: bot_choose(kind, seat_view(state, seat), rng)


def _noisy(state: GameState, seat: int, rng: random.Random) -> Move:
    view = seat_view(state, seat)
    if len(view.legal) > 1 and rng.random() < 0.1:
        return rng.choice(view.legal)
    return bot_choose("greedy", view, rng)


def _careless(state: GameState, seat: int, rng: random.Random) -> Move:
    r = read(seat_view(state, seat))
    move = choose_read(r)
    if move.type != DISCARD:
        return move

    def cost(card: int) -> float:
        rest = r.hand & ~(1 << card)
        return deadwood(rest) + 1.5 * near_meld_outs(card, rest, r.unseen)

    return Move(DISCARD, seat, 1 << min(cards_of(r.hand), key=cost))


HONEST = ("greedy", "easy", "noisy", "careless")


def colluder(partner: int, share: float) -> Policy:
    """A seat that shares hands with ``partner`` and colludes in ``share`` of its choices."""

    def policy(state: GameState, seat: int, rng: random.Random) -> Move:
        r = read(seat_view(state, seat))
        move = choose_read(r)
        if share < 1.0 and rng.random() >= share:
            return move
        return _collude(state, seat, partner, r, move)

    return policy


def _collude(state: GameState, seat: int, partner: int, r, move: Move) -> Move:
    third = 3 - seat - partner
    if r.phase is Phase.ANSWER:
        return Move(FOLD, seat) if r.caller == partner else move
    if r.phase is Phase.START:
        partner_points = hand_points(state, partner)
        if move.type == CALL and partner_points > r.estimate(third):
            return Move(DRAW, seat)
        return move
    if move.type == LAYOFF and r.owners[move.meld] == partner:
        move = Move(DISCARD, seat, 1 << min(cards_of(r.hand), key=lambda c: discard_score(r, c)))
    if move.type == DISCARD and (seat + 1) % 3 == partner:
        partner_hand = state.hands[partner]
        feeds = [c for c in cards_of(r.hand) if take_options(partner_hand, c)]
        if feeds:
            card = min(feeds, key=lambda c: deadwood(r.hand & ~(1 << c)))
            return Move(DISCARD, seat, 1 << card)
    return move
