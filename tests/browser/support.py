"""What the browser tests do as a person would: sign up, act at the table, play a game out,
look at a page on a phone; and the checks every test makes on the page's errors."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
GAME_SECONDS = 45  # the whole game, bots included, must end well within this
PASSWORD = "a-long-pass-phrase-42"


class PageErrors:
    """Script errors and failed loads of a page, gathered while the test drives it."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        self.failed: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        # Chromium's console names no URL for a failed load; the response does.
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))

    def assert_none(self) -> None:
        assert not [e for e in self.errors if not e.startswith("Failed to load resource")], (
            self.errors
        )
        assert not [f for f in self.failed if not f.endswith("/favicon.ico")], self.failed


# The table as one screen (issue 24): phones upright and on their side, and a desktop.
SIZES = {
    "360x740": {"width": 360, "height": 740},
    "412x915": {"width": 412, "height": 915},
    "740x360": {"width": 740, "height": 360},
    "915x412": {"width": 915, "height": 412},
    "1280x800": {"width": 1280, "height": 800},
}

# Whether an element is wholly on the screen and is what a tap at its middle reaches
# (nothing lies over it): "" when it is, else what is wrong.
TAPPABLE = """el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "not shown";
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
    return `at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (hit && (hit === el || el.contains(hit))) return "";
  return `covered by ${hit && hit.outerHTML.slice(0, 60)}`;
}"""

# What of the table lies outside the screen, or can only be reached by scrolling the page:
# the hand's cards (each with its corner, rank over suit, not covered by the next card),
# the buttons, the stock and the discard, and every meld (brought into view inside the
# felt, which may scroll; the page may not).
OUT_OF_VIEW = """() => {
  const out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight) out.push(`page is ${page.scrollHeight} px tall`);
  if (page.scrollWidth > innerWidth) out.push(`page is ${page.scrollWidth} px wide`);
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    const off = r.left < -0.5 || r.top < -0.5
      || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
    if (r.width === 0 || r.height === 0) out.push(`${what} is not shown`);
    else if (off) out.push(`${what} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
  };
  const cards = [...document.querySelectorAll("#my-hand .hand-card")];
  cards.forEach((card, i) => {
    inside(card, `card ${card.dataset.card}`);
    const next = cards[i + 1];
    const corner = card.querySelector(".card-index").getBoundingClientRect();
    // (the next card in the same row: a hand in two rows starts its second at the left)
    const row = next && Math.abs(next.getBoundingClientRect().top - corner.top) < 20;
    if (row && next.getBoundingClientRect().left < corner.right - 0.5) {
      out.push(`corner of ${card.dataset.card} covered`);
    }
  });
  const each = (selector, what) => document.querySelectorAll(selector).forEach(
    (el, i) => inside(el, `${what} ${i} ${el.textContent.trim().slice(0, 20)}`));
  each("#my-hand .actions .button", "button");
  each("#table-piles .pile", "pile");
  each("#seats .seat-panel", "seat");
  document.querySelectorAll("#table-center .meld").forEach((meld, i) => {
    meld.scrollIntoView({block: "nearest", inline: "nearest"});
    inside(meld, `meld ${i}`);
  });
  if (scrollY !== 0 || scrollX !== 0) out.push(`page scrolled to ${scrollX},${scrollY}`);
  return out;
}"""


def out_of_view(page) -> list[str]:
    """What of the table is off the screen, or only reached by scrolling the page, once the
    hand's cards are still (a card just drawn flies in, smaller, for a third of a second)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('#my-hand .hand-card')]"
        ".every(card => card.getAnimations().length === 0)",
        timeout=5_000,
    )
    return page.evaluate(OUT_OF_VIEW)


def tap_card(card) -> None:
    """Tap a card of the hand where a person would: on its corner, the part of it that the
    next card leaves uncovered in the fanned hand (its middle may lie under that card)."""
    card.click(position={"x": 6, "y": 12})


def sign_up(page, server: str, username: str = "") -> str:
    """Create an account through the sign-up form; returns the username."""
    username = username or f"player{uuid.uuid4().hex[:8]}"
    page.goto(f"{server}/accounts/signup/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation:").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"{server}/")
    return username


def log_in(page, server: str, username: str, password: str) -> None:
    page.goto(f"{server}/accounts/login/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server}/")


def hand_seq(page) -> str:
    """The version of the board shown: the status bar comes with every frame (the hand
    only when it changed)."""
    return page.locator("#table-status").get_attribute("data-seq") or ""


def wait_for_new_board(page, seq: str) -> None:
    page.wait_for_function(
        "seq => document.querySelector('#table-status').dataset.seq !== seq",
        arg=seq,
        timeout=10_000,
    )


def open_menu(page) -> None:
    """Open the table's Menu sheet (the site's links, the series, settings), if closed."""
    sheet = page.locator("#menu-sheet")
    if sheet.get_attribute("open") is None:
        sheet.locator("> summary").click()
    sheet.locator(".sheet-body").wait_for()


def act(page, name: str) -> None:
    """Click an action button, then wait for the board of the next version to arrive."""
    seq = hand_seq(page)
    page.get_by_role("button", name=name, exact=True).click()
    wait_for_new_board(page, seq)


def act_by_keyboard(page, name: str) -> None:
    seq = hand_seq(page)
    page.get_by_role("button", name=name, exact=True).focus()
    page.keyboard.press("Enter")
    wait_for_new_board(page, seq)


def play_turns_until_the_end(page, before_discard: Callable[[int], None] = lambda turn: None):
    """Play as a person would: draw, choose a card, discard; fold a Draw call.
    Returns how many turns the person played."""
    result = page.locator("#table-result")
    deadline = time.monotonic() + GAME_SECONDS
    turns = 0
    while not result.is_visible():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_by_role("button", name="Fold", exact=True).is_visible():
            act(page, "Fold")
        elif page.get_by_role("button", name="Draw", exact=True).is_visible():
            act(page, "Draw")
        elif page.get_by_role("button", name="Discard", exact=True).is_visible():
            turns += 1
            if turns % 2:
                page.locator("#my-hand .hand-card").last.click()
            else:  # every other turn by keyboard: Space chooses a card, Enter discards
                page.locator("#my-hand input[name=cards]").last.focus()
                page.keyboard.press("Space")
            assert page.locator("#my-hand input[name=cards]:checked").count() == 1
            before_discard(turns)
            if turns % 2:
                act(page, "Discard")
            else:
                act_by_keyboard(page, "Discard")
        else:
            page.wait_for_timeout(100)  # a bot's turn
    return turns


@contextmanager
def phone(browser, context, url: str) -> Iterator:
    """The same person's page on a 360x740 phone screen, in a second tab."""
    small = browser.new_context(
        viewport={"width": 360, "height": 740},
        storage_state=context.storage_state(),
        device_scale_factor=2,
    )
    try:
        page = small.new_page()
        page.goto(url)
        yield page
    finally:
        small.close()


def stop(proc: subprocess.Popen) -> None:
    """Stop a process the tests started: politely, then for good."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
