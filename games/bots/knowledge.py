"""What a seat can work out from its own view: cards it has seen, the rest, the risks.

Everything here takes a ``SeatView`` or masks built from one, never a ``GameState``: a bot
must not know more than the player whose seat it fills.
"""

from __future__ import annotations

from games.engine.cards import FULL_DECK, RANK_MASKS, mask_of, points
from games.engine.state import Phase
from games.engine.view import SeatView

# The mean points of a card nobody has seen yet, when nothing is known (85 / 13).
DECK_MEAN_POINTS = 85 / 13


class Reading:
    """One seat's moment with the masks and counts every decision needs, worked out once
    per move: from a ``SeatView`` (``read``), or by the search's rollouts from the deals
    it samples, which is why nothing here needs the view itself."""

    __slots__ = (
        "view", "me", "hand", "unseen", "phase", "counts", "opened_bits", "blocked_bits",
        "table", "owners", "top", "stock_left", "hand_points", "caller", "can_call",
    )  # fmt: skip

    def __init__(
        self,
        view: SeatView | None,
        me: int,
        hand: int,
        unseen: int,
        phase: Phase,
        counts: tuple[int, ...],
        opened_bits: int,
        blocked_bits: int,
        table: tuple[int, ...],
        owners: tuple[int, ...],
        top: int | None,
        stock_left: int,
        hand_points: int,
        caller: int,
    ) -> None:
        self.view = view  # None in a rollout
        self.me, self.hand, self.unseen, self.phase = me, hand, unseen, phase
        self.counts, self.opened_bits, self.blocked_bits = counts, opened_bits, blocked_bits
        self.table = table  # each meld's cards by index, 0 for a secret set
        self.owners = owners  # each meld's owner by index
        self.top, self.stock_left = top, stock_left
        self.hand_points, self.caller = hand_points, caller
        # Draw may be called at a start step by an opened seat that is not blocked (R5, R7).
        self.can_call = phase is Phase.START and bool((opened_bits & ~blocked_bits) >> me & 1)

    def estimate(self, seat: int) -> float:
        return self.counts[seat] * mean_unseen_points(self.unseen)

    def opened(self, seat: int) -> bool:
        return bool(self.opened_bits >> seat & 1)

    def blocked(self, seat: int) -> bool:
        return bool(self.blocked_bits >> seat & 1)

    def others(self) -> tuple[int, int]:
        """The next seat, then the one after it (R1)."""
        return (self.me + 1) % 3, (self.me + 2) % 3


def read(view: SeatView) -> Reading:
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to play")
    seats = view.seats
    return Reading(
        view,
        view.seat,
        hand_mask(view),
        unseen_mask(view),
        view.phase,
        tuple(i.cards for i in seats),
        sum(1 << i.seat for i in seats if i.opened),
        sum(1 << i.seat for i in seats if i.blocked),
        tuple(0 if m.secret else mask_of(m.cards) for m in view.melds),
        tuple(m.owner for m in view.melds),
        view.discards[-1] if view.discards else None,
        view.stock_left,
        view.hand_points,
        view.caller,
    )


def hand_mask(view: SeatView) -> int:
    return mask_of(view.hand)


def table_mask(view: SeatView) -> int:
    """Every face-up card on the table: melds (secret sets hide theirs) and the pile."""
    mask = mask_of(view.discards)
    for meld in view.melds:
        mask |= mask_of(meld.cards)
    return mask


def unseen_mask(view: SeatView) -> int:
    """Cards this seat has not seen: in other hands, in the stock or in secret sets."""
    return FULL_DECK & ~(hand_mask(view) | table_mask(view))


def mean_unseen_points(unseen: int) -> float:
    count = unseen.bit_count()
    return points(unseen) / count if count else DECK_MEAN_POINTS


def estimated_points(view: SeatView, seat: int, unseen: int) -> float:
    """A guess at another seat's hand points: its card count times an unseen card's mean."""
    return view.seats[seat].cards * mean_unseen_points(unseen)


def meld_partners(card: int, pool: int) -> int:
    """How many pairs of cards from ``pool`` would make a meld with ``card``.

    Applied to the unseen cards, it says how likely the next seat is to hold two cards
    that would let it take ``card`` from the pile (R3).
    """
    same = (pool & RANK_MASKS[card % 13] & ~(1 << card)).bit_count()
    pairs = same * (same - 1) // 2
    rank, low = card % 13, card - card % 13
    for start in (rank - 2, rank - 1, rank):
        if start < 0 or start + 2 > 12:
            continue
        others = [low + r for r in range(start, start + 3) if r != rank]
        if all(pool >> c & 1 for c in others):
            pairs += 1
    return pairs


def near_meld_outs(card: int, hand: int, unseen: int) -> int:
    """Unseen cards that would turn ``card`` and one other hand card into a meld."""
    outs = 0
    rank, low = card % 13, card - card % 13
    same_rank = RANK_MASKS[rank] & ~(1 << card)
    if hand & same_rank:
        outs |= unseen & same_rank
    for step in (-2, -1, 1, 2):
        other = rank + step
        if 0 <= other <= 12 and hand >> (low + other) & 1:
            outs |= _run_completions(low, min(rank, other), max(rank, other)) & unseen
    return outs.bit_count()


def _run_completions(low: int, a: int, b: int) -> int:
    """Cards that make a 3-run with ranks ``a`` < ``b`` of one suit (``b - a`` is 1 or 2)."""
    if b - a == 2:
        return 1 << (low + a + 1)
    ends = 0
    if a > 0:
        ends |= 1 << (low + a - 1)
    if b < 12:
        ends |= 1 << (low + b + 1)
    return ends
