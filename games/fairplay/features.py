"""What a finished game says about each pair of its seats: pure, from the deal and the log.

The detector's main evidence is *feeding*: a seat discards a card the next seat can take
into a meld (R3). An honest seat does not know the next seat's hand, so whatever its style
(careful, careless, a beginner, the search bot), the chance that the card it chose fits the
next hand is what its own view makes it: the next seat's cards are, as far as it knows, a
random draw from the cards it has not seen. ``feed_chance`` works that chance out exactly
(a hypergeometric sum over the few cards that matter), and each discard becomes one
observation: that chance, and whether the card really did fit (known once the game ended).
A pair sharing hands feeds far more often than its chances say; an honest seat does not,
whatever it plays like.

Beside it, counts that staff read as evidence but the test does not weigh (their honest
rates depend on style, so they could not be tested without flagging styles): lay-offs made
and withheld on each other's melds, folds to each other's Draw calls that a fight would
have won, and the chips that flowed between them.

Runs on finished games only (their hands are known then); nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from games.engine.cards import FULL_DECK, RANK_MASKS
from games.engine.melds import layoff_options, take_options
from games.engine.moves import DISCARD, FIGHT, FOLD, LAYOFF, Move
from games.engine.rules import apply
from games.engine.scoring import hand_points
from games.engine.state import GameState, Phase


@dataclass(frozen=True)
class Feed:
    """One discard: by ``seat`` to ``nxt``, the chance its own view gave that ``nxt`` could
    take it into a meld, and whether it could (the next hand, known after the end)."""

    seat: int
    nxt: int
    chance: float
    fits: bool
    ply: int  # the discard's place in the log (0-based), for links to the replay


@dataclass
class PairCounts:
    """Counts from one seat ``a`` towards another ``b`` in one game (directed)."""

    layoffs: int = 0  # lay-offs a made on b's melds
    withheld: int = 0  # discards a made while it still held a card that fitted a meld of b
    folds: int = 0  # a folded to b's Draw call
    folds_that_would_win: int = 0  # … when a fight would have won (points known at the end)
    fights: int = 0  # a fought b's Draw call

    def add(self, other: PairCounts) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class GameFeatures:
    feeds: list[Feed] = field(default_factory=list)
    counts: dict[tuple[int, int], PairCounts] = field(default_factory=dict)
    chips: tuple[int, int, int] = (0, 0, 0)
    paid: dict[tuple[int, int], int] = field(default_factory=dict)  # (loser, winner): chips

    def towards(self, a: int, b: int) -> PairCounts:
        return self.counts.setdefault((a, b), PairCounts())


def game_features(start: GameState, moves: Iterable[Move]) -> GameFeatures:
    """Replay ``moves`` from ``start`` (the deal) and collect the features of every seat
    towards every other. The moves must be legal (a stored game's are)."""
    out = GameFeatures()
    state = start
    for ply, move in enumerate(moves):
        seat = move.seat
        if move.type == DISCARD:
            _note_withheld(out, state, seat, move.cards)
            after = apply(state, move)
            if after.phase is not Phase.ENDED:
                nxt = (seat + 1) % 3
                card = move.card
                chance = feed_chance(card, _unseen(state, seat) & ~move.cards, state, nxt)
                fits = bool(take_options(state.hands[nxt], card))
                out.feeds.append(Feed(seat, nxt, chance, fits, ply))
            state = after
            continue
        if move.type == LAYOFF:
            owner = state.melds[move.meld].owner
            if owner != seat:
                out.towards(seat, owner).layoffs += 1
        elif move.type in (FOLD, FIGHT) and state.caller >= 0:
            counts = out.towards(seat, state.caller)
            if move.type == FIGHT:
                counts.fights += 1
            else:
                counts.folds += 1
                # A fighter who ties the caller wins (R7).
                if hand_points(state, seat) <= hand_points(state, state.caller):
                    counts.folds_that_would_win += 1
        state = apply(state, move)
    if state.outcome is not None:
        out.chips = state.outcome.chips
        for payment in state.outcome.payments:
            out.paid[(payment.loser, state.outcome.winner)] = payment.total
    return out


def _note_withheld(out: GameFeatures, state: GameState, seat: int, discard: int) -> None:
    hand = state.hands[seat]
    for meld in state.melds:
        if meld.owner != seat and not meld.secret and layoff_options(meld.cards, hand):
            out.towards(seat, meld.owner).withheld += 1


def _unseen(state: GameState, seat: int) -> int:
    """The cards ``seat`` has not seen: not in its hand, the pile or a face-up meld."""
    seen = state.hands[seat]
    for card in state.discards:
        seen |= 1 << card
    for meld in state.melds:
        if not meld.secret or meld.owner == seat:
            seen |= meld.cards
    return FULL_DECK & ~seen


def feed_chance(card: int, unseen: int, state: GameState, nxt: int) -> float:
    """The chance, from the discarding seat's view, that ``nxt`` holds two or more cards
    that make a meld with ``card``: ``nxt``'s cards a uniform draw from ``unseen``."""
    suit_floor = card - card % 13
    near = RANK_MASKS[card % 13] & ~(1 << card)
    for pos in (card - 2, card - 1, card + 1, card + 2):
        if suit_floor <= pos < suit_floor + 13:
            near |= 1 << pos
    return _chance(card, near & unseen, unseen.bit_count(), state.hands[nxt].bit_count())


@lru_cache(maxsize=1 << 16)
def _chance(card: int, relevant: int, pool: int, held: int) -> float:
    bits = [relevant & -relevant]
    rest = relevant & ~bits[0]
    while rest:
        low = rest & -rest
        bits.append(low)
        rest ^= low
    if not relevant:
        return 0.0
    r = len(bits)
    total = comb(pool, held)
    if not total:
        return 0.0
    chance = 0
    for pick in range(1, 1 << r):
        subset = 0
        for i in range(r):
            if pick >> i & 1:
                subset |= bits[i]
        size = subset.bit_count()
        if size < 2 or size > held or not take_options(subset, card):
            continue
        chance += comb(pool - r, held - size)
    return chance / total


def feeds_between(features: GameFeatures, a: int, b: int) -> list[Feed]:
    """The discards of either seat of the pair to the other."""
    return [f for f in features.feeds if {f.seat, f.nxt} == {a, b}]
