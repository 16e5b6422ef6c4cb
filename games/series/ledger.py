"""The pot and the standings of a series, derived from its hands' results: nothing here
is stored, so nothing can drift from the games' move logs. Pure: no database.

Before each hand is dealt every seat puts the ante in the pot. A seat that wins two hands
in a row takes the whole pot (and must then win two more for the next one); an aborted
hand keeps its antes in the pot and breaks every streak. When the series ends with chips
left in the pot, each seat still held by a person gets back exactly what that seat put
into this pot (since it was last taken); what the bots' seats and the leavers' seats put
in goes to the house. So ending a series never pays anyone another seat's antes: a pot is
only ever taken by winning it (rules.md, Series).

A pot fair play holds for review (taken beside a partner it flagged) is taken all the same:
``counted`` sets it apart from its taker's standing until staff decide (docs/fair-play.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

HOUSE = "house"


@dataclass(frozen=True)
class HandResult:
    number: int
    dealt: bool
    over: bool  # finished or aborted
    winner: int | None  # None: aborted, or not over yet
    chips: tuple[int, ...] | None  # the hand's own payments (R10), when it finished
    dealer: int | None = None


@dataclass(frozen=True)
class Event:
    hand: int | None  # None: the series' end
    kind: str  # "ante", "pot" (taken), "return" (its own antes back), "house" (the rest)
    seat: int | None  # None for the house
    amount: int  # what the seat (or the house) gains: an ante is negative


@dataclass
class Standing:
    seat: int
    wins: int = 0
    hand_chips: int = 0  # from the hands' payments
    pot_chips: int = 0  # antes paid, pots taken, shares returned
    pots_won: int = 0

    @property
    def net(self) -> int:
        return self.hand_chips + self.pot_chips


@dataclass
class Ledger:
    ante: int
    events: list[Event] = field(default_factory=list)
    pot: int = 0
    house: int = 0
    streak_seat: int | None = None
    streak: int = 0  # hands in a row the streak seat has won towards the pot
    standings: list[Standing] = field(default_factory=lambda: [Standing(s) for s in range(3)])
    last_taken: Event | None = None  # the pot taken by the last finished hand, if it was
    # What each seat has put into the pot since it was last taken (at the end: what each
    # seat had in the pot nobody won, returned to it or kept by the house).
    put_in: list[int] = field(default_factory=lambda: [0, 0, 0])

    def total(self) -> int:
        """Every chip's whereabouts: the seats' pot flows, the pot and the house. Zero."""
        return sum(s.pot_chips for s in self.standings) + self.pot + self.house


def ledger(
    ante: int, hands: Sequence[HandResult], ended: bool = False, people: Sequence[int] = ()
) -> Ledger:
    """The series so far from its hands in order; ``ended`` with ``people`` (the seats
    still held by people at the end) settles a pot nobody won: each of those seats gets
    back what it put into it, and the other seats' antes go to the house."""
    book = Ledger(ante)
    for hand in hands:
        if not hand.dealt:
            continue
        for seat in range(3):
            _post(book, Event(hand.number, "ante", seat, -ante))
            book.put_in[seat] += ante
        book.pot += 3 * ante
        book.last_taken = None
        if not hand.over:  # being played
            continue
        if hand.winner is None or hand.chips is None:  # aborted: every streak broken
            book.streak_seat, book.streak = None, 0
            continue
        for seat, chips in enumerate(hand.chips):
            book.standings[seat].hand_chips += chips
        book.standings[hand.winner].wins += 1
        if book.streak_seat == hand.winner:
            book.streak += 1
        else:
            book.streak_seat, book.streak = hand.winner, 1
        if book.streak == 2:
            taken = Event(hand.number, "pot", hand.winner, book.pot)
            _post(book, taken)
            book.standings[hand.winner].pots_won += 1
            book.pot, book.streak, book.last_taken = 0, 0, taken
            book.put_in = [0, 0, 0]
    if ended and book.pot:
        # Each person's own antes back, never another seat's: the pot cannot be farmed by
        # ending a series against bots, or after friends left (rules.md, Series).
        for seat in range(3):
            if seat in people:
                _post(book, Event(None, "return", seat, book.put_in[seat]))
            else:
                book.house += book.put_in[seat]
        if book.house:
            book.events.append(Event(None, "house", None, book.house))
        book.pot = 0
    return book


def _post(book: Ledger, event: Event) -> None:
    book.events.append(event)
    book.standings[event.seat].pot_chips += event.amount


def next_dealer(hands: Sequence[HandResult]) -> int | None:
    """Who deals the next hand: the winner of the last one (an aborted hand's dealer deals
    again); None before the first, whose dealer the table's seed draws."""
    for hand in reversed(hands):
        if hand.dealt and hand.over:
            return hand.winner if hand.winner is not None else hand.dealer
    return None


@dataclass(frozen=True)
class Counted:
    """The standings as they count while fair play reviews some pots: each pot taken at a
    held (hand, seat) is set apart, out of its taker's pots won and pot chips, until staff
    clear the pair (then it counts) or void the hand (then the ledger made again without
    it says where its chips go). ``held_pots`` and ``held_chips`` per seat."""

    standings: list[Standing]
    held_pots: list[int]
    held_chips: list[int]

    def total(self, book: Ledger) -> int:
        """Every chip's whereabouts with the held pots set apart: zero, as the ledger's."""
        return (
            sum(s.pot_chips for s in self.standings) + sum(self.held_chips) + book.pot + book.house
        )


def counted(book: Ledger, held: Collection[tuple[int, int]]) -> Counted:
    """``book``'s standings with the pots taken at ``held`` (hand number, seat) set apart."""
    standings = [replace(s) for s in book.standings]
    pots, chips = [0, 0, 0], [0, 0, 0]
    for e in book.events:
        if e.kind == "pot" and (e.hand, e.seat) in held:
            standings[e.seat].pots_won -= 1
            standings[e.seat].pot_chips -= e.amount
            pots[e.seat] += 1
            chips[e.seat] += e.amount
    return Counted(standings, pots, chips)
