"""Switching language at the table mid-game (issue 11): the page reloads itself in the new
language at the same address, its socket reconnects, the boards pushed after that come in
the new language, and the game goes on with the buttons in that language. A screenshot of
the table in Filipino goes to artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import (
    ARTIFACTS,
    GAME_SECONDS,
    PageErrors,
    hand_seq,
    sign_up,
    wait_for_new_board,
)

pytestmark = pytest.mark.browser


def act(page, name: str) -> None:
    seq = hand_seq(page)
    page.get_by_role("button", name=name, exact=True).click()
    wait_for_new_board(page, seq)


def play_a_turn(page, draw: str, discard: str, fold: str) -> None:
    """Wait for the person's turn, then draw and discard (or fold a Draw call), with the
    buttons named in the page's language."""
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, "the person's turn did not come"
        if page.get_by_role("button", name=fold, exact=True).is_visible():
            act(page, fold)
            return
        if page.get_by_role("button", name=draw, exact=True).is_visible():
            act(page, draw)
        if page.get_by_role("button", name=discard, exact=True).is_visible():
            page.locator("#my-hand .hand-card").last.click()
            act(page, discard)
            return
        if page.locator("#table-result").is_visible():
            return
        page.wait_for_timeout(100)


def test_switching_language_at_the_table_mid_game_keeps_the_game_going(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-US")
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    table_url = page.url
    page.locator("#my-hand .hand-card").first.wait_for()
    assert page.get_by_role("heading", name="Your hand").is_visible()
    play_a_turn(page, "Draw", "Discard", "Fold")

    # The switch in the table's menu: the page comes back, at the same address, in Filipino.
    page.locator("#menu-sheet > summary").click()
    with page.expect_navigation():
        page.locator("#menu-sheet").get_by_role("button", name="Filipino").click()
    assert page.url == table_url
    assert page.locator("html").get_attribute("lang") == "fil"
    page.locator("#my-hand .hand-card").first.wait_for()
    assert page.get_by_role("heading", name="Kamay mo").is_visible()
    page.locator("#moves-sheet > summary").click()  # the move list's sheet
    assert page.get_by_role("heading", name="Mga galaw").is_visible()
    page.keyboard.press("Escape")

    # The game goes on in Filipino: the boards the socket pushes after each move are too.
    if not page.locator("#table-result").is_visible():
        play_a_turn(page, "Bumunot", "Itapon", "Mag-fold")
    page.wait_for_function(
        "() => document.querySelector('#table-status').innerText.trim() !== ''", timeout=10_000
    )
    status = page.locator("#table-status").inner_text()
    moves = page.locator("#moves-tail").text_content()  # in the (closed) Moves sheet
    assert "turn" not in status.lower() or "Tira" in status, status
    assert re.search(r"nagtapon|bumunot|nag-meld|Nag-Draw|sumapaw", moves, re.I), moves
    assert "discarded" not in moves and "drew" not in moves
    page.screenshot(path=ARTIFACTS / "table-fil.png", full_page=True)
    errors.assert_none()
    context.close()
