"""The search bot's rollouts: a sampled deal played to its end, greedy in every seat (or
the learned model's throws, the tuned rules of thumb, noisy or random players where the
race takes a seat for one), reading each moment straight from the state's masks."""

from __future__ import annotations

import random

from games.engine.cards import FULL_DECK, points
from games.engine.melds import deadwood
from games.engine.rules import apply, legal_moves
from games.engine.state import GameState, Outcome, Phase

from .. import greedy, learned
from ..knowledge import Reading
from .budget import DEFAULT_BUDGET, Budget


def rollout(
    state: GameState, rng: random.Random, noisy: int = 0, budget: Budget = DEFAULT_BUDGET
) -> tuple[Outcome, int]:
    """The bot's own rollout policy, for others that judge moves as it does (the coach):
    greedy in every seat, the seats of the mask ``noisy`` (``model_deal``'s) making any
    legal move in ``budget.noise`` of their moves, and those it took for random players
    (its bits 3 to 5) in all of them, as in the bot's races."""
    return rollout_with(state, rng, noisy & 7, budget.noise, anyone=noisy >> 3)


def rollout_with(
    state: GameState,
    rng: random.Random,
    noisy: int = 0,
    noise: float = 0.0,
    model: learned.DiscardModel | None = None,
    learned_seats: int = 0,
    anyone: int = 0,
    tuned_seats: int = 0,
) -> tuple[Outcome, int]:
    """(the outcome, moves played) with greedy in every seat to the end; the seats of the
    mask ``noisy`` make any legal move instead in ``noise`` of their moves; the seats of the
    mask ``learned_seats`` throw ``model``'s card where greedy would throw its own; the
    seats of the mask ``anyone`` make any legal move at every move; the seats of the mask
    ``tuned_seats`` play greedy by ``greedy.TUNED``, not Normal's rules of thumb.

    Greedy reads each seat's moment straight from the sampled state (``state_reading``),
    which makes the same moves as from the seat's view at a fraction of the cost.
    """
    plies = 0
    while state.outcome is None:
        if anyone >> state.turn & 1 or (noisy >> state.turn & 1 and rng.random() < noise):
            moves = legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        else:
            p = greedy.TUNED if tuned_seats >> state.turn & 1 else greedy.NORMAL
            if learned_seats >> state.turn & 1:
                move = learned.choose_read(state_reading(state), model, p)
            else:
                move = greedy.choose_read(state_reading(state), p)
        state = apply(state, move)
        plies += 1
    return state.outcome, plies


def state_reading(state: GameState) -> Reading:
    """What ``read(seat_view(state, state.turn))`` gives, from a state of a sampled deal."""
    seat, hands, melds = state.turn, state.hands, state.melds
    hand = hands[seat]
    seen = hand
    for card in state.discards:
        seen |= 1 << card
    table = tuple(0 if m.secret else m.cards for m in melds)
    for cards in table:
        seen |= cards
    return Reading(
        None,
        seat,
        hand,
        FULL_DECK & ~seen,
        state.phase,
        (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()),
        state.opened,
        state.blocked,
        table,
        tuple(m.owner for m in melds),
        state.discards[-1] if state.discards else None,
        len(state.stock) - state.stock_pos,
        deadwood(hand) if state.held_free else points(hand),
        state.caller if state.phase is Phase.ANSWER else -1,
    )
