"""Friends in the browser (issue 27): two people become friends, see each other online,
one challenges, the other accepts, and they play the hand together, every change arriving
over the lobby's socket; a blocked person's challenge never arrives. Screenshots of the
new pages at 360x740 and 1280x800 go to artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.support import ARTIFACTS, GAME_SECONDS, PageErrors, act, sign_up

pytestmark = pytest.mark.browser

SIZES = {"360x740": (360, 740), "1280x800": (1280, 800)}
COUNT_SOCKETS = """
window.socketsOpened = 0;
document.addEventListener("htmx:wsOpen", () => { window.socketsOpened += 1; });
"""


def on_friends_page(page, server: str) -> None:
    page.goto(f"{server}/friends/")
    page.wait_for_function("window.socketsOpened > 0", timeout=10_000)


def befriend(asker, answerer, server: str, answerer_name: str, asker_name: str) -> None:
    on_friends_page(answerer, server)
    on_friends_page(asker, server)
    asker.get_by_label("Username").fill(answerer_name)
    asker.get_by_role("button", name="Send a friend request").click()
    asker.get_by_text("Friend request sent.").wait_for()
    # Focus starts at the message that says what was done, not at the top of the page.
    asker.wait_for_function("document.activeElement.matches('main .messages')")
    # The request reaches the other's open page over its socket: no reload.
    requests = answerer.locator("#requests-title")
    requests.wait_for(timeout=10_000)
    answerer.locator(".social-item", has_text=asker_name).get_by_role(
        "button", name="Accept"
    ).click()
    answerer.get_by_text("You are friends now.").wait_for()


def friend_entry(page, name: str):
    return page.locator(".friend", has_text=name)


def play_the_hand(pages) -> None:
    """Each person plays their turns as they come (draw, discard the last card, fold a
    Draw call) until both tables show the result."""
    deadline = time.monotonic() + 2 * GAME_SECONDS
    while not all(p.locator("#table-result").is_visible() for p in pages):
        assert time.monotonic() < deadline, "the hand did not end in time"
        moved = False
        for page in pages:
            if page.locator("#table-result").is_visible():
                continue
            for name in ("Fold", "Draw", "Discard"):
                if page.get_by_role("button", name=name, exact=True).is_visible():
                    if name == "Discard":
                        page.locator("#my-hand .hand-card").last.click()
                    act(page, name)
                    moved = True
                    break
        if not moved:
            pages[0].wait_for_timeout(100)  # the bot's turn


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"friends-{name}-{size}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_two_friends_see_each_other_challenge_and_play_a_hand(browser, server):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    ann, ben = (c.new_page() for c in contexts)
    errors = [PageErrors(ann), PageErrors(ben)]
    for page in (ann, ben):
        page.add_init_script(COUNT_SOCKETS)
    ann_name, ben_name = sign_up(ann, server), sign_up(ben, server)

    befriend(ann, ben, server, ben_name, ann_name)

    # Both on Friends: each sees the other online, pushed as it changes.
    on_friends_page(ann, server)
    on_friends_page(ben, server)
    friend_entry(ann, ben_name).locator(".presence-online").wait_for(timeout=10_000)
    friend_entry(ben, ann_name).locator(".presence-online").wait_for(timeout=10_000)
    shoot(ann, "list")

    # Ann challenges in two clicks: Challenge, then Send (one hand, a Normal bot).
    friend_entry(ann, ben_name).locator("summary").click()
    shoot(ann, "challenge-form")
    friend_entry(ann, ben_name).get_by_role("button", name="Send the challenge").click()
    ann.get_by_text("Challenge sent").wait_for()

    # It reaches Ben live, with the badge; his one click deals the hand.
    challenge = ben.locator(".challenge-list .social-item", has_text=ann_name)
    challenge.wait_for(timeout=10_000)
    assert ben.locator("#friends-link .news-count-number").inner_text() == "1"
    shoot(ben, "challenged")
    challenge.get_by_role("button", name="Accept").click()
    ben.wait_for_url(re.compile(r"/games/\d+/$"))
    # Ann's page takes her to the same table by itself.
    ann.wait_for_url(ben.url, timeout=10_000)
    for page in (ann, ben):
        page.locator("#my-hand .hand-card").first.wait_for(timeout=10_000)
    # The table's menu names the other person, with the way to befriend (friends already).
    ann.locator("#menu-sheet > summary").click()
    people = ann.locator("#menu-sheet .table-people")
    assert ben_name in people.inner_text() and "Friends: challenge" in people.inner_text()
    shoot(ann, "table-menu")
    ann.locator("#menu-sheet .sheet-close").click()

    # They talk: a preset in one tap reaches Ben; at this private, unrated table of friends
    # (the bot says nothing) free text is offered too.
    ann.get_by_text("Chat", exact=True).click()
    ann.locator("#chat-sheet .sheet-body").wait_for()
    assert ann.locator("[name=chat_text]").count() == 1
    ann.get_by_role("button", name="Nice one!").click()
    ben.locator("#chat-log .chat-line", has_text="Nice one!").wait_for(
        state="attached", timeout=10_000
    )
    shoot(ann, "table-chat")
    ann.keyboard.press("Escape")

    play_the_hand([ann, ben])
    assert ann.get_by_role("button", name="Rematch").is_visible()
    shoot(ann, "result")

    # Ben's profile, seen by his friend Ann; and the lobby's friends box.
    ann.goto(f"{server}/players/{ben_name}/")
    assert ann.get_by_role("link", name="Friends: challenge").is_visible()
    shoot(ann, "profile")
    ann.goto(f"{server}/")
    ann.locator("#lobby-friends").wait_for()
    shoot(ann, "lobby")
    for e in errors:
        e.assert_none()
    for c in contexts:
        c.close()


def test_a_blocked_persons_challenge_never_arrives(browser, server):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    cy, dee = (c.new_page() for c in contexts)
    for page in (cy, dee):
        page.add_init_script(COUNT_SOCKETS)
    cy_name, dee_name = sign_up(cy, server), sign_up(dee, server)
    befriend(cy, dee, server, dee_name, cy_name)
    on_friends_page(cy, server)
    dee_id = friend_entry(cy, dee_name).get_attribute("id").removeprefix("friend-")

    on_friends_page(dee, server)
    # Block is there beside Challenge, without opening it.
    friend_entry(dee, cy_name).get_by_role("button", name=f"Block {cy_name}").click()
    dee.get_by_text("Blocked. They are not told.").wait_for()
    shoot(dee, "blocked")

    # Cy's open page drops Dee from the list (no longer friends; nothing says blocked).
    friend_entry(cy, dee_name).wait_for(state="detached", timeout=10_000)
    assert "block" not in cy.locator("main").inner_text().lower()
    # Cy posts the challenge form as it was before, by hand: refused, and nothing arrives.
    csrf = next(c["value"] for c in cy.context.cookies() if c["name"] == "csrftoken")
    response = cy.context.request.post(
        f"{server}/friends/{dee_id}/challenge/",
        form={"what": "hand", "bots": "normal"},
        headers={"X-CSRFToken": csrf, "Referer": f"{server}/friends/"},
    )
    assert "You can challenge only your friends." in response.text()
    dee.wait_for_timeout(1500)  # time enough for a frame to arrive, were one sent
    assert dee.locator(".challenge-list").count() == 0
    assert dee.locator("#friends-link .news-count span").count() == 0
    dee.reload()
    assert dee.locator(".challenge-list").count() == 0
    assert cy_name in dee.locator("#blocked-title + p + ul").inner_text()
    for c in contexts:
        c.close()
