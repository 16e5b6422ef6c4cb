"""The moves ``python -m bench.mobile`` makes, and the deals it plays them on.

The bench's player steers towards the moves plain play seldom makes (taking the discard,
laying off): it takes the discard whenever it melds, melds as soon as it can, lays off
whenever it can, and throws the card that helps its hand least (the one with the fewest
cards beside it: same rank, or same suit within two), so that the hand keeps pairs the
next discard may meld with. ``steer`` decides from what the page shows; ``simulate``
plays the same player against two Normal bots in the engine alone, with the moves the
server's bots would make (their randomness is seeded from the game's seed, seq and seat:
``games.bots.bot_seed``), so that ``rich_seeds`` can pick deals on which it takes and
lays off often. The bench then deals its tables from those seeds (as the site deals any
table from its seed); the moves are made and timed through the page as any others.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.bots import bot_seed
from games.bots import choose as bot_choose
from games.engine import apply, legal_moves, new_game
from games.engine.cards import cards_of
from games.engine.melds import all_melds, layoff_options, take_options
from games.engine.moves import DISCARD, DRAW, FOLD, LAYOFF, MELD, TAKE, Move
from games.engine.view import seat_view

BENCH_SEAT = 0  # the person who makes a table sits in its seat 0 (games.play.tables)


def _partners(card: int, hand: int) -> int:
    rank, suit = card % 13, card // 13
    n = 0
    for other in cards_of(hand):
        if other == card:
            continue
        if other % 13 == rank or (other // 13 == suit and abs(other % 13 - rank) <= 2):
            n += 1
    return n


def steer(offered: Iterable[str], hand: int, top: int | None, melds: list[tuple[int, int]]):
    """The next move: (kind, cards mask, meld index or -1), None if none is offered.
    ``offered``: the move types on offer; ``top``: the discard's top card (None if the
    pile is empty); ``melds``: (index, cards mask) of the melds one may lay off on."""
    offered = set(offered)
    if FOLD in offered:
        return FOLD, 0, -1
    if TAKE in offered and top is not None and (options := take_options(hand, top)):
        return TAKE, min(options, key=lambda m: (m.bit_count(), m)), -1
    if DRAW in offered:
        return DRAW, 0, -1
    if MELD in offered and (found := [m for m in all_melds(hand) if m.bit_count() <= 4]):
        return MELD, min(found, key=lambda m: (-m.bit_count(), m)), -1
    if LAYOFF in offered:
        for index, cards in sorted(melds):
            if options := layoff_options(cards, hand):
                return LAYOFF, min(options), index
    if DISCARD in offered and hand:
        card = min(cards_of(hand), key=lambda c: (_partners(c, hand), -(c % 13), c))
        return DISCARD, 1 << card, -1
    return None


def simulate(seed: int, bot: str = "normal", limit: int = 400) -> dict[str, int]:
    """The bench's player in seat 0 against two ``bot`` bots on the deal of ``seed``, in
    the engine: how many moves of each type seat 0 made, and all moves."""
    state = new_game(seed)
    counts = {DRAW: 0, TAKE: 0, MELD: 0, LAYOFF: 0, DISCARD: 0, FOLD: 0, "all": 0}
    while state.outcome is None and state.ply < limit:
        legal = legal_moves(state)
        if state.turn == BENCH_SEAT:
            types = {m.type for m in legal}
            top = state.discards[-1] if state.discards else None
            melds = [(i, m.cards) for i, m in enumerate(state.melds) if not m.secret]
            planned = steer(types, state.hands[BENCH_SEAT], top, melds)
            move = None
            if planned is not None:
                kind, cards, meld = planned
                move = Move(kind, BENCH_SEAT, cards, meld)
                if move not in legal:
                    move = None
            if move is None:  # what the bench would not make: the first legal move
                move = legal[0]
            counts[move.type] = counts.get(move.type, 0) + 1
        else:
            rng = random.Random(bot_seed(str(seed), state.ply, state.turn))
            move = bot_choose(bot, seat_view(state, state.turn), rng)
        state = apply(state, move)
        counts["all"] += 1
    return counts


# What a run needs of the bench's player's moves (each of draw, take and discard is timed
# both by its button and by a tap on a pile: twice 30), with a margin.
WANTED = {DRAW: 60, TAKE: 60, MELD: 30, LAYOFF: 30, DISCARD: 60}
KINDS = (DRAW, TAKE, MELD, LAYOFF, DISCARD, FOLD)


def cost(counts: dict[str, int]) -> float:
    """About the seconds a game takes the bench (its player's moves through the slow line
    and the bench's own work, the bots' moves, a new table)."""
    mine = sum(counts[k] for k in KINDS)
    return 1.2 * mine + 0.1 * (counts["all"] - mine) + 4


def rich_seeds(tries: int = 30000, margin: float = 1.25) -> list[tuple[int, dict[str, int]]]:
    """Seeds 1 .. ``tries`` that together give ``margin`` times WANTED in about the least
    time, each with its expected moves: first the deals richest in takes for their time
    (takes are what plain play lacks most), then, greedily, whatever is still wanted."""
    games = {seed: simulate(seed) for seed in range(1, tries + 1)}
    want = {k: v * margin for k, v in WANTED.items()}
    left, chosen = dict(want), []

    def take(seed: int) -> None:
        chosen.append((seed, games.pop(seed)))
        for k in left:
            left[k] -= chosen[-1][1][k]

    for seed in sorted(games, key=lambda s: (-games[s][TAKE] / cost(games[s]), s)):
        if left[TAKE] <= 0:
            break
        take(seed)
    while any(v > 0 for v in left.values()) and games:

        def worth(seed: int) -> float:
            c = games[seed]
            return sum(min(c[k], max(left[k], 0)) / want[k] for k in left) / cost(c)

        take(max(games, key=worth))
    return chosen


if __name__ == "__main__":
    chosen = rich_seeds()
    total = {k: sum(c[k] for _, c in chosen) for k in (*KINDS, "all")}
    print(f"{len(chosen)} seeds, about {sum(cost(c) for _, c in chosen) / 60:.0f} minutes:")
    print(f"expected moves of the bench's player: {total}")
    print(f"RICH_SEEDS = {tuple(s for s, _ in chosen)!r}")
