"""The best guess the public record allows against greedy: ``python -m bench.posterior``.

``bench.inference`` found that what a simple model learns from the public move log says
little about the next seat's hand. This bench asks the question without a model: the other
two seats are greedy, whose moves are a function of what it holds, so the deals that fit
the record are exactly those in which greedy, replayed from the first move, makes every
move the record shows for those seats. It samples such deals by a Markov chain over the
deal (swap two cards whose places this seat cannot know; keep the swap if the replay still
fits), started at the true deal, which fits. A chain that has not wandered far errs towards
the truth, so its guesses are, if anything, better than any bot reading the record could
make: the exact posterior is the best guess there is, by log loss.

It measures the guesses at ``--states`` moments before a discard in greedy games: the next
and the previous seat's hands, guessed by ``--deals`` deals, scored by per-card log loss
and the mean error of the hand's points (R1). Guessers: the hand's size alone (``size``:
every unseen card as likely, the points its count times the unseen cards' mean), the search
bot's own sampler (``bot``) and the chain (``posterior``). A card's chance is its share of
the deals, pulled towards its size share as if by 4 more deals (the same for all), so one
deal's luck is not an infinite loss. Lower is better.

What such guesses are worth in games, ``python -m bench.oracle --know posterior`` measures:
the search bot with its deals drawn from this chain at every decision, against greedy,
greedy.

A tool for research: the chain reads the true deal and nothing under ``games/`` imports it.
The last line of standard output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

from bench.sampler import discard_moments, unseen
from games.bots import greedy, search
from games.bots.search import state_reading
from games.engine import GameState, apply, seat_view
from games.engine.cards import cards_of, points
from games.engine.moves import DRAW, SECRET, IllegalMoveError, Move

# The chain: swaps tried before the first deal is kept, and between two kept deals.
BURN, EVERY = 500, 25
# How many deals' weight a card's chance is pulled towards its size share by.
PRIOR_DEALS = 4
GUESSERS = ("size", "bot", "posterior")


class Chain:
    """Deals that fit the record of ``log`` from ``first`` for the seat ``me`` to play
    after it, the other seats playing greedy.

    A deal is its 52 places in order: each seat's first hand (seat 0, 1, 2), then the
    stock from the top. The seat knows the places of its own first hand and of the stock
    cards it drew; any other two places may swap.
    """

    def __init__(self, first: GameState, log: list[Move], me: int, rng: random.Random) -> None:
        self.first, self.log, self.me, self.rng = first, log, me, rng
        self.sizes = [hand.bit_count() for hand in first.hands]
        self.deck = [c for hand in first.hands for c in cards_of(hand)] + list(first.stock)
        known = set(range(sum(self.sizes[:me]), sum(self.sizes[: me + 1])))
        state, dealt = first, sum(self.sizes)
        for move in log:
            if move.type == DRAW and move.seat == me:
                known.add(dealt + state.stock_pos)
            state = apply(state, move)
        self.free = [i for i in range(52) if i not in known]
        # Places below this have reached a hand; the rest of the stock is still face down,
        # and a swap between two of its places changes nothing the record shows.
        self.drawn_to = dealt + state.stock_pos
        self.state = self.replay(self.deck)
        if self.state is None:
            raise ValueError("the record does not fit its own deal: is it greedy's?")

    def replay(self, deck: list[int]) -> GameState | None:
        """The state after the log from ``deck``, or None if another seat's move is not
        the one greedy would make there."""
        hands, at = [], 0
        for size in self.sizes:
            hands.append(sum(1 << card for card in deck[at : at + size]))
            at += size
        state = GameState.new(self.first.dealer, hands, tuple(deck[at:]), self.first.variants)
        for move in self.log:
            if state.turn != self.me:
                theirs = greedy.choose_read(state_reading(state))
                # A secret set's cards are hidden from this seat: any four of a rank fit.
                if theirs.type != move.type or (move.type != SECRET and theirs != move):
                    return None
                move = theirs
            try:
                state = apply(state, move)
            except IllegalMoveError:
                return None
        return state

    def step(self) -> None:
        i, j = self.rng.sample(self.free, 2)
        if i >= self.drawn_to and j >= self.drawn_to:
            return
        deck = self.deck[:]
        deck[i], deck[j] = deck[j], deck[i]
        state = self.replay(deck)
        if state is not None:
            self.deck, self.state = deck, state

    def deals(self, count: int) -> list[GameState]:
        """``count`` deals of the chain, each the moment after the log, with the cards left
        in the stock shuffled."""
        out = []
        for n in range(BURN + count * EVERY):
            self.step()
            if n >= BURN and (n - BURN) % EVERY == EVERY - 1:
                world = self.state.copy()
                rest = list(world.stock[world.stock_pos :])
                self.rng.shuffle(rest)
                world.stock = (*world.stock[: world.stock_pos], *rest)
                out.append(world)
        return out


def guesses(moments: list, deals: int, seed: int) -> dict[str, dict[str, float]]:
    """Each guesser's figures over ``moments`` (see the module's docstring)."""
    rng = random.Random(seed)
    sums = {g: dict.fromkeys(("ll_next", "ll_prev", "mae_next", "mae_prev"), 0.0) for g in GUESSERS}
    cards = 0
    for first, truth, log in moments:
        me = truth.turn
        view = seat_view(truth, me)
        hidden = unseen(truth)
        worlds = {
            "bot": [search.sample_deal(view, rng, search.DEFAULT_BUDGET) for _ in range(deals)],
            "posterior": Chain(first, log, me, rng).deals(deals),
        }
        cards += hidden.bit_count()
        for i, seat in enumerate(((me + 1) % 3, (me + 2) % 3)):
            name = ("next", "prev")[i]
            hand = truth.hands[seat]
            size = hand.bit_count() / hidden.bit_count()
            for guesser in GUESSERS:
                if guesser == "size":
                    # Every card at its size share, as if from that many deals.
                    held, mean = [size * deals] * 52, size * points(hidden)
                else:
                    hands = [w.hands[seat] for w in worlds[guesser]]
                    held = [sum(h >> card & 1 for h in hands) for card in range(52)]
                    mean = sum(points(h) for h in hands) / len(hands)
                for card in cards_of(hidden):
                    p = (held[card] + PRIOR_DEALS * size) / (deals + PRIOR_DEALS)
                    sums[guesser][f"ll_{name}"] -= math.log(p if hand >> card & 1 else 1 - p)
                sums[guesser][f"mae_{name}"] += abs(mean - points(hand))
    n = len(moments)
    return {
        g: {k: round(v / (cards if k.startswith("ll") else n), 4) for k, v in figures.items()}
        for g, figures in sums.items()
    }


def sampler(first: GameState, log: list[Move], me: int, rng: random.Random) -> search.Sampler:
    """A sampler for the search (``bench.oracle --know posterior``): the chain is run on the
    first deal asked for, and then gives the deals in turn."""
    made: list[GameState] = []

    def deal(view, _rng, budget):
        if not made:
            made.extend(Chain(first, log, me, rng).deals(budget.max_worlds))
        world = made.pop(0)
        made.append(world)
        return world.copy()

    return deal


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m bench.posterior", description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="greedy games to stop in (40)")
    parser.add_argument("--states", type=int, default=100, help="moments scored at most (100)")
    parser.add_argument("--deals", type=int, default=64, help="deals each guesser gives (64)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and deals (1)")
    args = parser.parse_args(argv)
    moments = [(f, state, log[:]) for _, f, state, log in discard_moments(args.games, args.seed)]
    random.Random(args.seed).shuffle(moments)
    moments = moments[: args.states]
    print(f"{len(moments)} moments before a discard, {args.deals} deals each", file=sys.stderr)
    result = guesses(moments, args.deals, args.seed)
    print(f"{'guesser':10}" + "".join(f"{m:>10}" for m in result["size"]))
    for name, figures in result.items():
        print(f"{name:10}" + "".join(f"{v:>10.4f}" for v in figures.values()))
    out: dict[str, object] = {"states": len(moments), "deals": args.deals, **result}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
