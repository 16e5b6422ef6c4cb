"""A person plays a whole game in a real browser against two bots, over the WebSocket.

Drives Debian's Chromium (never a downloaded one) through Playwright against a real Daphne
process with its own database and the server clock running, as in production. Screenshots
of the table and the result go to artifacts/.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

pytestmark = pytest.mark.browser

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
ARTIFACTS = REPO / "artifacts"
BIN = Path(sys.executable).parent
GAME_SECONDS = 45  # the whole game, bots included, must end well within this


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


@pytest.fixture(scope="module")
def database_url(tmp_path_factory) -> Iterator[str]:
    """A database of the server's own: a fresh PostgreSQL database when DATABASE_URL is
    PostgreSQL (created and dropped here), else a temporary SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path_factory.mktemp('browser') / 'db.sqlite3'}"
        return
    import psycopg

    name = f"tongits_browser_{uuid.uuid4().hex[:10]}"
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory) -> Iterator[str]:
    """Daphne serving the site (WebSockets and the server clock included) on a free port."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "1",
        "TONGITS_CLOCK_IN_WORKERS": "1",
        "TONGITS_BOT_PAUSE_MIN": "0.05",
        "TONGITS_BOT_PAUSE_MAX": "0.1",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=REPO, env=env, check=True)
    port = free_port()
    log = (tmp_path_factory.mktemp("daphne") / "daphne.log").open("w")
    daphne = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)]
    proc = subprocess.Popen(
        [*daphne, "tongits_site.asgi:application"], cwd=REPO, env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
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


@pytest.fixture
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def sign_up(page, server: str) -> None:
    page.goto(f"{server}/accounts/signup/")
    page.get_by_label("Username:").fill(f"player{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password:", exact=True).fill("a-long-pass-phrase-42")
    page.get_by_label("Password confirmation:").fill("a-long-pass-phrase-42")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"{server}/")


def hand_seq(page) -> str:
    return page.locator("#my-hand").get_attribute("data-seq") or ""


def act(page, name: str) -> None:
    """Click an action button, then wait for the board of the next version to arrive."""
    seq = hand_seq(page)
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_function(
        "seq => document.querySelector('#my-hand').dataset.seq !== seq", arg=seq, timeout=10_000
    )


def act_by_keyboard(page, name: str) -> None:
    seq = hand_seq(page)
    page.get_by_role("button", name=name, exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "seq => document.querySelector('#my-hand').dataset.seq !== seq", arg=seq, timeout=10_000
    )


def play_turns_until_the_end(page, before_discard) -> int:
    """Play as a person would: draw, choose a card, discard; fold a Draw call."""
    result = page.locator("#table-result")
    deadline = time.monotonic() + GAME_SECONDS
    turns = 0
    while not result.is_visible():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_by_role("button", name="Fold", exact=True).is_visible():
            act(page, "Fold")
        elif page.get_by_role("button", name="Draw", exact=True).is_visible():
            act(page, "Draw")
        elif page.get_by_role("button", name="Discard", exact=True).is_visible():
            turns += 1
            if turns % 2:
                page.locator("#my-hand .hand-card").last.click()
            else:  # every other turn by keyboard: Space chooses a card, Enter discards
                page.locator("#my-hand input[name=cards]").last.focus()
                page.keyboard.press("Space")
            assert page.locator("#my-hand input[name=cards]:checked").count() == 1
            before_discard(turns)
            if turns % 2:
                act(page, "Discard")
            else:
                act_by_keyboard(page, "Discard")
        else:
            page.wait_for_timeout(100)  # a bot's turn
    return turns


@contextmanager
def phone(browser, context, url: str):
    """The same person's table on a 360x740 phone screen, in a second tab."""
    small = browser.new_context(
        viewport={"width": 360, "height": 740},
        storage_state=context.storage_state(),
        device_scale_factor=2,
    )
    try:
        page = small.new_page()
        page.goto(url)
        yield page
    finally:
        small.close()


def test_a_person_plays_a_whole_game_against_two_bots_in_the_browser(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.time()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    # Chromium's console names no URL for a failed load; the response does.
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))

    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#my-hand .hand-card").first.wait_for()

    def screenshots(turn: int) -> None:
        # Mid-game, on the person's own turn with a card chosen, on a desktop and a phone
        # (the second turn's, if the game lasts that long: more is on the table by then).
        if turn > 2:
            return
        page.screenshot(path=ARTIFACTS / "table-midgame.png", full_page=True)
        with phone(browser, context, page.url) as small:
            small.locator("#my-hand .hand-card").first.click()
            small.screenshot(path=ARTIFACTS / "table-360x740.png")
            small.screenshot(path=ARTIFACTS / "table-360-full.png", full_page=True)

    turns = play_turns_until_the_end(page, screenshots)

    result = page.locator("#table-result")
    assert turns >= 1
    assert result.get_by_role("heading", level=2).inner_text()
    assert re.search(r"\d+ points?", result.inner_text())
    assert "pays" in result.inner_text() and "Payments" in result.inner_text()
    assert re.search(r"The seed was \d+", page.locator("#table-fairness").inner_text())
    page.screenshot(path=ARTIFACTS / "table-result.png", full_page=True)
    with phone(browser, context, page.url) as small:
        small.locator("#table-result").wait_for()
        small.screenshot(path=ARTIFACTS / "table-result-360.png", full_page=True)
    for name in ("table-midgame", "table-360x740", "table-360-full", "table-result"):
        assert (ARTIFACTS / f"{name}.png").stat().st_mtime >= started

    table_url = page.url
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(lambda url: url != table_url and re.search(r"/games/\d+/$", url))
    page.locator("#my-hand .hand-card").first.wait_for()
    assert not [e for e in errors if not e.startswith("Failed to load resource")], errors
    assert not [f for f in failed if not f.endswith("/favicon.ico")], failed
    context.close()
