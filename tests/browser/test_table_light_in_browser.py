"""The table on a poor line (issue 24, "Installable and light"): what the page fetches
before a hand can be played, and how soon its socket tries again after the network went.
The figures themselves are python -m bench.mobile's; these check the behaviour."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import PageErrors

pytestmark = pytest.mark.browser


def play_now(browser, server):
    """A guest's dealt table through the home page's Play now, with every request and
    socket frame of the page noted in order."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    errors = PageErrors(page)
    seen: list[tuple[float, str]] = []
    page.on("request", lambda request: seen.append((time.monotonic(), request.url)))
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda _: seen.append((time.monotonic(), "frame"))),
    )
    page.goto(f"{server}/")
    page.get_by_role("button", name="Play now").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator('#connection[data-state="connected"]').wait_for()
    return context, page, errors, seen


def test_dragging_is_fetched_after_the_first_board_and_then_works(browser, server):
    context, page, errors, seen = play_now(browser, server)
    page.wait_for_function("() => !!window.Sortable")
    page.locator('#my-hand .hand[data-drag="1"]').wait_for(state="attached")

    assert not page.locator('script[src*="Sortable"][defer]').count()  # not in the page
    events = [what for _, what in seen]
    fetched = next(i for i, url in enumerate(events) if "Sortable" in url)
    assert "frame" in events[:fetched], events  # the first board came before it
    assert sum("Sortable" in url for url in events) == 1
    errors.assert_none()
    context.close()


def test_a_watcher_never_fetches_dragging(browser, server, manage):
    code = (
        "from games.models import Game, Seat\n"
        "from games.play import dealing\n"
        "g = Game.objects.create(public=True)\n"
        "[Seat.objects.create(game=g, index=i, bot_kind='greedy') for i in range(3)]\n"
        "dealing.start_game(g, seed=5)\n"
        "print(g.pk)"
    )
    game = int(manage("shell", "-c", code).split()[-1])
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    page.wait_for_function(
        "s => document.querySelector('#table-status').dataset.seq !== s",
        arg=page.locator("#table-status").get_attribute("data-seq"),
    )  # a board came over the socket (the bots play on)
    assert not [url for url in asked if "Sortable" in url]
    context.close()


def test_offline_the_socket_tries_again_every_second_and_comes_back(browser, server):
    context, page, errors, _ = play_now(browser, server)
    # The waits the page gives htmx's socket before its next try, after 0 to 10 failed
    # tries: offline (a try fails on the phone, at no cost) about a second whatever came
    # before, so the table is back within a second of the network; online, growing, but
    # never past 8 s (htmx's own grows to 64 s).
    delays = "() => [0, 1, 3, 6, 10].map(n => htmx.config.wsReconnectDelay(n))"
    context.set_offline(True)
    page.locator('#connection[data-state="offline"]').wait_for()
    offline = [page.evaluate(delays) for _ in range(20)]
    assert all(0 < d <= 1000 for row in offline for d in row), offline
    context.set_offline(False)
    page.locator('#connection[data-state="connected"]').wait_for()
    online = [page.evaluate(delays) for _ in range(20)]
    assert all(0 <= d <= 8000 for row in online for d in row), online
    assert max(row[-1] for row in online) > 1000  # a server that is down is not hammered
    assert page.locator("#my-hand .offline-note").count() == 0
    assert page.locator("#my-hand button[name=action][data-offline]").count() == 0
    errors.assert_none()
    context.close()
