"""Issue 24 in a real browser: an offline visit shows the site's own offline page (the
service worker's), whose cache holds no table; the new-table form shows the ante only for
a series; a series' standings beside the table fit at 1280 px."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import PageErrors, open_menu, play_turns_until_the_end, sign_up

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
CARD_PATHS = ("/games/", "/series/", "/ws/", "/api/", "/table/", "/game/")


def test_offline_a_visit_shows_the_sites_offline_page_and_no_table_was_kept(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    table = page.url
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")

    context.set_offline(True)
    try:
        page.goto(table)
        assert page.get_by_role("heading", name="You are offline").is_visible()
        page.goto(f"{server}/leaderboard/")
        assert page.get_by_role("heading", name="You are offline").is_visible()
        kept = page.evaluate(
            """async () => {
                const urls = [];
                for (const name of await caches.keys()) {
                    const cache = await caches.open(name);
                    for (const r of await cache.keys()) urls.push(new URL(r.url).pathname);
                }
                return urls;
            }"""
        )
    finally:
        context.set_offline(False)
    assert "/offline/" in kept
    assert [u for u in kept if u.startswith(CARD_PATHS)] == []
    assert all(u == "/offline/" or u.startswith("/static/") for u in kept), kept
    context.close()


def test_the_new_table_form_shows_the_ante_only_with_series_ticked(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.goto(f"{server}/tables/new/")

    ante = page.get_by_label("Ante per hand (series):")
    assert not ante.is_visible()
    page.get_by_label("Series:").check()
    assert ante.is_visible()
    page.get_by_label("Series:").uncheck()
    assert not ante.is_visible()
    errors.assert_none()
    context.close()


def _sign_up_and_open_a_series_with_two_normal_bots(page, server):
    sign_up(page, server)
    page.goto(f"{server}/tables/new/")
    page.get_by_label("Seat 1:").select_option("normal")
    page.get_by_label("Seat 2:").select_option("normal")
    page.get_by_label("Series:").check()
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/series/\d+/$"))


def test_a_series_standings_beside_the_table_fit_at_1280(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = PageErrors(page)
    _sign_up_and_open_a_series_with_two_normal_bots(page, server)

    open_menu(page)  # the standings are in the table's menu, over the table
    panel = page.locator("#series-panel")
    box = panel.locator(".history-scroll")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "the standings scroll sideways"
    for head in ("Net chips", "Pots won"):
        cell = panel.get_by_role("columnheader", name=head)
        assert cell.evaluate(
            "c => { const r = c.getBoundingClientRect(), "
            "p = c.closest('.history-scroll').getBoundingClientRect(); "
            "return r.left >= p.left && r.right <= p.right + 0.5; }"
        ), head
    errors.assert_none()
    context.close()


def test_when_a_series_hand_ends_its_panel_counts_it_and_the_way_on_is_the_series(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = PageErrors(page)
    _sign_up_and_open_a_series_with_two_normal_bots(page, server)
    series_url = page.url

    play_turns_until_the_end(page)

    result = page.locator(".result-sheet")
    # No plain Play again inside a series: the one way on is the series' own Next hand.
    way_on = result.get_by_role("link", name="Next hand")
    way_on.wait_for(timeout=2_000)
    assert result.get_by_role("button", name="Play again").count() == 0
    assert way_on.get_attribute("href") == series_url.removeprefix(server)
    # The panel beside the table counts the hand at once: one seat has won a hand.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#series-panel tbody tr')]"
        ".some(r => r.cells[1] && r.cells[1].textContent.trim() === '1')",
        timeout=2_500,
    )
    errors.assert_none()
    context.close()
