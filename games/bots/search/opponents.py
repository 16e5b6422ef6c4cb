"""The search bot's model of its opponents, read from the seat's view: how likely each
other seat is a noisy player (from the cards it threw) or a player who makes any legal
move (from that and whether it has opened after its turns), and which turns a seat has
surely finished. The race and the coach deal and play the other seats by it
(docs/bots.md, "How it works now")."""

from __future__ import annotations

import math

from games.engine.cards import points
from games.engine.state import Phase
from games.engine.view import SeatView

from .budget import Budget

# How likely a discard of so many points is (6 or less, 7 to 9, 10) from greedy and from
# a player who throws any card, measured over 150 games of each (1,632 and 1,444 discards).
_DISCARD_LOG_RATIO = {
    "low": math.log(0.46 / 0.097),
    "mid": math.log(0.221 / 0.24),
    "high": math.log(0.319 / 0.663),
}


def noisy_chance(view: SeatView, seat: int, budget: Budget) -> float:
    """The chance that ``seat`` is a noisy player, from the cards it threw on the pile.

    Greedy throws its costliest card: two discards in three are worth 10, one in ten 6
    or less; a player who throws any card throws a card of 6 or less nearly half the
    time. The pile's cards are put to the seat whose turn it was when each was thrown,
    counting from the dealer (a take since shifts that: a guess, kept between 5% and 95%).
    """
    prior = budget.noisy_share
    if not budget.read_discards or prior <= 0 or prior >= 1:
        return prior
    log_odds = math.log(prior / (1 - prior))
    for i, card in enumerate(view.discards):
        if (view.dealer + i) % 3 == seat:
            pts = points(1 << card)
            band = "low" if pts <= 6 else "mid" if pts <= 9 else "high"
            log_odds += _DISCARD_LOG_RATIO[band]
    chance = 1 / (1 + math.exp(-log_odds))
    return min(0.95, max(0.05, chance))


# How often a seat is still unopened (R6) after its first, second and third turns, for
# greedy and for a player who makes any legal move (3,000 games of each in all seats).
_UNOPENED_AFTER = {1: (0.24, 0.83), 2: (0.14, 0.71), 3: (0.10, 0.65)}


def random_chance(view: SeatView, seat: int, budget: Budget) -> float:
    """``noisy_chance``, weighed also by whether ``seat`` has opened after the turns it has
    finished: greedy opens as soon as it holds a meld, a player who makes any move seldom
    does. Sharper than the discards alone; too sharp to deal by (an unopened greedy seat
    then looks noisy too often), so the search takes a seat for a random player only when
    it is above ``Budget.random_above``."""
    chance = min(max(noisy_chance(view, seat, budget), 1e-3), 1 - 1e-3)
    log_odds = math.log(chance / (1 - chance))
    turns = min(turns_finished(view, seat), max(_UNOPENED_AFTER))
    if turns:
        greedy_p, any_p = _UNOPENED_AFTER[turns]
        if view.seats[seat].opened:
            log_odds += math.log((1 - any_p) / (1 - greedy_p))
        else:
            log_odds += math.log(any_p / greedy_p)
    return 1 / (1 + math.exp(-log_odds))


def random_players(view: SeatView, others: tuple[int, int], budget: Budget) -> int:
    """The mask of the other seats taken for players who make any legal move."""
    if budget.random_above > 1:
        return 0
    return sum(1 << s for s in others if random_chance(view, s, budget) > budget.random_above)


def turns_finished(view: SeatView, seat: int) -> int:
    """Turns ``seat`` has surely finished, counting from the dealer's first.

    Each finished turn left a discard (a take lifts one off again), and each turn after the
    dealer's first began with a draw or a take, so both counts are lower bounds.
    """
    draws = 15 - view.stock_left
    begun = draws + (1 if view.phase in (Phase.START, Phase.ANSWER) else 0)
    finished = max(len(view.discards), begun)
    return max(0, (finished - (seat - view.dealer) % 3 + 2) // 3)


def played_a_turn(view: SeatView) -> set[int]:
    """Seats sure to have finished a turn: a hand a bot melds from ends its turn meld-free."""
    return {s for s in range(3) if turns_finished(view, s)}
