"""Two people play the same daily deal in real browsers, and each sees the other's result
only once both have finished (issue 51). Screenshots of the day's page before and after,
on a desktop and a 360x740 phone, go to artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, phone, play_turns_until_the_end, sign_up

pytestmark = pytest.mark.browser


def play_the_daily_deal(page, server: str, *, by_keyboard: bool = False) -> None:
    page.goto(f"{server}/daily/")
    play = page.get_by_role("button", name="Play today's deal")
    if by_keyboard:
        play.focus()
        page.keyboard.press("Enter")
    else:
        play.click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#my-hand .hand-card").first.wait_for()
    play_turns_until_the_end(page)


def test_two_people_play_the_same_daily_deal_and_see_each_other_only_when_both_finished(
    browser, server, manage
):
    ARTIFACTS.mkdir(exist_ok=True)
    manage("daily_deal", "--par")  # par at once: this server runs no db_worker
    ann_context = browser.new_context(viewport={"width": 1000, "height": 900})
    ben_context = browser.new_context(viewport={"width": 1000, "height": 900})
    ann, ben = ann_context.new_page(), ben_context.new_page()
    errors = [PageErrors(ann), PageErrors(ben)]
    sign_up(ann, server, "ann")
    sign_up(ben, server, "ben")
    assert "0 played" in ann.locator("#daily-line").inner_text()

    play_the_daily_deal(ann, server)
    ann.goto(f"{server}/daily/")
    assert ann.locator("#daily-place").inner_text() == "1 of 1"
    assert ann.locator("#daily-against-par").inner_text() != "–"
    ann_chips = ann.locator("#daily-mine").inner_text()

    # Ben has not played: the count and the commitment, nothing of Ann's game.
    ben.goto(f"{server}/daily/")
    assert "1 person has played this deal." in ben.locator("#daily-count").inner_text()
    assert ben.locator("#daily-results").count() == 0
    assert ben.locator("a[href*='/replay/']").count() == 0
    assert "median" not in ben.locator("main").inner_text().lower()
    ben.screenshot(path=ARTIFACTS / "daily-before.png", full_page=True)
    ben.goto(f"{server}/")
    assert "1 played" in ben.locator("#daily-line").inner_text()
    assert "median" not in ben.locator("#daily-line").inner_text()

    play_the_daily_deal(ben, server, by_keyboard=True)
    ben.goto(f"{server}/daily/")
    assert "2 people have played this deal." in ben.locator("#daily-count").inner_text()
    assert re.fullmatch(r"[12] of 2", ben.locator("#daily-place").inner_text())
    assert ben.locator(".chart-bar").count() >= 1
    assert "Best result" in ben.locator("#daily-results").inner_text()
    ben.screenshot(path=ARTIFACTS / "daily-after.png", full_page=True)

    ann.reload()
    assert "2 people have played this deal." in ann.locator("#daily-count").inner_text()
    assert ann.locator("#daily-mine").inner_text() == ann_chips
    assert re.fullmatch(r"[12] of 2", ann.locator("#daily-place").inner_text())
    # The best game's replay opens for both.
    best = ann.locator("#daily-results a", has_text="Watch its replay")
    best.click()
    ann.wait_for_url(re.compile(r"/games/\d+/replay/$"))
    with phone(browser, ben_context, f"{server}/daily/") as small:
        small.locator("#daily-results").wait_for()
        small.screenshot(path=ARTIFACTS / "daily-360x740.png")
        small.screenshot(path=ARTIFACTS / "daily-360-full.png", full_page=True)
        small.goto(f"{server}/daily/board/")
        small.screenshot(path=ARTIFACTS / "daily-board-360.png", full_page=True)
        wide = small.evaluate("document.documentElement.scrollWidth")
        assert wide <= 360, f"the board is {wide}px wide on a 360px phone"
    ben.goto(f"{server}/")
    assert re.search(r"2 played, median [+−]?\d", ben.locator("#daily-line").inner_text())
    for e in errors:
        e.assert_none()
    ann_context.close()
    ben_context.close()
