"""The table as one screen (issue 24): whole games at five screen sizes, phones upright
and on their side and a desktop, with the hand, the buttons, the piles and every meld in
view at every turn and the page never scrolling; a refusal that goes with the next board;
a connection that says what it is and sends nothing while it is not there.

Screenshots of each size at the start of a hand, mid-game with melds, and the result go
to artifacts/ (the Draw call's are made by tests/browser/test_keyboard_at_the_table.py).
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PASSWORD,
    SIZES,
    PageErrors,
    act,
    hand_seq,
    log_in,
    out_of_view,
    play_turns_until_the_end,
    sign_up,
    tap_card,
    wait_for_new_board,
)

pytestmark = pytest.mark.browser


def quick_play(browser, server, size: str):
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#my-hand .hand-card").first.wait_for()
    page.locator('#connection[data-state="connected"]').wait_for()
    return context, page, errors


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_game_is_played_on_one_screen_without_scrolling(browser, server, size):
    ARTIFACTS.mkdir(exist_ok=True)
    context, page, errors = quick_play(browser, server, size)
    page.screenshot(path=ARTIFACTS / f"screen-{size}-start.png")
    assert out_of_view(page) == []
    shot = {"melds": False}

    def every_turn(turn: int) -> None:
        if not shot["melds"] and page.locator("#table-center .meld").count():
            page.screenshot(path=ARTIFACTS / f"screen-{size}-melds.png")
            shot["melds"] = True
        assert out_of_view(page) == [], f"turn {turn}"

    play_turns_until_the_end(page, every_turn)
    page.wait_for_timeout(400)  # the result sheet's content settles
    page.screenshot(path=ARTIFACTS / f"screen-{size}-result.png")
    # The result leads with your own outcome, then who won and how, and offers the coach's
    # review of the game.
    result = page.locator("#table-result")
    assert re.match(r"You (won|lost|neither) ", result.get_by_role("heading", level=2).inner_text())
    assert re.search(r" won ", result.locator(".result-end").inner_text())
    assert result.get_by_role("link", name="Review this game").is_visible()
    assert result.get_by_role("button", name="Play again").is_visible()
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    errors.assert_none()
    context.close()


def my_turn(page, button: str) -> int:
    """Play on (drawing, discarding the newest card, folding a Draw call) until ``button``
    is offered to the person; a game the bots end first (a random deal) is followed by
    Play again. Returns the id of the game where it is offered."""
    wanted = page.get_by_role("button", name=button, exact=True)
    for _ in range(600):
        if wanted.is_visible():
            return int(page.url.rstrip("/").rsplit("/", 1)[1])
        if page.locator("#table-result").is_visible():
            ended = page.url.rstrip("/").rsplit("/", 1)[1]
            page.locator("#table-result").get_by_role("button", name="Play again").click()
            page.wait_for_url(re.compile(rf"/games/(?!{ended}/)\d+/$"))
            page.locator('#connection[data-state="connected"]').wait_for()
            continue
        for name in ("Fold", "Draw", "Discard"):
            if page.get_by_role("button", name=name, exact=True).is_visible():
                if name == "Discard":
                    tap_card(page.locator("#my-hand .hand-card").last)
                act(page, name)
                break
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"{button} was never offered")


def test_a_refusal_goes_away_with_the_next_board(browser, server):
    context, page, errors = quick_play(browser, server, "360x740")
    my_turn(page, "Discard")
    message = page.locator("#messages")
    cards = page.locator("#my-hand .hand-card")
    tap_card(cards.nth(0))
    tap_card(cards.nth(1))
    page.get_by_role("button", name="Discard", exact=True).click()
    message.get_by_text("Choose one card to discard.").wait_for()
    assert out_of_view(page) == []  # the message takes its room from the felt
    page.screenshot(path=ARTIFACTS / "screen-360x740-refusal.png")

    tap_card(cards.nth(0))  # one card, as asked
    act(page, "Discard")
    assert message.inner_text().strip() == ""
    assert page.locator("#messages p").count() == 0
    errors.assert_none()
    context.close()


# The bar's first row, each item's top and bottom: title, connection, Moves, Menu, Chat.
BAR_ROW = """() => [...document.querySelectorAll('.table-bar > :not(.turn-bar)')]
  .filter(e => e.offsetParent && e.getBoundingClientRect().width > 1)
  .map(e => {
    const r = e.getBoundingClientRect();
    return [e.id || e.className, r.top, r.bottom];
  })"""

# The longest words the bar has (Filipino's "Mga galaw" and "Usapan"), a table number of
# six digits, and Chat's unread dot.
LONG_BAR = """() => {
  const t = document.getElementById('table-title');
  t.firstChild.textContent = 'Mesa 123456';
  const words = {'moves-sheet': 'Mga galaw', 'chat-sheet': 'Usapan'};
  for (const id in words) {
    document.querySelector('#' + id + ' > summary').firstChild.textContent = words[id];
  }
  document.getElementById('chat-unread').setAttribute('data-on', '1');
}"""


@pytest.mark.parametrize("size", ["360x740", "740x360"])
def test_the_bar_is_one_row_with_chat_on_a_phone(browser, server, size):
    """Chat wrapped onto a row of its own at 360 px (a table number of two digits was
    enough): the title now gives way, cut with an ellipsis, and screen readers still
    read it whole."""
    context, page, errors = quick_play(browser, server, size)
    page.evaluate(LONG_BAR)
    row = page.evaluate(BAR_ROW)
    names = [name for name, _, _ in row]
    assert any("chat-sheet" in name for name in names), names
    first = min(top for _, top, _ in row)
    assert all(top < first + 24 for _, top, _ in row), row  # one row
    assert page.locator("#table-title").inner_text().strip() == "Mesa 123456"
    page.screenshot(path=ARTIFACTS / f"screen-{size}-bar.png")
    assert out_of_view(page) == []
    errors.assert_none()
    context.close()


PEOPLES_MOVES = (
    "from games.models import Move; "
    "print(Move.objects.filter(game_id={game}, by_server=False).count())"
)


def peoples_moves(manage, game: int) -> int:
    """The moves the person made in the game, as the database holds them."""
    return int(manage("shell", "-c", PEOPLES_MOVES.format(game=game)).split()[-1])


def test_offline_the_buttons_wait_and_nothing_is_sent_when_the_network_is_back(
    browser, server, manage
):
    context, page, errors = quick_play(browser, server, "412x915")
    game = my_turn(page, "Draw")
    moves = peoples_moves(manage, game)
    seq = hand_seq(page)
    draw = page.get_by_role("button", name="Draw", exact=True)

    context.set_offline(True)
    page.locator('#connection[data-state="offline"]').wait_for()
    assert page.locator("#connection").inner_text().startswith("Offline")
    assert draw.is_disabled() and "Not connected" in (draw.get_attribute("title") or "")
    assert page.locator("#my-hand .offline-note").inner_text().startswith("Not connected")
    assert out_of_view(page) == []
    page.screenshot(path=ARTIFACTS / "screen-412x915-offline.png")
    # A move that slips past the disabled button (a form submitted from script) is neither
    # sent nor queued for later, nor posted as a plain form.
    page.evaluate(
        """() => { const b = document.getElementById("act-draw"); b.disabled = false;
                   document.getElementById("my-hand").requestSubmit(b); }"""
    )
    page.wait_for_timeout(300)

    context.set_offline(False)
    page.locator('#connection[data-state="connected"]').wait_for()
    assert draw.is_enabled() and page.locator("#my-hand .offline-note").count() == 0
    page.wait_for_timeout(1500)  # time for anything queued to go out, and its board
    assert hand_seq(page) == seq
    assert peoples_moves(manage, game) == moves

    act(page, "Draw")  # connected again, a move goes out once
    assert peoples_moves(manage, game) == moves + 1
    errors.assert_none()
    context.close()


def test_a_session_ended_in_another_tab_is_said_at_the_table_with_a_way_to_log_in(browser, server):
    context, page, errors = quick_play(browser, server, "1280x800")
    other = context.new_page()
    other.goto(f"{server}/")
    other.get_by_role("button", name="Log out").click()

    page.locator('#connection[data-state="ended"]').wait_for(timeout=10_000)
    assert "session has ended" in page.locator("#connection").inner_text()
    log_in_again = page.get_by_role("link", name="Log in again")
    assert log_in_again.is_visible()
    assert "/accounts/login/?next=/games/" in log_in_again.get_attribute("href")
    for button in page.locator('#my-hand button[name="action"]').all():
        assert button.is_disabled()
    page.screenshot(path=ARTIFACTS / "screen-1280x800-session-ended.png")
    errors.assert_none()
    context.close()


# Counts the buzzes and the tones the page makes, in place of the device's own.
COUNT_ALERTS = """
window.buzzes = 0;
window.tones = 0;
navigator.vibrate = () => { window.buzzes += 1; return true; };
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.tones += 1;
  return start.apply(this, args);
};
"""


def test_your_turn_sounds_and_buzzes_unless_turned_off_or_asked_for_less_motion(browser, server):
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="no-preference")
    context.add_init_script(COUNT_ALERTS)
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator('#connection[data-state="connected"]').wait_for()
    page.locator("#table-center").click()  # a first tap lets the page make sound at all
    page.locator("#menu-sheet > summary").click()
    assert page.get_by_label("Sound", exact=True).is_checked()
    assert page.get_by_label("Vibrate").is_checked()
    page.keyboard.press("Escape")

    for game in range(5):
        my_turn(page, "Discard")  # after a game the bots ended, Play again
        buzzes, tones = page.evaluate("[window.buzzes, window.tones]")
        if game == 0:
            assert buzzes <= 1  # one if the turn came with a board (not at the deal)
        tap_card(page.locator("#my-hand .hand-card").last)
        act(page, "Discard")
        page.wait_for_function(
            "n => window.buzzes > n || !document.getElementById('table-result').hidden",
            arg=buzzes,
            timeout=15_000,
        )
        if not page.locator("#table-result").is_visible():
            break  # (rarely a bot goes out before the person's next turn)
    else:
        pytest.fail("five games in a row ended before the person's next turn")
    # The next turn: one buzz and a two-note chime.
    assert page.evaluate("[window.buzzes, window.tones]") == [buzzes + 1, tones + 2]

    # Turned off in the menu, remembered on this device.
    page.locator("#menu-sheet > summary").click()
    page.get_by_label("Sound", exact=True).uncheck()
    page.get_by_label("Vibrate").uncheck()
    page.keyboard.press("Escape")
    page.reload()
    page.locator("#menu-sheet > summary").click()
    assert not page.get_by_label("Sound", exact=True).is_checked()
    assert not page.get_by_label("Vibrate").is_checked()
    errors.assert_none()
    context.close()

    # Off from the start for a device that asks for less motion.
    calm = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = calm.new_page()
    page.goto(server)
    sign_up(page, server)
    page.get_by_role("button", name="Quick play").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#menu-sheet > summary").click()
    assert not page.get_by_label("Sound", exact=True).is_checked()
    assert not page.get_by_label("Vibrate").is_checked()
    calm.close()


def drag(page, card, target, at: tuple[float, float] = (0.5, 0.5)) -> None:
    """Carry a card of the hand by its corner onto ``target`` (at that fraction of its
    width and height), as a finger or mouse does."""
    start = card.bounding_box()
    end = target.bounding_box()
    x0, y0 = start["x"] + 6, start["y"] + 12
    x1, y1 = end["x"] + end["width"] * at[0], end["y"] + end["height"] * at[1]
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
        page.wait_for_timeout(15)
    page.mouse.up()


def test_a_card_dragged_onto_the_discard_pile_is_discarded_and_a_tap_still_chooses(browser, server):
    context, page, errors = quick_play(browser, server, "360x740")
    my_turn(page, "Discard")
    cards = page.locator("#my-hand .hand-card")
    tap_card(cards.nth(2))  # a tap chooses, as ever
    assert page.locator("#my-hand input[name=cards]:checked").count() == 1
    tap_card(cards.nth(2))
    assert page.locator("#my-hand input[name=cards]:checked").count() == 0

    thrown = cards.nth(3).get_attribute("data-card")
    held = cards.count()
    seq = hand_seq(page)
    drag(page, cards.nth(3), page.locator(".pile-discard"))
    wait_for_new_board(page, seq)
    assert page.locator(f'#my-hand [data-card="{thrown}"]').count() == 0
    assert page.locator("#my-hand .hand-card").count() == held - 1
    top = page.locator(".pile-discard > [data-card]").get_attribute("data-card")
    shown = page.locator("#moves-tail").text_content()
    assert top == thrown or "discarded" in shown  # a bot may have taken it since
    errors.assert_none()
    context.close()


def test_a_card_dragged_onto_the_felt_melds_it_with_the_cards_chosen(browser, server, manage):
    # The scripted game (tests/table/story.py) at Alice's turn: she draws A♥, chooses A♣ and
    # 2♣, and drags 3♣ onto the felt: the run A♣ 2♣ 3♣ is melded (R4).
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    code = f"from tests.table.story import set_up; print(set_up({names!r}, {PASSWORD!r}, 8))"
    game = int(manage("shell", "-c", code).split()[-1])
    context = browser.new_context(viewport=SIZES["740x360"])
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, names[0], PASSWORD)
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    act(page, "Draw")
    hand = page.locator("#my-hand")
    tap_card(hand.locator('[data-card="AC"]'))
    tap_card(hand.locator('[data-card="2C"]'))

    seq = hand_seq(page)
    drag(page, hand.locator('[data-card="3C"]'), page.locator("#table-melds"), at=(0.9, 0.9))
    wait_for_new_board(page, seq)
    mine = page.locator('#table-center .meld-group[aria-label="Your melds"] [data-card]')
    assert {"AC", "2C", "3C"} <= {c.get_attribute("data-card") for c in mine.all()}
    assert hand.locator('[data-card="3C"]').count() == 0
    errors.assert_none()
    context.close()
