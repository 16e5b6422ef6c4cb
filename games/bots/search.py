"""The search bot: determinized Monte Carlo over the cards this seat cannot see.

From its seat's view alone it samples deals of the unseen cards that fit everything the
view shows (each hand's size, the melds, the pile, the stock's size, the secret sets), plays
each candidate move forward in every sampled deal with the greedy bot in all three seats to
the end of the game, and picks the move with the best mean chips for its seat.

Improvements on the plain method:

- every candidate is played in the same deals (common random numbers), and, where it
  takes a seat for a random player, with the same rollout randomness, so the comparison
  between two moves is not drowned in the luck of the deals or of that seat's moves;
- cheap pruning first: only the few best discards by greedy's score, the few best melds,
  takes and lay-offs by deadwood, and greedy's own move always;
- racing: after each batch of deals, a candidate clearly behind the leader is dropped, so
  close calls get the remaining deals;
- a budget counted in moves simulated rather than in seconds, so the same seed always gives
  the same move, and long rollouts early in a game cost fewer deals rather than more time;
- Draw decisions (to call, to fold or fight) go to the best mean chips, with no bar in
  favour of greedy's rule of thumb: the bot calls when calling is worth more by its own
  estimate;
- not every opponent is taken for greedy: in each deal an opponent may be a noisy player
  (a plain hand, any legal move half the time in rollouts), the more likely the more low
  cards it has thrown (``noisy_chance``); one that also has not opened after its turns
  (``random_chance``) is taken for a player who makes any legal move, in every deal;
- its own seat's throws in the rollouts, and the discards it tries, come from a small
  learned model of its own throws (``games.bots.learned``, ``manage.py train_bot``).

The deals are not uniform: the other seats are taken to play like a bot that melds what
it can (greedy), so a seat that has finished a turn holds no meld, no pair for a discard it
let go by, and has thrown its worst card; a seat that calls Draw holds a low hand; and of a
few deals, the one is kept in which each other seat would have thrown the discard it last
threw. Dealing uniformly overrates their points (the bot then calls and fights too often);
shaping their hands by more than one throw underrates them (it then fails to call). Most
of what the search gains on greedy comes from these guesses: with the other hands known, the
same search is worth some 0.5 chips a decision more than greedy.

Greedy's moves in the rollouts are read straight from each sampled state's masks
(``state_reading``), not from a seat view built for every move: the same moves, cheaper.

It builds full states only from its own guesses (``state_from_view``); the real state never
reaches it, which tests/test_search.py checks by playing it in different deals that share
one view.

Size: ~610 lines, kept whole: the race, the rollouts, the opponents' model and the sampler
of deals are one method, tuned together (docs/bots.md); the sampler is also the coach's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import FULL_DECK, RANK_MASKS, cards_of, points
from games.engine.determinize import state_from_view
from games.engine.melds import deadwood
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.rules import apply, legal_moves
from games.engine.state import GameState, Outcome, Phase
from games.engine.view import SeatView, seat_view

from . import greedy, learned
from .knowledge import Reading, read


@dataclass(frozen=True)
class Budget:
    """How much searching one move gets, and how deals are sampled. The defaults keep a
    move under 300 ms on one core (``python -m bench.search``)."""

    batch: int = 8  # deals a round plays every live candidate in
    max_worlds: int = 40  # deals at most for one move
    max_plies: int = 1500  # moves simulated at most for one move (about 0.06 ms each)
    discards: int = 4  # discards kept after pruning by greedy's score
    others: int = 2  # melds, lay-offs and takes kept after pruning by deadwood
    drop_z: float = 2.0  # how many standard errors behind the leader a candidate is dropped
    beat_z: float = 2.0  # how many standard errors ahead of greedy's move another must be
    shape: int = 1  # discards at most a sampled opponent hand is shaped by (see sample_world)
    tries: int = 20  # deals drawn at most to find one that fits a Draw call (see sample_world)
    discard_tries: int = 4  # deals drawn at most to find one that fits the last discards
    win_bonus: float = 0.0  # chips a rollout's win is worth on top of its chips
    search_play: bool = True  # search the play step (melds, lay-offs, discards) too
    search_start: bool = True  # search the start step (call, draw, take)
    # Draw decisions (calling Draw at the start step, folding or fighting a call) go to the
    # move with the best mean chips in the rollouts, with no bar in favour of greedy's rule.
    draw_by_value: bool = True
    # The opponents are not all greedy: in each sampled deal each other seat is, with a
    # chance (``noisy_chance``: ``noisy_share`` before any evidence, then weighed by the
    # discards it threw), a noisy player, dealt a hand shaped by nothing but the view and
    # making any legal move in ``noise`` of its rollout moves (greedy's otherwise).
    noisy_share: float = 0.25
    noise: float = 0.5
    read_discards: bool = True
    # A seat whose chance of being a noisy player, reading also whether it has opened by
    # now (``random_chance``), is above ``random_above`` is taken for a player who makes
    # any legal move: in every deal, its hand shaped by nothing but the view, and every
    # one of its rollout moves any legal move. Above 1: never. (docs/bots.md, reading
    # random players: 0.5 since 4 December 2026.)
    random_above: float = 0.5
    # Where the race takes a seat for a random player, every candidate plays a deal with
    # the same rollout randomness (a seed drawn once a deal): that seat's moves then differ
    # between candidates only where the candidates led the game apart, and the race
    # compares moves, not luck. Elsewhere each rollout draws from the race's ``rng`` in
    # turn, as before: paired there too, the race leaves greedy's move more often against
    # greedy players, and loses by it (docs/bots.md, paired rollouts, 4 December 2026).
    paired_rollouts: bool = True
    # The learned discard model (``games.bots.learned``, trained by ``manage.py train_bot``):
    # ``learned_rollouts`` has our own seat in the rollouts throw the model's card where
    # greedy would throw its own (the other seats stay greedy or noisy, as they are taken to
    # be); ``learned_order`` keeps the model's best discards as candidates
    # rather than greedy's. Both on since 3 December 2026 (docs/bots.md, the learned model).
    learned_rollouts: bool = True
    learned_order: bool = True
    # Our own seat plays greedy by other rules of thumb (``greedy.TUNED``): its move to
    # beat in the race, and its moves in the rollouts. The other seats stay Normal's.
    own_tuned: bool = False


DEFAULT_BUDGET = Budget()


def choose(view: SeatView, rng: random.Random) -> Move:
    """The search bot's move for the seat whose view this is."""
    return choose_with(view, rng, DEFAULT_BUDGET)


# A sampler of deals: (view, rng, budget) -> a state that fits the view.
Sampler = Callable[[SeatView, random.Random, Budget], GameState]


def choose_with(
    view: SeatView, rng: random.Random, budget: Budget, sampler: Sampler | None = None
) -> Move:
    """The search's move with ``budget``; ``sampler`` replaces the deals it plays in (the
    oracle bench gives it deals that know more than the view, to measure what knowing
    would be worth; the bot itself always samples from the view)."""
    r = read(view)
    default = greedy.choose_read(r, greedy.TUNED if budget.own_tuned else greedy.NORMAL)
    if len(view.legal) == 1 or _obvious(r):
        return default
    if view.phase is Phase.PLAY and not budget.search_play:
        return default
    if view.phase is Phase.START and not budget.search_start:
        return default
    candidates = _candidates(r, default, budget)
    if len(candidates) == 1:
        return candidates[0]
    return _race(view, candidates, rng, budget, sampler)


def sample_deal(view: SeatView, rng: random.Random, budget: Budget) -> GameState:
    """The bot's own sampler: ``sample_world`` with the budget's shaping and tries."""
    return sample_world(view, rng, budget.shape, budget.tries, budget.discard_tries)


def _obvious(r: Reading) -> bool:
    """Greedy's move empties the hand this turn: a Tongits (R3) is never worth searching."""
    return r.view.phase is Phase.PLAY and greedy.tongits_step(r) is not None


def _candidates(r: Reading, default: Move, budget: Budget) -> list[Move]:
    """Greedy's move first, then the few others worth a rollout."""
    legal = r.view.legal
    if r.view.phase is Phase.ANSWER:
        picked = list(legal)
    elif r.view.phase is Phase.START:
        picked = [m for m in legal if m.type in (CALL, DRAW)]
        picked += _by_deadwood(r, [m for m in legal if m.type == TAKE], budget.others)
    else:
        picked = [m for m in legal if m.type == SECRET]
        for kind in (MELD, LAYOFF):
            picked += _by_deadwood(r, [m for m in legal if m.type == kind], budget.others)
        discards = [m for m in legal if m.type == DISCARD]
        if budget.learned_order:
            rank = {c: i for i, c in enumerate(learned.default_model().ranked(r))}
            discards.sort(key=lambda m: rank[m.card])
        else:
            discards.sort(key=lambda m: greedy.discard_score(r, m.card))
        picked += discards[: budget.discards]
    return [default, *(m for m in dict.fromkeys(picked) if m != default)]


def _by_deadwood(r: Reading, moves: list[Move], keep: int) -> list[Move]:
    return sorted(moves, key=lambda m: (deadwood(r.hand & ~m.cards), -m.cards.bit_count()))[:keep]


def _race(
    view: SeatView,
    candidates: list[Move],
    rng: random.Random,
    budget: Budget,
    sampler: Sampler | None,
) -> Move:
    """The race's choice among the candidates that ``race_scores`` left."""
    scores, alive = race_scores(view, candidates, rng, budget, sampler)
    best = max(alive, key=lambda i: (_mean(scores[i]), -i))
    if budget.draw_by_value and is_draw_decision(candidates):
        # Calling Draw, or answering a call, is worth what the rollouts say it is worth:
        # the move with the best mean chips, whatever greedy's rule of thumb would do.
        return candidates[best]
    # Greedy's move (index 0) is a good move already, and the best of several noisy means
    # looks better than it is: another move must beat it clearly in the same deals.
    if best != 0 and 0 in alive and _edge(scores[best], scores[0], budget.beat_z) <= 0:
        return candidates[0]
    return candidates[best]


def race_scores(
    view: SeatView,
    candidates: list[Move],
    rng: random.Random,
    budget: Budget,
    sampler: Sampler | None = None,
) -> tuple[list[list[float]], list[int]]:
    """The race itself: play the live candidates in batches of the same sampled deals and
    drop the clearly worse. Returns each candidate's chips deal by deal (the i-th score of
    every candidate still in the race comes from the same deal), and the candidates left."""
    custom = sampler is not None
    me = view.seat
    scores: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    plies = worlds = 0
    others = ((me + 1) % 3, (me + 2) % 3)
    chances = [noisy_chance(view, s, budget) for s in others]
    anyone = _random_players(view, others, budget)
    paired = budget.paired_rollouts and anyone != 0
    learned_args: dict = {}
    if budget.learned_rollouts:
        learned_args = {"model": learned.default_model(), "learned_seats": 1 << me}
    if budget.own_tuned:
        learned_args["tuned_seats"] = 1 << me
    while len(alive) > 1 and worlds < budget.max_worlds and plies < budget.max_plies:
        for _ in range(budget.batch):
            noisy = 0
            if budget.noisy_share > 0:
                noisy = sum(
                    1 << s for s, p in zip(others, chances, strict=True) if rng.random() < p
                )
            if custom:
                world = sampler(view, rng, budget)
            else:
                world = sample_world(
                    view, rng, budget.shape, budget.tries, budget.discard_tries,
                    plain=noisy | anyone,
                )  # fmt: skip
            roll = rng.getrandbits(64) if paired else 0
            for i in alive:
                outcome, used = _rollout(
                    apply(world, candidates[i]),
                    random.Random(roll) if paired else rng,
                    noisy & ~anyone if budget.noise > 0 else 0,
                    budget.noise,
                    anyone=anyone,
                    **learned_args,
                )
                scores[i].append(outcome.chips[me] + budget.win_bonus * (outcome.winner == me))
                plies += used
        worlds += budget.batch
        alive = _survivors(alive, scores, budget.drop_z)
    return scores, alive


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
    turns = min(_turns_finished(view, seat), max(_UNOPENED_AFTER))
    if turns:
        greedy_p, any_p = _UNOPENED_AFTER[turns]
        if view.seats[seat].opened:
            log_odds += math.log((1 - any_p) / (1 - greedy_p))
        else:
            log_odds += math.log(any_p / greedy_p)
    return 1 / (1 + math.exp(-log_odds))


def _random_players(view: SeatView, others: tuple[int, int], budget: Budget) -> int:
    """The mask of the other seats taken for players who make any legal move."""
    if budget.random_above > 1:
        return 0
    return sum(1 << s for s in others if random_chance(view, s, budget) > budget.random_above)


def _turns_finished(view: SeatView, seat: int) -> int:
    """Turns ``seat`` has surely finished, counting from the dealer's first.

    Each finished turn left a discard (a take lifts one off again), and each turn after the
    dealer's first began with a draw or a take, so both counts are lower bounds.
    """
    draws = 15 - view.stock_left
    begun = draws + (1 if view.phase in (Phase.START, Phase.ANSWER) else 0)
    finished = max(len(view.discards), begun)
    return max(0, (finished - (seat - view.dealer) % 3 + 2) // 3)


def is_draw_decision(candidates: list[Move]) -> bool:
    """Whether the choice is about a Draw call: to call one (R7), or to fold or fight one."""
    return any(m.type in (CALL, FOLD, FIGHT) for m in candidates)


def _survivors(alive: list[int], scores: list[list[float]], z: float) -> list[int]:
    leader = max(alive, key=lambda i: (_mean(scores[i]), -i))
    return [i for i in alive if i == leader or _edge(scores[i], scores[leader], -z) >= 0]


def _edge(mine: list[float], theirs: list[float], z: float) -> float:
    """The paired mean difference less ``z`` standard errors (both played in the same deals)."""
    n = len(mine)
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = _mean(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
    # A floor on the spread, so a handful of identical differences is not taken as certain.
    return mean - z * max(spread, 0.5 / math.sqrt(n))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


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
    anyone = _random_players(view, others, budget)
    noisy = 0
    if budget.noisy_share > 0:
        for seat in others:
            if rng.random() < noisy_chance(view, seat, budget):
                noisy |= 1 << seat
    world = sample_world(
        view, rng, budget.shape, budget.tries, budget.discard_tries, plain=noisy | anyone
    )
    return world, (noisy & ~anyone if budget.noise > 0 else 0) | anyone << 3


def rollout(
    state: GameState, rng: random.Random, noisy: int = 0, budget: Budget = DEFAULT_BUDGET
) -> tuple[Outcome, int]:
    """The bot's own rollout policy, for others that judge moves as it does (the coach):
    greedy in every seat, the seats of the mask ``noisy`` (``model_deal``'s) making any
    legal move in ``budget.noise`` of their moves, and those it took for random players
    (its bits 3 to 5) in all of them, as in the bot's races."""
    return _rollout(state, rng, noisy & 7, budget.noise, anyone=noisy >> 3)


def _rollout(
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
    played = _played_a_turn(view)
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


def _played_a_turn(view: SeatView) -> set[int]:
    """Seats sure to have finished a turn: a hand a bot melds from ends its turn meld-free."""
    return {s for s in range(3) if _turns_finished(view, s)}


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
