"""The production worker (tongits_site/serve.py) compresses the table socket's frames for
a client that offers permessage-deflate (RFC 7692), as every browser does, and keeps the
compression's context from frame to frame; a client that offers nothing gets them plain.

A real worker (``python -m tongits_site.serve``) on a database of its own, a game of bots
only (which anyone may watch), and a client written here on a plain TCP socket, so that
what is asserted is what went over the wire: the handshake's answer, each frame's RSV1 bit
(set on a compressed message) and its payload's size.
"""

from __future__ import annotations

import base64
import os
import secrets
import socket
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import own_database

REPO = Path(__file__).resolve().parents[1]

A_GAME_OF_BOTS = """
import django; django.setup()
from django.core.management import call_command
from games.models import Game, Seat
from games.play import dealing
call_command("migrate", verbosity=0)
game = Game.objects.create(public=True)
for index in range(3):
    Seat.objects.create(game=game, index=index, bot_kind="greedy")
dealing.start_game(game, seed=11)
print(game.pk)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def worker(tmp_path_factory) -> Iterator[tuple[int, int]]:
    """A production worker serving a game of bots that move every half second: its port
    and the game's id."""
    folder = tmp_path_factory.mktemp("compression")
    with own_database("tongits_compression", folder) as url:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tongits_site.settings",
            "DATABASE_URL": url,
            "DJANGO_DEBUG": "1",
            "TONGITS_CLOCK_IN_WORKERS": "1",
            "TONGITS_BOT_PAUSE_MIN": "0.5",
            "TONGITS_BOT_PAUSE_MAX": "0.5",
        }
        env.pop("REDIS_URL", None)  # one worker: the in-memory layer
        made = subprocess.run(
            [sys.executable, "-c", A_GAME_OF_BOTS], cwd=REPO, env=env, capture_output=True,
            text=True,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        game = int(made.stdout.split()[-1])
        port = free_port()
        log = (folder / "worker.log").open("w")
        command = [sys.executable, "-m", "tongits_site.serve", "-b", "127.0.0.1", "-p", str(port)]
        proc = subprocess.Popen(
            [*command, "tongits_site.asgi:application"], cwd=REPO, env=env, stdout=log,
            stderr=log,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while True:
                assert proc.poll() is None, (folder / "worker.log").read_text()
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the worker did not start"
                    time.sleep(0.2)
            yield port, game
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()


class Client:
    """A WebSocket client on a plain socket: the handshake, and frames read whole."""

    def __init__(self, port: int, path: str, extensions: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=15)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://127.0.0.1:{port}",
        ]
        if extensions:
            lines.append(f"Sec-WebSocket-Extensions: {extensions}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, f"closed during the handshake: {head!r}"
            head += chunk
        status, *fields = head.decode().split("\r\n")
        self.status = status
        self.headers = {
            name.strip().lower(): value.strip()
            for name, value in (f.split(":", 1) for f in fields if ":" in f)
        }

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the socket closed"
            data += chunk
        return data

    def frame(self) -> tuple[bool, int, bytes]:
        """The next text frame: (RSV1 set, opcode, payload as sent)."""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exactly(8))[0]
            assert not second & 0x80, "a server's frames are never masked"
            payload = self._exactly(length)
            opcode = first & 0x0F
            assert first & 0x80, "one frame a message"
            if opcode == 0x1:
                return bool(first & 0x40), opcode, payload
            assert opcode in (0x9, 0xA), f"unexpected opcode {opcode}"  # pings

    def close(self) -> None:
        self.sock.close()


def test_a_browser_offering_deflate_gets_compressed_frames_with_the_context_kept(worker):
    port, game = worker
    # What Chromium offers.
    client = Client(port, f"/ws/game/{game}/", "permessage-deflate; client_max_window_bits")
    try:
        assert client.status.startswith("HTTP/1.1 101"), client.status
        agreed = client.headers.get("sec-websocket-extensions", "")
        assert agreed.startswith("permessage-deflate"), client.headers
        # The client is asked to compress its own small frames with a small window.
        assert "client_max_window_bits=10" in agreed
        assert "no_context_takeover" not in agreed

        reader = zlib.decompressobj(-15)  # one context for the whole connection
        sizes = []
        for _ in range(3):  # the whole board, then the bots' moves
            compressed, _, payload = client.frame()
            assert compressed, "RSV1 is set on a compressed message"
            text = reader.decompress(payload + b"\x00\x00\xff\xff").decode()
            assert 'id="table-status"' in text
            sizes.append((len(payload), len(text.encode())))
        first, *later = sizes
        assert first[0] * 3 < first[1], sizes  # markup compresses well on its own
        # A move's frame repeats much of the boards before it: kept in the context, it
        # goes at a small part of its size.
        assert all(sent * 5 < raw for sent, raw in later), sizes
    finally:
        client.close()


def test_a_client_offering_nothing_gets_plain_frames(worker):
    port, game = worker
    client = Client(port, f"/ws/game/{game}/", None)
    try:
        assert client.status.startswith("HTTP/1.1 101"), client.status
        assert "sec-websocket-extensions" not in client.headers
        compressed, _, payload = client.frame()
        assert not compressed
        assert 'id="table-status"' in payload.decode()
    finally:
        client.close()
