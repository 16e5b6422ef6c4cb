"""News that reaches you (issue 48), on a phone with touch, upright (360x740) and on its
side (740x360): a friend's challenge reaches a person on the lobby, on a page without a
socket of its own, and at a table, as a toast at the bottom of the screen (above the hand
at a table) with Accept inside the screen, and a count on the Menu button; Accept seats
both in one tap. A person in the middle of a game is told they can accept once it is
over, and can then. A friend request's toast is answered at the table without leaving it;
a challenge taken back or out of time leaves the screen.

Screenshots go to artifacts/news-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.support import (
    ARTIFACTS,
    SIZES,
    TAPPABLE,
    PageErrors,
    play_turns_until_the_end,
    sign_up,
)

pytestmark = pytest.mark.browser

# This seat may move now: its Draw or Discard button is enabled and shown.
YOUR_TURN = (
    "() => [...document.querySelectorAll('#my-hand button[name=action]')].some(b =>"
    " ['Draw', 'Discard'].includes(b.textContent.trim()) && !b.disabled && b.offsetParent)"
)

PHONES = ("360x740", "740x360")

COUNT_SOCKETS = """
window.socketsOpened = 0;
window.framesIn = 0;
document.addEventListener("htmx:wsOpen", () => { window.socketsOpened += 1; });
document.addEventListener("htmx:wsAfterMessage", () => { window.framesIn += 1; });
"""


def phone(browser, size: str, locale: str = "en-US"):
    context = browser.new_context(
        viewport=SIZES[size], has_touch=True, is_mobile=True, locale=locale
    )
    page = context.new_page()
    page.add_init_script(COUNT_SOCKETS)
    return context, page, PageErrors(page)


def socket_open(page) -> None:
    page.wait_for_function("window.socketsOpened > 0", timeout=10_000)


def befriend(manage, a: str, b: str) -> None:
    manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model as m\n"
        "from games.social import services as s\n"
        f"a, b = m().objects.get(username='{a}'), m().objects.get(username='{b}')\n"
        "s.request_friend(a, b.pk)\ns.accept_friend(b, a.pk)",
    )


def challenge_from_friends(page, server: str, friend: str) -> None:
    """Two taps on Friends: Challenge, then Send (one hand, a Normal bot)."""
    try:
        page.goto(f"{server}/friends/")
    except PlaywrightError as error:
        # The page's own answer to a tap just before (Take it back) may be loading the same
        # page: that load is the one waited for.
        if "interrupted by another navigation" not in str(error):
            raise
        page.wait_for_url(f"{server}/friends/")
        page.wait_for_load_state()
    # Its socket sends the page's parts once more as it opens (a challenge form opened
    # before would close).
    page.wait_for_function("window.framesIn > 0", timeout=10_000)
    entry = page.locator(".friend", has_text=friend)
    entry.locator("summary").tap()
    entry.get_by_role("button", name="Send the challenge").tap()
    page.get_by_text("Challenge sent").wait_for()


def challenge_toast(page, name: str):
    toast = page.locator("#news-toasts .toast", has_text=f"{name} challenges you")
    toast.wait_for(timeout=10_000)
    return toast


def assert_tappable(locator) -> None:
    assert locator.evaluate(TAPPABLE) == ""


def menu_count(page, menu) -> str:
    return menu.locator(".news-count-number").inner_text()


def two_friends(browser, server, manage, size: str):
    (ann_context, ann, ann_errors) = phone(browser, size)
    (ben_context, ben, ben_errors) = phone(browser, size)
    ann_name, ben_name = sign_up(ann, server), sign_up(ben, server)
    befriend(manage, ann_name, ben_name)
    return (ann, ann_name, ann_errors), (ben, ben_name, ben_errors), (ann_context, ben_context)


@pytest.mark.parametrize("size", PHONES)
def test_a_challenge_reaches_the_lobby_as_a_toast_and_one_tap_seats_both(
    browser, server, manage, size
):
    ARTIFACTS.mkdir(exist_ok=True)
    (ann, ann_name, ann_errors), (ben, ben_name, ben_errors), contexts = two_friends(
        browser, server, manage, size
    )
    ben.goto(f"{server}/")
    socket_open(ben)

    challenge_from_friends(ann, server, ben_name)

    toast = challenge_toast(ben, ann_name)
    accept = toast.get_by_role("button", name=re.compile("^Accept"))
    assert_tappable(accept)
    # At the bottom, where a thumb reaches.
    box = toast.bounding_box()
    assert box["y"] + box["height"] > SIZES[size]["height"] * 0.6
    menu = ben.locator(".nav-toggle")
    assert menu.is_visible() and menu_count(ben, menu) == "1"
    # Said to a screen reader, and nothing took the focus.
    assert f"{ann_name} challenges you to a hand" in ben.locator("#news-said").inner_text()
    assert ben.evaluate("document.activeElement === document.body")
    ben.screenshot(path=ARTIFACTS / f"news-lobby-{size}.png")

    accept.tap()  # the one tap
    ben.wait_for_url(re.compile(r"/games/\d+/$"))
    ann.wait_for_url(ben.url, timeout=10_000)  # the challenger is taken there too
    for page in (ann, ben):
        page.locator("#my-hand .hand-card").first.wait_for(timeout=10_000)
    assert ben.locator("#news-toasts .toast").count() == 0
    for errors in (ann_errors, ben_errors):
        errors.assert_none()
    for context in contexts:
        context.close()


@pytest.mark.parametrize("size", PHONES)
def test_a_challenge_reaches_a_table_above_the_hand_and_is_accepted_once_the_game_is_over(
    browser, server, manage, size
):
    ARTIFACTS.mkdir(exist_ok=True)
    (ann, ann_name, ann_errors), (ben, ben_name, ben_errors), contexts = two_friends(
        browser, server, manage, size
    )
    ben.goto(f"{server}/")
    ben.get_by_role("button", name="Quick play").tap()
    ben.wait_for_url(re.compile(r"/games/\d+/$"))
    first_table = ben.url
    ben.locator('#connection[data-state="connected"]').wait_for()

    challenge_from_friends(ann, server, ben_name)

    toast = challenge_toast(ben, ann_name)
    # Above the hand, in the screen, and Accept waits for the end of this game, saying so.
    hand = ben.locator("#my-hand").bounding_box()
    box = toast.bounding_box()
    assert box["y"] + box["height"] <= hand["y"] + 1
    assert_tappable(toast.get_by_role("button", name=re.compile("^Decline")))
    accept = toast.get_by_role("button", name=re.compile("^Accept"))
    assert accept.is_disabled()
    assert "You can accept once your game is over." in toast.inner_text()
    assert menu_count(ben, ben.locator("#menu-sheet > summary")) == "1"
    ben.screenshot(path=ARTIFACTS / f"news-table-{size}.png")

    play_turns_until_the_end(ben)
    # The game is over: the same toast, now to be accepted.
    accept = toast.get_by_role("button", name=re.compile("^Accept"))
    expect(accept).to_be_enabled(timeout=10_000)
    assert_tappable(accept)
    assert "once your game is over" not in toast.inner_text()
    ben.screenshot(path=ARTIFACTS / f"news-table-over-{size}.png")

    accept.tap()
    ben.wait_for_url(lambda url: url != first_table and re.search(r"/games/\d+/$", url))
    ann.wait_for_url(ben.url, timeout=10_000)
    ben.locator("#my-hand .hand-card").first.wait_for(timeout=10_000)
    for errors in (ann_errors, ben_errors):
        errors.assert_none()
    for context in contexts:
        context.close()


def test_a_friend_request_is_answered_at_the_table_and_a_challenge_taken_back_leaves(
    browser, server, manage
):
    """At a table, mid-game: a request's Accept answers in the toast's place and the table
    stays (no reload); on a page without a socket of its own (the leaderboard) a
    challenge arrives, then leaves when it is taken back, and one out of time leaves."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ann, ann_name, ann_errors), (ben, ben_name, ben_errors), contexts = two_friends(
        browser, server, manage, "360x740"
    )
    cy_context, cy, cy_errors = phone(browser, "360x740")
    cy_name = sign_up(cy, server)

    ben.goto(f"{server}/")
    ben.get_by_role("button", name="Quick play").tap()
    ben.wait_for_url(re.compile(r"/games/\d+/$"))
    ben.locator('#connection[data-state="connected"]').wait_for()
    ben.evaluate("window.sameTable = true")  # gone if the page loads again
    # Ben's turn, so that nothing moves at the table while the toast is tapped (a board
    # that changes the hand's height moves the toasts above it).
    ben.wait_for_function(YOUR_TURN, timeout=30_000)

    cy.goto(f"{server}/players/{ben_name}/")
    cy.get_by_role("button", name=re.compile("^Add friend")).tap()
    cy.get_by_text("Friend request sent.").wait_for()

    toast = ben.locator("#news-toasts .toast", has_text=f"{cy_name} asks to be your friend")
    toast.wait_for(timeout=10_000)
    assert toast.get_by_role("link", name="Friends").get_attribute("href") == "/friends/"
    assert menu_count(ben, ben.locator("#menu-sheet > summary")) == "1"
    ben.screenshot(path=ARTIFACTS / "news-request-table-360x740.png")
    toast.get_by_role("button", name=re.compile("^Accept")).tap()
    answer = ben.locator(".toast-answered", has_text="You are friends now.")
    try:
        answer.wait_for()
    except Exception as waited:
        shown = ben.locator("#news-toasts").inner_html()
        raise AssertionError(f"no answer in the toast's place; the toasts: {shown}") from waited
    assert ben.evaluate("window.sameTable === true")
    ben.locator("#menu-sheet > summary .news-count-number").wait_for(state="detached")

    # The leaderboard has no socket of its own: the news-only one brings the challenge.
    ben.goto(f"{server}/leaderboard/")
    socket_open(ben)
    challenge_from_friends(ann, server, ben_name)
    toast = challenge_toast(ben, ann_name)
    assert_tappable(toast.get_by_role("button", name=re.compile("^Accept")))
    assert menu_count(ben, ben.locator(".nav-toggle")) == "1"
    ben.screenshot(path=ARTIFACTS / "news-leaderboard-360x740.png")
    # By keyboard: Tab reaches it after the page's content; focus in it when it is taken
    # back goes back where it came from, not to the page.
    tabs = 0
    while tabs < 100 and not ben.evaluate("!!document.activeElement.closest('#news-toasts')"):
        ben.keyboard.press("Tab")
        tabs += 1
    assert ben.evaluate("document.activeElement.closest('.toast').dataset.key.startsWith('c')")
    print(f"Tabs from the leaderboard's start to the toast: {tabs}")
    ann.locator("#friends-panel").get_by_role("button", name="Take it back").tap()
    toast.wait_for(state="detached", timeout=10_000)
    assert ben.evaluate("document.activeElement !== document.body")
    # The count follows with the news asked again (static/js/news.js).
    ben.locator(".nav-toggle .news-count-number").wait_for(state="detached", timeout=10_000)

    # A challenge whose ten minutes are nearly up leaves the screen when they are.
    challenge_from_friends(ann, server, ben_name)
    challenge_toast(ben, ann_name)
    manage(
        "shell",
        "-c",
        "from datetime import timedelta\nfrom django.utils import timezone\n"
        "from games.social.models import Challenge\nfrom games.social import services as s\n"
        "Challenge.objects.filter(status='pending').update(\n"
        "    created_at=timezone.now() - s.CHALLENGE_TTL + timedelta(seconds=4))",
    )
    ben.reload()
    toast = challenge_toast(ben, ann_name)
    toast.wait_for(state="detached", timeout=10_000)
    ben.locator(".nav-toggle .news-count-number").wait_for(state="detached", timeout=10_000)
    for errors in (ann_errors, ben_errors, cy_errors):
        errors.assert_none()
    for context in (*contexts, cy_context):
        context.close()
