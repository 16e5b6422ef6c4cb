"""A person solves one puzzle and fails another in a real browser, and their puzzle rating
moves up and then down (issue 51); one answered by a tap, one by the keyboard. The page on a
360x740 phone holds the position and every move without scrolling. Screenshots go to
artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, phone, sign_up

pytestmark = pytest.mark.browser

RIGHT_AND_WRONG = (
    "from games.puzzles.models import Puzzle; from games.puzzles.services import is_right; "
    "p = Puzzle.objects.get(pk={pk}); "
    "print([i for i, m in enumerate(p.view['legal']) if is_right(p, m) == {right}][0])"
)


def move_index(manage, puzzle: int, right: bool) -> str:
    """The index of a right (or a wrong) move, asked of the server's database: the page
    itself never says which is right before an answer."""
    out = manage("shell", "-c", RIGHT_AND_WRONG.format(pk=puzzle, right=right))
    return out.strip().splitlines()[-1]


def open_next_puzzle(page, server: str) -> int:
    page.goto(f"{server}/puzzles/")
    page.wait_for_url(re.compile(r"/puzzles/\d+/$"))
    assert page.get_by_role("heading", name="What would you do?").is_visible()
    return int(page.url.rstrip("/").split("/")[-1])


def rating_after(page) -> tuple[int, int]:
    text = page.locator("#puzzle-result").inner_text()
    before, after = re.search(r"Puzzle rating (\d+) → (\d+)", text).groups()
    return int(before), int(after)


def test_a_person_solves_a_puzzle_and_fails_one_and_their_rating_moves(browser, server, manage):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server, "pia")
    page.get_by_role("link", name="Puzzles").first.click()
    page.wait_for_url(re.compile(r"/puzzles/\d+/$"))

    first = open_next_puzzle(page, server)
    with phone(browser, context, f"{server}/puzzles/{first}/") as small:
        small.screenshot(path=ARTIFACTS / "puzzle-360x740.png")
        last = small.locator(".puzzle-choice").last.bounding_box()
        assert last["y"] + last["height"] <= 740, "every move on the first screen"
    # Solved by a tap on the right move.
    page.locator(f"button[name=move][value='{move_index(manage, first, True)}']").click()
    page.locator("#puzzle-result").wait_for()
    assert "Right!" in page.locator("#puzzle-result").inner_text()
    assert "Better:" in page.locator("#puzzle-result").inner_text()
    before, up = rating_after(page)
    assert up > before

    # Failed by the keyboard: a wrong move focused and pressed.
    second = open_next_puzzle(page, server)
    assert second != first
    page.locator(f"button[name=move][value='{move_index(manage, second, False)}']").focus()
    page.keyboard.press("Enter")
    page.locator("#puzzle-result").wait_for()
    assert "Not this time." in page.locator("#puzzle-result").inner_text()
    again, down = rating_after(page)
    assert again == up and down < up
    page.screenshot(path=ARTIFACTS / "puzzle-failed.png", full_page=True)
    assert page.locator("#puzzle-my-rating").inner_text() == str(down)
    errors.assert_none()
