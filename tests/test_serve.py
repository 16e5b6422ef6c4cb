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


NICE_PROBE = """
import os, threading
from concurrent.futures import ThreadPoolExecutor
import tongits_site.serve as serve
base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
if not serve.favour_the_loop(-3):
    print("no right")
else:
    def nice():
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    pool = ThreadPoolExecutor(2)  # started from the loop's thread, as the worker's are
    thread = threading.Thread(target=lambda: seen.append(nice()))
    seen = []
    thread.start()
    thread.join()
    print(nice() - base, pool.submit(nice).result() - base, seen[0] - base)
"""


def test_the_event_loops_thread_comes_first_and_no_other():
    """A round of an arena's games ending together: the moves' boards are the loop's
    work, so the loop's thread is given a lower nice value than the worker's others,
    which start from it and take the process's value back (docs/scaling.md)."""
    out = subprocess.run(
        [sys.executable, "-c", NICE_PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    if out.stdout.strip() == "no right":  # not root, no CAP_SYS_NICE: nothing changes
        return
    assert out.stdout.split() == ["-3", "0", "0"]
