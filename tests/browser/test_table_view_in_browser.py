"""The table as a person reads it (issue 8): what each seat did last, the move list, the
whole discard pile, the seats around the felt on a phone, and the result with every
seat's melds. Screenshots of the table mid-game and of the result, at 1280x800 and at
360x740, go to artifacts/.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, phone, play_turns_until_the_end, sign_up

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}
# Nothing wider than the screen: the page never scrolls sideways.
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
DID = re.compile(r"drew|took|discarded|melded|laid|called|folded|fight")
MOVE_LINES = "() => [...document.querySelectorAll('.move-line')].map(li => li.innerText)"


def check_the_board(page) -> None:
    """Mid-game, on the person's turn: the move list tells the game so far, and each bot's
    panel says what it did last."""
    lines = page.evaluate(MOVE_LINES)
    assert lines, "the move list is empty mid-game"
    assert any(line.startswith("You ") for line in lines), lines
    for panel in page.locator("#seats .seat-panel").all():
        last = panel.locator(".seat-last")
        if last.count():
            assert DID.search(last.inner_text())
    assert page.locator("#seats .seat-panel .seat-last").count() >= 1


def open_the_discard_pile(page) -> None:
    """The pile opens to show every card in it, the top one last."""
    count = int(re.search(r"(\d+) in pile", page.locator(".pile-discard").inner_text()).group(1))
    if count == 0:
        return
    pile = page.locator("#discard-pile")
    summary = pile.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")  # by keyboard: a <details> opens with Enter
    cards = pile.locator(".discard-list [data-card]")
    cards.first.wait_for()
    assert cards.count() == count
    top = page.locator(".pile-discard > [data-card]").get_attribute("data-card")
    assert cards.last.get_attribute("data-card") == top


def test_the_table_tells_the_game_and_shows_the_result_with_every_seats_melds(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.time()
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#my-hand .hand-card").first.wait_for()
    seen = {"board": False}

    def mid_game(turn: int) -> None:
        if turn != 3:
            return
        check_the_board(page)
        open_the_discard_pile(page)
        page.screenshot(path=ARTIFACTS / "table-view-1280x800.png")
        with phone(browser, context, page.url) as small:
            small.locator("#my-hand .hand-card").first.wait_for()
            assert small.evaluate(SIDEWAYS) <= 0
            # On a phone the two opponents sit above the felt, side by side.
            boxes = [p.bounding_box() for p in small.locator("#seats .seat-panel").all()]
            center = small.locator("#table-center").bounding_box()
            assert all(b["y"] + b["height"] <= center["y"] + 1 for b in boxes)
            small.screenshot(path=ARTIFACTS / "table-view-360x740.png")
            small.screenshot(path=ARTIFACTS / "table-view-360-full.png", full_page=True)
        seen["board"] = True

    play_turns_until_the_end(page, mid_game)

    result = page.locator("#table-result")
    rows = result.locator(".result-row")
    assert rows.count() == 3
    assert "is-winner" in (rows.first.get_attribute("class") or "")  # the winner first
    winner = rows.first.locator(".result-line strong").first.inner_text()
    # The winner's melds, as the felt shows them now that the game is over.
    group = "Your melds" if "(you)" in rows.first.inner_text() else f"{winner}'s melds"
    on_felt = page.locator(f'#table-center .meld-group[aria-label="{group}"] [data-card]')
    in_result = rows.first.locator(".result-melds [data-card]")
    codes = sorted(c.get_attribute("data-card") for c in on_felt.all())
    assert sorted(c.get_attribute("data-card") for c in in_result.all()) == codes
    assert " pays " in result.inner_text() and "base " in result.inner_text()
    page.screenshot(path=ARTIFACTS / "table-view-result-1280x800.png", full_page=True)
    with phone(browser, context, page.url) as small:
        small.locator("#table-result").wait_for()
        assert small.evaluate(SIDEWAYS) <= 0
        small.screenshot(path=ARTIFACTS / "table-view-result-360x740.png", full_page=True)
    if seen["board"]:
        assert (ARTIFACTS / "table-view-1280x800.png").stat().st_mtime >= started
    errors.assert_none()
    context.close()
