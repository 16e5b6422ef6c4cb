"""Felt at once (issue 48): every move's button moves its cards on the screen in the tap's
own task, before the server answers, and the server's board then confirms them; and the
sounds of play, off until turned on in the Menu.

From the scripted busy game (tests/table/busy.py) at the third seat's turn: Draw, Meld,
Lay off and Discard pressed by their buttons; from MANY_WAYS, Take discard. What the
person sees is read as the bench reads it (bench/mobile.py): the cards shown in the hand,
the discard pile's top, the cards on the felt. A refused move put back is
tests/browser/test_card_table_in_browser.py's.
"""

from __future__ import annotations

import uuid

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PASSWORD,
    SIZES,
    PageErrors,
    hand_seq,
    log_in,
    wait_for_new_board,
)

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "card-table"

BUSY = "from tests.table.busy import set_up; print(set_up({names!r}, {pw!r}, {upto}))"
MANY = (
    "from tests.table.busy import MANY_WAYS, set_up; "
    "print(set_up({names!r}, {pw!r}, {upto}, MANY_WAYS))"
)

# Choose these cards (and the meld holding a card, to lay off on), press the button, and
# return what is seen on the screen before and right after, in the same task: nothing has
# come from the server in between.
PRESS = """([selector, cards, onto]) => {
  const shown = el => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const face = el => el.dataset.card || el.textContent.trim() || "?";
  const seen = () => ({
    hand: [...document.querySelectorAll("#my-hand .hand > li")].filter(shown)
      .map(li => face(li.querySelector(".card, .hand-card"))),
    top: ([...document.querySelectorAll("#table-piles .pile-discard > .card:not(.empty)")]
      .filter(shown).map(face)[0]) || "",
    felt: [...document.querySelectorAll("#table-melds .card")].filter(shown).length,
  });
  document.querySelectorAll("#my-hand input[name=cards]").forEach(input => {
    input.checked = cards.includes(input.value);
  });
  if (onto) {
    const meld = [...document.querySelectorAll("#table-melds .meld-pick")]
      .find(m => m.querySelector(`[data-card="${onto}"]`));
    meld.querySelector("input[name=meld]").checked = true;
  }
  const before = seen();
  document.querySelector(selector).click();
  return [before, seen()];
}"""


def person_at(manage, script: str, upto: int, seat: int, browser, server, size="360x740"):
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    made = manage("shell", "-c", script.format(names=names, pw=PASSWORD, upto=upto))
    game = int(made.split()[-1])
    context = browser.new_context(viewport=SIZES[size], has_touch=True)
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, names[seat], PASSWORD)
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    return context, page, errors


def press(page, selector: str, cards=(), onto: str = "") -> tuple[dict, dict]:
    seq = hand_seq(page)
    before, after = page.evaluate(PRESS, [selector, list(cards), onto])
    wait_for_new_board(page, seq)
    return before, after


def test_each_moves_button_moves_its_cards_before_the_server_answers(browser, server, manage):
    context, page, errors = person_at(manage, BUSY, 10, 2, browser, server)

    # Draw: a card arrives face down at the end of the hand; the board's is the 9 of spades.
    before, after = press(page, "#act-draw")
    assert after["hand"] == [*before["hand"], "?"]
    held = [c.get_attribute("data-card") for c in page.locator("#my-hand .hand-card").all()]
    assert len(held) == 13 and "9S" in held

    # Meld: the three cards leave the hand for the felt.
    before, after = press(page, "#act-meld", ["5H", "6H", "7H"])
    assert not {"5H", "6H", "7H"} & set(after["hand"]) and after["felt"] == before["felt"] + 3
    mine = page.locator("#table-melds .meld-group[data-mine] [data-card]")
    assert {c.get_attribute("data-card") for c in mine.all()} == {"5H", "6H", "7H"}

    # Lay off: the 9 of spades onto the 6-7-8 of spades.
    before, after = press(page, "#act-layoff", ["9S"], onto="6S")
    assert "9S" not in after["hand"] and after["felt"] == before["felt"] + 1
    grown = page.locator("#table-melds .meld").filter(has=page.locator('[data-card="6S"]'))
    assert "9S" in [c.get_attribute("data-card") for c in grown.locator("[data-card]").all()]

    # Discard: the 3 of hearts leaves the hand and lies on the pile.
    page.screenshot(path=SHOTS / "360x740-before-discard.png")
    before, after = press(page, "#act-discard", ["3H"])
    assert "3H" not in after["hand"] and len(after["hand"]) == len(before["hand"]) - 1
    assert after["top"] != before["top"] and after["top"].startswith("3")
    top = page.locator("#table-piles .pile-discard > .card[data-card]")
    assert top.get_attribute("data-card") == "3H"
    assert page.locator(".is-pending, .is-leaving").count() == 0
    errors.assert_none()
    context.close()


def test_take_discard_lays_the_discard_and_its_cards_on_the_felt_at_once(browser, server, manage):
    # MANY_WAYS: the 5 of clubs on the pile; Ben takes it with two of his three fives.
    context, page, errors = person_at(manage, MANY, 1, 1, browser, server, "740x360")
    before, after = press(page, "#act-take", ["5D", "5H"])
    assert before["top"] == "5C" and after["top"] == ""
    assert not {"5D", "5H"} & set(after["hand"]) and after["felt"] == before["felt"] + 3
    mine = page.locator("#table-melds .meld-group[data-mine] [data-card]")
    assert {c.get_attribute("data-card") for c in mine.all()} == {"5C", "5D", "5H"}
    errors.assert_none()
    context.close()


def test_the_sounds_of_play_are_off_until_turned_on_then_a_discard_sounds(browser, server, manage):
    context, page, errors = person_at(manage, BUSY, 10, 2, browser, server)
    page.evaluate(
        "window.sounds = []; document.addEventListener('tongits:sound',"
        " e => window.sounds.push(e.detail.name))"
    )
    page.locator("#table-center").click()  # a first tap lets the page make sound at all
    page.locator("#menu-sheet > summary").click()
    toggle = page.get_by_role("checkbox", name="Sounds of play: draws, discards, melds, the end")
    assert toggle.is_visible() and not toggle.is_checked()  # off by default
    page.keyboard.press("Escape")
    press(page, "#act-draw")
    assert page.evaluate("window.sounds") == []  # none while off

    page.locator("#menu-sheet > summary").click()
    toggle.check()
    page.screenshot(path=SHOTS / "360x740-menu-sounds.png")
    page.keyboard.press("Escape")
    press(page, "#act-discard", ["3H"])
    assert page.evaluate("window.sounds")[0] == "discard"
    assert int(page.locator("html").get_attribute("data-sounds")) >= 1

    # Kept on this device.
    page.reload()
    page.locator("#menu-sheet > summary").click()
    assert toggle.is_checked()
    errors.assert_none()
    context.close()
