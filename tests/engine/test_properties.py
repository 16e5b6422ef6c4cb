"""Properties of whole random games: each deal comes from a seed, each move is drawn from
``legal_moves`` by a seeded policy, in both the default rules and held-melds-free."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Record,
    apply,
    deal_from_seed,
    legal_moves,
    load_record,
    new_game,
    replay,
    seat_view,
)
from games.engine.cards import CODES, cards_of
from games.engine.moves import MOVE_TYPES

from .conftest import HELD_MELDS_FREE, hidden_from, visible_cards

MAX_MOVES = 400  # far above any game: 15 draws, and every take shrinks a hand for good
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Game:
    seed: int
    variants: frozenset[str]
    states: list[GameState]  # states[i] is before moves[i]; the last is the end
    moves: list[Move]


# How much a policy likes each move type; "call" early ends many games, so vary it.
POLICIES = [
    {},  # uniform over the legal moves
    {"call": 0.0, "meld": 100.0, "layoff": 100.0, "secret": 100.0, "take": 100.0},  # Tongits
    {"call": 0.2, "fight": 3.0, "take": 2.0},
]


def play_game(seed: int, policy_seed: int, held_free: bool, policy: dict) -> Game:
    rng = random.Random(policy_seed)
    variants = frozenset({HELD_MELDS_FREE}) if held_free else frozenset()
    state = new_game(seed, variants)
    game = Game(seed, variants, [state], [])
    while not state.finished:
        assert len(game.moves) < MAX_MOVES, "the game does not end"
        legal = legal_moves(state)
        assert legal, "a game that has not ended always has a legal move"
        move = rng.choices(legal, weights=[policy.get(m.type, 1.0) for m in legal])[0]
        state = apply(state, move)
        game.moves.append(move)
        game.states.append(state)
    return game


games = st.builds(
    play_game,
    seed=st.integers(0, 2**32 - 1),
    policy_seed=st.integers(0, 2**32 - 1),
    held_free=st.booleans(),
    policy=st.sampled_from(POLICIES),
)


@PROPERTY
@given(game=games)
def test_every_card_is_somewhere_exactly_once_in_every_state(game: Game) -> None:
    for state in game.states:
        assert sorted(state.all_cards()) == list(range(52))


@PROPERTY
@given(game=games)
def test_every_game_ends_with_chips_that_sum_to_zero_R10_R11(game: Game) -> None:
    outcome = game.states[-1].outcome
    assert outcome is not None
    assert sum(outcome.chips) == 0
    assert outcome.end in ("tongits", "draw", "fought_draw", "stock")
    assert not outcome.burned[outcome.winner]
    assert legal_moves(game.states[-1]) == []


@PROPERTY
@given(game=games)
def test_moves_round_trip_through_their_dicts(game: Game) -> None:
    for move in game.moves:
        assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move


@PROPERTY
@given(game=games)
def test_a_game_dumped_as_a_record_replays_to_the_same_state_and_outcome(game: Game) -> None:
    dealer, hands, stock = deal_from_seed(game.seed)
    record = Record(dealer, hands, stock, list(game.moves), sorted(game.variants))
    text = json.dumps(record.to_dict())
    result = replay(load_record(json.loads(text)))
    assert result.ok, result.error
    assert result.applied == game.moves
    assert result.state == game.states[-1]
    assert result.state.outcome == game.states[-1].outcome
    # Replaying a prefix reaches the state in between.
    middle = len(game.moves) // 2
    assert replay(load_record(text), upto=middle).state == game.states[middle]


def candidate_dicts(state: GameState, rng: random.Random) -> list[dict]:
    """Well-formed moves, mostly wrong: any type, often the acting seat, card groups
    from the acting hand with a stray card now and then, any meld number."""
    out = []
    hand = cards_of(state.hands[state.turn])
    for _ in range(12):
        seat = state.turn if rng.random() < 0.8 else rng.randrange(3)
        pool = hand + [rng.randrange(52) for _ in range(rng.choice([0, 0, 1, 2]))]
        if state.discards and rng.random() < 0.2:
            pool.append(state.discards[-1])
        group = sorted({c for c in pool if rng.random() < rng.choice([0.15, 0.3, 0.6])})
        kind = rng.choice(MOVE_TYPES)
        data = {"seat": seat, "type": kind, "cards": [CODES[c] for c in group]}
        data["card"] = CODES[rng.choice(pool) if pool else rng.randrange(52)]
        data["meld"] = rng.randrange(len(state.melds) + 2)
        out.append(data)
    return out


@PROPERTY
@given(game=games, rng_seed=st.integers(0, 2**32 - 1))
def test_apply_accepts_exactly_the_listed_moves_and_never_changes_its_state(
    game: Game, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    for state, played in zip(game.states, [*game.moves, None], strict=True):
        listed = set(legal_moves(state))
        before = state.key()
        for move in listed if rng.random() < 0.3 else [m for m in listed if rng.random() < 0.2]:
            apply(state, move)  # every listed move applies
        for data in candidate_dicts(state, rng):
            try:
                move = Move.from_dict(data)
            except InvalidMoveError:
                continue
            try:
                apply(state, move)
            except IllegalMoveError:
                assert move not in listed, f"{move} is listed but refused"
            else:
                assert move in listed, f"{move} is accepted but not listed"
        assert state.key() == before, "apply changed the state it was given"
        assert played is None or played in listed


@PROPERTY
@given(game=games)
def test_a_seat_view_never_holds_another_seats_hidden_cards(game: Game) -> None:
    for state in game.states:
        if state.finished:
            break
        for seat in (0, 1, 2, None):
            view = seat_view(state, seat)
            assert not visible_cards(view) & hidden_from(state, seat)
            if seat is not None:
                assert set(cards_of(state.hands[seat])) <= visible_cards(view)


# An oracle for the end of a game, written from docs/rules.md alone (R6 to R10): it reads the
# final table (hands, melds and their owners) and the moves, never the engine's scoring.
def value(card: int) -> int:
    return min(card % 13 + 1, 10)


def melds_within(cards: frozenset[int]) -> list[frozenset[int]]:
    out = []
    for rank in range(13):
        same = sorted(c for c in cards if c % 13 == rank)
        out += [frozenset(g) for n in (3, 4) for g in combinations(same, n)]
    for suit in range(4):
        for low in range(13):
            run = []
            for rank in range(low, 13):
                if suit * 13 + rank not in cards:
                    break
                run.append(suit * 13 + rank)
                if len(run) >= 3:
                    out.append(frozenset(run))
    return out


@lru_cache(maxsize=1 << 16)
def least_left(cards: frozenset[int]) -> int:
    if not cards:
        return 0
    low = min(cards)
    best = value(low) + least_left(cards - {low})
    for meld in melds_within(cards):
        if low in meld:
            best = min(best, least_left(cards - meld))
    return best


def oracle(game: Game) -> dict:
    final = game.states[-1]
    hands = [frozenset(cards_of(h)) for h in final.hands]
    free = HELD_MELDS_FREE in game.variants
    points = [least_left(h) if free else sum(map(value, h)) for h in hands]
    opened = [any(m.owner == s for m in final.melds) for s in range(3)]
    last = game.moves[-1]
    after_seat = lambda seat, k: (seat + k) % 3  # noqa: E731
    if not hands[last.seat]:
        winner, end = last.seat, "tongits"
    elif last.type in ("call", "fold", "fight"):
        call = max(i for i, m in enumerate(game.moves) if m.type == "call")
        caller = game.moves[call].seat
        fighters = [m.seat for m in game.moves[call:] if m.type == "fight"]
        order = [after_seat(caller, 1), after_seat(caller, 2), caller]
        contenders = [s for s in order if s in fighters or s == caller]
        winner = min(contenders, key=lambda s: points[s])
        end = "fought_draw" if fighters else "draw"
    else:
        drawer = last.seat
        order = [drawer, after_seat(drawer, 1), after_seat(drawer, 2)]
        candidates = [s for s in order if opened[s]] or order
        winner, end = min(candidates, key=lambda s: points[s]), "stock"
    burned = [s != winner and not opened[s] for s in range(3)]
    owned = [m for m in final.melds if m.owner == winner]
    aces = sum(1 for c in hands[winner] if c % 13 == 0)
    aces += sum(1 for m in owned for c in cards_of(m.cards) if c % 13 == 0)
    fours = sum(1 for r in range(13) if sum(1 for c in hands[winner] if c % 13 == r) == 4)
    secrets = sum(1 for m in owned if m.secret) + fours
    base = 3 if end in ("tongits", "fought_draw") else 1
    chips = [0, 0, 0]
    for loser in set(range(3)) - {winner}:
        pay = base + aces + 3 * secrets + burned[loser]
        chips[loser] -= pay
        chips[winner] += pay
    return {"winner": winner, "end": end, "points": points, "burned": burned, "chips": chips}


@PROPERTY
@given(game=games)
def test_the_outcome_is_what_the_rules_make_of_the_final_table_R6_to_R10(game: Game) -> None:
    outcome = game.states[-1].outcome
    assert outcome is not None
    got = {
        "winner": outcome.winner,
        "end": outcome.end,
        "points": list(outcome.points),
        "burned": list(outcome.burned),
        "chips": list(outcome.chips),
    }
    assert got == oracle(game)


def test_the_leak_check_fails_on_a_view_with_a_planted_card() -> None:
    state = new_game(3)
    view = seat_view(state, state.turn)
    other = (state.turn + 1) % 3
    planted = cards_of(state.hands[other])[0]
    leaky = dataclasses.replace(view, discards=(*view.discards, planted))
    assert visible_cards(leaky) & hidden_from(state, state.turn) == {planted}


def test_the_games_played_reach_every_way_a_game_ends() -> None:
    """The policies are worth their names: over some seeds, every kind of end occurs."""
    ends = set()
    for seed in range(150):
        game = play_game(seed, seed, held_free=seed % 2 == 1, policy=POLICIES[seed % 3])
        ends.add(game.states[-1].outcome.end)
    assert ends == {"tongits", "draw", "fought_draw", "stock"}
