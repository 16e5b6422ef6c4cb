"""Bots against bots, entirely in the engine: no database, no server.

Each bot is handed ``seat_view(state, seat)`` and nothing else, the way the server will
hand it over, so an arena run also shows that a bot can finish games from its view alone.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
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
    move_seconds: tuple[float, ...] = field(default=(), compare=False, repr=False)
    # The entry's chips in each rotation of three games (the last may hold fewer), in order.
    rotation_chips: tuple[int, ...] = field(default=(), repr=False)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def win_rate_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson's 95% interval for the win rate: it stays inside 0..1 at any count."""
        return wilson_interval(self.wins, self.games, z)

    @property
    def mean_chips(self) -> float:
        return self.chips / self.games if self.games else 0.0

    def mean_chips_interval(self, z: float = 1.96) -> tuple[float, float] | None:
        """A 95% interval for the mean chips (None below two rotations).

        The three games of a rotation share a deal, so they are not independent: the spread
        is taken between rotations, each weighed by its games (a ratio estimator).
        """
        rounds = len(self.rotation_chips)
        if rounds < 2 or not self.games:
            return None
        mean = self.mean_chips
        sizes = [min(3, self.games - 3 * r) for r in range(rounds)]
        spread = sum((c - mean * k) ** 2 for c, k in zip(self.rotation_chips, sizes, strict=True))
        half = z * math.sqrt(rounds / (rounds - 1) * spread) / self.games
        return mean - half, mean + half

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def ms_percentile(self, share: float) -> float:
        """The time within which ``share`` of this entry's moves were chosen, in ms."""
        if not self.move_seconds:
            return 0.0
        ordered = sorted(self.move_seconds)
        return 1000 * ordered[min(int(share * len(ordered)), len(ordered) - 1)]

    def to_dict(self) -> dict[str, object]:
        chips = self.mean_chips_interval()
        return {
            "kind": self.kind,
            "win_rate": round(self.win_rate, 3),
            "win_rate_95": [round(x, 3) for x in self.win_rate_interval()],
            "mean_chips": round(self.mean_chips, 3),
            "mean_chips_95": [round(x, 3) for x in chips] if chips else None,
        }


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's interval for a win rate of ``wins`` in ``games`` (95% for ``z`` 1.96)."""
    if not games:
        return 0.0, 1.0
    n, p = games, wins / games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


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
    move_seconds: list[float] = field(default_factory=list)
    rotation_chips: dict[int, int] = field(default_factory=dict)

    def add(self, other: _Tally) -> None:
        self.wins += other.wins
        self.chips += other.chips
        for rotation, chips in other.rotation_chips.items():
            self.rotation_chips[rotation] = self.rotation_chips.get(rotation, 0) + chips
        self.moves += other.moves
        self.seconds += other.seconds
        self.move_seconds += other.move_seconds


# One game of an arena: (game number, its deal's seed, its bots' rng seed).
_Game = tuple[int, int, int]


def play_arena(
    kinds: Sequence[str],
    games: int,
    seed: int = 0,
    progress: Progress | None = None,
    jobs: int = 1,
) -> ArenaResult:
    """Play ``games`` games between the three listed bot kinds; the same seed, the same result.

    Entry ``i`` sits in seat ``(i + g) % 3`` in game ``g``, so each entry plays each seat
    in turn. The three games of a rotation share one deal (the dealer comes from it), so
    no entry is luckier with its cards than another. ``jobs`` processes share the games;
    every game's seeds are drawn up front, so their number never changes a result.
    """
    _check_kinds(kinds)
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    tallies = [_Tally() for _ in kinds]
    for done, (_, game_tallies) in enumerate(_played(kinds, schedule(games, seed), jobs), 1):
        for tally, more in zip(tallies, game_tallies, strict=True):
            tally.add(more)
        if progress is not None:
            progress(done, games)
    return ArenaResult(
        games, tuple(_entry(k, games, t) for k, t in zip(kinds, tallies, strict=True))
    )


def default_jobs() -> int:
    """One process a core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def schedule(games: int, seed: int) -> list[_Game]:
    """Each game's (number, deal seed, bots' seed): the three games of a rotation share a deal."""
    master = random.Random(seed)
    out = []
    deal_seed = 0
    for game in range(games):
        if game % 3 == 0:
            deal_seed = master.getrandbits(64)
        out.append((game, deal_seed, master.getrandbits(64)))
    return out


def _played(
    kinds: Sequence[str], games: list[_Game], jobs: int
) -> Iterator[tuple[int, list[_Tally]]]:
    """Each game's tallies as it finishes, here or in ``jobs`` worker processes."""
    if jobs == 1 or len(games) < 2:
        yield from (_one_game(kinds, g) for g in games)
        return
    # Games in order, a few at a time, so the progress bar moves and work stays balanced.
    chunk = max(1, min(8, len(games) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_one_game, [kinds] * len(games), games, chunksize=chunk)


def _one_game(kinds: Sequence[str], game: _Game) -> tuple[int, list[_Tally]]:
    number, deal_seed, rng_seed = game
    tallies = [_Tally() for _ in kinds]
    seats = [(number + i) % 3 for i in range(3)]  # seats[entry] is that entry's seat
    _play_one(kinds, seats, new_game(deal_seed), random.Random(rng_seed), tallies)
    for tally in tallies:
        tally.rotation_chips[number // 3] = tally.chips
    return number, tallies


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
        tally = tallies[entry_at[seat]]
        tally.moves += 1
        tally.seconds += seconds
        tally.move_seconds.append(seconds)

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
    return EntryResult(
        kind,
        games,
        tally.wins,
        tally.chips,
        tally.moves,
        tally.seconds,
        tuple(tally.move_seconds),
        tuple(tally.rotation_chips[r] for r in sorted(tally.rotation_chips)),
    )
