"""What one seat may see: the only thing bots and templates get.

A ``SeatView`` holds the seat's own hand and public facts; never another seat's hand,
a secret set's cards or the stock, until the game has ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import cards_of
from .moves import Move
from .rules import legal_moves
from .scoring import hand_points
from .state import GameState, Outcome, Phase


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    cards: int  # how many cards in hand
    opened: bool
    blocked: bool
    answer: str  # to a pending Draw call: "", "fold", "fight", "auto"


@dataclass(frozen=True)
class MeldView:
    index: int
    owner: int
    cards: tuple[int, ...]  # empty for a secret set until the end
    secret: bool
    size: int


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None for a spectator
    dealer: int
    turn: int
    phase: Phase
    ply: int
    hand: tuple[int, ...]  # this seat's cards, by suit then rank; empty for spectators
    hand_points: int
    seats: tuple[SeatInfo, SeatInfo, SeatInfo]
    melds: tuple[MeldView, ...]
    discards: tuple[int, ...]  # the face-up pile, the top last
    stock_left: int
    caller: int  # -1 when no Draw call is pending
    legal: tuple[Move, ...]  # this seat's legal moves now (empty when not its turn)
    held_melds_free: bool
    outcome: Outcome | None = None
    revealed_hands: tuple[tuple[int, ...], ...] | None = None  # every hand, after the end

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat and not self.finished

    @property
    def top_discard(self) -> int | None:
        return self.discards[-1] if self.discards else None

    def other_seats(self) -> list[SeatInfo]:
        me = self.seat if self.seat is not None else 0
        return [self.seats[(me + 1) % 3], self.seats[(me + 2) % 3]]


def seat_view(state: GameState, seat: int | None) -> SeatView:
    """The view of ``seat`` (None: a spectator, who sees no hand at all)."""
    ended = state.outcome is not None
    hand = tuple(cards_of(state.hands[seat])) if seat is not None else ()
    acting = seat is not None and seat == state.turn and not ended
    return SeatView(
        seat=seat,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        ply=state.ply,
        hand=hand,
        hand_points=hand_points(state, seat) if seat is not None else 0,
        seats=tuple(_seat_info(state, s) for s in range(3)),  # type: ignore[arg-type]
        melds=tuple(_meld_view(i, m, ended) for i, m in enumerate(state.melds)),
        discards=state.discards,
        stock_left=state.stock_left,
        caller=state.caller if state.phase is Phase.ANSWER else -1,
        legal=tuple(legal_moves(state)) if acting else (),
        held_melds_free=state.held_free,
        outcome=state.outcome,
        revealed_hands=tuple(tuple(cards_of(h)) for h in state.hands) if ended else None,
    )


def _seat_info(state: GameState, seat: int) -> SeatInfo:
    return SeatInfo(
        seat=seat,
        cards=state.hands[seat].bit_count(),
        opened=state.has_opened(seat),
        blocked=state.is_blocked(seat),
        answer=state.answers[seat] if state.caller >= 0 else "",
    )


def _meld_view(index: int, meld, ended: bool) -> MeldView:
    hidden = meld.secret and not ended
    cards = () if hidden else tuple(cards_of(meld.cards))
    return MeldView(index, meld.owner, cards, meld.secret, meld.cards.bit_count())
