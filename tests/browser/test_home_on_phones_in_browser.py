"""The home page and the guest's line on phones (issue 48): Play now in view without
scrolling at every size, in English and Filipino (a phone on its side hid it below two
rows of links), and "You play as Guest 123" compact on the pages around the table, never
taking the focus (it held 18% of a phone on its side, and the focus).

Screenshots go to artifacts/home-*.png and artifacts/guest-line-*.png.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.support import ARTIFACTS, SIZES, TAPPABLE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-US", "fil"])
def test_play_now_is_in_view_without_scrolling_at_every_size(browser, server, locale):
    ARTIFACTS.mkdir(exist_ok=True)
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], has_touch=True, locale=locale)
        page = context.new_page()
        page.goto(f"{server}/")
        play = page.locator(".home-play button[type=submit]")
        assert play.evaluate(TAPPABLE) == "", size
        assert page.evaluate("scrollY") == 0
        page.screenshot(path=ARTIFACTS / f"home-{locale}-{size}.png")
        context.close()


@pytest.mark.parametrize(
    "size, locale",
    [("740x360", "en-US"), ("915x412", "en-US"), ("360x740", "en-US"), ("740x360", "fil")],
)
def test_the_guest_line_is_compact_on_the_pages_around_the_table_and_takes_no_focus(
    browser, server, size, locale
):
    """The table shows no guest banner (its Menu says it); the line waits for the next
    page, which shows it in a tenth of the screen's height at most."""
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=SIZES[size], has_touch=True, locale=locale)
    page = context.new_page()
    page.goto(f"{server}/")
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    # Play now as its form posts, its redirect to the table not followed.
    made = context.request.post(
        f"{server}/play/now/",
        form={"csrfmiddlewaretoken": token},
        headers={"Referer": f"{server}/", "Accept-Language": locale},
        max_redirects=0,
    )
    assert made.status == 302 and re.search(r"/games/\d+/$", made.headers["location"])

    page.goto(f"{server}/leaderboard/")
    line = page.locator(".message-guest")
    assert re.search(r"Guest \d+", line.inner_text())
    page.screenshot(path=ARTIFACTS / f"guest-line-{locale}-{size}.png")
    height = line.bounding_box()["height"]
    assert height <= 0.1 * SIZES[size]["height"] + 1, height
    assert page.evaluate("document.activeElement === document.body")
    context.close()
