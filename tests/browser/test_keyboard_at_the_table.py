"""Enter on a chosen card never sends a move: Call Draw, Fold and Fight are only ever
made by pressing their own button.

Chromium answers Enter on a checkbox in a form by clicking the form's first enabled
submit button (a disabled default button does not stop it, unlike Enter in a text field).
On the hand that first button is Call Draw, Fold or Fight whenever one is offered, so one
key could end the game. The deal is chosen so that the person opens at once with a secret
set, which nobody can lay off on (R4, R5): at their next turn Call Draw is certain.

The hand is one Tab stop (issue 24): the arrow keys go from card to card, Space chooses,
and after every new board focus is back in the hand, not on the page. The Draw call's
screen is photographed at each of the five sizes (artifacts/screen-<size>-draw.png).
"""

from __future__ import annotations

import pytest

from games.engine.cards import CODES, RANK_MASKS, mask_of
from games.engine.deal import deal_from_seed
from tests.browser.support import (
    ARTIFACTS,
    SIZES,
    PageErrors,
    hand_seq,
    out_of_view,
    sign_up,
    wait_for_new_board,
)

pytestmark = pytest.mark.browser

# Fill a waiting table with two greedy bots and deal it from a chosen seed, through the
# same service the site uses. The table page is reloaded afterwards.
DEAL = """
from games.play import dealing
from games.models import Game
game = Game.objects.get(pk={game})
game.seats.filter(index__gt=0).update(bot_kind="greedy")
dealing.start_game(game, seed={seed})
"""


def a_seed_where_seat_0_deals_itself_four_of_a_kind() -> tuple[int, list[str]]:
    for seed in range(10_000):
        dealer, hands, _ = deal_from_seed(seed)
        hand = mask_of(hands[0])
        fours = [rank for rank in RANK_MASKS if hand & rank == rank]
        if dealer == 0 and fours:
            return seed, [CODES[c] for c in range(52) if fours[0] >> c & 1]
    raise AssertionError("no such seed below 10,000")


def a_table_dealt_from(page, server: str, manage, seed: int) -> None:
    page.get_by_role("link", name="New table").click()
    page.get_by_label("Seat 1:").select_option(label="Open for people")
    page.get_by_label("Seat 2:").select_option(label="Open for people")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(f"{server}/games/*/")
    game = int(page.url.rstrip("/").rsplit("/", 1)[1])
    manage("shell", "-c", DEAL.format(game=game, seed=seed))
    page.reload()
    page.locator("#my-hand .hand-card").first.wait_for()


FOCUSED = "() => document.activeElement && document.activeElement.value || ''"
IN_HAND = "() => !!document.activeElement.closest('#my-hand') && document.activeElement.name"
WAY_ON = "() => !!document.activeElement.closest('#table-result .result-actions')"


def test_the_hand_is_one_tab_stop_and_enter_on_a_card_never_calls_draw(browser, server, manage):
    ARTIFACTS.mkdir(exist_ok=True)
    seed, four = a_seed_where_seat_0_deals_itself_four_of_a_kind()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    a_table_dealt_from(page, server, manage, seed)
    page.locator('#connection[data-state="connected"]').wait_for()

    # One Tab stop: the arrows move along the hand, Tab leaves it, Shift+Tab comes back
    # to the card last moved to.
    cards = page.locator("#my-hand input[name=cards]")
    codes = [c.get_attribute("value") for c in cards.all()]
    assert page.locator('#my-hand input[name=cards][tabindex="0"]').count() == 1
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == codes[2]
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED) == codes[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    assert page.evaluate(IN_HAND) != "cards", "Tab stayed in the hand"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == codes[1]

    # The dealer's first turn, by keyboard: the four cards of the secret set chosen with
    # the arrows and Space, the button pressed; focus comes back to the hand.
    page.keyboard.press("Home")
    for code in codes:
        if code in four:
            page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    assert sorted(
        c.get_attribute("value") for c in page.locator("#my-hand input:checked").all()
    ) == sorted(four)
    seq = hand_seq(page)
    page.get_by_role("button", name="Secret set", exact=True).focus()
    page.keyboard.press("Enter")
    wait_for_new_board(page, seq)
    page.wait_for_function(IN_HAND)
    assert page.evaluate(IN_HAND) == "cards", "focus did not come back to the hand"
    page.keyboard.press("Space")
    seq = hand_seq(page)
    page.get_by_role("button", name="Discard", exact=True).focus()
    page.keyboard.press("Enter")
    wait_for_new_board(page, seq)
    page.wait_for_function(IN_HAND)
    assert page.evaluate(IN_HAND) == "cards", "focus did not come back to the hand"

    call = page.get_by_role("button", name="Call Draw", exact=True)
    call.wait_for(timeout=10_000)  # both bots have played
    assert page.evaluate(IN_HAND) == "cards", "a bot's move took focus from the hand"
    seq = hand_seq(page)

    card = page.locator("#my-hand input[name=cards]").first
    card.focus()
    page.keyboard.press("Space")
    assert card.is_checked()
    page.keyboard.press("Enter")
    page.wait_for_timeout(1500)  # time enough for a move to go out and its board to come back

    assert hand_seq(page) == seq, "Enter on a card sent a move"
    assert call.is_visible() and not page.locator("#table-result").is_visible()
    assert card.is_checked() and card.evaluate("el => el === document.activeElement")
    page.screenshot(path=ARTIFACTS / "table-enter-on-a-card.png")

    # Deciding whether to call Draw, the whole hand and the button are on the screen at
    # every size.
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=ARTIFACTS / f"screen-{size}-draw.png")
        assert out_of_view(page) == [], size

    # Pressing the button itself still calls Draw: the bots answer and the game ends.
    # Focus then goes from the hand, now under the result, to the way on (Play again).
    page.get_by_role("button", name="Call Draw", exact=True).focus()
    page.keyboard.press("Enter")
    page.locator("#table-result").wait_for(timeout=10_000)
    assert "called Draw" in page.locator(".result-how").inner_text()
    page.wait_for_function(WAY_ON)
    assert page.evaluate("() => document.activeElement.textContent") == "Play again"
    page.screenshot(path=ARTIFACTS / "table-result-focused.png")

    # Enter on Play again: the next table comes over the socket the page has (issue 52),
    # with no page load; the address and the board are the new game's.
    page.evaluate("window.notReloaded = true")
    ended = page.url
    page.keyboard.press("Enter")
    page.wait_for_function("url => location.href !== url", arg=ended, timeout=10_000)
    page.locator("#my-hand input[name=cards]").first.wait_for(timeout=10_000)
    assert page.evaluate("window.notReloaded === true"), "the page loaded again"
    assert page.locator("#table-result").is_hidden()
    game = page.url.rstrip("/").rsplit("/", 1)[1]
    assert (
        page.get_attribute("[ws-connect]", "data-game")
        == game
        != ended.rstrip("/").rsplit("/", 1)[1]
    )
    errors.assert_none()
    context.close()
