"""The server clock starts with the server process, not with its first visitor.

A real server (Daphne, and ``runserver`` as ``make run`` starts it) runs on a database of
its own with a game whose bot is due. Nobody sends it a request: the bot's move must
appear in the database all the same.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import own_database

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

# Run in the server's database by a separate Python, so the test process's own (test)
# database is never involved.
PRELUDE = "import django; django.setup()\n"
A_DUE_BOT = """
from django.core.management import call_command
from games.play import dealing
from games.models import Game, Seat
call_command("migrate", verbosity=0)
game = Game.objects.create(public=True)
for index in range(3):
    Seat.objects.create(game=game, index=index, bot_kind="greedy")
dealing.start_game(game, seed=3)
print(game.pk)
"""
# Waits (up to a generous limit, for a loaded machine) for the first move.
FIRST_MOVE = """
import time
from games.models import Game
deadline = time.monotonic() + 30
while Game.objects.get(pk={pk}).seq == 0 and time.monotonic() < deadline:
    time.sleep(0.1)
print(Game.objects.get(pk={pk}).seq)
"""


@pytest.fixture
def database_url(tmp_path) -> Iterator[str]:
    """A fresh PostgreSQL database when DATABASE_URL is PostgreSQL, else a SQLite file."""
    with own_database("tongits_clock_start", tmp_path) as url:
        yield url


@pytest.fixture
def env(database_url) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tongits_site.settings",
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "1",
        "TONGITS_CLOCK_IN_WORKERS": "1",
        "TONGITS_BOT_PAUSE_MIN": "0",
        "TONGITS_BOT_PAUSE_MAX": "0",
    }


def python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVERS = {
    "daphne": [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", "{port}"],
    # The production worker: Daphne on uvloop (tongits_site/serve.py).
    "serve": [sys.executable, "-m", "tongits_site.serve", "-b", "127.0.0.1", "-p", "{port}"],
    # As `make run` starts it: Daphne's runserver, with its autoreloader.
    "runserver": [sys.executable, "manage.py", "runserver", "127.0.0.1:{port}"],
}


@pytest.mark.parametrize("server", SERVERS)
def test_a_due_bot_moves_without_any_request_once_the_server_has_started(server, env, tmp_path):
    pk = python(A_DUE_BOT, env)
    command = [part.format(port=free_port()) for part in SERVERS[server]]
    if server != "runserver":
        command.append("tongits_site.asgi:application")
    log = (tmp_path / "server.log").open("w")
    # A session of its own, so the autoreloader's child is stopped with it.
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=log, stderr=log, start_new_session=True
    )
    try:
        seq = int(python(FIRST_MOVE.format(pk=pk), env))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()

    assert seq >= 1, (tmp_path / "server.log").read_text()
