"""A word of the game explains itself on hover, on keyboard focus and on a tap, inside the
screen of a phone. Screenshots go to artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, sign_up

pytestmark = pytest.mark.browser

# The tip is really on top where it is drawn (not clipped, not covered), inside the screen.
SHOWN_INSIDE = """tip => {
  const box = tip.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.width > 0 && tip.contains(hit) && box.left >= 0 && box.right <= innerWidth
    && document.documentElement.scrollWidth <= innerWidth;
}"""


def tap_until_shown(page, word: str, taps: int = 3) -> bool:
    """Tap the word until its explanation shows inside the screen. The lobby swaps in
    new lists whenever a table somewhere starts or ends (other tests' tables go on in the
    same server), and a tip open on the old lists goes with them: tap the new word."""
    for _ in range(taps):
        button, tip = tip_of(page, word)
        button.tap()
        if tip.is_visible() and tip.evaluate(SHOWN_INSIDE):
            return True
        page.wait_for_timeout(600)  # the lobby gathers changes for half a second
    return False


def tip_of(page, word: str):
    term = page.locator(".term", has=page.get_by_role("button", name=word, exact=True)).first
    return term.get_by_role("button", name=word, exact=True), term.locator(".term-tip")


def test_a_tap_on_a_phone_shows_the_explanation_and_a_tap_elsewhere_hides_it(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/how-to-play/")

    for word in ("hard bot", "blocked"):  # the last of its row, and one in the middle
        button, tip = tip_of(page, word)
        button.tap()
        assert tip.is_visible() and tip.evaluate(SHOWN_INSIDE), word
        assert button.get_attribute("aria-expanded") == "true"
    page.screenshot(path=ARTIFACTS / "term-tapped-360.png")
    page.locator("#guide-title").tap()
    assert not tip.is_visible()
    errors.assert_none()
    context.close()


def test_keyboard_focus_shows_the_explanation_and_escape_hides_it(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{server}/how-to-play/")
    button, tip = tip_of(page, "burned")

    button.focus()
    assert tip.is_visible() and tip.evaluate(SHOWN_INSIDE)
    assert tip.inner_text() in button.evaluate(
        "b => document.getElementById(b.getAttribute('aria-describedby')).innerText"
    )
    page.keyboard.press("Escape")
    assert not tip.is_visible()
    assert button.evaluate("b => b === document.activeElement")
    context.close()


def test_hovering_a_word_shows_the_explanation(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{server}/how-to-play/")
    button, tip = tip_of(page, "opened")

    button.hover()

    assert tip.is_visible() and tip.evaluate(SHOWN_INSIDE)
    assert tip.get_by_role("link").get_attribute("href") == "/how-to-play/#R6"
    page.screenshot(path=ARTIFACTS / "term-hover-1280.png")
    context.close()


def test_the_table_and_the_lobby_explain_their_badges_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(f"{server}/games/*/")
    # On the person's own turn the board holds still: bots wait for them.
    page.locator("#act-draw, #act-discard").first.wait_for(timeout=10_000)
    # A seat's first badge says whether it has opened (the dealer's badge comes before it).
    term = page.locator("#seats .badges .term").filter(has_not_text="dealer").first
    word, tip = term.locator(".term-word"), term.locator(".term-tip")

    word.tap()

    assert tip.is_visible() and tip.evaluate(SHOWN_INSIDE)
    assert word.inner_text() in ("opened", "not opened")
    page.screenshot(path=ARTIFACTS / "term-table-360.png")

    page.goto(f"{server}/")
    assert tap_until_shown(page, "Normal bot")
    page.screenshot(path=ARTIFACTS / "term-lobby-360.png")
    errors.assert_none()
    context.close()
