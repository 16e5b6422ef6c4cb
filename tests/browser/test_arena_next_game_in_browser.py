"""An arena's start and next game (issues 26, 52): three people who joined before the
start wait at the arena's waiting table, and their first game comes over its socket as
it starts (no poll, no page load); when the game ends the pairing seats them again at
once, and each page goes on to the new game over the socket it has, with no page load:
its address, title and board are the new game's, the menu tells who sits there when it
opens, and a reconnect goes to the new game. Screenshots at 360x740 in artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, sign_up
from tests.browser.test_arena_in_browser import END_THE_GAME

pytestmark = pytest.mark.browser

MAKE_ARENA = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.tournaments import services
staff = get_user_model().objects.create_user("arena-staff", is_staff=True)
from datetime import timedelta
t = services.create(staff, name="Next game arena", minutes=30, public=True, rated=False,
                    starts_at=timezone.now() + timedelta(seconds={lead}), turn_seconds=60)
print(t.pk, t.starts_at.timestamp())
"""
LEAD = 25  # seconds from the arena's making to its start: the three join before it


def test_the_next_game_of_an_arena_comes_to_the_table_without_a_page_load(browser, server, manage):
    contexts = [browser.new_context(viewport={"width": 360, "height": 740}) for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    errors = [PageErrors(p) for p in pages]
    polls: list[list[float]] = [[] for _ in pages]  # when each page asked the live part
    for page, asked in zip(pages, polls, strict=True):
        page.on("request", lambda r, asked=asked: "/live/" in r.url and asked.append(time.time()))
    names = [sign_up(p, server) for p in pages]
    made = manage("shell", "-c", MAKE_ARENA.format(lead=LEAD)).strip().splitlines()[-1].split()
    t, starts_at = int(made[0]), float(made[1])
    for page in pages:
        page.goto(f"{server}/tournaments/{t}/")
        page.get_by_role("button", name="Join").click()
        # Join leads to the arena's waiting table, whose socket is open (issue 52).
        page.wait_for_url(re.compile(rf"/tournaments/{t}/table/$"))
        page.locator("#connection[data-state='connected']").wait_for(timeout=10_000)
        page.evaluate("window.notReloaded = true")
    assert time.time() < starts_at, "the test was too slow to join before the start"
    # At the start the first game comes over the waiting table's socket: the page takes
    # the game's address in place (history.replaceState), loads nothing and polls nothing.
    for page in pages:
        page.wait_for_function(
            "location.pathname.startsWith('/games/')", timeout=(LEAD + 10) * 1000
        )
        assert page.evaluate("window.notReloaded === true"), "the page loaded again"
    for asked in polls:
        assert not asked, "a page that joined asked the tournament's live part"
    first = int(re.search(r"/games/(\d+)/$", pages[0].url).group(1))
    for page in pages:
        page.locator("#connection[data-state='connected']").wait_for(timeout=10_000)
        page.evaluate("window.notReloaded = true")

    # The game ends; its end pairs the three again, and their tables go on to the new game.
    manage("shell", "-c", END_THE_GAME.format(game=first))
    for page in pages:  # the address changes in place (history.replaceState)
        page.wait_for_function(f"!location.pathname.endsWith('/games/{first}/')", timeout=20_000)
    second = int(re.search(r"/games/(\d+)/$", pages[0].url).group(1))
    assert second != first
    for page, name in zip(pages, names, strict=True):
        assert page.url.endswith(f"/games/{second}/")
        assert page.evaluate("window.notReloaded === true"), "the page loaded again"
        assert page.title().startswith(f"Table {second}")
        assert page.locator("#table-title").inner_text().startswith(f"Table {second}")
        assert page.get_attribute("[ws-connect]", "data-game") == str(second)
        page.locator("#my-hand").wait_for()
        assert page.locator("#table-result").is_hidden()
        opponents = page.locator("#seats").inner_text()  # the new game's, from its board
        assert all(other in opponents for other in names if other != name)
    ARTIFACTS.mkdir(exist_ok=True)
    pages[0].screenshot(path=ARTIFACTS / "arena-next-game-360x740.png")

    # The menu asks who sits at the new table when it opens.
    ann = pages[0]
    ann.locator("#menu-sheet > summary").click()
    ann.locator(".table-people").wait_for(timeout=5_000)
    people = ann.locator("#table-about").inner_text()
    assert names[1] in people and names[2] in people
    ann.screenshot(path=ARTIFACTS / "arena-next-game-menu-360x740.png")

    # A reconnect goes to the game shown, not to the one the page was loaded with: the ws
    # extension makes each new socket with the address it first read, through this.
    url = ann.evaluate(
        "(first) => { var s = htmx.createWebSocket('ws://' + location.host + '/ws/game/' +"
        " first + '/'); var u = s.url; s.close(); return u; }",
        first,
    )
    assert url.endswith(f"/ws/game/{second}/"), url
    # And so does the one the page had at the waiting table, before its first game.
    url = ann.evaluate(
        "(t) => { var s = htmx.createWebSocket('ws://' + location.host + '/ws/arena/' +"
        " t + '/'); var u = s.url; s.close(); return u; }",
        t,
    )
    assert url.endswith(f"/ws/game/{second}/"), url
    for e in errors:
        e.assert_none()
    for c in contexts:
        c.close()
