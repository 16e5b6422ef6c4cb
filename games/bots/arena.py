"""Bots against bots, entirely in the engine: no database, no server.

Each bot is handed ``seat_view(state, seat)`` and nothing else, the way the server will
hand it over, so an arena run also shows that a bot can finish games from its view alone.

Size: ~460 lines, kept whole: the two ways of playing an arena (seats rotating over shared
deals, and paired deals, each played by the bot under test and by a baseline in one seat)
share the kinds' checks, the seeding and the workers, and report the same kind of interval.
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
from games.engine.moves import CALL, Move
from games.engine.scoring import DRAW_END, FOUGHT_DRAW
from games.engine.view import SeatView

from . import BOT_KINDS, TRIAL_KINDS, choose

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
        if kind not in BOT_KINDS and kind not in TRIAL_KINDS:
            known = ", ".join((*BOT_KINDS, *TRIAL_KINDS))
            raise ValueError(f"unknown bot kind {kind!r}: choose from {known}")


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


# --- Paired games: one seat's bot against a baseline on the same deals -------------------

# The opponent mixes a paired run plays against, by name: the two other seats' kinds.
MIXES: dict[str, tuple[str, str]] = {
    "greedy+greedy": ("greedy", "greedy"),
    "random+random": ("random", "random"),
    "easy+easy": ("easy", "easy"),
}


@dataclass(frozen=True)
class SeatRecord:
    """How the seat under test did in one game of a pair."""

    chips: int
    won: bool
    plies: int  # moves in the whole game: the hand's length
    calls: tuple[int, ...]  # the seat's hand points at each of its Draw calls (R7)
    call_won: bool  # whether a Draw call of the seat won the game


@dataclass(frozen=True)
class PairedResult:
    """``hero`` and ``base`` in the same seat of the same deals against ``opponents``."""

    hero: str
    base: str
    opponents: tuple[str, str]
    hero_games: tuple[SeatRecord, ...]
    base_games: tuple[SeatRecord, ...]  # deal by deal, in step with hero_games

    @property
    def deals(self) -> int:
        return len(self.hero_games)

    def chip_diff(self) -> tuple[float, float, float]:
        """The mean chips ``hero`` made over ``base`` a deal, with its paired 95% interval."""
        return paired_mean([h.chips - b.chips for h, b in self._pairs()])

    def win_diff(self) -> tuple[float, float, float]:
        """The win rate's difference, hero less base, with its paired 95% interval."""
        return paired_mean([int(h.won) - int(b.won) for h, b in self._pairs()])

    def _pairs(self) -> Iterator[tuple[SeatRecord, SeatRecord]]:
        return zip(self.hero_games, self.base_games, strict=True)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "hero": self.hero,
            "base": self.base,
            "opponents": "+".join(self.opponents),
            "deals": self.deals,
            "chip_diff": [round(x, 3) for x in self.chip_diff()],
            "win_diff": [round(x, 4) for x in self.win_diff()],
        }
        for name, games in (("hero", self.hero_games), ("base", self.base_games)):
            out[name + "_stats"] = seat_stats(games)
        return out


def paired_mean(diffs: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the mean of paired differences and its normal 95% interval."""
    n = len(diffs)
    if not n:
        return 0.0, 0.0, 0.0
    mean = sum(diffs) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def quantiles(values: Sequence[float], shares: Sequence[float]) -> list[float]:
    """The nearest-rank quantiles of ``values`` (empty: none)."""
    ordered = sorted(values)
    if not ordered:
        return []
    return [ordered[min(int(s * len(ordered)), len(ordered) - 1)] for s in shares]


def seat_stats(games: Sequence[SeatRecord]) -> dict[str, object]:
    """Mean chips and wins, the hand's mean length and the Draw calls' points (quartiles)."""
    n = len(games) or 1
    calls = [p for g in games for p in g.calls]
    return {
        "mean_chips": round(sum(g.chips for g in games) / n, 3),
        "win_rate": round(sum(g.won for g in games) / n, 4),
        "mean_plies": round(sum(g.plies for g in games) / n, 2),
        "calls": len(calls),
        "calls_won": sum(g.call_won for g in games),
        "call_points_q": quantiles(calls, (0.1, 0.25, 0.5, 0.75, 0.9)),
        "call_points_max": max(calls, default=None),
    }


# One deal of a paired run: (deal number, its deal's seed, its bots' seed).
_Deal = tuple[int, int, int]
# A bot's move from a seat's view and its randomness (what ``choose`` does for a kind).
Policy = Callable[[SeatView, random.Random], Move]


def paired_plan(deals: int, seed: int) -> list[_Deal]:
    """The deals of a paired run of ``seed``: the same for every bench that plays them."""
    master = random.Random(seed)
    return [(d, master.getrandbits(64), master.getrandbits(64)) for d in range(deals)]


def seat_record(kinds: Sequence[str], deal: _Deal, policy: Policy | None = None) -> SeatRecord:
    """The game of ``deal`` from the seat under test's side (the seat turns with the deal's
    number); ``policy``, if given, plays that seat instead of its kind."""
    number, deal_seed, rng_seed = deal
    seat = number % 3
    return _seat_game(kinds, seat, new_game(deal_seed), rng_seed, policy)


def play_paired(
    hero: str,
    base: str,
    opponents: Sequence[str],
    deals: int,
    seed: int = 0,
    progress: Progress | None = None,
    jobs: int = 1,
) -> PairedResult:
    """Play each of ``deals`` deals twice: ``hero`` in one seat, then ``base`` in that seat,
    against the same two ``opponents``; the seat turns with the deal number.

    Every bot's randomness comes from the deal, the move's number and the seat, so the
    opponents' random choices are the same in both games for as long as the games agree.
    """
    _check_kinds([hero, *opponents])
    _check_kinds([base, *opponents])
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    plan = paired_plan(deals, seed)
    hero_games: list[SeatRecord] = []
    base_games: list[SeatRecord] = []
    work = [(hero, base, tuple(opponents), d) for d in plan]
    if jobs == 1 or deals < 2:
        done_iter: Iterator[tuple[SeatRecord, SeatRecord]] = map(_paired_deal, work)
        for done, (h, b) in enumerate(done_iter, 1):
            hero_games.append(h)
            base_games.append(b)
            if progress is not None:
                progress(done, deals)
    else:
        chunk = max(1, min(4, deals // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, (h, b) in enumerate(pool.map(_paired_deal, work, chunksize=chunk), 1):
                hero_games.append(h)
                base_games.append(b)
                if progress is not None:
                    progress(done, deals)
    return PairedResult(
        hero, base, (opponents[0], opponents[1]), tuple(hero_games), tuple(base_games)
    )


def _paired_deal(job: tuple[str, str, tuple[str, ...], _Deal]) -> tuple[SeatRecord, SeatRecord]:
    hero, base, opponents, deal = job
    return (
        seat_record(seat_kinds(hero, opponents, deal), deal),
        seat_record(seat_kinds(base, opponents, deal), deal),
    )


def seat_kinds(kind: str, opponents: Sequence[str], deal: _Deal) -> list[str]:
    """The three seats' kinds for ``deal``: ``kind`` in the seat under test (the deal's
    number modulo 3), the two ``opponents`` after it."""
    seat = deal[0] % 3
    kinds = [""] * 3
    kinds[seat] = kind
    kinds[(seat + 1) % 3], kinds[(seat + 2) % 3] = opponents
    return kinds


def _seat_game(
    kinds: Sequence[str], seat: int, state: GameState, rng_seed: int, policy: Policy | None = None
) -> SeatRecord:
    calls: list[int] = []
    while state.outcome is None:
        view = seat_view(state, state.turn)
        rng = random.Random((rng_seed * 1_000_003 + state.ply) * 3 + state.turn)
        if policy is not None and state.turn == seat:
            move = policy(view, rng)
        else:
            move = choose(kinds[state.turn], view, rng)
        if state.turn == seat and move.type == CALL:
            calls.append(view.hand_points)
        state = apply(state, move)
    out = state.outcome
    call_won = bool(calls) and out.winner == seat and out.end in (DRAW_END, FOUGHT_DRAW)
    return SeatRecord(out.chips[seat], out.winner == seat, state.ply, tuple(calls), call_won)


def describe_paired(result: PairedResult) -> list[str]:
    """The lines a person reads for one paired run."""
    mean, low, high = result.chip_diff()
    wmean, wlow, whigh = result.win_diff()
    lines = [
        f"{result.hero} over {result.base} against {'+'.join(result.opponents)}, "
        f"{result.deals} deals: chips {mean:+.3f} a deal (95% CI {low:+.3f} to {high:+.3f}), "
        f"win rate {wmean:+.1%} (95% CI {wlow:+.1%} to {whigh:+.1%})"
    ]
    for name, games in ((result.hero, result.hero_games), (result.base, result.base_games)):
        stats = seat_stats(games)
        calls = [p for g in games for p in g.calls]
        q = "/".join(str(x) for x in quantiles(calls, (0.1, 0.25, 0.5, 0.75, 0.9))) or "-"
        lines.append(
            f"  {name:<7} mean chips {stats['mean_chips']:+.3f}, wins {stats['win_rate']:.1%}, "
            f"{stats['mean_plies']:.1f} moves a hand, {len(calls)} Draw calls "
            f"({stats['calls_won']} won), points at a call p10/25/50/75/90 {q}, "
            f"max {max(calls, default='-')}"
        )
    return lines


def parse_mixes(text: str) -> list[str]:
    mixes = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in mixes if m not in MIXES]
    if unknown or not mixes:
        raise ValueError(f"unknown opponent mix {unknown}: choose from {', '.join(MIXES)}")
    return mixes
