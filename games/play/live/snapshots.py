"""What a worker knows of a game at one version, shared by every socket it holds for it.

Two caches, both per process and both rebuilt from the database whenever in doubt:

- engine positions, keyed by (game, seed commitment) and the log's length: a position is
  stored only after its move committed, so it always equals a replay of the log (tests
  check this); a newer version is reached by applying just the moves since, not a replay;
- ``Snapshot``: the game's row, its seats' names and flags, and its position, at one
  ``Game.rev``. A socket told "game N is at rev R" takes the cached snapshot if it is that
  new, else the first socket to ask loads it and the others of that worker wait for the
  same load. The process that made a move stores the new snapshot itself
  (``games.play.moves``), so its own sockets need no query at all.

A snapshot holds the whole position (every hand): it never leaves the server. Templates
get a seat's view of it (``games.table.rendering``), never the snapshot.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.engine import GameState, IllegalMoveError, InvalidMoveError, Move, apply, load_record
from games.engine.record import FORMAT
from games.models import Game, Seat, SeatKind
from games.models import Move as MoveRow
from games.play.live import rows
from games.play.live.db import in_db_thread
from games.words.narration import Entry, entries, entry

POSITIONS = 1000  # games whose position a worker keeps
SNAPSHOTS = 1000  # games whose snapshot a worker keeps

_lock = threading.Lock()  # the event loop and the database thread both use the caches


# --- Positions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """The engine state after the first ``seq`` moves, and the last of them."""

    seq: int
    state: GameState
    last_move: tuple[int, dict[str, Any]] | None  # (seat, payload); None before any move
    # Every move so far as everyone saw it (no hidden card): the table's move list.
    journal: tuple[Entry, ...] = ()

    def after(self, move: Move, state: GameState, payload: dict[str, Any]) -> Position:
        """The next position: ``move`` (logged as ``payload``) led to ``state``."""
        journal = (*self.journal, entry(state, move))
        return Position(self.seq + 1, state, (move.seat, payload), journal)


_positions: OrderedDict[tuple[int, str], Position] = OrderedDict()


def position(
    game_id: int, commitment: str, seq: int, variants: list[str], deal: dict | None = None
) -> Position:
    """The game's position after ``seq`` moves: cached, caught up from a cached earlier
    one by the moves since, or replayed from the deal (``deal``: read already)."""
    key = (game_id, commitment)
    with _lock:
        hit = _positions.get(key)
        if hit is not None and hit.seq == seq:
            _positions.move_to_end(key)
            return hit
    if hit is not None and hit.seq < seq:
        found = _catch_up(game_id, hit, seq)
    else:
        found = _replay(game_id, seq, variants, deal)
    remember_position(key, found)
    return found


def _catch_up(game_id: int, hit: Position, seq: int) -> Position:
    rows = list(
        MoveRow.objects.filter(game_id=game_id, seq__gt=hit.seq, seq__lte=seq)
        .order_by("seq")
        .values_list("seat", "payload")
    )
    found = hit
    for _, payload in rows:
        move = Move.from_dict(payload)
        found = found.after(move, apply(found.state, move), payload)
    return found


def _replay(game_id: int, seq: int, variants: list[str], deal: dict | None) -> Position:
    if deal is None:
        deal = Game.objects.values_list("deal", flat=True).get(pk=game_id)
    rows = []  # a game not yet moved (a new game's first boards): no query for its moves
    if seq:
        moves = MoveRow.objects.filter(game_id=game_id, seq__lte=seq).order_by("seq")
        rows = list(moves.values_list("seat", "payload"))
    record = load_record({"format": FORMAT, "variants": variants, **deal, "moves": []})
    record.moves = [payload for _, payload in rows]
    try:
        state, journal = entries(record.initial_state(), map(Move.from_dict, record.moves))
    except (InvalidMoveError, IllegalMoveError) as e:  # the log only holds accepted moves
        raise RuntimeError(f"game {game_id}: a stored move: {e}") from None
    return Position(seq, state, rows[-1] if rows else None, journal)


def remember_position(key: tuple[int, str], found: Position) -> None:
    """Keep ``found`` unless a newer position of the game is kept already."""
    with _lock:
        hit = _positions.get(key)
        if hit is None or hit.seq <= found.seq:
            _positions[key] = found
        _positions.move_to_end(key)
        while len(_positions) > POSITIONS:
            _positions.popitem(last=False)


# --- Snapshots ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow(SeatKind):
    """A seat as a snapshot holds it: what the table shows of it, its name included."""

    index: int
    user_id: int | None
    bot_kind: str
    away: bool
    name: str
    # The hand rings a card to throw for this seat's person (their setting, Profile's
    # suggest_throw, at this table: casual, or rated or an arena's); the daily deal's
    # never does, whatever this says (games.table.rendering).
    suggest: bool = True

    @classmethod
    def of(cls, seat: Seat) -> SeatRow:
        """From a Seat of ``seats_with_names`` (its game's kind and its person's setting
        come with it)."""
        return cls(seat.index, seat.user_id, seat.bot_kind, seat.away, seat.name, suggests(seat))


def suggests(seat: Seat) -> bool:
    """Whether the hand rings a card to throw for this seat's person at its table: at a
    casual table unless they said never; at a rated or an arena table only if they said
    at every table."""
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    choice = getattr(profile, "suggest_throw", "casual") or "casual"
    if choice in ("always", "never"):
        return choice == "always"
    return not (seat.game.rated or hasattr(seat.game, "tournament_game"))


@dataclass(frozen=True)
class NextGame:
    """The table the first "Play again" made, as the finished table shows the way to it."""

    pk: int
    status: str
    public: bool
    users: frozenset[int]
    rematch: bool = False  # its open seats go to bots at a deadline (play_again(rematch=True))
    due_at: datetime | None = None  # that deadline (days away at a correspondence table)


@dataclass(frozen=True)
class Snapshot:
    pk: int
    rev: int
    seq: int
    status: str
    public: bool
    commitment: str
    seed: str  # empty until the game is over: only then may anyone see it
    invite_token: str
    variants: tuple[str, ...]
    turn_seconds: int
    due_at: datetime | None
    dealt: bool
    seats: tuple[SeatRow, ...]
    next_game: NextGame | None
    position: Position | None  # None until the deal
    shared: tuple[tuple[int, int, tuple[str, ...]], ...] = ()  # seats sharing an address or device
    rated: bool = False  # its result moves ratings (the table page says so; no query)
    daily: bool = False  # a game of the daily deal: its hand shows no suggested throw

    @property
    def is_over(self) -> bool:
        return self.status in (Game.Status.FINISHED, Game.Status.ABORTED)

    @property
    def revealed(self) -> bool:
        return self.is_over

    @property
    def state(self) -> GameState | None:
        return self.position.state if self.position else None

    def seat_of(self, user_id: int | None) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id and user_id), None)


FIELDS = (
    "rev", "seq", "status", "public", "commitment", "seed", "invite_token", "variants",
    "turn_seconds", "due_at", "dealer", "next_game_id", "shared", "rated", "daily",
)  # fmt: skip


def load_snapshot(game_id: int) -> Snapshot | None:
    """The game as it is in the database now (None: no such game). Two small queries
    (its row with its deal, its seats), and the moves since the cached position (none for
    a game not yet moved: a new game's first boards)."""
    row = Game.objects.filter(pk=game_id).values(*FIELDS, "deal").first()
    if row is None:
        return None
    return build_snapshot(game_id, row, [SeatRow.of(s) for s in seats_with_names(game_id)])


def seats_with_names(game_id: int):
    """The game's seats with what their names need, in one query (not the whole user)."""
    return (
        Seat.objects.filter(game_id=game_id)
        .select_related("user__profile", "game__tournament_game")
        .only(*SEAT_FIELDS)
    )


SEAT_FIELDS = (
    "game_id", "index", "user_id", "bot_kind", "away", "display_name",
    "user__username", "user__profile__display_name", "user__profile__suggest_throw",
    "game__rated", "game__tournament_game__id",
)  # fmt: skip


def build_snapshot(
    game_id: int, row: dict[str, Any], seats: list[SeatRow], found: Position | None = None
) -> Snapshot:
    over = row["status"] in (Game.Status.FINISHED, Game.Status.ABORTED)
    dealt = row["dealer"] is not None
    if dealt and found is None:
        found = position(game_id, row["commitment"], row["seq"], row["variants"], row.get("deal"))
    return Snapshot(
        pk=game_id, rev=row["rev"], seq=row["seq"], status=row["status"], public=row["public"],
        commitment=row["commitment"], seed=row["seed"] if over else "",
        invite_token=row["invite_token"], variants=tuple(row["variants"]),
        turn_seconds=row["turn_seconds"], due_at=row["due_at"], dealt=dealt,
        seats=tuple(seats), next_game=_next_game(row["next_game_id"]), position=found,
        shared=tuple((a, b, tuple(why)) for a, b, why in row.get("shared") or ()),
        rated=bool(row.get("rated")), daily=bool(row.get("daily")),
    )  # fmt: skip


def _next_game(pk: int | None) -> NextGame | None:
    if pk is None:
        return None
    row = Game.objects.filter(pk=pk).values("status", "public", "due_at").first()
    if row is None:
        return None
    users = Seat.objects.filter(game_id=pk, user__isnull=False).values_list("user_id", flat=True)
    rematch = row["status"] == Game.Status.WAITING and row["due_at"] is not None
    due = row["due_at"] if rematch else None
    return NextGame(pk, row["status"], row["public"], frozenset(users), rematch, due)


def dealt(game: Game, seats: list[SeatRow]) -> Snapshot:
    """A game just dealt, from what its dealer holds (the row as saved, the deal, its
    seats): its snapshot before any move, the same as a load would give, with no query."""
    record = load_record({"format": FORMAT, "variants": game.variants, **game.deal, "moves": []})
    found = Position(0, record.initial_state(), None)
    return build_snapshot(game.pk, snapshot_row(game), seats, found)


def snapshot_row(game: Game) -> dict[str, Any]:
    """The fields a snapshot takes from a Game the caller has in hand (and just saved)."""
    return {name: getattr(game, name) for name in FIELDS}


_snapshots: OrderedDict[int, Snapshot] = OrderedDict()


def cached(game_id: int) -> Snapshot | None:
    with _lock:
        return _snapshots.get(game_id)


def remember(snap: Snapshot) -> None:
    """Keep ``snap`` unless this process already has a newer version of the game."""
    with _lock:
        hit = _snapshots.get(snap.pk)
        if hit is None or hit.rev <= snap.rev:
            _snapshots[snap.pk] = snap
        _snapshots.move_to_end(snap.pk)
        while len(_snapshots) > SNAPSHOTS:
            _snapshots.popitem(last=False)


def forget() -> None:
    """Empty both caches (tests, whose rolled-back games can come back with the same id)."""
    with _lock:
        _snapshots.clear()
        _positions.clear()
    _loading.clear()


def fresh(game_id: int) -> Snapshot | None:
    """The game as it is now, kept (for a page or a socket's first frame): the snapshot
    this process holds if the game's rev says it is current, else loaded.

    A table's three sockets connect together when its game is dealt: the first loads it,
    the others ask only for its rev. Everything a snapshot holds of its own game moves
    the rev on; the game after a finished one does not, so a finished game with a next
    one is always loaded (its way to the next game may have changed)."""
    hit = cached(game_id)
    if hit is not None and hit.next_game is None:
        rev = rows.game_rev(game_id)
        if rev is None:
            return None
        if rev == hit.rev:
            return hit
    snap = load_snapshot(game_id)
    if snap is not None:
        remember(snap)
    return snap


# One load at a time per game per process: the other sockets of that game wait for it.
_loading: dict[int, asyncio.Future] = {}


async def current(game_id: int, threads: Callable = in_db_thread) -> Snapshot | None:
    """``fresh``, for a socket that has just joined the game's group (its first frame).

    A new game's three sockets connect together, and each found nothing cached and loaded
    the whole game (four queries) at once. Now the first loads it and the others wait for
    that load, then check only that the game's rev has not moved since (one small query,
    made after they joined, so a move that committed meanwhile is never missed: its
    event reaches them, or the rev differs and they load). ``threads``: the database
    threads to use (``on_arrival`` for a socket that has just opened)."""
    loading = _loading.get(game_id)
    if loading is None or loading.done() or loading.get_loop() is not asyncio.get_running_loop():
        return await asyncio.shield(_load(game_id, threads))
    try:
        await asyncio.shield(loading)
    except Exception:  # that load's own socket hears of its failure; this one tries its own
        pass
    return await threads(fresh)(game_id)


async def snapshot(game_id: int, min_rev: int = 0) -> Snapshot | None:
    """The game at ``min_rev`` or later: from the cache, or loaded once for all of this
    process's sockets that ask at the same time. None if there is no such game."""
    snap = cached(game_id)
    for _ in range(3):  # a load that began before rev ``min_rev`` committed is too old
        if snap is not None and snap.rev >= min_rev:
            return snap
        snap = await asyncio.shield(_load(game_id))
        if snap is None:
            return None
    return snap  # the database holds nothing newer: take what it holds


async def reloaded(game_id: int) -> Snapshot | None:
    """The game as the database has it now (a query for its rev if this process holds it
    at that rev), read once for this process's sockets that ask meanwhile."""
    return await asyncio.shield(_load(game_id))


def _load(game_id: int, threads: Callable = in_db_thread) -> asyncio.Future:
    """The game's load, shared by this process's sockets that ask meanwhile: on the moves'
    database threads, or on the arriving sockets' (``on_arrival``) for a socket's first
    board."""
    loop = asyncio.get_running_loop()
    task = _loading.get(game_id)
    if task is None or task.done() or task.get_loop() is not loop:
        task = loop.create_task(threads(fresh)(game_id))
        _loading[game_id] = task
        task.add_done_callback(lambda t: _done_loading(game_id, t))
    return task


def _done_loading(game_id: int, task: asyncio.Future) -> None:
    if _loading.get(game_id) is task:
        del _loading[game_id]
