"""The full state of one game: everything, hidden cards included.

Only the engine and the server hold a ``GameState``; seats and bots get a ``SeatView``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from .cards import cards_of

HELD_MELDS_FREE = "held-melds-free"
KNOWN_VARIANTS = frozenset({HELD_MELDS_FREE})


class Phase(IntEnum):
    START = 0  # the seat may call Draw, draw or take (R3.1, R3.2)
    PLAY = 1  # meld, secret set, lay off, then discard (R3.3, R3.4)
    ANSWER = 2  # a Draw call waits for this seat's fold or fight (R7)
    ENDED = 3


class Meld(NamedTuple):
    owner: int
    cards: int
    secret: bool = False


@dataclass(frozen=True)
class Payment:
    """What one loser pays the winner, term by term (R10)."""

    loser: int
    base: int
    aces: int
    secret_sets: int  # count; each is worth 3
    burned: int  # 0 or 1

    @property
    def total(self) -> int:
        return self.base + self.aces + 3 * self.secret_sets + self.burned


@dataclass(frozen=True)
class Outcome:
    winner: int
    end: str  # tongits, draw, fought_draw, stock
    points: tuple[int, int, int]
    burned: tuple[bool, bool, bool]
    chips: tuple[int, int, int]
    payments: tuple[Payment, ...]


class GameState:
    """One moment of a game. ``apply`` never changes a state: it returns a new one."""

    __slots__ = (
        "dealer", "variants", "held_free", "hands", "stock", "stock_pos", "discards",
        "melds", "turn", "phase", "blocked", "opened", "caller", "answers",
        "last_drawer", "outcome", "ply",
    )  # fmt: skip

    dealer: int
    variants: frozenset[str]
    held_free: bool
    hands: list[int]  # a mask per seat
    stock: tuple[int, ...]  # the whole stock as dealt; stock[stock_pos] is the top
    stock_pos: int
    discards: tuple[int, ...]  # the pile; the last is the top
    melds: tuple[Meld, ...]  # in the order they reached the table (R4)
    turn: int  # the seat that must act
    phase: Phase
    blocked: int  # bit per seat (R5)
    opened: int  # bit per seat (R6)
    caller: int  # the seat that called Draw, or -1
    answers: tuple[str, str, str]  # "", "fold", "fight" or "auto" (folded for them)
    last_drawer: int  # who drew the last stock card (R8), or -1
    outcome: Outcome | None
    ply: int  # moves applied

    @classmethod
    def new(
        cls,
        dealer: int,
        hands: list[int],
        stock: tuple[int, ...],
        variants: frozenset[str] = frozenset(),
    ) -> GameState:
        s = cls.__new__(cls)
        s.dealer, s.variants = dealer, frozenset(variants)
        s.held_free = HELD_MELDS_FREE in s.variants
        s.hands, s.stock, s.stock_pos = list(hands), tuple(stock), 0
        s.discards, s.melds = (), ()
        # The dealer's first turn has no draw step (R3).
        s.turn, s.phase = dealer, Phase.PLAY
        s.blocked = s.opened = 0
        s.caller, s.answers, s.last_drawer = -1, ("", "", ""), -1
        s.outcome, s.ply = None, 0
        return s

    def copy(self) -> GameState:
        s = GameState.__new__(GameState)
        s.dealer, s.variants, s.held_free = self.dealer, self.variants, self.held_free
        s.hands, s.stock, s.stock_pos = self.hands[:], self.stock, self.stock_pos
        s.discards, s.melds, s.turn, s.phase = self.discards, self.melds, self.turn, self.phase
        s.blocked, s.opened, s.caller = self.blocked, self.opened, self.caller
        s.answers, s.last_drawer = self.answers, self.last_drawer
        s.outcome, s.ply = self.outcome, self.ply
        return s

    @property
    def finished(self) -> bool:
        return self.phase is Phase.ENDED

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def top_discard(self) -> int | None:
        return self.discards[-1] if self.discards else None

    def has_opened(self, seat: int) -> bool:
        return bool(self.opened >> seat & 1)

    def is_blocked(self, seat: int) -> bool:
        return bool(self.blocked >> seat & 1)

    def all_cards(self) -> list[int]:
        """Every card's place, for the invariant that each card is somewhere once."""
        out = [c for hand in self.hands for c in cards_of(hand)]
        out += self.stock[self.stock_pos :]
        out += self.discards
        out += [c for meld in self.melds for c in cards_of(meld.cards)]
        return out

    def key(self) -> tuple:
        """Everything that defines the state, for comparing two states."""
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]
