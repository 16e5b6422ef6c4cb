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

Each discard also carries its rank among the discarder's choices (greedy's discard score
from the discarder's view), so that feeding with second-best cards stands out.

Beside feeding, each seat's decisions that the detector compares towards its partner and
towards the third, each judged from the seat's own view: the turns it could lay off on a
seat's melds and whether it did (``Layoff``), its answers to each seat's Draw calls
(``Answer``), and its chances to call Draw with which other seat held the more points a
card (``CallChance``: hidden from it, so an honest choice cannot follow it). And each
start step at which a seat could take the discard into a meld that sheds at least
``TAKE_SHED`` points of its deadwood, and whether it did (``TakeChance``: a seat that passes
up nearly every such take never opens, and loses every hand it can, R6). And the chips,
and per direction the counts staff read (``PairCounts``).

Runs on finished games only (their hands are known then); nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from games.bots.greedy import discard_score
from games.bots.knowledge import Reading
from games.engine.cards import FULL_DECK, RANK_MASKS, cards_of, points
from games.engine.melds import deadwood, layoff_options, take_options
from games.engine.moves import CALL, DISCARD, FIGHT, FOLD, LAYOFF, TAKE, Move
from games.engine.rules import apply
from games.engine.scoring import hand_points
from games.engine.state import GameState, Phase


@dataclass(frozen=True)
class Feed:
    """One discard: by ``seat`` to ``nxt``, the chance its own view gave that ``nxt`` could
    take it into a meld, and whether it could (the next hand, known after the end).
    ``rank`` places the card among the seat's choices by greedy's discard score from its
    own view: 0 greedy's own throw, 1 its second choice, 2 any other."""

    seat: int
    nxt: int
    chance: float
    fits: bool
    ply: int  # the discard's place in the log (0-based), for links to the replay
    rank: int = 0


@dataclass(frozen=True)
class Layoff:
    """A turn of ``seat`` in which it could lay off on a face-up meld of ``owner`` (R5):
    whether it did, and how the chance looked from its view when it first arose: ``free``
    when a lay-off would shed deadwood, ``threat`` when the owner could call Draw and, by
    its card count, beat the seat (greedy's reason to block)."""

    seat: int
    owner: int
    free: bool
    threat: bool
    made: bool
    ply: int


@dataclass(frozen=True)
class Answer:
    """``seat``'s answer to ``caller``'s Draw call (R7); ``favourable`` when its own points
    were at most its guess of the caller's (card count times an unseen card's mean)."""

    seat: int
    caller: int
    favourable: bool
    fought: bool
    ply: int


@dataclass(frozen=True)
class CallChance:
    """A start step at which ``seat`` could call Draw (R7): whether it did, how good the
    call looked from its view (``value``: 0 no opened rival could fight; 1 to 4 its points
    under half, three quarters, all, or over its lowest guess of an opened rival's), and
    which other seat held more points a card (``higher``, -1 for equal): hidden from the
    seat, so an honest seat's choice cannot depend on it."""

    seat: int
    called: bool
    value: int
    higher: int
    ply: int


@dataclass(frozen=True)
class TakeChance:
    """A start step at which ``seat`` could take the top discard into a meld (R3) that
    sheds at least ``TAKE_SHED`` points of its deadwood: its hand and the pile's top, all
    in its own view. ``taken`` whether it did."""

    seat: int
    taken: bool
    ply: int


# The least deadwood a take must shed to count as a chance: honest styles pass up 1 to 19%
# of these, a player of random legal moves 51% (bench.fairplay_takes measures it).
TAKE_SHED = 5


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
    layoffs: list[Layoff] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    calls: list[CallChance] = field(default_factory=list)
    takes: list[TakeChance] = field(default_factory=list)
    counts: dict[tuple[int, int], PairCounts] = field(default_factory=dict)
    chips: tuple[int, int, int] = (0, 0, 0)
    paid: dict[tuple[int, int], int] = field(default_factory=dict)  # (loser, winner): chips
    winner: int = -1

    def towards(self, a: int, b: int) -> PairCounts:
        return self.counts.setdefault((a, b), PairCounts())


def game_features(start: GameState, moves: Iterable[Move]) -> GameFeatures:
    """Replay ``moves`` from ``start`` (the deal) and collect the features of every seat
    towards every other. The moves must be legal (a stored game's are)."""
    out = GameFeatures()
    turn = _Turn()
    state = start
    for ply, move in enumerate(moves):
        seat = move.seat
        if state.phase is Phase.PLAY:
            turn.look(state, seat, ply)
        elif state.phase is Phase.START and state.discards:
            _note_take_chance(out, state, move, ply)
        if move.type == DISCARD:
            _note_discard(out, state, move, ply)
            turn.flush(out)
        elif move.type == LAYOFF:
            owner = state.melds[move.meld].owner
            if owner != seat:
                out.towards(seat, owner).layoffs += 1
                turn.made.add(owner)
        elif move.type in (FOLD, FIGHT) and state.caller >= 0:
            _note_answer(out, state, move, ply)
        elif state.phase is Phase.START and (state.opened & ~state.blocked) >> seat & 1:
            _note_call_chance(out, state, move, ply)
        state = apply(state, move)
    turn.flush(out)
    if state.outcome is not None:
        out.chips, out.winner = state.outcome.chips, state.outcome.winner
        for payment in state.outcome.payments:
            out.paid[(payment.loser, state.outcome.winner)] = payment.total
    return out


class _Turn:
    """The lay-off chances of the seat whose play step this is, until its discard."""

    def __init__(self) -> None:
        self.seat = -1
        self.seen: dict[int, tuple[bool, bool, int]] = {}  # owner: (free, threat, ply)
        self.made: set[int] = set()

    def look(self, state: GameState, seat: int, ply: int) -> None:
        self.seat = seat
        hand = state.hands[seat]
        now = None
        for meld in state.melds:
            if meld.owner == seat or meld.secret or meld.owner in self.seen:
                continue
            options = layoff_options(meld.cards, hand)
            if not options:
                continue
            now = deadwood(hand) if now is None else now
            free = any(deadwood(hand & ~o) < now for o in options)
            self.seen[meld.owner] = (free, _threatens(state, seat, meld.owner), ply)

    def flush(self, out: GameFeatures) -> None:
        for owner, (free, threat, ply) in self.seen.items():
            out.layoffs.append(Layoff(self.seat, owner, free, threat, owner in self.made, ply))
        self.seen, self.made = {}, set()


def _guess(state: GameState, seat: int, other: int) -> float:
    """``seat``'s guess at ``other``'s points: its card count times an unseen card's mean,
    the unseen cards as ``seat`` knows them (greedy's own guess)."""
    unseen = _unseen(state, seat)
    count = unseen.bit_count()
    mean = points(unseen) / count if count else 85 / 13
    return state.hands[other].bit_count() * mean


def _threatens(state: GameState, seat: int, owner: int) -> bool:
    if not state.has_opened(owner) or state.is_blocked(owner):
        return False
    if not state.has_opened(seat):
        return True
    return _guess(state, seat, owner) * 0.9 <= hand_points(state, seat)


def _note_discard(out: GameFeatures, state: GameState, move: Move, ply: int) -> None:
    seat = move.seat
    _note_withheld(out, state, seat, move.cards)
    after = apply(state, move)
    if after.phase is Phase.ENDED:
        return
    nxt = (seat + 1) % 3
    card = move.card
    chance = feed_chance(card, _unseen(state, seat) & ~move.cards, state, nxt)
    fits = bool(take_options(state.hands[nxt], card))
    out.feeds.append(Feed(seat, nxt, chance, fits, ply, discard_rank(state, seat, card)))


def discard_rank(state: GameState, seat: int, card: int) -> int:
    """0 when ``card`` is greedy's throw from the seat's view, 1 its second choice, else 2."""
    r = reading_of(state, seat)
    mine = discard_score(r, card)
    better = 0
    for other in cards_of(r.hand):
        if other != card and discard_score(r, other) < mine:
            better += 1
            if better == 2:
                break
    return better


def reading_of(state: GameState, seat: int) -> Reading:
    """The seat's moment as the bots read it, from what the seat can see (its hand, the
    pile, the face-up melds, the others' counts), built from the state without a view."""
    hand = state.hands[seat]
    table, owners = [], []
    for meld in state.melds:
        table.append(0 if meld.secret else meld.cards)
        owners.append(meld.owner)
    return Reading(
        None, seat, hand, _unseen(state, seat), state.phase,
        tuple(h.bit_count() for h in state.hands), state.opened, state.blocked,
        tuple(table), tuple(owners), state.discards[-1] if state.discards else None,
        state.stock_left, hand_points(state, seat),
        state.caller if state.phase is Phase.ANSWER else -1,
    )  # fmt: skip


def _note_answer(out: GameFeatures, state: GameState, move: Move, ply: int) -> None:
    seat, caller = move.seat, state.caller
    counts = out.towards(seat, caller)
    mine = hand_points(state, seat)
    if move.type == FIGHT:
        counts.fights += 1
    else:
        counts.folds += 1
        # A fighter who ties the caller wins (R7).
        if mine <= hand_points(state, caller):
            counts.folds_that_would_win += 1
    favourable = mine <= _guess(state, seat, caller)
    out.answers.append(Answer(seat, caller, favourable, move.type == FIGHT, ply))


def _note_call_chance(out: GameFeatures, state: GameState, move: Move, ply: int) -> None:
    seat = move.seat
    rivals = [s for s in ((seat + 1) % 3, (seat + 2) % 3) if state.has_opened(s)]
    if not rivals:
        value = 0
    else:
        share = hand_points(state, seat) / max(min(_guess(state, seat, s) for s in rivals), 1)
        value = 1 + sum(share >= limit for limit in (0.5, 0.75, 1.0))
    x, y = (seat + 1) % 3, (seat + 2) % 3
    # Points a card, compared without division: x's points times y's count against y's.
    px = hand_points(state, x) * state.hands[y].bit_count()
    py = hand_points(state, y) * state.hands[x].bit_count()
    higher = x if px > py else y if py > px else -1
    out.calls.append(CallChance(seat, move.type == CALL, value, higher, ply))


def _note_take_chance(out: GameFeatures, state: GameState, move: Move, ply: int) -> None:
    seat, hand = move.seat, state.hands[move.seat]
    options = take_options(hand, state.discards[-1])
    if not options:
        return
    if deadwood(hand) - min(deadwood(hand & ~o) for o in options) >= TAKE_SHED:
        out.takes.append(TakeChance(seat, move.type == TAKE, ply))


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
