"""A visitor plays a whole game from the home page with one press of Play now, as a guest,
then claims the account and finds the game in My games; and the pages around the table fit
a 360 px phone without sideways scrolling, the phone menu included.

Screenshots of the home page, a profile and the leaderboard at 1280x800 and 360x740 go to
artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PASSWORD,
    PageErrors,
    log_in,
    open_menu,
    phone,
    play_turns_until_the_end,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
LONG_NAME = "Maria Clara Villanueva-Santos"


def shoot(page, name: str) -> None:
    size = page.viewport_size
    page.screenshot(path=ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png")


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def assert_no_sideways_scroll(page) -> None:
    width = scroll_width(page)
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


def test_a_guest_plays_a_game_from_the_home_page_and_claims_the_account(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = PageErrors(page)

    page.goto(f"{server}/")
    assert page.get_by_role("img", name=re.compile("^A game of Tongits")).is_visible()
    assert re.search(r"\d+ tables? in play", page.locator("#live-counts").inner_text())
    # htmx runs after the page's load event (static/js/nav.js) and takes up the counts.
    page.wait_for_function(
        "() => window.htmx && document.getElementById('live-counts')['htmx-internal-data']"
    )
    page.get_by_role("button", name="Play now").click()  # the one click
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    page.locator("#my-hand .hand-card").first.wait_for()
    # No guest line over the table (issue 48): its Menu says it.
    assert page.locator(".message-guest").count() == 0
    open_menu(page)
    assert page.get_by_text(re.compile(r"You play as Guest \d+")).is_visible()
    page.locator("#menu-sheet .sheet-close").click()

    assert play_turns_until_the_end(page) >= 1
    with phone(browser, context, f"{server}/accounts/claim/") as small:
        assert_no_sideways_scroll(small)
        small.screenshot(path=ARTIFACTS / "claim-360x740.png")

    open_menu(page)  # at the table, the site's links are in its menu
    page.get_by_role("link", name="Claim account").click()
    page.wait_for_url(f"{server}/accounts/claim/")
    page.get_by_label("Username:").fill("dana")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation:").fill(PASSWORD)
    page.get_by_role("button", name="Claim account").click()
    page.wait_for_url(f"{server}/games/mine/")
    assert page.get_by_role("link", name=f"Replay game {game_id},").is_visible()
    assert page.get_by_role("link", name="Claim account").count() == 0
    errors.assert_none()
    context.close()

    # The claimed account logs in with its new password, from anywhere.
    elsewhere = browser.new_context(viewport=DESKTOP)
    page = elsewhere.new_page()
    log_in(page, server, "dana", PASSWORD)
    page.get_by_role("link", name="My games").click()
    assert page.get_by_role("link", name=f"Replay game {game_id},").is_visible()
    elsewhere.close()


def test_the_pages_fit_a_phone_and_look_right_on_a_desktop(browser, server, manage):
    ARTIFACTS.mkdir(exist_ok=True)
    manage("seed_games", "--user", "rosa", "--games", "12", "--seed", "5", "--password", PASSWORD)
    manage("seed_games", "--user", "ben", "--games", "6", "--seed", "6", "--password", PASSWORD)
    visitor = ["/", "/how-to-play/", "/accounts/login/", "/accounts/signup/", "/leaderboard/"]
    player = [
        "/",
        "/players/rosa/",
        "/accounts/settings/",
        "/leaderboard/",
        "/games/mine/",
        "/how-to-play/",
    ]

    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        errors = PageErrors(page)
        for path in visitor:
            page.goto(f"{server}{path}")
            assert_no_sideways_scroll(page)
        page.goto(f"{server}/")
        shoot(page, "home")
        if viewport is PHONE:
            page.screenshot(path=ARTIFACTS / "home-360-full.png", full_page=True)

        log_in(page, server, "rosa", PASSWORD)
        if viewport is PHONE:
            set_display_name(page, server, LONG_NAME)
        for path in player:
            page.goto(f"{server}{path}")
            assert_no_sideways_scroll(page)
        page.goto(f"{server}/players/rosa/")
        shoot(page, "profile")
        if viewport is PHONE:
            page.screenshot(path=ARTIFACTS / "profile-360-full.png", full_page=True)
        page.goto(f"{server}/leaderboard/")
        shoot(page, "leaderboard")
        assert_boards_fit(page)
        errors.assert_none()
        context.close()


def set_display_name(page, server: str, name: str) -> None:
    """Through the phone menu, to the Settings page, whose form saves it."""
    page.goto(f"{server}/")
    menu = page.get_by_role("button", name="Menu")
    assert menu.get_attribute("aria-expanded") == "false"
    assert not page.get_by_role("link", name="Settings").is_visible()
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    assert_no_sideways_scroll(page)
    page.screenshot(path=ARTIFACTS / "menu-360x740.png")
    for link in ("Lobby", "My games", "Leaderboard", "My profile", "Settings"):
        box = page.get_by_role("link", name=link, exact=True).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, link
    page.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    menu.click()
    page.get_by_role("link", name="Settings").click()
    page.wait_for_url(f"{server}/accounts/settings/")
    page.get_by_label("Display name:").fill(name)
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(f"{server}/accounts/settings/")
    assert "Your settings are saved." in page.locator(".messages").inner_text()


def assert_boards_fit(page) -> None:
    """Each board fits its box (nothing to scroll inside it either), and the column it
    ranks by is on screen."""
    width = page.viewport_size["width"]
    boards = page.locator(".standings-table")
    assert boards.count() == 3
    for i in range(3):
        board = boards.nth(i)
        fits = board.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
        assert fits, f"board {i} scrolls sideways at {width}px"
        box = board.locator("thead .rank-col").bounding_box()
        assert box and box["x"] + box["width"] <= width, f"board {i}'s ranking column is off screen"
    assert page.get_by_role("link", name=LONG_NAME).first.is_visible()
