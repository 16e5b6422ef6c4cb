"""The search bot's deals: the unseen cards dealt so that they fit everything the seat's
view shows, the other hands shaped as greedy would have left them (no meld, no pair for a
discard let go by, the costliest card thrown, a low hand behind a Draw call), or left
plain for a seat taken for a noisy or random player. The race draws its deals here, and so
does the coach (``model_deal``, ``sample_deal``)."""

from __future__ import annotations

import random

from games.engine.cards import RANK_MASKS, cards_of
from games.engine.determinize import state_from_view
from games.engine.melds import deadwood
from games.engine.moves import DISCARD
from games.engine.state import GameState, Phase
from games.engine.view import SeatView, seat_view

from .. import greedy
from ..knowledge import read
from .budget import DEFAULT_BUDGET, Budget
from .opponents import noisy_chance, played_a_turn, random_players
from .rollouts import state_reading


def sample_deal(view: SeatView, rng: random.Random, budget: Budget) -> GameState:
    """The bot's own sampler: ``sample_world`` with the budget's shaping and tries."""
    return sample_world(view, rng, budget.shape, budget.tries, budget.discard_tries)


def model_deal(
    view: SeatView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> tuple[GameState, int]:
    """One deal as the bot's race draws it, for others that judge moves as it does (the
    coach): which other seats are taken for noisy players in it (``noisy_chance``), as a
    mask, and a deal of the unseen cards shaped accordingly (``sample_world``). The seats
    taken for random players (``random_chance``) are the mask's bits 3 to 5, which
    ``rollout`` reads."""
    me = view.seat
    others = ((me + 1) % 3, (me + 2) % 3)
    anyone = random_players(view, others, budget)
    noisy = 0
    if budget.noisy_share > 0:
        for seat in others:
            if rng.random() < noisy_chance(view, seat, budget):
                noisy |= 1 << seat
    world = sample_world(
        view, rng, budget.shape, budget.tries, budget.discard_tries, plain=noisy | anyone
    )
    return world, (noisy & ~anyone if budget.noise > 0 else 0) | anyone << 3


def sample_world(
    view: SeatView,
    rng: random.Random,
    shape: int = 0,
    tries: int = 1,
    discard_tries: int = 1,
    plain: int = 0,
) -> GameState:
    """One deal of the unseen cards that fits everything ``view`` shows.

    The other seats are taken to play like greedy, which melds whatever it can: a seat
    that has finished a turn is dealt no meld, nor two cards that meld with a discard it
    let go by (see ``_passed_up``). With ``shape``, each other hand is dealt that many
    cards more (at most one a turn it has had) and throws back the costliest, as greedy
    does. While a Draw call waits, up to ``tries`` deals are drawn until one gives the
    caller a hand it would have called with (R7): a caller's hand is low, not any hand.
    Otherwise up to ``discard_tries`` deals are drawn until one gives each other seat a
    hand it would have thrown its last discard from (``_discards_fit``); failing that,
    the deal that fits best. The seats of the mask ``plain`` are taken for players who
    may not meld what they can: their hands are shaped by nothing but the view.
    """
    world = _deal(view, rng, shape, plain)
    if view.phase is Phase.ANSWER:
        for _ in range(tries - 1):
            if plain >> view.caller & 1 or _would_call(world, view.caller):
                break
            world = _deal(view, rng, shape, plain)
        return world
    if discard_tries <= 1:
        return world
    best, best_fit = world, _discards_fit(world, view, plain)
    for _ in range(discard_tries - 1):
        if best_fit == 2:
            break
        world = _deal(view, rng, shape, plain)
        fit = _discards_fit(world, view, plain)
        if fit > best_fit:
            best, best_fit = world, fit
    return best


def _discards_fit(world: GameState, view: SeatView, plain: int = 0) -> int:
    """How many of the two other seats' last discards greedy would have thrown in ``world``
    (0 to 2; a seat with no discard to judge counts as fitting).

    Before our turn, the seat before us threw the pile's top and the next seat the card
    under it. Each is judged in the moment of its discard as the deal has it: that seat's
    hand with the card back in it and the pile without the cards thrown since. When the
    newest meld is ours we may have taken this turn, and the pile's order tells nothing.
    """
    pile = view.discards
    me = view.seat
    if view.melds and view.melds[-1].owner == me and view.phase is Phase.PLAY:
        return 2
    fit = 0
    for back, seat in ((1, (me + 2) % 3), (2, (me + 1) % 3)):
        if len(pile) < back or plain >> seat & 1:
            fit += 1
            continue
        card = pile[-back]
        then = world.copy()
        then.hands[seat] |= 1 << card
        then.discards = pile[:-back]
        then.turn, then.phase = seat, Phase.PLAY
        move = greedy.choose_read(state_reading(then))
        fit += move.type == DISCARD and move.cards == 1 << card
    return fit


def _would_call(world: GameState, caller: int) -> bool:
    r = read(seat_view(world, caller))
    return greedy.should_call(r, r.view.hand_points)


def _deal(view: SeatView, rng: random.Random, shape: int, plain: int = 0) -> GameState:
    r = read(view)
    pool = r.unseen
    secret_cards = []
    for meld in view.melds:
        if meld.secret:
            # Four cards of one rank that nobody has seen: any such rank could be it.
            ranks = [m for m in RANK_MASKS if pool & m == m]
            chosen = ranks[rng.randrange(len(ranks))]
            secret_cards.append(chosen)
            pool &= ~chosen
    loose = cards_of(pool)
    rng.shuffle(loose)
    hands = [0, 0, 0]
    hands[r.me] = r.hand
    at = 0
    drops = min(shape, (15 - view.stock_left) // 3 + 1)
    others = r.others()
    played = played_a_turn(view)
    passed_up = _passed_up(view, r.me)
    for n, seat in enumerate(others):
        count = view.seats[seat].cards
        extra = min(drops, len(loose) - at - sum(view.seats[s].cards for s in others[n:]))
        avoid = passed_up.get(seat, 0) if seat in played else -1
        if plain >> seat & 1:
            extra, avoid = 0, -1
        dealt = _hand_cards(loose[at:], count + extra, avoid)
        hand = _shaped(sum(1 << c for c in dealt), extra)
        hands[seat] = hand
        # The cards it threw or never took go back to the rest of the deal, reshuffled.
        rest = [c for c in loose[at:] if not hand >> c & 1]
        rng.shuffle(rest)
        loose[at:] = [*cards_of(hand), *rest]
        at += count
    return state_from_view(view, hands, loose[at:], secret_cards)


def _passed_up(view: SeatView, me: int) -> dict[int, int]:
    """Pile cards each other seat let go by, as a mask: a bot takes a discard it can meld.

    On our turn the pile's order says who threw what when nobody took since: the top is
    the seat before us's, the card under it the next seat's, which the seat before us let
    go, and the one under that ours, which the next seat let go. A take since then makes
    this a guess.
    """
    pile = view.discards
    if view.phase is Phase.ANSWER:
        return {}
    nxt, prev = (me + 1) % 3, (me + 2) % 3
    out = {}
    if len(pile) >= 2:
        out[prev] = 1 << pile[-2]
    if len(pile) >= 3:
        out[nxt] = 1 << pile[-3]
    return out


def _hand_cards(order: list[int], count: int, avoid: int) -> list[int]:
    """The first ``count`` cards of ``order``, passing over cards that would make a meld
    with those already picked, or with a card of ``avoid`` (-1: take any card), while
    there are enough others."""
    picked: list[int] = []
    passed: list[int] = []
    hand = 0
    for card in order:
        if len(picked) == count:
            break
        if avoid >= 0 and _makes_meld(hand | avoid, card):
            passed.append(card)
            continue
        picked.append(card)
        hand |= 1 << card
    return picked + passed[: count - len(picked)]


def _makes_meld(hand: int, card: int) -> bool:
    if (hand & RANK_MASKS[card % 13]).bit_count() >= 2:
        return True
    rank = card % 13
    for low in (rank - 2, rank - 1, rank):
        if 0 <= low and low + 2 <= 12:
            others = [card - rank + x for x in (low, low + 1, low + 2) if x != rank]
            if all(hand >> c & 1 for c in others):
                return True
    return False


def _shaped(hand: int, drops: int) -> int:
    """The hand after throwing ``drops`` cards the way greedy does: the costliest deadwood."""
    for _ in range(drops):
        hand = min((hand & ~(1 << c) for c in cards_of(hand)), key=deadwood)
    return hand
