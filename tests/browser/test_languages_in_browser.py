"""Languages in a real browser (issue 11): a browser set to Filipino gets Filipino at once;
the footer's switch changes the home page's language by keyboard, without script of ours,
and back; on a phone the same switch is in the folded menu. Screenshots of the home page's
footer in Filipino at 1280x800 and of the phone menu at 360x740 go to artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.support import ARTIFACTS, PageErrors

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def footer_switch(page, name: str = "Language"):
    return page.locator("footer").get_by_role("group", name=name)


def test_a_browser_in_filipino_gets_filipino_on_its_first_visit(browser, server):
    context = browser.new_context(viewport=DESKTOP, locale="fil-PH")
    page = context.new_page()

    page.goto(f"{server}/")

    assert page.locator("html").get_attribute("lang") == "fil"
    assert page.get_by_role("heading", level=1).inner_text() == "Mag-Tongits sa browser mo"
    assert page.get_by_role("button", name="Laro na").is_visible()
    context.close()


def test_the_footer_switches_the_home_page_between_english_and_filipino(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    assert page.get_by_role("heading", level=1).inner_text() == "Play Tongits in your browser"
    switch = footer_switch(page)
    assert switch.get_by_role("button", name="English").get_attribute("aria-current") == "true"

    # By keyboard: the button takes the focus and Enter sends the form.
    switch.get_by_role("button", name="Filipino").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")

    assert page.url == f"{server}/"  # the same page, at the same address
    assert page.locator("html").get_attribute("lang") == "fil"
    assert page.get_by_role("heading", level=1).inner_text() == "Mag-Tongits sa browser mo"
    assert page.get_by_role("link", name="Mag-log in").first.is_visible()
    filipino = footer_switch(page, "Wika").get_by_role("button", name="Filipino")
    assert filipino.get_attribute("aria-current") == "true"
    page.locator("footer").screenshot(path=ARTIFACTS / "language-footer-fil-1280x800.png")
    page.locator("header").screenshot(path=ARTIFACTS / "language-header-fil-1280x800.png")

    # It stays on the next page, and the switch takes it back.
    page.get_by_role("link", name="Mag-log in").first.click()
    assert page.get_by_role("heading", level=1).inner_text() == "Mag-log in"
    footer_switch(page, "Wika").get_by_role("button", name="English").click()
    page.wait_for_load_state()
    assert page.url == f"{server}/accounts/login/"
    assert page.get_by_role("heading", level=1).inner_text() == "Log in"
    errors.assert_none()
    context.close()


def test_the_switch_is_in_the_phone_menu(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{server}/")

    page.get_by_role("button", name="Menu").click()
    menu = page.get_by_role("navigation", name="Main")
    page.screenshot(path=ARTIFACTS / "language-menu-360x740.png")
    menu.get_by_role("button", name="Filipino").click()
    page.wait_for_load_state()

    assert page.locator("html").get_attribute("lang") == "fil"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
