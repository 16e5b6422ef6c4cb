"""The end of a game: hand points (R9), who wins (R7, R8), burning (R6), payments (R10)."""

from __future__ import annotations

from .cards import ACES, points
from .melds import deadwood, four_of_a_kinds
from .state import GameState, Outcome, Payment

TONGITS, DRAW_END, FOUGHT_DRAW, STOCK = "tongits", "draw", "fought_draw", "stock"


def hand_points(state: GameState, seat: int) -> int:
    """A seat's hand points (R9; the deadwood under held-melds-free)."""
    hand = state.hands[seat]
    return deadwood(hand) if state.held_free else points(hand)


def stock_winner(state: GameState, drawer: int) -> int:
    """R8: the lowest candidate; ties go to the drawer, else first after the drawer."""
    order = (drawer, (drawer + 1) % 3, (drawer + 2) % 3)
    candidates = [s for s in order if state.opened >> s & 1] or list(order)
    return min(candidates, key=lambda s: hand_points(state, s))  # min keeps the first


def draw_winner(state: GameState, caller: int, fighters: list[int]) -> int:
    """R7: lowest of caller and fighters; a tying fighter beats the caller, and between
    tied fighters the first after the caller wins."""
    order = [(caller + 1) % 3, (caller + 2) % 3, caller]
    contenders = [s for s in order if s in fighters or s == caller]
    return min(contenders, key=lambda s: hand_points(state, s))


def outcome(state: GameState, winner: int, end: str) -> Outcome:
    """Points, burning and chips once ``winner`` has won by ``end``."""
    pts = tuple(hand_points(state, s) for s in range(3))
    burned = tuple(s != winner and not state.opened >> s & 1 for s in range(3))
    base = 3 if end in (TONGITS, FOUGHT_DRAW) else 1
    owned = [m for m in state.melds if m.owner == winner]
    held = state.hands[winner]
    aces = (held & ACES).bit_count() + sum((m.cards & ACES).bit_count() for m in owned)
    secrets = sum(1 for m in owned if m.secret) + len(four_of_a_kinds(held))
    payments = tuple(
        Payment(s, base, aces, secrets, int(burned[s])) for s in range(3) if s != winner
    )
    chips = [0, 0, 0]
    for p in payments:
        chips[p.loser] -= p.total
        chips[winner] += p.total
    return Outcome(winner, end, pts, burned, tuple(chips), payments)  # type: ignore[arg-type]
