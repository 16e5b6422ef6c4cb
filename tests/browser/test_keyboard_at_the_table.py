"""Enter on a chosen card never sends a move: Call Draw, Fold and Fight are only ever
made by pressing their own button.

Chromium answers Enter on a checkbox in a form by clicking the form's first enabled
submit button (a disabled default button does not stop it, unlike Enter in a text field).
On the hand that first button is Call Draw, Fold or Fight whenever one is offered, so one
key could end the game. The deal is chosen so that the person opens at once with a secret
set, which nobody can lay off on (R4, R5): at their next turn Call Draw is certain.
"""

from __future__ import annotations

import pytest

from games.engine.cards import CODES, RANK_MASKS, mask_of
from games.engine.deal import deal_from_seed
from tests.browser.support import ARTIFACTS, PageErrors, act, hand_seq, sign_up

pytestmark = pytest.mark.browser

# Fill a waiting table with two greedy bots and deal it from a chosen seed, through the
# same service the site uses. The table page is reloaded afterwards.
DEAL = """
from games import services
from games.models import Game
game = Game.objects.get(pk={game})
game.seats.filter(index__gt=0).update(bot_kind="greedy")
services.start_game(game, seed={seed})
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


def choose(page, codes: list[str]) -> None:
    for code in codes:
        page.locator(f'#my-hand label[data-card="{code}"]').click()


def test_enter_on_a_card_chosen_with_space_never_calls_draw(browser, server, manage):
    ARTIFACTS.mkdir(exist_ok=True)
    seed, four = a_seed_where_seat_0_deals_itself_four_of_a_kind()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    a_table_dealt_from(page, server, manage, seed)

    # The dealer's first turn: open with the secret set, then discard any card.
    choose(page, four)
    act(page, "Secret set")
    page.locator("#my-hand .hand-card").first.click()
    act(page, "Discard")
    call = page.get_by_role("button", name="Call Draw", exact=True)
    call.wait_for(timeout=10_000)  # both bots have played
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

    # Pressing the button itself still calls Draw: the bots answer and the game ends.
    act(page, "Call Draw")
    page.locator("#table-result").wait_for(timeout=10_000)
    errors.assert_none()
    context.close()
