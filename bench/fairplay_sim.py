"""Playing simulated games and series for the fair-play benches: engine and bots only.

A game is a seed (its deal) and the policies of its three seats; a series is hand after
hand of the same seats, the winner of each dealing the next (rules.md, Series), with the
pot worked out by the site's own ledger (``games.series.ledger``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import apply
from games.engine.cards import mask_of
from games.engine.deal import deal_from_seed
from games.engine.moves import Move
from games.engine.state import GameState
from games.series.ledger import HandResult, ledger

from .colluders import Policy


@dataclass
class Played:
    seed: int
    dealer: int
    moves: list[Move]
    chips: tuple[int, int, int]
    winner: int

    def start(self) -> GameState:
        return deal_state(self.seed, self.dealer)


def deal_state(seed: int, dealer: int | None = None) -> GameState:
    dealt, hands, stock = deal_from_seed(seed, dealer)
    return GameState.new(dealt, [mask_of(h) for h in hands], tuple(stock))


def play(seed: int, policies: Sequence[Policy], rng_seed: int, dealer: int | None = None):
    rng = random.Random(rng_seed)
    state = deal_state(seed, dealer)
    first, moves = state.dealer, []
    while not state.finished:
        move = policies[state.turn](state, state.turn, rng)
        moves.append(move)
        state = apply(state, move)
    outcome = state.outcome
    return Played(seed, first, moves, outcome.chips, outcome.winner)


def play_series(seed: int, policies: Sequence[Policy], hands: int, ante: int):
    """The hands of one series and each seat's net (hands' chips and the pot's flows); the
    pot's part of each net is ``series_pots(played, ante)``."""
    played, dealer = [], None
    for number in range(hands):
        game = play(seed * 1000 + number, policies, seed * 7919 + number, dealer)
        played.append(game)
        dealer = game.winner
    book = _book(played, ante)
    return played, tuple(s.net for s in book.standings)


def series_pots(played: Sequence[Played], ante: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's pot chips (antes paid, pots taken, shares returned) and pots won."""
    book = _book(played, ante)
    return tuple(s.pot_chips for s in book.standings), tuple(s.pots_won for s in book.standings)


def _book(played: Sequence[Played], ante: int):
    results = [
        HandResult(n + 1, True, True, g.winner, g.chips, g.dealer) for n, g in enumerate(played)
    ]
    return ledger(ante, results, ended=True, people=(0, 1, 2))
