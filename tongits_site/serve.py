"""A production worker: Daphne on uvloop's event loop.

    python -m tongits_site.serve -b 127.0.0.1 -p 8001 tongits_site.asgi:application

takes exactly Daphne's arguments. Two differences from ``daphne``:

- The event loop: Daphne makes its loop when its server module is imported, so uvloop's
  policy has to be in place before that, which no setting or ASGI application can do.
  uvloop runs asyncio's loop and its sockets in C; under a crowd at the table a worker
  spends about a tenth less CPU a move (`python -m bench.live`, README). Without uvloop
  installed it is plain Daphne.
- A handshake the worker has not answered within ``--websocket_connect_timeout`` (5 s)
  is refused with ``503 Service Unavailable``, a clear answer the page's script retries
  (as any failed handshake). Daphne gave autobahn the same time for its own timeout,
  which fired first and dropped the connection with no answer at all (issue 52: a
  worker offered more than it could serve; the client's "did not receive a valid HTTP
  response"); autobahn's now comes ``HANDSHAKE_SLACK`` seconds later, after Daphne's
  check (every 2 s) has refused.
- The sockets' frames are compressed (permessage-deflate, RFC 7692) for every client that
  offers it, as browsers do. Daphne has no option for it; autobahn, under it, has
  (``perMessageCompressionAccept``), set here on Daphne's socket factory. A board is some
  9 KB of markup that repeats the last one's: with the context kept between frames and
  zlib's whole 32 KB window a move's frame goes on the wire at about a twentieth of that
  (bench/mobile.py's frames: 9.4 KB -> 0.45 KB on average; a window of 8 KB gave 1.1 KB,
  no context 1.6 KB). The cost is memory, per socket: about 150 KB for the compressor at
  zlib's memory level 5 (level 8, its default, compresses these frames no better and takes
  110 KB more), and a 1 KB window for the client's own small frames, when it lets us ask.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading


def use_uvloop() -> bool:
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


# zlib's memory level for the server's compressors (1-9; 8 is zlib's default).
MEM_LEVEL = 5
# The window the client is asked to compress its own frames with (2**10 bytes): they are
# small forms, and the server keeps a window of this size per socket to read them.
CLIENT_WINDOW_BITS = 10


def accept_deflate(offers: list):
    """autobahn's ``perMessageCompressionAccept``: the first permessage-deflate offer,
    accepted with the context kept and the client's window as small as it allows; None
    (frames go uncompressed) when the client offers none."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(
                offer,
                request_max_window_bits=CLIENT_WINDOW_BITS if offer.accept_max_window_bits else 0,
                mem_level=MEM_LEVEL,
            )
    return None


# Seconds autobahn's own opening-handshake timeout comes after Daphne's (checked every 2 s).
HANDSHAKE_SLACK = 5
BUSY = 503


def compress_frames() -> None:
    """Daphne's socket factory, made to accept permessage-deflate: its server module makes
    the factory from the name it imported, replaced here by a subclass that sets autobahn's
    option as it is made (Daphne's own options are set after, and leave it alone)."""
    from autobahn.websocket.types import ConnectionDeny
    from daphne import server
    from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

    if getattr(server.WebSocketFactory, "compresses", False):
        return

    class BusyRefusingProtocol(WebSocketProtocol):
        def check_timeouts(self):
            """Daphne's checks, but a handshake not answered in time is refused as busy
            (Daphne's own refusal says 403, "Access denied")."""
            late = self.duration() > self.server.websocket_connect_timeout
            if self.state == self.STATE_CONNECTING and late:
                deferred = getattr(self, "handshake_deferred", None)
                if deferred is not None:
                    del self.handshake_deferred
                    deferred.errback(ConnectionDeny(BUSY, "Service Unavailable"))
                    self.server.protocol_disconnected(self)
                return
            super().check_timeouts()

    class CompressingWebSocketFactory(WebSocketFactory):
        compresses = True
        protocol = BusyRefusingProtocol

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)

        def setProtocolOptions(self, *args, **kwargs) -> None:  # noqa: N802 (autobahn's)
            timeout = kwargs.get("openHandshakeTimeout")
            if timeout:
                kwargs["openHandshakeTimeout"] = timeout + HANDSHAKE_SLACK
            super().setProtocolOptions(*args, **kwargs)

    server.WebSocketFactory = CompressingWebSocketFactory


# The event loop's thread's nice value, relative to the worker's other threads (0: the
# same). See ``favour_the_loop``. At -5 the loop still waited for a core some 150 ms of
# every second of the arena benchmark on a busy machine, at -15 some 80 (docs/scaling.md).
LOOP_NICE = int(os.environ.get("TONGITS_LOOP_NICE", "-15"))
# Whether the garbage collector runs on the favoured loop thread (only when it is favoured).
COLLECT_ON_LOOP = os.environ.get("TONGITS_COLLECT_ON_LOOP", "1") not in ("", "0")


def favour_the_loop(step: int = LOOP_NICE) -> bool:
    """Give this thread, the one that will run the event loop, ``step`` of nice value over
    the threads the process starts after it (Linux keeps a nice value a thread). True if
    it took.

    The loop is what every move's seats wait for: it reads the sockets and renders and
    sends each seat's board. The worker's other threads (the moves' database work, the
    pairing after a game's end, the pages) and the database itself run beside it on the
    same cores. When a round of an arena's games ends together they all want more of a
    core at once, and the kernel made the loop wait for one: some 0.4 s of every second in
    the arena benchmark's game-end seconds, when it needed a quarter of a core
    (docs/scaling.md). Favoured, the loop comes first and the rest share what it leaves;
    the garbage collector's runs, which hold every thread, are then made on this thread
    (games/play/live/collector.py), not by whichever thread allocates.
    A lower nice value needs the right to it (root, or CAP_SYS_NICE; systemd's ``Nice=``
    with each thread raising its own again is another way); without it nothing changes.

    Threads inherit their starter's value, and the pools are started from the loop: each
    new thread gives itself the process's value back, on its first call
    (``threading.setprofile``, which then takes itself away in that thread)."""
    if not step or not hasattr(os, "setpriority"):
        return False
    loop_thread = threading.get_native_id()
    base = os.getpriority(os.PRIO_PROCESS, loop_thread)
    try:
        os.setpriority(os.PRIO_PROCESS, loop_thread, base + step)
    except OSError:
        log = logging.getLogger(__name__)
        log.info("The event loop keeps nice %s (no right to %+d).", base, step)
        return False

    def as_the_process(*_args) -> None:
        sys.setprofile(None)
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), base)
        except OSError:
            pass

    threading.setprofile(as_the_process)
    return True


def main(argv: list[str] | None = None) -> None:
    if "daphne.server" in sys.modules:
        raise RuntimeError("tongits_site.serve must choose the event loop before Daphne loads")
    use_uvloop()
    compress_frames()
    if favour_the_loop() and COLLECT_ON_LOOP:
        # The collector's runs on the favoured thread (games/play/live/collector.py).
        from games.play.live import collector

        collector.want()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
