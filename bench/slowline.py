"""A slow line of the bench's own: an asyncio TCP relay from a local port to a server's,
for pages and WebSockets alike (issue 48).

Every byte is held for half the round trip each way, and each direction carries at most
the line's rate over all its connections together, counted on the bytes actually sent
(compressed pages and frames as compressed), in pieces of one TCP segment so that a
page arrives as a slow line delivers it, a little at a time. Chrome's own emulation
puts no latency on a socket's frames and throttles them by their inflated size (an echo
through it at 400 ms and 400 kbps: 100 bytes back in 33-62 ms, 8,000 in 330-360 ms), so
it flatters moves and a socket's opening; this relay does not.

Not modelled: the TCP and TLS handshakes of a new connection (a real phone pays one
round trip more for TCP, one or two for TLS), packet loss, and the radio's own wake-up.

``cut()`` drops every connection and refuses new ones until ``mend()``, as a phone that
lost its network would see it. The relay runs its own event loop in a thread, so a
synchronous caller (Playwright's sync API) drives it with plain calls.

    line = SlowLine(target_port=8000, kbps=400, rtt_ms=400)
    ... http://127.0.0.1:{line.port}/ ...
    line.close()
"""

from __future__ import annotations

import asyncio
import threading

SEGMENT = 1460  # bytes a piece: one TCP segment on an ordinary line


class SlowLine:
    def __init__(self, target_port: int, kbps: int = 0, rtt_ms: int = 0) -> None:
        self.target = ("127.0.0.1", target_port)
        self.open = True
        self.delay = 0.0  # seconds each way
        self.rate = 0.0  # bytes a second each way; 0: as fast as it goes
        self.slow(kbps, rtt_ms)
        self.free_at = {"up": 0.0, "down": 0.0}  # when each direction's line is free again
        self.carried = {"up": 0, "down": 0}  # bytes carried each way
        self.live: set[asyncio.StreamWriter] = set()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True, name="slowline").start()
        self.server = self._call(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]

    def _call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def slow(self, kbps: int, rtt_ms: int) -> None:
        """The line's rate (kilobits a second each way; 0: no limit) and round trip."""
        self.delay, self.rate = rtt_ms / 2000, kbps * 1000 / 8

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        pair = (writer, up_writer)
        self.live.update(pair)
        try:
            await asyncio.gather(
                self._pump(reader, up_writer, "up", pair),
                self._pump(up_reader, writer, "down", pair),
            )
        finally:
            for w in pair:
                self._drop(w)

    async def _pump(self, src, dst, way: str, pair) -> None:
        """Read one way as fast as it comes; each piece is delivered when the line would
        have carried it (after the pieces before it, one way, on every connection) plus
        half the round trip."""
        held: asyncio.Queue = asyncio.Queue()
        deliver = asyncio.ensure_future(self._deliver(held, dst, pair))
        try:
            while data := await src.read(65536):
                now = self.loop.time()
                for i in range(0, len(data), SEGMENT):
                    piece = data[i : i + SEGMENT]
                    done = now
                    if self.rate:
                        done = max(now, self.free_at[way]) + len(piece) / self.rate
                        self.free_at[way] = done
                    held.put_nowait((done + self.delay, piece))
                    self.carried[way] += len(piece)
        except (OSError, asyncio.IncompleteReadError):
            pass
        held.put_nowait(None)
        await deliver

    async def _deliver(self, held: asyncio.Queue, dst, pair) -> None:
        try:
            while (item := await held.get()) is not None:
                when, piece = item
                if (wait := when - self.loop.time()) > 0:
                    await asyncio.sleep(wait)
                dst.write(piece)
                await dst.drain()
        except OSError:
            pass
        # One way ended (a close, or the line cut): the connection ends both ways.
        for w in pair:
            self._drop(w)

    def _drop(self, writer: asyncio.StreamWriter) -> None:
        self.live.discard(writer)
        if not writer.is_closing():
            transport = writer.transport
            transport.abort() if not self.open else writer.close()

    def cut(self) -> None:
        """Drop every connection and refuse new ones."""
        self.open = False

        async def drop_all() -> None:
            for w in list(self.live):
                self._drop(w)

        self._call(drop_all())

    def mend(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()

        async def stop() -> None:
            # Every connection is dropped (cut): their tasks end on their own; any left
            # after a second are cancelled.
            self.server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            if others:
                _done, pending = await asyncio.wait(others, timeout=1)
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)

        self._call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
