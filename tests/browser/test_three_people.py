"""Three people, each in their own browser, play one game together over the WebSocket.

Each person is a separate browser context (a session of their own). The first opens a
public table with both other seats open for people; the others see it appear in their
lobby without reloading and join; the third join deals, and every move from then on
reaches all three tables live. No page ever holds a card of another seat's hand.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import ARTIFACTS, GAME_SECONDS, PageErrors, act, hand_seq, sign_up

pytestmark = pytest.mark.browser

# htmx's ws extension fires htmx:wsOpen once a socket is connected: count them, so the
# test waits for a socket rather than for a while. The mark proves a page never reloaded.
COUNT_SOCKETS = """
window.socketsOpened = 0;
document.addEventListener("htmx:wsOpen", () => { window.socketsOpened += 1; });
"""
SEEN = """() => ({
  hand: [...document.querySelectorAll("#my-hand [data-card]")].map(e => e.dataset.card),
  everywhere: [...document.querySelectorAll("[data-card]")].map(e => e.dataset.card),
  panels: [...document.querySelectorAll("#seats .seat-panel")].map(p => ({
    name: p.querySelector(".seat-name").firstChild.textContent.trim(),
    cards: p.querySelector(".seat-cards").textContent.trim(),
  })),
})"""

# What each page says about the game so far: its move list, and each opponent's last turn.
STORY = """() => ({
  lines: [...document.querySelectorAll(".move-line")].map(li => li.textContent.trim()),
  last: Object.fromEntries([...document.querySelectorAll("#seats .seat-panel")].map(p => [
    p.querySelector(".seat-name").firstChild.textContent.trim(),
    p.querySelector(".seat-last")?.textContent.replace("Last turn:", "").trim() ?? "",
  ])),
})"""


def wait_for_socket(page) -> None:
    page.wait_for_function("window.socketsOpened > 0", timeout=10_000)


def mark_page(page) -> None:
    page.evaluate("window.notReloaded = true")


def assert_not_reloaded(page) -> None:
    assert page.evaluate("window.notReloaded === true"), "the page reloaded"


def open_a_public_table(page, server: str) -> int:
    page.get_by_role("link", name="New table").click()
    page.wait_for_url(f"{server}/tables/new/")
    page.get_by_label("Anyone: the table is listed in the lobby").check()
    page.get_by_label("Seat 1:").select_option(label="Open for people")
    page.get_by_label("Seat 2:").select_option(label="Open for people")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    return int(re.search(r"/games/(\d+)/$", page.url).group(1))


def join_from_the_lobby(page, game_id: int, open_seats: int) -> None:
    """The table appears in the lobby live (the socket swaps the lists), with its open
    seats up to date; press its Join."""
    join = page.locator(f"#join-{game_id}")
    table = page.locator(".table-item", has=join)
    table.get_by_text(f"{open_seats} open seat").wait_for(timeout=10_000)
    assert_not_reloaded(page)
    join.click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/$"))


def wait_for_same_board(pages) -> int:
    """Every table shows the newest version of the game, received over its socket."""
    newest = max(int(hand_seq(p)) for p in pages)
    for page in pages:
        page.wait_for_function(
            "n => +document.querySelector('#table-status').dataset.seq >= n", arg=newest
        )
    assert len({hand_seq(p) for p in pages}) == 1
    return newest


def assert_hands_private(pages, names: list[str]) -> None:
    """No card of one person's hand appears anywhere on another person's page, and each
    page counts the others' cards right."""
    seen = [p.evaluate(SEEN) for p in pages]
    for i, mine in enumerate(seen):
        assert mine["hand"], f"{names[i]} holds no cards mid-game"
        for j, theirs in enumerate(seen):
            if i == j:
                continue
            leaked = set(mine["hand"]) & set(theirs["everywhere"])
            assert not leaked, f"{names[j]}'s page shows {names[i]}'s cards {leaked}"
            panel = next(p for p in theirs["panels"] if p["name"] == names[i])
            count = len(mine["hand"])
            assert panel["cards"] == f"{count} card{'s' if count != 1 else ''}"


def assert_story_agrees(pages, names: list[str]) -> None:
    """All three pages tell the same moves, live: as many lines in each move list, the
    newest told as "You …" on the mover's page and with the mover's name on the others,
    whose panel for the mover says what it did."""
    stories = [p.evaluate(STORY) for p in pages]
    assert len({len(s["lines"]) for s in stories}) == 1, [s["lines"] for s in stories]
    if not stories[0]["lines"]:
        return
    newest = [s["lines"][-1] for s in stories]
    mover = next(i for i, line in enumerate(newest) if line.startswith("You "))
    did = newest[mover].removeprefix("You ")
    for i, story in enumerate(stories):
        if i != mover:
            assert newest[i].startswith(f"{names[mover]} "), (names[mover], newest[i])
            assert story["last"][names[mover]] == did, (story["last"], did)


def whose_turn(pages):
    """The page that has an action to take, and the action: Fold a Draw call, Draw, or
    (the dealer's first turn, or after drawing) Discard. None while a board is on its way."""
    for page in pages:
        for action in ("Fold", "Draw", "Discard"):
            if page.get_by_role("button", name=action, exact=True).is_visible():
                return page, action
    return None, None


def play_together(pages, names: list[str]) -> int:
    deadline = time.monotonic() + GAME_SECONDS
    moves = 0
    while not pages[0].locator("#table-result").is_visible():
        assert time.monotonic() < deadline, "the game did not end in time"
        wait_for_same_board(pages)
        if pages[0].locator("#table-result").is_visible():
            break
        assert_hands_private(pages, names)
        assert_story_agrees(pages, names)
        page, action = whose_turn(pages)
        if page is None:
            pages[0].wait_for_timeout(50)
            continue
        if action == "Discard":
            page.locator("#my-hand .hand-card").last.click()
            assert page.locator("#my-hand input[name=cards]:checked").count() == 1
        act(page, action)
        moves += 1
    return moves


def test_three_people_sign_up_open_a_table_join_it_and_play_it_to_the_end(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    contexts = [browser.new_context(viewport={"width": 1000, "height": 900}) for _ in range(3)]
    for context in contexts:
        context.add_init_script(COUNT_SOCKETS)
    pages = [c.new_page() for c in contexts]
    errors = [PageErrors(p) for p in pages]
    names = [sign_up(p, server) for p in pages]
    for page in pages[1:]:  # in the lobby, listening for new tables
        wait_for_socket(page)
        mark_page(page)
        assert page.locator("#open-tables-title").is_visible()

    first, second, third = pages
    game_id = open_a_public_table(first, server)
    wait_for_socket(first)
    mark_page(first)
    assert first.locator("#seats .seat-panel.is-open").count() == 2

    join_from_the_lobby(second, game_id, open_seats=2)
    first.locator("#seats").get_by_text(names[1]).wait_for()  # the newcomer, live
    assert first.locator("#seats .seat-panel.is-open").count() == 1
    wait_for_socket(second)
    mark_page(second)

    join_from_the_lobby(third, game_id, open_seats=1)  # the last seat: the cards are dealt
    mark_page(third)
    for page in pages:
        page.locator("#my-hand .hand-card").first.wait_for(timeout=10_000)
    assert_not_reloaded(first)
    assert_not_reloaded(second)

    moves = play_together(pages, names)

    assert moves >= 3
    for index, page in enumerate(pages, start=1):
        result = page.locator("#table-result")
        result.wait_for(timeout=10_000)
        assert_not_reloaded(page)
        text = result.inner_text()
        assert result.get_by_role("heading", level=2).inner_text()
        assert len(re.findall(r"\d+ points?", text)) == 3, text
        assert "Payments" in text and " pays " in text, text
        assert all(name in text for name in names)
        assert re.search(rf"{names[index - 1]}\s+\(you\)", text), text
        assert re.search(r"The seed was \d+", page.locator("#table-fairness").text_content())
        page.screenshot(path=ARTIFACTS / f"three-people-result-{index}.png", full_page=True)
    for page_errors in errors:
        page_errors.assert_none()
    for context in contexts:
        context.close()


def test_a_person_gets_up_from_a_table_nobody_joined(browser, server):
    """A table waits for people; its only person leaves it, on a phone, and it is gone
    from their games (it held a place under the limit of tables for ever)."""
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    game_id = open_a_public_table(page, server)
    leave = page.get_by_role("button", name="Leave this table")
    leave.wait_for()
    page.screenshot(path=ARTIFACTS / "table-waiting-360x740.png")
    box = leave.bounding_box()
    assert box["y"] + box["height"] <= 740 and box["height"] >= 40

    # Once connected, the part has come again over the socket, whose frames carry no
    # CSRF token (htmx sends it in a header).
    page.locator('#connection[data-state="connected"]').wait_for()
    leave.click()

    page.wait_for_url(f"{server}/")
    assert f"You left table {game_id}." in page.locator(".messages").inner_text()
    assert page.locator(f"#game-link-{game_id}").count() == 0
    errors.assert_none()
    context.close()
