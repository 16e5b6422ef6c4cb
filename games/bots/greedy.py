"""The greedy bot: open early, keep the hand's points low, and end the game when it can win.

It judges a hand by its deadwood (``games.engine.melds.deadwood``): the points left after
the best arrangement into melds, which is what the hand will score once those melds are laid.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.cards import cards_of
from games.engine.melds import all_melds, deadwood, four_of_a_kinds, layoff_options, take_options
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.state import Phase
from games.engine.view import SeatView

from .knowledge import Reading, meld_partners, near_meld_outs, read
from .tongits import Step, plan_to_empty


@dataclass(frozen=True)
class Params:
    """Greedy's rules of thumb as numbers; the defaults are Normal's. Another set plays
    another greedy (``TUNED``, tried for the search bot's own seat: docs/bots.md)."""

    # Call Draw when our points are below this share of the lowest guess for an opened
    # opponent.
    call_share: float = 0.75
    # Fight a Draw call when our points are at most this share of the guess for the
    # caller. Above 1 on purpose: folding costs 1 chip, a lost fight 3 and a won fight 6
    # (R10), so a fight pays from about a 2-in-9 chance of winning it.
    caller_share: float = 1.2
    # An opponent is worth blocking (R5) when their guessed points times this reach ours.
    threat_share: float = 0.9
    # How much deadwood we accept to lay off a card only to block a threatening opponent.
    block_budget: float = 6
    # How much deadwood we accept for a take that opens us (R6).
    take_slack: float = 10
    # Weights of the discard score, in points: an out that would make a meld of the card,
    # and a card the next seat could take into a meld (worse when that would open them).
    out_weight: float = 1.5
    feed_opened: float = 6.0
    feed_unopened: float = 14.0


NORMAL = Params()
# Tuned by paired self-play against Normal players (docs/bots.md).
TUNED = Params(
    call_share=0.85,
    caller_share=1.0,
    threat_share=0.6,
    block_budget=0,
    take_slack=5,
    out_weight=3.5,
    feed_opened=10.0,
    feed_unopened=3.0,
)


def choose(view: SeatView, rng: random.Random, p: Params = NORMAL) -> Move:
    """The greedy move for the seat whose view this is, by the rules of thumb ``p``.

    The policy is deterministic; it takes ``rng`` only to share the bots' signature.
    """
    return choose_read(read(view), p)


def choose_read(r: Reading, p: Params = NORMAL) -> Move:
    """Greedy's move from a reading of the seat's moment (the search's rollouts call this
    with readings of the deals they sample), by the rules of thumb ``p``."""
    if r.phase is Phase.ANSWER:
        return _answer(r, p)
    if r.phase is Phase.START:
        return _start(r, p)
    return _play(r, p)


def _takes(r: Reading) -> list[Move]:
    """The legal takes, in the order the rules list them (R3)."""
    if r.top is None:
        return []
    return [Move(TAKE, r.me, c) for c in take_options(r.hand, r.top)]


def _melds(r: Reading) -> list[Move]:
    return [Move(MELD, r.me, m) for m in all_melds(r.hand)]


def _layoffs(r: Reading) -> list[Move]:
    """The legal lay-offs: on every face-up meld, in the order of the melds (R5)."""
    return [
        Move(LAYOFF, r.me, option, index)
        for index, cards in enumerate(r.table)
        if cards
        for option in layoff_options(cards, r.hand)
    ]


def _answer(r: Reading, p: Params) -> Move:
    guess = r.estimate(r.caller) * p.caller_share
    # A fighter who ties the caller wins (R7), hence <=.
    kind = FIGHT if r.hand_points <= guess else FOLD
    return Move(kind, r.me)


def _start(r: Reading, p: Params) -> Move:
    takes = _takes(r)
    for take in takes:
        if _take_empties(r, take):
            return take
    if r.can_call and should_call(r, r.hand_points, p):
        return Move(CALL, r.me)
    take = _best_take(r, takes, p)
    return take if take is not None else Move(DRAW, r.me)


def _take_empties(r: Reading, take: Move) -> bool:
    table = (*r.table, take.cards | 1 << r.top)
    return plan_to_empty(r.hand & ~take.cards, table, may_discard=True) is not None


def should_call(r: Reading, my_points: float, p: Params = NORMAL) -> bool:
    """Whether a Draw call now (or with ``my_points``) would likely win (R7)."""
    rivals = [s for s in r.others() if r.opened(s)]
    # Unopened players cannot fight: with no opened rival the call wins outright.
    return all(my_points < r.estimate(s) * p.call_share for s in rivals)


def _best_take(r: Reading, takes: list[Move], p: Params) -> Move | None:
    if not takes:
        return None
    now = deadwood(r.hand)
    best = min(takes, key=lambda m: (deadwood(r.hand & ~m.cards), -m.cards.bit_count()))
    after = deadwood(r.hand & ~best.cards)
    # Taking opens (R6), which is worth a little deadwood when we have not opened yet.
    if after < now or (not r.opened(r.me) and after <= now + p.take_slack):
        return best
    return None


def _play(r: Reading, p: Params) -> Move:
    move = before_discard(r, p)
    return move if move is not None else _discard(r, p)


def before_discard(r: Reading, p: Params = NORMAL) -> Move | None:
    """Greedy's play-step move when it is not a discard (a Tongits, a secret set, a block,
    a meld, a lay-off), else None: then greedy throws its best card by ``discard_score``
    and the learned model (``games.bots.learned``) may throw another."""
    # A Move is a non-empty tuple, so ``or`` takes the first step that gives one.
    return tongits_step(r) or _secret_set(r) or _block(r, p) or _meld(r) or _layoff(r, p)


def tongits_step(r: Reading) -> Move | None:
    plan = plan_to_empty(r.hand, r.table, may_discard=True)
    if not plan:
        return None
    step: Step = plan[0]
    # Every step of a plan is legal in the play step: melds and secret sets from the hand,
    # lay-offs on face-up melds, a discard.
    return Move(step.type, r.me, step.cards, step.meld) if r.phase is Phase.PLAY else None


def _secret_set(r: Reading) -> Move | None:
    now = deadwood(r.hand)
    for quad in four_of_a_kinds(r.hand):
        # Down secret only when the four cards are worth no less as a set than elsewhere.
        if deadwood(r.hand & ~quad) <= now:
            return Move(SECRET, r.me, quad)
    return None


def _meld(r: Reading) -> Move | None:
    now = deadwood(r.hand)
    melds = [m for m in _melds(r) if deadwood(r.hand & ~m.cards) <= now]
    if not melds:
        return None
    return max(melds, key=lambda m: m.cards.bit_count())


def _block(r: Reading, p: Params) -> Move | None:
    """A lay-off on the meld of an opponent who could otherwise call Draw and beat us (R5).

    It comes before melding, so a card that a meld of ours could spare (the end of a
    four-card run) still goes to the block.
    """
    blocks = [
        (_change(r, m), m)
        for m in _layoffs(r)
        if _threatens(r, r.owners[m.meld], p) and _change(r, m) <= p.block_budget
    ]
    return min(blocks, key=lambda cm: cm[0])[1] if blocks else None


def _layoff(r: Reading, p: Params) -> Move | None:
    """The lay-off that sheds the most deadwood; on our own meld only if it costs no call."""
    own_ok = not _keeps_call(r, p)
    layoffs = [(_change(r, m), m) for m in _layoffs(r) if own_ok or r.owners[m.meld] != r.me]
    best = min(layoffs, key=lambda cm: cm[0], default=None)
    return best[1] if best is not None and best[0] < 0 else None


def _change(r: Reading, move: Move) -> int:
    return deadwood(r.hand & ~move.cards) - deadwood(r.hand)


def _keeps_call(r: Reading, p: Params) -> bool:
    """Whether a lay-off on our own meld would cost us a Draw call next turn (R5)."""
    if not r.opened(r.me) or r.blocked(r.me) or r.stock_left == 0:
        return False
    leftover = deadwood(r.hand)
    return should_call(r, leftover - _highest_deadwood_card(r), p)


def _highest_deadwood_card(r: Reading) -> int:
    now = deadwood(r.hand)
    gains = [now - deadwood(r.hand & ~(1 << c)) for c in cards_of(r.hand)]
    return max(gains, default=0)


def _threatens(r: Reading, seat: int, p: Params) -> bool:
    """An opened, unblocked opponent whose Draw call could beat us before our next turn."""
    if not r.opened(seat) or r.blocked(seat):
        return False
    return not r.opened(r.me) or r.estimate(seat) * p.threat_share <= r.hand_points


def _discard(r: Reading, p: Params) -> Move:
    card = min(cards_of(r.hand), key=lambda c: discard_score(r, c, p))
    return Move(DISCARD, r.me, 1 << card)


def discard_score(r: Reading, card: int, p: Params = NORMAL) -> float:
    """Lower is better: deadwood kept, chances given up, and what it feeds the next seat."""
    rest = r.hand & ~(1 << card)
    outs = near_meld_outs(card, rest, r.unseen) if r.stock_left else 0
    return deadwood(rest) + p.out_weight * outs + _feed_risk(r, card, p)


def _feed_risk(r: Reading, card: int, p: Params) -> float:
    nxt = r.others()[0]
    unseen = r.unseen.bit_count()
    if not unseen:
        return 0.0
    share = r.counts[nxt] / unseen
    weight = p.feed_opened if r.opened(nxt) else p.feed_unopened
    return weight * meld_partners(card, r.unseen) * share * share
