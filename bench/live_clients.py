"""The live benchmark's people: one WebSocket client per seat, acting like a browser.

A client knows only its session cookie and its table's URL. It reads its own board from
the frames (bench/live_frames.py), and when its hand shows action buttons it waits a
person's pause, then sends what htmx's ws-send would send for the button it pressed. A
move is *answered* when the mover's board reaches a newer data-seq, or a message says
why not; a dropped socket reconnects to another worker and sends the unanswered frame
again, with the same client_move_id, as a page that reconnects would.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from bench.live_frames import Board, choose, form_fields

if TYPE_CHECKING:
    from bench.live_server import Workers

REFUSED = (4401, 4403, 4404)  # the table's "you may not watch" close codes
BUSY = 503  # a handshake refused by a busy worker (tongits_site/serve.py)
HTMX_RECONNECTS = (1006, 1011, 1012, 1013)  # the close codes htmx's ws extension retries
STALE_WORDS = "changed before your move"


@dataclass
class Stats:
    """Everything the clients count; latencies only inside the measured window."""

    measuring: bool = False
    sent: int = 0
    answered: int = 0
    window_answered: int = 0  # the people's moves answered inside the window
    mover_s: list[float] = field(default_factory=list)
    all_s: list[float] = field(default_factory=list)
    all_at: list[float] = field(default_factory=list)  # when each of all_s's moves was sent
    lag_s: list[float] = field(default_factory=list)  # the clients' event loop's lateness
    frames: int = 0
    frame_bytes: int = 0
    window_frames: int = 0
    rejected: int = 0
    stale: int = 0
    unsolicited: int = 0
    no_answer: int = 0
    stalls: int = 0
    tables_not_made: int = 0  # a new table for a finished one was refused
    stagger_moves: int = 0  # moves played before the sockets open (bench/live_site.py advance)
    handshakes: Counter = field(default_factory=Counter)  # accepted / failed / timed_out
    closes: Counter = field(default_factory=Counter)  # unexpected closes by code
    reconnects: int = 0
    resent: int = 0
    http: Counter = field(default_factory=Counter)  # status codes of the page loads
    games_finished: int = 0
    samples: list[str] = field(default_factory=list)  # a few rejection messages
    answered_ids: set[tuple[int, str]] = field(default_factory=set)
    sent_ids: set[tuple[int, str]] = field(default_factory=set)
    last_seqs: dict[tuple[int, int], int] = field(default_factory=dict)  # (game, seat)
    # What each answered move was: its seq and action, and the board seq that answered it.
    answered_how: dict[tuple[int, str], tuple[int, str, int]] = field(default_factory=dict)

    def note(self, text: str) -> None:
        text = text[:160]
        if len(self.samples) < 5 and text not in self.samples:
            self.samples.append(text)


@dataclass
class Pending:
    """A sent move waiting for its answer."""

    text: str
    game_id: int
    client_move_id: str
    seq: int
    sent_at: float
    measured: bool
    warned: bool = False
    reloaded: bool = False


@dataclass
class Expect:
    """A move's new seq, waiting to be seen by every socket of its table."""

    sent_at: float
    measured: bool
    seen: set[int] = field(default_factory=set)


class Table:
    """The sockets of one table; it moves on to a new game when all have seen the end."""

    client_class: type[Client]  # Client, set below (bench/live_pages.py: its own)

    def __init__(self, bench: Bench, index: int, users: list[int], cookies: list[str]) -> None:
        self.bench = bench
        self.index = index
        self.users = users
        self.game_id: int | None = None
        self.clients = [
            self.client_class(bench, self, i, cookie) for i, cookie in enumerate(cookies)
        ]
        self.expected: dict[int, Expect] = {}
        self.arrived = 0
        self.changed = asyncio.Event()
        self.last_frame = time.perf_counter()

    def expect(self, seq: int, sent_at: float, measured: bool) -> None:
        self.expected[seq] = Expect(sent_at, measured)

    def cancel(self, seq: int) -> None:
        self.expected.pop(seq, None)

    def saw(self, client: Client, seq: int, now: float) -> None:
        self.last_frame = now
        for target in [t for t in self.expected if t <= seq]:
            expect = self.expected[target]
            expect.seen.add(client.index)
            if len(expect.seen) == len(self.clients):
                del self.expected[target]
                if expect.measured:
                    self.bench.stats.all_s.append(now - expect.sent_at)

    async def next_game(self) -> None:
        """Wait until every socket has seen the end, then play on at a new table."""
        event = self.changed
        self.arrived += 1
        if self.arrived < len(self.clients):
            await event.wait()
            return
        self.arrived = 0
        self.expected.clear()
        self.bench.stats.games_finished += 1
        self.game_id = await self.bench.new_game(self)
        self.changed = asyncio.Event()
        event.set()

    def release(self) -> None:
        self.game_id = None
        self.changed.set()


class Client:
    keeps_open = False  # the socket at a game's end (an arena's person, who waits on it)
    kept: ClientConnection | None = None

    def __init__(self, bench: Bench, table: Table, index: int, cookie: str) -> None:
        self.bench = bench
        self.table = table
        self.index = index
        self.cookie = cookie
        self.board = Board()
        self.acted = -1
        self.pending: Pending | None = None
        self.ws: ClientConnection | None = None
        self.acting: asyncio.Task | None = None
        self.done = False
        self.reloading = False
        self.first_board_at: float | None = None
        self.game_id = 0
        self.rng = random.Random(bench.seed * 1000 + table.index * 3 + index)

    # --- The socket's life -------------------------------------------------------------

    async def play(self) -> None:
        """Every game of this seat's table, until the bench stops."""
        first = True
        while self.table.game_id is not None and not self.bench.closing:
            await self.play_game(self.table.game_id, first)
            first = False
            if self.bench.closing or not self.done:
                return
            await self.table.next_game()

    async def play_game(
        self, game_id: int, first: bool, ws: ClientConnection | None = None, frame: str = ""
    ) -> None:
        """Play a game to its end. ``ws``: a socket that went on to this game (an arena's
        next game), whose first frame of it is ``frame``; otherwise the page (``first``)
        and a socket of its own."""
        self.game_id, self.board, self.acted, self.pending = game_id, Board(), -1, None
        self.done = False
        if first:
            await self.load_page(game_id)
            await self.bench.gate.wait()
        if ws is not None:
            self.url = self.url.rsplit("/games/", 1)[0] + f"/games/{game_id}/"
        retries = 0
        while not self.done and not self.bench.closing:
            if ws is None:
                ws = await self.open(game_id, first)
            code = 1006  # a handshake that failed closes with 1006 in a browser
            if ws is not None:
                retries = 0  # as htmx's ws extension does when a socket opens
                code = await self.listen(ws, frame)
                ws, frame = None, ""
            if self.done or self.bench.closing:
                break
            self.bench.stats.reconnects += 1
            await asyncio.sleep(self.reconnect_delay(code, retries))
            retries += 1
        self.bench.stats.last_seqs[(game_id, self.index)] = self.board.seq

    def reconnect_delay(self, code: int | None, retries: int) -> float:
        """htmx's ws extension waits a random time up to 1 s x 2^retries (at most 64 s) after
        an abnormal close; after any other close it does not reconnect, so the person
        reloads the page after a moment (also what the bench's reload is)."""
        if code in HTMX_RECONNECTS:
            return self.rng.random() * 2 ** min(retries, 6)
        return self.rng.uniform(0.5, 2.0) if code is not None else 0.0

    async def load_page(self, game_id: int) -> None:
        """The table's page, as a browser loads it before its socket opens."""
        worker = self.bench.workers.next_alive()
        async with self.bench.page_slots:
            status = await http_get(worker.port, f"/games/{game_id}/", self.cookie)
        self.bench.stats.http[status] += 1

    async def open(self, game_id: int, first: bool) -> ClientConnection | None:
        workers = self.bench.workers
        worker = workers.for_game(game_id) if self.bench.by_table else workers.next_alive()
        self.url = f"http://127.0.0.1:{worker.port}/games/{game_id}/"
        paced = first and not self.bench.herd  # a herd connects all at once
        async with self.bench.handshake_slots if paced else _no_limit():
            return await self.handshake(worker.port, f"/ws/game/{game_id}/")

    async def handshake(self, port: int, path: str) -> ClientConnection | None:
        """A socket to ``path`` on the worker at ``port``, opened as the page opens it; None
        if its handshake failed or timed out (each counted in the bench's stats)."""
        stats = self.bench.stats
        try:
            ws = await connect(
                f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": self.socket_cookie()},
                open_timeout=self.bench.open_timeout, max_size=None,
            )  # fmt: skip
        except TimeoutError:
            stats.handshakes["timed_out"] += 1
            return None
        except InvalidStatus as e:
            if e.response.status_code != BUSY:
                stats.handshakes["failed"] += 1
                stats.note(f"handshake failed: {type(e).__name__}: {e}")
                return None
            # A busy worker's answer (tongits_site/serve.py): the page's script tries again
            # later, as after any failed handshake. Degraded, not an error.
            stats.handshakes["busy"] += 1
            return None
        except (OSError, InvalidHandshake) as e:
            stats.handshakes["failed"] += 1
            stats.note(f"handshake failed: {type(e).__name__}: {e}")
            return None
        stats.handshakes["accepted"] += 1
        return ws

    def socket_cookie(self) -> str:
        return self.cookie

    async def listen(self, ws: ClientConnection, frame: str = "") -> int | None:
        """Play on this socket until it closes; its close code (None: a reload of ours).
        ``frame``: one received already. A client that ``keeps_open`` leaves the socket
        open at the game's end, in ``kept``."""
        self.ws = ws
        try:
            if self.pending is not None:  # unanswered when the last socket dropped
                self.bench.stats.resent += 1
                await ws.send(self.pending.text)
            if frame:
                self.on_frame(frame)
            async for text in ws:
                self.on_frame(text if isinstance(text, str) else text.decode())
                if self.done:
                    break
        except ConnectionClosed:
            pass
        finally:
            self.ws = None
            if self.acting is not None:
                self.acting.cancel()
                self.acting = None
        if self.done and self.keeps_open and not self.bench.closing:
            self.kept = ws
            return 1000
        if self.done or self.bench.closing:
            await ws.close()
            return 1000
        if self.reloading:  # our own doing, counted by whoever asked for it
            self.reloading = False
            return None
        code = ws.close_code if ws.close_code is not None else 1006
        self.bench.stats.closes[code] += 1
        if code in REFUSED:
            self.done = True
        return code

    async def reload(self) -> None:
        """What a person does when nothing happens: reload (a fresh socket, a snapshot)."""
        if self.ws is not None:
            self.reloading = True
            await self.ws.close(code=4000)

    # --- Frames ------------------------------------------------------------------------

    def on_frame(self, text: str) -> None:
        now = time.perf_counter()
        stats = self.bench.stats
        stats.frames += 1
        stats.frame_bytes += len(text)
        if stats.measuring:
            stats.window_frames += 1
        if self.first_board_at is None:
            self.first_board_at = now
        before = self.board.seq
        taken = self.board.apply(text)
        message = next((e.text for e in taken if e.id == "messages" and e.text), "")
        if message:
            self.on_message(message)
        if self.board.seq > before:
            self.table.saw(self, self.board.seq, now)
        pending = self.pending
        if pending is not None and self.board.seq > pending.seq:
            self.on_answer(pending, now)
        if self.board.finished():
            self.done = True
            return
        self.maybe_act()

    def on_message(self, message: str) -> None:
        stats, pending = self.bench.stats, self.pending
        if pending is None:
            stats.unsolicited += 1
            stats.note(f"unsolicited: {message}")
            return
        self.pending = None
        self.table.cancel(pending.seq + 1)
        # A stale move is answered with the newer board and a message; a rejected one with
        # the message alone, at the seq it was sent for.
        if self.board.seq > pending.seq or STALE_WORDS in message:
            stats.stale += 1
        else:
            stats.rejected += 1
            stats.note(f"rejected: {message}")

    def on_answer(self, pending: Pending, now: float) -> None:
        self.pending = None
        stats = self.bench.stats
        stats.answered += 1
        stats.window_answered += stats.measuring
        stats.answered_ids.add((pending.game_id, pending.client_move_id))
        action = json.loads(pending.text).get("action", "?")
        stats.answered_how[(pending.game_id, pending.client_move_id)] = (
            pending.seq,
            action,
            self.board.seq,
        )
        if pending.measured:
            stats.mover_s.append(now - pending.sent_at)

    # --- Acting ------------------------------------------------------------------------

    def maybe_act(self) -> None:
        if self.pending is not None or self.acting is not None or self.bench.stopping:
            return
        hand = self.board.hand()
        if hand is None or hand.seq is None or hand.seq <= self.acted or choose(hand) is None:
            return
        think, (low, high) = self.bench.think, self.bench.think_range
        delay = self.rng.uniform(low * think, high * think) if think > 0 else 0.0
        self.acting = asyncio.create_task(self.act(delay))

    async def act(self, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            await self.send_choice()
        except ConnectionClosed:
            pass  # the pending frame is sent again on the next socket
        finally:
            self.acting = None
        self.maybe_act()

    async def send_choice(self) -> None:
        hand = self.board.hand()
        if self.bench.stopping or self.pending is not None or self.ws is None or hand is None:
            return
        choice = choose(hand)
        if choice is None or hand.seq is None or hand.seq <= self.acted:
            return
        text = json.dumps(form_fields(hand, choice, self.url))
        client_move_id = hand.hidden.get("client_move_id", "")
        stats = self.bench.stats
        now = time.perf_counter()
        self.acted = hand.seq
        self.pending = Pending(text, self.game_id, client_move_id, hand.seq, now, stats.measuring)
        self.table.expect(hand.seq + 1, now, stats.measuring)
        stats.sent += 1
        stats.sent_ids.add((self.game_id, client_move_id))
        await self.ws.send(text)


Table.client_class = Client


class _no_limit:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


async def http_get(port: int, path: str, cookie: str, timeout: float = 30) -> int:
    """GET a page over plain HTTP/1.1 and return its status (0: no answer)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, TimeoutError):
        return 0
    try:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
            "Accept: text/html\r\nConnection: close\r\n\r\n"
        )
        writer.write(request.encode())
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), timeout)
        await asyncio.wait_for(reader.read(), timeout)
        parts = status.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (OSError, TimeoutError):
        return 0
    finally:
        writer.close()


class Bench:
    """What the clients share: options, counters, the workers and the way to new games.

    bench/live_run.py fills in ``new_game`` (it makes tables through the site's services)."""

    def __init__(self, workers: Workers, *, think: float, seed: int, open_timeout: float,
                 herd: bool) -> None:  # fmt: skip
        self.workers = workers
        self.think = think
        self.think_range = (0.5, 1.5)  # a pause is think times a uniform draw from this
        self.seed = seed
        self.open_timeout = open_timeout
        self.herd = herd
        self.by_table = False  # route a game's sockets to one worker (bench/live.py --route)
        self.stats = Stats()
        self.stopping = False  # no new moves
        self.closing = False  # sockets close
        self.gate = asyncio.Event()  # the first sockets open together (a herd) or paced
        self.page_slots = asyncio.Semaphore(8)
        self.handshake_slots = asyncio.Semaphore(20)
        self.tables: list[Table] = []

    async def new_game(self, table: Table) -> int | None:
        raise NotImplementedError
