"""Bots against bots, entirely in the engine: no database, no server.

Each bot is handed ``seat_view(state, seat)`` and nothing else, the way the server will
hand it over, so an arena run also shows that a bot can finish games from its view alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine import GameState, Outcome, apply, new_game, seat_view

from . import BOT_KINDS, choose

Progress = Callable[[int, int], None]  # (games played, games in all)


@dataclass(frozen=True)
class EntryResult:
    """How one listed entry did over the arena's games, whatever seat it sat in."""

    kind: str
    games: int
    wins: int
    chips: int
    # Timing varies from run to run, so two results of the same seed still compare equal.
    moves: int = field(default=0, compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_chips(self) -> float:
        return self.chips / self.games if self.games else 0.0

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "win_rate": round(self.win_rate, 3),
            "mean_chips": round(self.mean_chips, 3),
        }


@dataclass(frozen=True)
class ArenaResult:
    games: int
    entries: tuple[EntryResult, ...]  # in the order the kinds were listed

    def to_dict(self) -> dict[str, object]:
        return {"games": self.games, "seats": [e.to_dict() for e in self.entries]}


@dataclass
class _Tally:
    wins: int = 0
    chips: int = 0
    moves: int = 0
    seconds: float = 0.0


def play_arena(
    kinds: Sequence[str], games: int, seed: int = 0, progress: Progress | None = None
) -> ArenaResult:
    """Play ``games`` games between the three listed bot kinds; the same seed, the same result.

    Entry ``i`` sits in seat ``(i + g) % 3`` in game ``g``, so each entry plays each seat
    in turn. The three games of a rotation share one deal (the dealer comes from it), so
    no entry is luckier with its cards than another.
    """
    _check_kinds(kinds)
    master = random.Random(seed)
    tallies = [_Tally() for _ in kinds]
    deal_seed = 0
    for game in range(games):
        if game % 3 == 0:
            deal_seed = master.getrandbits(64)
        rng = random.Random(master.getrandbits(64))
        seats = [(game + i) % 3 for i in range(3)]  # seats[entry] is that entry's seat
        _play_one(kinds, seats, new_game(deal_seed), rng, tallies)
        if progress is not None:
            progress(game + 1, games)
    return ArenaResult(
        games, tuple(_entry(k, games, t) for k, t in zip(kinds, tallies, strict=True))
    )


def _check_kinds(kinds: Sequence[str]) -> None:
    if len(kinds) != 3:
        raise ValueError(f"an arena needs three bots, one a seat; got {len(kinds)}")
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}")


def _play_one(
    kinds: Sequence[str],
    seats: list[int],
    state: GameState,
    rng: random.Random,
    tallies: list[_Tally],
) -> None:
    entry_at = {seat: entry for entry, seat in enumerate(seats)}

    def clock(seat: int, seconds: float) -> None:
        tallies[entry_at[seat]].moves += 1
        tallies[entry_at[seat]].seconds += seconds

    outcome = play_game([kinds[entry_at[s]] for s in range(3)], state, rng, clock)
    for entry, seat in enumerate(seats):
        tallies[entry].wins += outcome.winner == seat
        tallies[entry].chips += outcome.chips[seat]


def play_game(
    kinds_by_seat: Sequence[str],
    state: GameState,
    rng: random.Random,
    clock: Callable[[int, float], None] | None = None,
) -> Outcome:
    """Play ``state`` to its end, each seat's bot seeing only its own seat's view.

    ``clock(seat, seconds)`` hears how long each of the bots' moves took to choose.
    """
    while state.outcome is None:
        view = seat_view(state, state.turn)
        started = time.perf_counter()
        move = choose(kinds_by_seat[state.turn], view, rng)
        if clock is not None:
            clock(state.turn, time.perf_counter() - started)
        state = apply(state, move)
    return state.outcome


def _entry(kind: str, games: int, tally: _Tally) -> EntryResult:
    return EntryResult(kind, games, tally.wins, tally.chips, tally.moves, tally.seconds)
