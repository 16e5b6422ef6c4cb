"""Table talk in the browser: at a rated Quick play table the chat drawer opens over the
one-screen table at 360x740 and 1280x800, a phrase is sent with one tap and shown over the
sender's seat and kept in the drawer, the free text box does not exist, and a free text
frame crafted by hand on a socket of its own is refused. A watcher's phrase reaches the
other watchers but never the player's socket before the end (its frames are scanned);
the watcher reports and mutes the player from the message's own buttons.
Screenshots go to artifacts/chat-*.png."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import ARTIFACTS, SIZES, PageErrors, sign_up

pytestmark = pytest.mark.browser

# What lies outside the screen of the open drawer, or makes the page scroll.
DRAWER_OUT = """() => {
  const out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight) out.push(`page is ${page.scrollHeight} px tall`);
  if (page.scrollWidth > innerWidth) out.push(`page is ${page.scrollWidth} px wide`);
  const body = document.querySelector("#chat-sheet .sheet-body");
  const r = body.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
    out.push(`drawer at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
  document.querySelectorAll("#chat-sheet .chat-preset").forEach((b) => {
    b.scrollIntoView({block: "nearest"});
    const q = b.getBoundingClientRect();
    if (q.width < 40 || q.height < 40) out.push(`button ${b.value} is ${q.width}x${q.height}`);
    if (q.bottom > innerHeight + 0.5 || q.right > innerWidth + 0.5) out.push(`button ${b.value}`);
  });
  return out;
}"""

# A socket of the page's own, opened by hand: sends a crafted frame, returns what came back.
CRAFTED = """async (path) => {
  const ws = new WebSocket(`ws://${location.host}${path}`);
  const got = [];
  await new Promise((ok) => { ws.onopen = ok; });
  ws.onmessage = (e) => got.push(e.data);
  await new Promise((ok) => setTimeout(ok, 500));
  ws.send(JSON.stringify({chat_text: "I hold the seven of hearts", HEADERS: {}}));
  await new Promise((ok) => setTimeout(ok, 1000));
  ws.close();
  return got;
}"""


def quick_play(browser, server: str, size: str):
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1)
    page = context.new_page()
    errors = PageErrors(page)
    frames: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))),
    )
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#my-hand .hand-card").first.wait_for()
    page.locator('#connection[data-state="connected"]').wait_for()
    return context, page, errors, frames


@pytest.mark.parametrize("size", ["360x740", "1280x800"])
def test_a_phrase_is_sent_with_one_tap_and_free_text_does_not_exist_at_a_rated_table(
    browser, server, size
):
    context, page, errors, _frames = quick_play(browser, server, size)
    page.get_by_text("Chat", exact=True).click()
    drawer = page.locator("#chat-sheet .sheet-body")
    drawer.wait_for()
    assert page.locator("#chat-text, [name=chat_text]").count() == 0
    assert page.get_by_role("textbox").count() == 0
    page.get_by_text("Only phrases and emotes here").wait_for()
    assert page.evaluate(DRAWER_OUT) == []

    page.get_by_role("button", name="Nice one!").click()
    line = page.locator("#chat-log .chat-line", has_text="Nice one!")
    line.wait_for(timeout=5_000)
    # The log the socket filled is still the page's live region, with its name.
    assert page.get_attribute("#chat-log", "aria-live") == "polite"
    assert page.get_attribute("#chat-log", "aria-label")
    page.get_by_role("button", name="Happy").click()
    page.locator("#chat-log .chat-line", has_text="\N{GRINNING FACE}").wait_for(timeout=5_000)
    page.screenshot(path=ARTIFACTS / f"chat-{size}-drawer.png")

    # Closed, the table is back; the newest message is over the sender's own seat (the hand).
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Good game").wait_for(state="hidden")
    page.get_by_role("button", name="Nice one!").wait_for(state="hidden")
    page.get_by_text("Chat", exact=True).click()
    page.get_by_role("button", name="Good game").click()
    page.keyboard.press("Escape")
    bubble = page.locator(".chat-bubble.is-shown", has_text="Good game")
    bubble.wait_for(timeout=5_000)
    # Above the hand, and still there when a board swapped in meanwhile moves the hand (the
    # bots' moves may come now): the bubble follows its seat.
    # Both boxes are read in the moment the bubble is seen above the hand: it hides by
    # itself a few seconds later, which on a slow machine can come before a second look.
    box, hand = page.wait_for_function(
        "() => { const b = document.querySelector('.chat-bubble.is-shown'); "
        "const h = document.getElementById('my-hand'); if (!b || !h) return false; "
        "const [r, s] = [b.getBoundingClientRect(), h.getBoundingClientRect()]; "
        "if (r.bottom > s.top + 4) return false; "
        "return [{x: r.x, y: r.y, width: r.width, height: r.height}, {y: s.y}]; }",
        timeout=3_000,
    ).json_value()
    assert box["y"] + box["height"] <= hand["y"] + 4, (box, hand)
    assert 0 <= box["x"] and box["x"] + box["width"] <= SIZES[size]["width"]
    page.screenshot(path=ARTIFACTS / f"chat-{size}-bubble.png")
    bubble.wait_for(state="hidden", timeout=8_000)

    # A free text frame crafted by hand on a socket of its own is refused; nothing is said.
    path = re.search(r"/games/\d+/$", page.url).group(0)
    got = page.evaluate(CRAFTED, f"/ws/game{path[len('/games') :]}")
    assert any("Only the phrases and emotes can be sent at this table" in g for g in got), got
    assert not any("seven of hearts" in g for g in got)
    assert page.locator("#chat-log", has_text="seven of hearts").count() == 0

    # Kept with the game: a new page (a new socket) is sent the talk so far.
    page.reload()
    page.locator('#connection[data-state="connected"]').wait_for()
    page.locator("#chat-log .chat-line", has_text="Nice one!").wait_for(
        state="attached", timeout=5_000
    )
    assert page.locator("#chat-log .chat-line").count() == 3
    errors.assert_none()
    context.close()


def test_a_watchers_phrase_never_reaches_the_players_socket_before_the_end(browser, server):
    context, page, errors, frames = quick_play(browser, server, "1280x800")
    url = page.url

    watching = browser.new_context(viewport=SIZES["360x740"], device_scale_factor=1)
    watcher = watching.new_page()
    watcher_errors = PageErrors(watcher)
    sign_up(watcher, server)
    watcher.goto(url)
    watcher.locator('#connection[data-state="connected"]').wait_for()
    watcher.get_by_text("Chat", exact=True).click()
    watcher.get_by_text("the players see what watchers say only when the game ends").wait_for()
    watcher.get_by_role("button", name="Hurry up!").click()
    watcher.locator("#chat-log .chat-line", has_text="Hurry up!").wait_for(timeout=5_000)
    watcher.screenshot(path=ARTIFACTS / "chat-360x740-watcher.png")

    # The player says something; the watcher sees it: the socket is live both ways.
    page.get_by_text("Chat", exact=True).click()
    page.get_by_role("button", name="Nice one!").click()
    watcher.locator("#chat-log .chat-line", has_text="Nice one!").wait_for(timeout=5_000)
    page.locator("#chat-log .chat-line", has_text="Nice one!").wait_for(timeout=5_000)

    # The watcher reports the player's message, then mutes the player: the buttons came
    # with the line over the socket, and work as the drawer's own do.
    line = watcher.locator("#chat-log .chat-line", has_text="Nice one!")
    line.get_by_role("button", name="Report").click()
    watcher.get_by_text("Reported: staff will read the message").wait_for(timeout=5_000)
    line.get_by_role("button", name="Mute").click()
    watcher.get_by_text("You will not see what").wait_for(timeout=5_000)
    line.wait_for(state="hidden")
    page.get_by_role("button", name="Good game").click()
    page.locator("#chat-log .chat-line", has_text="Good game").wait_for(timeout=5_000)
    watcher.get_by_role("button", name="Thanks!").click()
    watcher.locator("#chat-log .chat-line", has_text="Thanks!").wait_for(timeout=5_000)
    assert watcher.locator("#chat-log", has_text="Good game").count() == 0
    watcher.screenshot(path=ARTIFACTS / "chat-360x740-watcher-muted.png")

    assert frames, "the player's socket was never heard"
    assert not [f for f in frames if "Hurry up!" in f or "(watching)" in f]
    assert page.locator("#chat-log", has_text="Hurry up!").count() == 0
    errors.assert_none()
    watcher_errors.assert_none()
    watching.close()
    context.close()
