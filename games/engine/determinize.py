"""A full state built from one seat's view plus a guess at what that seat cannot see.

A searching bot samples the hidden cards (other hands, the stock, secret sets) and plays
moves forward in the state this builds. The guess must fit the view exactly: every card in
one place once, each hand and the stock the size the view shows. Nothing here samples: the
caller brings the guess, so this stays as pure as the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import FULL_DECK, RANK_MASKS, mask_of
from .melds import is_meld
from .state import HELD_MELDS_FREE, GameState, Meld, Phase
from .view import SeatView


class WorldError(ValueError):
    """A guess at the hidden cards that does not fit the view it was made for."""


def state_from_view(
    view: SeatView,
    hands: Sequence[int],
    stock: Sequence[int],
    secret_cards: Sequence[int] = (),
) -> GameState:
    """The state of ``view``'s moment with the hidden cards of the guess.

    ``hands`` holds a mask per seat (the viewer's must be the view's own hand), ``stock`` the
    cards still in the stock, top first, and ``secret_cards`` the cards of each secret set in
    the order the view lists its melds. Raises WorldError when the guess does not fit.
    """
    if view.seat is None or view.finished:
        raise WorldError("only a seated view of a game still in play has hidden cards")
    melds = _melds(view, secret_cards)
    _check_hands(view, hands, stock)
    placed = [*hands, mask_of(stock), mask_of(view.discards), *(m.cards for m in melds)]
    _check_every_card_once(placed)
    return _build(view, hands, tuple(stock), melds)


def _melds(view: SeatView, secret_cards: Sequence[int]) -> tuple[Meld, ...]:
    secrets = iter(secret_cards)
    out = []
    for meld in view.melds:
        if not meld.secret:
            out.append(Meld(meld.owner, mask_of(meld.cards)))
            continue
        cards = next(secrets, None)
        if cards is None or cards not in RANK_MASKS:
            raise WorldError(f"secret set {meld.index} needs four cards of one rank (R4)")
        out.append(Meld(meld.owner, cards, True))
    if next(secrets, None) is not None:
        raise WorldError("more secret sets guessed than the view shows")
    if not all(is_meld(m.cards) for m in out):
        raise WorldError("a meld of the view is not a meld (R4)")
    return tuple(out)


def _check_hands(view: SeatView, hands: Sequence[int], stock: Sequence[int]) -> None:
    if len(hands) != 3:
        raise WorldError("a guess needs a hand for each of the three seats")
    if hands[view.seat] != mask_of(view.hand):
        raise WorldError("the guess changes the viewer's own hand")
    for info in view.seats:
        if hands[info.seat].bit_count() != info.cards:
            raise WorldError(f"seat {info.seat} holds {info.cards} cards in the view")
    if len(stock) != view.stock_left:
        raise WorldError(f"the stock holds {view.stock_left} cards in the view")


def _check_every_card_once(placed: list[int]) -> None:
    union = 0
    for mask in placed:
        if union & mask:
            raise WorldError("a card is in two places at once")
        union |= mask
    # The view's counts add up to 52 places, so a card repeated inside the stock or the
    # pile leaves another card out, and shows here.
    if union != FULL_DECK:
        raise WorldError("the guess leaves out a card or repeats one")


def _build(
    view: SeatView, hands: Sequence[int], stock: tuple[int, ...], melds: tuple[Meld, ...]
) -> GameState:
    s = GameState.__new__(GameState)
    s.dealer = view.dealer
    s.variants = frozenset({HELD_MELDS_FREE}) if view.held_melds_free else frozenset()
    s.held_free = view.held_melds_free
    s.hands, s.stock, s.stock_pos = list(hands), stock, 0
    s.discards, s.melds = tuple(view.discards), melds
    s.turn, s.phase = view.turn, Phase(view.phase)
    s.blocked = sum(1 << i.seat for i in view.seats if i.blocked)
    s.opened = sum(1 << i.seat for i in view.seats if i.opened)
    s.caller = view.caller
    s.answers = tuple(i.answer for i in view.seats)  # type: ignore[assignment]
    # With the stock gone and the game on, the seat playing drew the last card (R8).
    s.last_drawer = view.turn if not stock and view.phase is Phase.PLAY else -1
    s.outcome, s.ply = None, view.ply
    return s
