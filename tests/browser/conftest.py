"""The browser tests' server and browser: a real Daphne process on a database of its own,
and Debian's Chromium (never a downloaded one) driven through Playwright.

Each test module gets its own server and database, so no module sees another's games.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.support import stop
from tests.databases import own_database

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium (.ci/run).")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (never downloaded).")
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory) -> Iterator[str | None]:
    """On PostgreSQL, a database migrated once a test process, which each module's own
    database is a copy of (CREATE DATABASE ... TEMPLATE takes a fraction of a second,
    where migrating a fresh one took seconds a module); None on SQLite."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        yield None
        return
    with own_database("tongits_template", tmp_path_factory.mktemp("template")) as url:
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=REPO,
            env={**os.environ, "DATABASE_URL": url},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"migrating the template failed:\n{done.stderr}"
        yield url


@pytest.fixture(scope="module")
def database_url(tmp_path_factory, migrated_template) -> Iterator[str]:
    """A database of the server's own: on PostgreSQL a fresh copy of the migrated
    template (created and dropped here), else a temporary SQLite file."""
    folder = tmp_path_factory.mktemp("browser")
    with own_database("tongits_browser", folder, migrated_template) as url:
        yield url


@pytest.fixture(scope="module")
def server_env(database_url) -> dict[str, str]:
    """The server's environment: its database, and the server clock on with quick bots."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "1",
        "TONGITS_CLOCK_IN_WORKERS": "1",
        "TONGITS_BOT_PAUSE_MIN": "0.05",
        "TONGITS_BOT_PAUSE_MAX": "0.1",
    }


@pytest.fixture(scope="module")
def manage(server_env) -> Callable[..., str]:
    """``manage("seed_games", "--user", "ann", env={...})``: a management command run
    against the server's database; returns its output."""

    def run(*args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env={**server_env, **(env or {})},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stderr}"
        return done.stdout

    return run


@pytest.fixture(scope="module")
def server(server_env, manage, migrated_template, tmp_path_factory) -> Iterator[str]:
    """Daphne serving the site (WebSockets and the server clock included) on a free port."""
    if migrated_template is None:
        manage("migrate", "--noinput", "-v0")  # a copy of the template is migrated already
    port = free_port()
    log = (tmp_path_factory.mktemp("daphne") / "daphne.log").open("w")
    daphne = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)]
    proc = subprocess.Popen(
        [*daphne, "tongits_site.asgi:application"],
        cwd=REPO,
        env=server_env,
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, proc)
        yield url
    finally:
        stop(proc)
        log.close()


def wait_until_up(url: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/accounts/login/", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("daphne did not answer within 30 s")


@contextlib.contextmanager
def launched(chromium: str):
    """Debian's Chromium under Playwright, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser(chromium):
    with launched(chromium) as browser:
        yield browser
