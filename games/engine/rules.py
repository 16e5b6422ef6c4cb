"""Legal moves and applying a move (R3 to R8, R11): one function per move type."""

from __future__ import annotations

from collections.abc import Callable

from .cards import FULL_DECK, RANK_MASKS, code, describe
from .melds import all_melds, is_meld, layoff_options, take_options
from .moves import (
    CALL,
    DISCARD,
    DRAW,
    FIGHT,
    FOLD,
    LAYOFF,
    MELD,
    SECRET,
    TAKE,
    IllegalMoveError,
    Move,
)  # fmt: skip
from .scoring import DRAW_END, FOUGHT_DRAW, STOCK, TONGITS, draw_winner, outcome, stock_winner
from .state import GameState, Meld, Phase

_WITH_CARDS = (TAKE, MELD, SECRET, LAYOFF, DISCARD)
_NOT_START = "only at the start of a turn (the dealer's first turn has no draw step) (R3)"


def legal_moves(state: GameState) -> list[Move]:
    """Exactly the moves the seat that must act may make now (none once the game ended)."""
    phase, seat = state.phase, state.turn
    if phase is Phase.PLAY:
        return _play_moves(state, seat)
    if phase is Phase.START:
        return _start_moves(state, seat)
    if phase is Phase.ANSWER:
        return [Move(FOLD, seat), Move(FIGHT, seat)]
    return []


def _start_moves(state: GameState, seat: int) -> list[Move]:
    moves = []
    if (state.opened & ~state.blocked) >> seat & 1:
        moves.append(Move(CALL, seat))
    moves.append(Move(DRAW, seat))  # the stock is never empty at a start step (R8)
    if state.discards:
        hand, top = state.hands[seat], state.discards[-1]
        moves += [Move(TAKE, seat, combo) for combo in take_options(hand, top)]
    return moves


def _play_moves(state: GameState, seat: int) -> list[Move]:
    hand = state.hands[seat]
    moves = [Move(MELD, seat, m) for m in all_melds(hand)]
    moves += [Move(SECRET, seat, m) for m in RANK_MASKS if hand & m == m]
    for index, meld in enumerate(state.melds):
        if not meld.secret:
            moves += [Move(LAYOFF, seat, o, index) for o in layoff_options(meld.cards, hand)]
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        moves.append(Move(DISCARD, seat, low))
    return moves


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises IllegalMoveError saying which rule it breaks.

    ``state`` itself is never changed.
    """
    if state.phase is Phase.ENDED:
        raise IllegalMoveError("the game has already ended (R11)")
    if move.seat != state.turn:
        raise IllegalMoveError(f"seat {move.seat} may not act now: seat {state.turn} must (R3)")
    handler = _HANDLERS.get(move.type)
    if handler is None:
        raise IllegalMoveError(f"unknown move type {move.type!r}")
    if move.cards & ~FULL_DECK or move.cards < 0:
        raise IllegalMoveError("a card mask holds something that is not a card (R1)")
    if move.type not in _WITH_CARDS and (move.cards or move.meld != -1):
        raise IllegalMoveError(f"{move.type} takes no cards (R3)")
    if state.phase is Phase.ANSWER and move.type not in (FOLD, FIGHT):
        raise IllegalMoveError("a Draw call is waiting: answer it with fold or fight (R7)")
    new = handler(state, move)
    new.ply = state.ply + 1
    return new


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalMoveError(message)


def _require_held(state: GameState, move: Move, at_least: int) -> None:
    _require(
        move.cards.bit_count() >= at_least, f"this move needs at least {at_least} cards (R3, R4)"
    )
    missing = move.cards & ~state.hands[move.seat]
    if missing:
        card = (missing & -missing).bit_length() - 1
        raise IllegalMoveError(f"seat {move.seat} does not hold {code(card)} (R3)")


def _draw(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.START, f"draw {_NOT_START}")
    s = state.copy()
    seat = move.seat
    s.hands[seat] |= 1 << s.stock[s.stock_pos]
    s.stock_pos += 1
    if s.stock_pos == len(s.stock):
        s.last_drawer = seat  # the game ends after this turn (R8)
    s.blocked &= ~(1 << seat)  # the start step has passed (R5)
    s.phase = Phase.PLAY
    return s


def _take(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.START, f"take {_NOT_START}")
    _require(bool(state.discards), "the discard pile is empty (R3)")
    _require_held(state, move, 2)
    top = state.discards[-1]
    meld = move.cards | 1 << top
    _require(is_meld(meld), f"{code(top)} with {describe(move.cards)} is not a meld (R3, R4)")
    s = state.copy()
    seat = move.seat
    s.discards = s.discards[:-1]
    s.melds = (*s.melds, Meld(seat, meld))
    s.opened |= 1 << seat
    s.blocked &= ~(1 << seat)
    s.phase = Phase.PLAY
    return _remove_from_hand(s, seat, move.cards)


def _meld(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.PLAY, "meld only in the play step, after the draw (R3)")
    _require_held(state, move, 3)
    _require(is_meld(move.cards), f"{describe(move.cards)} is not a set or a run (R4)")
    return _lay(state, move, secret=False)


def _secret(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.PLAY, "a secret set only in the play step, after the draw (R3)")
    _require_held(state, move, 4)
    rank_mask = RANK_MASKS[((move.cards & -move.cards).bit_length() - 1) % 13]
    _require(move.cards == rank_mask, "a secret set is four cards of one rank (R4)")
    return _lay(state, move, secret=True)


def _lay(state: GameState, move: Move, secret: bool) -> GameState:
    s = state.copy()
    s.melds = (*s.melds, Meld(move.seat, move.cards, secret))
    s.opened |= 1 << move.seat
    return _remove_from_hand(s, move.seat, move.cards)


def _layoff(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.PLAY, "lay off only in the play step, after the draw (R3)")
    _require(0 <= move.meld < len(state.melds), f"there is no meld number {move.meld} (R4)")
    target = state.melds[move.meld]
    _require(not target.secret, "nothing can be laid off on a secret set (R4)")
    _require_held(state, move, 1)
    grown = target.cards | move.cards
    _require(is_meld(grown), f"{describe(move.cards)} does not fit meld {move.meld} (R5)")
    s = state.copy()
    melds = list(s.melds)
    melds[move.meld] = Meld(target.owner, grown)
    s.melds = tuple(melds)
    s.blocked |= 1 << target.owner  # no Draw call on the owner's next turn (R5)
    return _remove_from_hand(s, move.seat, move.cards)


def _discard(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.PLAY, "discard only after the draw (R3)")
    _require(move.cards.bit_count() == 1, "discard exactly one card (R3)")
    _require_held(state, move, 1)
    s = state.copy()
    seat = move.seat
    s.hands[seat] &= ~move.cards
    s.discards = (*s.discards, move.card)
    if not s.hands[seat]:
        return _end(s, seat, TONGITS)
    if s.last_drawer == seat:
        return _end(s, stock_winner(s, seat), STOCK)
    s.turn, s.phase = (seat + 1) % 3, Phase.START
    return s


def _call(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.START, "Draw may be called only at the start of a turn (R7)")
    seat = move.seat
    _require(state.has_opened(seat), "only a player who has opened may call Draw (R7)")
    _require(not state.is_blocked(seat), "a lay-off blocks this player from calling Draw (R5)")
    s = state.copy()
    s.caller, s.answers = seat, ("", "", "")
    return _next_answer(s)


def _answer(state: GameState, move: Move) -> GameState:
    _require(state.phase is Phase.ANSWER, "fold and fight only answer a Draw call (R7)")
    s = state.copy()
    answers = list(s.answers)
    answers[move.seat] = move.type
    s.answers = tuple(answers)  # type: ignore[assignment]
    return _next_answer(s)


def _next_answer(s: GameState) -> GameState:
    """Ask the next seat after the caller that has not answered; unopened seats cannot
    fight, so they fold without a move (R7). Settle the call when nobody is left."""
    answers = list(s.answers)
    for offset in (1, 2):
        seat = (s.caller + offset) % 3
        if answers[seat]:
            continue
        if s.opened >> seat & 1:
            s.answers, s.turn, s.phase = tuple(answers), seat, Phase.ANSWER  # type: ignore[assignment]
            return s
        answers[seat] = "auto"
    s.answers = tuple(answers)  # type: ignore[assignment]
    fighters = [seat for seat in range(3) if answers[seat] == FIGHT]
    if not fighters:
        return _end(s, s.caller, DRAW_END)
    return _end(s, draw_winner(s, s.caller, fighters), FOUGHT_DRAW)


def _remove_from_hand(s: GameState, seat: int, cards: int) -> GameState:
    s.hands[seat] &= ~cards
    if not s.hands[seat]:
        return _end(s, seat, TONGITS)  # an empty hand wins at once (R3)
    return s


def _end(s: GameState, winner: int, end: str) -> GameState:
    s.outcome = outcome(s, winner, end)
    s.phase = Phase.ENDED
    return s


_HANDLERS: dict[str, Callable[[GameState, Move], GameState]] = {
    DRAW: _draw, TAKE: _take, MELD: _meld, SECRET: _secret, LAYOFF: _layoff,
    DISCARD: _discard, CALL: _call, FOLD: _answer, FIGHT: _answer,
}  # fmt: skip
