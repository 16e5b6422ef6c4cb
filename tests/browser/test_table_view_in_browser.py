"""The table as a person reads it (issue 8): what each seat did last, the move list, the
whole discard pile, the seats around the felt on a phone, and the result with every
seat's melds. Screenshots of the table mid-game and of the result, at 1280x800 and at
360x740, go to artifacts/.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PASSWORD,
    PageErrors,
    act,
    log_in,
    phone,
    play_turns_until_the_end,
    sign_up,
    tap_card,
)

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}
# Nothing wider than the screen: the page never scrolls sideways.
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
DID = re.compile(r"drew|took|discarded|melded|laid|called|folded|fight")
MOVE_LINES = "() => [...document.querySelectorAll('.move-line')].map(li => li.textContent)"


# Every card of every meld on the felt shows its whole corner (rank and suit): the next
# card overlaps it only to the right of the corner.
HIDDEN_CORNERS = """() => {
  const hidden = [];
  document.querySelectorAll("#table-center .meld").forEach(meld => {
    const cards = [...meld.querySelectorAll(".card[data-card]")];
    cards.slice(0, -1).forEach((card, i) => {
      const corner = card.querySelector(".card-face").getBoundingClientRect();
      if (cards[i + 1].getBoundingClientRect().left < corner.right - 0.5) {
        hidden.push(card.dataset.card);
      }
    });
  });
  return hidden;
}"""
HINT_SHOWN = """() => [...document.querySelectorAll("#my-hand .hand-card")].filter(
  card => getComputedStyle(card, "::after").content !== "none").map(card => card.dataset.card)"""


def scripted_game(manage, upto: int) -> tuple[list[str], int]:
    """The scripted game of tests/table/story.py on the server, up to move ``upto``."""
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    code = f"from tests.table.story import set_up; print(set_up({names!r}, {PASSWORD!r}, {upto}))"
    return names, int(manage("shell", "-c", code).split()[-1])


def check_the_board(page) -> None:
    """Mid-game, on the person's turn: the move list tells the game so far, and each bot's
    panel says what it did last."""
    lines = page.evaluate(MOVE_LINES)
    assert lines, "the move list is empty mid-game"
    assert any(line.startswith("You ") for line in lines), lines
    for panel in page.locator("#seats .seat-panel").all():
        last = panel.locator(".seat-last")
        if last.count():  # its cards in a line, the words a tap away (issue 48)
            assert DID.search(last.text_content())
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
    # It opened over the table as a sheet; Escape closes it again.
    page.keyboard.press("Escape")
    cards.first.wait_for(state="hidden")
    assert pile.get_attribute("open") is None


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
            # Measured in one go in the page: a board arriving meanwhile swaps the panels.
            bottoms, top = small.evaluate(
                "() => [[...document.querySelectorAll('#seats .seat-panel')]"
                ".map(p => p.getBoundingClientRect().bottom),"
                " document.querySelector('#table-center').getBoundingClientRect().top]"
            )
            assert bottoms and all(bottom <= top + 1 for bottom in bottoms), (bottoms, top)
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


def test_a_blocked_seat_reads_why_melds_show_every_corner_and_the_hand_keeps_its_options(
    browser, server, manage
):
    # Bob has laid off on Alice's run (R5); Carol took the discard: it is Alice's turn.
    names, game_id = scripted_game(manage, upto=8)
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, names[0], PASSWORD)
    page.goto(f"{server}/games/{game_id}/")
    hand = page.locator("#my-hand")
    hand.locator(".hand-card").first.wait_for()

    said = hand.locator(".block-note").inner_text()
    assert said == f"{names[1]} laid off on your meld: you may not call Draw this turn."
    assert page.get_by_role("button", name="Call Draw").count() == 0
    assert page.evaluate(HIDDEN_CORNERS) == []
    assert page.evaluate(SIDEWAYS) <= 0
    page.screenshot(path=ARTIFACTS / "table-story-360x740.png", full_page=True)

    # The hint marks the run A♣ 2♣ 3♣ and the set A♣ A♦ A♠; the choice is remembered.
    assert page.evaluate(HINT_SHOWN) == []
    page.locator("#menu-sheet > summary").click()  # the hand's options are in the menu sheet
    page.get_by_label("Show melds").check()
    assert sorted(page.evaluate(HINT_SHOWN)) == ["2C", "3C", "AC", "AD", "AS"]
    page.get_by_label("Sort by rank").check()
    page.reload()
    hand.locator(".hand-card").first.wait_for()
    assert page.locator("#menu-sheet").get_attribute("open") is None
    assert page.get_by_label("Show melds").is_checked()
    assert page.get_by_label("Sort by rank").is_checked()
    assert sorted(page.evaluate(HINT_SHOWN)) == ["2C", "3C", "AC", "AD", "AS"]

    # A chosen card stays chosen when a new hand arrives that still holds it.
    tap_card(hand.locator('[data-card="AD"]'))
    act(page, "Draw")
    assert hand.locator('input[value="AD"]').is_checked()
    drawn = hand.locator(".hand-card.is-new")
    assert drawn.count() == 1  # the card drawn slides in; none with reduced motion
    assert drawn.evaluate("card => getComputedStyle(card).animationName") == "card-arrive"
    page.emulate_media(reduced_motion="reduce")
    assert drawn.evaluate("card => getComputedStyle(card).animationName") == "none"

    page.set_viewport_size(WIDE)
    assert page.evaluate(HIDDEN_CORNERS) == []
    page.screenshot(path=ARTIFACTS / "table-story-1280x800.png")
    errors.assert_none()
    context.close()
