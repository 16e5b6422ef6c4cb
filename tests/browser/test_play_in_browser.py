"""A person plays a whole game in a real browser against two bots, over the WebSocket.

Drives Debian's Chromium (never a downloaded one) through Playwright against a real Daphne
process with its own database and the server clock running, as in production. Screenshots
of the table and the result go to artifacts/.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PageErrors,
    phone,
    play_turns_until_the_end,
    sign_up,
    tap_card,
)

pytestmark = pytest.mark.browser


def test_a_person_plays_a_whole_game_against_two_bots_in_the_browser(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.time()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)

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
            tap_card(small.locator("#my-hand .hand-card").first)
            small.screenshot(path=ARTIFACTS / "table-360x740.png")
            small.screenshot(path=ARTIFACTS / "table-360-full.png", full_page=True)

    turns = play_turns_until_the_end(page, screenshots)

    result = page.locator("#table-result")
    assert turns >= 1
    assert result.get_by_role("heading", level=2).inner_text()
    assert re.search(r"\d+ points?", result.inner_text())
    assert "pays" in result.inner_text() and "Payments" in result.inner_text()
    assert re.search(r"The seed was \d+", page.locator("#table-fairness").text_content())
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
    errors.assert_none()
    context.close()
