"""Bots that team up, and honest bots of many styles, for measuring fair play.

Every seat is a *base* (how well it plays) with a *style* or a *collusion* on top.

Bases: greedy (Normal), Easy (a random move a third of the time), Hard (the search bot,
about a second a move: slow, used for few games), tuned greedy (the strong rules of
thumb, ``games.bots.greedy.TUNED``) and random (every legal move alike: very weak).

Honest styles (``HONEST``), all from the seat's own view, differ on purpose so that a
detector cannot flag a pair for playing unlike greedy: noisy (one move in ten at random),
careless (never thinks about what its discard gives the next seat), collector (keeps
every pair and neighbour: its hand fits a thrown card more often than chance), hoarder
(keeps its melds in hand and lays off nothing until the stock runs low), fighter and
folder (always fight, always fold a Draw call), caller and shy (call Draw whenever it may,
never). Honest pairs also sit as friends who always play together, and as a very strong
player beside a very weak one. Beside them, ``BEGINNERS``: ``stock-only`` plays as greedy
but never takes the discard (many casual rummy players only ever draw from the stock),
kept out of ``HONEST`` so that the honest figures' draws stay those of their commands.

Colluding kinds (``KINDS``): a colluding seat sees its partner's hand, as two people on
the phone would, and plays for the pair in some of its decisions:

- ``full``: feeds the partner (when it sits just before it, throws a card the partner can
  take into a meld), never lays off on the partner's melds (which would block its Draw
  call, R5), folds to the partner's Draw call, and calls Draw only when the partner would
  not pay most;
- ``feed``: full collusion's feeding alone;
- ``light`` and ``mixed-50``/``mixed-25``/``mixed-10``: the same in a share of its
  decisions (a quarter for light; mixed on a base drawn per seat);
- ``cheap``: feeds only when the fitting card costs it at most ``CHEAP`` points of
  greedy's discard score;
- ``subtle``: feeds only with one of greedy's two best discards, and only when the
  partner's take would shed at least ``SUBTLE_GAIN`` points;
- ``stealth``: feeds only cards its own view already gives at least ``STEALTH_CHANCE`` of
  fitting the next hand;
- ``soft``: no feeding; never lays off on the partner, folds to its calls and calls Draw
  only when the partner would not pay most;
- ``dump`` and ``dump-feed`` (a series with a pot): the first seat of the pair loses every
  hand it can to the second: it never opens (so it is burned and can win nothing), never
  calls, never lays off on the receiver, blocks the third's Draw calls by laying off on
  its melds whenever it can, and (``dump-feed``) feeds the receiver. The receiver plays
  its base honestly.
- ``quiet-dump`` (a probe, ``PROBES``): a dumper that treats both opponents alike: it never
  opens, never calls and always folds, and otherwise plays its base (its lay-offs on
  either opponent, no feeding).

Only the engine and the bots: no database. A colluding seat reads the full ``GameState``
only for its partner's hand (the cheat being simulated); every decision of an honest seat
is made from its own view (``reading``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots import choose as bot_choose
from games.bots.easy import MISS_RATE
from games.bots.greedy import TUNED, choose_read, discard_score, tongits_step
from games.bots.knowledge import Reading, near_meld_outs
from games.engine.cards import FULL_DECK, cards_of
from games.engine.melds import deadwood, layoff_options, take_options
from games.engine.moves import CALL, DISCARD, DRAW, FIGHT, FOLD, LAYOFF, MELD, SECRET, TAKE, Move
from games.engine.rules import legal_moves
from games.engine.scoring import hand_points
from games.engine.state import GameState, Phase
from games.engine.view import seat_view
from games.fairplay.features import feed_chance

FULL = 1.0
LIGHT = 0.25
BASES = ("greedy", "easy", "hard", "tuned", "random")
HONEST = (
    "greedy", "easy", "noisy", "careless", "collector", "hoarder", "fighter", "folder",
    "caller", "shy",
)  # fmt: skip
# Honest styles measured on request (``bench.fairplay_takes``, ``bench.fairplay_edges
# --stock-only``), not drawn by the benches that draw from HONEST.
BEGINNERS = ("stock-only",)
# The first four are the styles of the detector's first measurements; bases that a
# colluding seat of a mixed kind is drawn from.
MIXED_BASES = ("greedy", "easy", "noisy", "careless")
KINDS = (
    "full", "feed", "light", "mixed-50", "mixed-25", "mixed-10", "cheap", "subtle", "stealth",
    "soft", "dump", "dump-feed",
)  # fmt: skip
# Probes: measured on request (``bench.fairplay_gain --kinds quiet-dump``,
# ``bench.fairplay_edges --quiet``), not by ``bench.fairplay``'s default run.
PROBES = ("quiet-dump",)
SERIES_KINDS = ("dump", "dump-feed", "quiet-dump")
CHEAP = 2.0  # points of discard score a cheap feeder gives up, at most
SUBTLE_GAIN = 5  # points the partner's take must shed for a subtle feed
STEALTH_CHANCE = 0.3  # the least chance, from its view, of a card a stealth feeder throws

Policy = Callable[[GameState, int, random.Random], Move]


def reading(state: GameState, seat: int) -> Reading:
    """The seat's moment from its own view, as ``knowledge.read(seat_view(...))`` gives it
    (a test checks they agree), built straight from the state: three times faster, which
    is most of a simulated game's cost."""
    hand = state.hands[seat]
    seen = hand
    for card in state.discards:
        seen |= 1 << card
    table, owners = [], []
    for meld in state.melds:
        table.append(0 if meld.secret else meld.cards)
        owners.append(meld.owner)
        if not meld.secret:
            seen |= meld.cards
    return Reading(
        None, seat, hand, FULL_DECK & ~seen, state.phase,
        tuple(h.bit_count() for h in state.hands), state.opened, state.blocked,
        tuple(table), tuple(owners), state.discards[-1] if state.discards else None,
        state.stock_left, hand_points(state, seat),
        state.caller if state.phase is Phase.ANSWER else -1,
    )  # fmt: skip


def base_move(base: str, state: GameState, seat: int, rng: random.Random, r: Reading) -> Move:
    """The honest move of a ``base`` seat."""
    if base == "hard":
        return bot_choose("hard", seat_view(state, seat), rng)
    if base == "random":
        return rng.choice(legal_moves(state))
    move = choose_read(r, TUNED) if base == "tuned" else choose_read(r)
    if base == "easy":
        legal = legal_moves(state)
        if len(legal) > 1 and rng.random() < MISS_RATE:
            return rng.choice(legal)
    return move


def honest(kind: str) -> Policy:
    """An honest seat of a base or an ``HONEST`` style, from its own view only."""
    if kind in BASES:
        return lambda state, seat, rng: base_move(kind, state, seat, rng, reading(state, seat))
    style = _STYLES[kind]

    def policy(state: GameState, seat: int, rng: random.Random) -> Move:
        r = reading(state, seat)
        return style(state, seat, rng, r, choose_read(r))

    return policy


def _noisy(state, seat, rng, r, move):
    legal = legal_moves(state)
    return rng.choice(legal) if len(legal) > 1 and rng.random() < 0.1 else move


def _careless(state, seat, rng, r, move):
    if move.type != DISCARD:
        return move

    def cost(card: int) -> float:
        rest = r.hand & ~(1 << card)
        return deadwood(rest) + 1.5 * near_meld_outs(card, rest, r.unseen)

    return Move(DISCARD, seat, 1 << min(cards_of(r.hand), key=cost))


def _collector(state, seat, rng, r, move):
    """Throws the card with the fewest pairs and neighbours in its hand."""
    if move.type != DISCARD:
        return move

    def cost(card: int) -> float:
        rest = r.hand & ~(1 << card)
        return deadwood(rest) + 3 * _neighbours(card, rest)

    return Move(DISCARD, seat, 1 << min(cards_of(r.hand), key=cost))


def _neighbours(card: int, hand: int) -> int:
    rank, low = card % 13, card - card % 13
    same = sum(1 for c in cards_of(hand) if c % 13 == rank)
    near = sum(1 for d in (-2, -1, 1, 2) if 0 <= rank + d <= 12 and hand >> (low + rank + d) & 1)
    return same + near


def _hoarder(state, seat, rng, r, move):
    """Keeps melds in hand and lays off nothing while the stock lasts, unless it goes out."""
    if move.type not in (MELD, LAYOFF) or r.stock_left <= 4 or tongits_step(r) is not None:
        return move
    return _greedy_discard(r)


def _answer_always(kind: str):
    def style(state, seat, rng, r, move):
        return Move(kind, seat) if r.phase is Phase.ANSWER else move

    return style


def _caller(state, seat, rng, r, move):
    return Move(CALL, seat) if r.can_call and move.type in (DRAW, CALL) else move


def _shy(state, seat, rng, r, move):
    return Move(DRAW, seat) if move.type == CALL else move


def _stock_only(state, seat, rng, r, move):
    """Greedy, but draws from the stock where greedy would take the discard (R3)."""
    return Move(DRAW, seat) if move.type == TAKE else move


_STYLES = {
    "noisy": _noisy, "careless": _careless, "collector": _collector, "hoarder": _hoarder,
    "fighter": _answer_always(FIGHT), "folder": _answer_always(FOLD), "caller": _caller,
    "shy": _shy, "stock-only": _stock_only, "greedy": lambda state, seat, rng, r, move: move,
}  # fmt: skip


def _greedy_discard(r: Reading) -> Move:
    return Move(DISCARD, r.me, 1 << min(cards_of(r.hand), key=lambda c: discard_score(r, c)))


# --- Colluders --------------------------------------------------------------------------


def colluder(
    partner: int, share: float, base: str = "greedy", kind: str = "full", decide=None
) -> Policy:
    """A seat that shares hands with ``partner`` and plays ``kind`` of collusion in
    ``share`` of its decisions, on ``base`` (a base or an honest style) in the rest.
    ``decide`` (a ``random.Random``) draws which decisions, apart from the game's own
    randomness, so that a deal played honestly and colluding stays the same game until
    the first decision that differs (the gains' common random numbers); without it the
    game's generator draws them."""
    act = _KIND_ACTS[kind]

    def policy(state: GameState, seat: int, rng: random.Random) -> Move:
        r = reading(state, seat)
        if base in BASES:
            move = base_move(base, state, seat, rng, r)
        else:
            move = _STYLES[base](state, seat, rng, r, choose_read(r))
        if share < 1.0 and (decide or rng).random() >= share:
            return move
        return act(state, seat, partner, r, move)

    return policy


def kind_policies(kind: str, pair: tuple[int, int], bases: tuple[str, str], decide=None):
    """The two colluding seats' policies of a kind (seat ``pair[0]`` first, on
    ``bases[0]``); ``decide`` as for ``colluder``."""
    a, b = pair
    if kind in SERIES_KINDS:  # the first seat dumps, the second receives and plays honestly
        return colluder(b, FULL, bases[0], kind), honest(bases[1])
    share = {"light": LIGHT, "mixed-50": 0.5, "mixed-25": 0.25, "mixed-10": 0.1}.get(kind, FULL)
    act = "full" if kind == "light" or kind.startswith("mixed") else kind
    return colluder(b, share, bases[0], act, decide), colluder(a, share, bases[1], act, decide)


def _full(state: GameState, seat: int, partner: int, r: Reading, move: Move) -> Move:
    move = _soft(state, seat, partner, r, move)
    return _feed(state, seat, partner, r, move, lambda card: True)


def _soft(state: GameState, seat: int, partner: int, r: Reading, move: Move) -> Move:
    third = 3 - seat - partner
    if r.phase is Phase.ANSWER:
        return Move(FOLD, seat) if r.caller == partner else move
    if r.phase is Phase.START:
        if move.type == CALL and hand_points(state, partner) > r.estimate(third):
            return Move(DRAW, seat)
        return move
    if move.type == LAYOFF and r.owners[move.meld] == partner:
        return _greedy_discard(r)
    return move


def _feed(state, seat, partner, r, move, allowed) -> Move:
    if move.type != DISCARD or (seat + 1) % 3 != partner:
        return move
    partner_hand = state.hands[partner]
    feeds = [c for c in cards_of(r.hand) if take_options(partner_hand, c) and allowed(c)]
    if not feeds:
        return move
    return Move(DISCARD, seat, 1 << min(feeds, key=lambda c: deadwood(r.hand & ~(1 << c))))


def _feed_only(state, seat, partner, r, move):
    return _feed(state, seat, partner, r, move, lambda card: True)


def _cheap(state, seat, partner, r, move):
    if move.type != DISCARD:
        return move
    limit = discard_score(r, move.card) + CHEAP
    return _feed(state, seat, partner, r, move, lambda c: discard_score(r, c) <= limit)


def _subtle(state, seat, partner, r, move):
    if move.type != DISCARD or (seat + 1) % 3 != partner:
        return move
    best_two = sorted(cards_of(r.hand), key=lambda c: discard_score(r, c))[:2]
    partner_hand = state.hands[partner]
    if take_options(partner_hand, best_two[0]):
        return move
    card = best_two[-1]
    options = take_options(partner_hand, card)
    if not options:
        return move
    now = deadwood(partner_hand)
    gain = now - min(deadwood(partner_hand & ~o) for o in options)
    return Move(DISCARD, seat, 1 << card) if gain >= SUBTLE_GAIN else move


def _stealth(state, seat, partner, r, move):
    if move.type != DISCARD or (seat + 1) % 3 != partner:
        return move

    def likely(card: int) -> bool:
        return feed_chance(card, r.unseen, state, partner) >= STEALTH_CHANCE

    return _feed(state, seat, partner, r, move, likely)


def _dump(state: GameState, seat: int, partner: int, r: Reading, move: Move) -> Move:
    """The dumper: never opens, never calls, never blocks the receiver, blocks the third."""
    third = 3 - seat - partner
    if r.phase is Phase.START:
        return Move(DRAW, seat)  # no call and no take: a take would open it (R6)
    if r.phase is Phase.ANSWER:
        return Move(FOLD, seat)
    if r.hand.bit_count() > 2:
        for index, cards in enumerate(r.table):
            if cards and r.owners[index] == third:
                options = layoff_options(cards, r.hand)
                if options:
                    return Move(LAYOFF, seat, options[0], index)
    return _greedy_discard(r)


def _dump_feed(state, seat, partner, r, move):
    move = _dump(state, seat, partner, r, move)
    return _feed(state, seat, partner, r, move, lambda card: True)


def _quiet_dump(state, seat, partner, r, move):
    """Its base's move, but never opens (no meld, no take), never calls, always folds
    (R6, R7): both opponents treated alike."""
    if r.phase is Phase.START:
        return Move(DRAW, seat)
    if r.phase is Phase.ANSWER:
        return Move(FOLD, seat)
    if move.type in (MELD, SECRET):
        return _greedy_discard(r)
    return move


_KIND_ACTS = {
    "full": _full, "feed": _feed_only, "soft": _soft, "cheap": _cheap, "subtle": _subtle,
    "stealth": _stealth, "dump": _dump, "dump-feed": _dump_feed, "quiet-dump": _quiet_dump,
}  # fmt: skip
