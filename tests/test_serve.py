"""The production worker (tongits_site/serve.py) runs Daphne on uvloop's event loop."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROBE = """
import tongits_site.serve as serve
assert serve.use_uvloop()
import daphne.server
print(type(daphne.server.twisted_loop).__module__)
"""


def test_daphne_made_its_loop_with_uvloop():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().startswith("uvloop")


def test_the_launcher_refuses_once_daphne_has_made_its_loop():
    probe = "import daphne.server\nimport tongits_site.serve as s\ns.main(['--help'])"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True)
    assert out.returncode != 0
    assert "before Daphne loads" in out.stderr


def test_a_handshake_not_answered_in_time_is_refused_as_busy_not_dropped():
    # A worker offered more than it can serve (issue 52): the handshake gets a clear 503,
    # which the page's script retries, where autobahn used to drop the connection with no
    # answer at all ("did not receive a valid HTTP response").
    import asyncio
    import socket
    import time

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "tongits_site.serve", "-b", "127.0.0.1", "-p", str(port),
               "--websocket_connect_timeout", "1", "tests.never_answers:app"]  # fmt: skip
    worker = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)

        async def handshake() -> int:
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws/game/1/", open_timeout=15):
                    return 101
            except InvalidStatus as e:
                return e.response.status_code

        assert asyncio.run(handshake()) == 503
    finally:
        worker.terminate()
        worker.wait(10)
