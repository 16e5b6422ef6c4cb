"""A person plays a two-hand series against two bots in a real browser (issue 9): the
hand's table, the screen between hands with the pot and the standings, Next hand, and the
second hand's result screen. Screenshots go to artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PageErrors,
    phone,
    play_turns_until_the_end,
    sign_up,
)

pytestmark = pytest.mark.browser


def _standings(page) -> list[list[str]]:
    rows = page.locator(".series-standings tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def test_a_two_hand_series_against_bots_to_its_second_result_screen(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors = PageErrors(page)
    sign_up(page, server)

    page.goto(f"{server}/tables/new/")
    page.get_by_label("Seat 1:").select_option("normal")
    page.get_by_label("Seat 2:").select_option("normal")
    page.get_by_role("checkbox", name="Series:").check()
    page.get_by_label("Ante per hand (series)").select_option("1")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/series/\d+/$"))
    series_url = page.url
    page.locator("#my-hand .hand-card").first.wait_for()
    assert page.locator("#series-pot").text_content()  # in the menu sheet == "3"

    play_turns_until_the_end(page)
    # The hand's result leads on to the series' own next hand, never to a plain Play again
    # (which would start a game outside the series).
    assert page.locator(".result-sheet").get_by_role("link", name="Next hand").is_visible()
    assert not page.get_by_role("button", name="Play again").is_visible()
    assert page.get_by_role("link", name="Review this game").is_visible()
    page.get_by_role("heading", name=re.compile("after hand 1")).wait_for(timeout=15_000)
    assert page.url == series_url
    first = _standings(page)
    assert sum(int(r[0]) for r in first) == 1  # one hand won in all
    pot_after_one = page.locator("#series-pot").inner_text()
    assert pot_after_one == "3"
    assert "1 in a row" in page.locator(".series-pot").inner_text()
    page.screenshot(path=ARTIFACTS / "series-between-hands.png", full_page=True)
    with phone(browser, page.context, page.url) as small:
        # Every figure of the standings on a phone's screen (six columns were twice its
        # width, the chips out of sight), and End asks before it settles the pot.
        box = small.locator(".series-standings").first
        assert box.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
        assert small.locator(".series-standings td").last.is_visible()
        small.locator(".series-end summary").click()
        assert small.get_by_role("button", name="Yes, end the series").is_visible()
        small.screenshot(path=ARTIFACTS / "series-between-hands-360.png", full_page=True)

    page.get_by_role("button", name="Next hand").click()
    page.locator("#my-hand .hand-card").first.wait_for()
    assert page.locator("#series-pot").text_content() == "6"

    play_turns_until_the_end(page)
    page.get_by_role("heading", name=re.compile("after hand 2")).wait_for(timeout=15_000)
    second = _standings(page)
    assert sum(int(r[0]) for r in second) == 2
    assert second != first
    pot = page.locator("#series-pot").inner_text()
    taken = "took the pot of 6" in page.locator(".series-pot").inner_text()
    assert (pot, taken) in (("0", True), ("6", False))
    page.screenshot(path=ARTIFACTS / "series-second-result.png", full_page=True)
    errors.assert_none()
