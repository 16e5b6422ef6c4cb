"""The How to play page in a real browser: it fits a phone without sideways scrolling, and
a link to a rule id opens that rule. Screenshots go to artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.support import ARTIFACTS, PageErrors

pytestmark = pytest.mark.browser

SCREENS = {"360": (360, 740), "1280": (1280, 800)}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_how_to_play_page_fits_the_screen_without_sideways_scrolling(browser, server, screen):
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = SCREENS[screen]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = PageErrors(page)

    page.goto(f"{server}/how-to-play/")

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator(".example-cards .card").count() > 50
    page.screenshot(path=ARTIFACTS / f"how-to-play-{screen}.png")
    page.screenshot(path=ARTIFACTS / f"how-to-play-{screen}-full.png", full_page=True)
    errors.assert_none()
    context.close()


def test_a_link_to_a_rule_id_opens_that_rule(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()

    page.goto(f"{server}/how-to-play/#R7")

    rule = page.locator("#R7")
    assert rule.locator("h2").inner_text().startswith("R7")
    assert rule.evaluate("el => Math.abs(el.getBoundingClientRect().top) < 40")
    page.screenshot(path=ARTIFACTS / "how-to-play-R7-360.png")
    context.close()
