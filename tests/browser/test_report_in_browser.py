"""Fair play in a real browser, on a 360x740 phone: a person who finished a rated game with
another person opens Report a player from the result, sends the report by keyboard and
mouse, and reads the confirmation; sending it again says it was not sent twice. And a
rated table where two accounts share a device says so in its status bar with the whole
table still on one screen. Screenshots go to artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.support import ARTIFACTS, PageErrors, log_in, out_of_view

pytestmark = pytest.mark.browser

PASSWORD = "a-long-pass-phrase-42"
# Two people and a bot finish a rated game (the server's bots play the people's seats),
# in one transaction: the running server's clock never sees the game half made.
MAKE_GAME = f"""
from django.contrib.auth import get_user_model
from django.db import transaction
from games.play import tables
from tests.fast_games import finish
User = get_user_model()
with transaction.atomic():
    ann = User.objects.create_user("ann", password="{PASSWORD}")
    ben = User.objects.create_user("ben", password="{PASSWORD}")
    game = tables.create_table(ann, others=("open", "easy"), rated=True)
    tables.join_table(game.pk, ben)
    done = finish(game.pk).pk
print(done)
"""


def at_table_on_a_phone(browser, server, manage, script: str, username: str):
    """The game ``script`` makes (its id printed last), opened at 360x740 by ``username``:
    (context, page, errors, game id)."""
    ARTIFACTS.mkdir(exist_ok=True)
    game_id = int(manage("shell", "-c", script).split()[-1])
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, username, PASSWORD)
    page.goto(f"{server}/games/{game_id}/")
    return context, page, errors, game_id


def test_a_person_reports_a_player_from_the_result_screen_on_a_phone(browser, server, manage):
    context, page, errors, game_id = at_table_on_a_phone(browser, server, manage, MAKE_GAME, "ann")
    result = page.locator("#table-result")
    result.wait_for()
    # The socket's first board may swap the result in again: look once it has come.
    page.wait_for_function("document.querySelector('#connection')?.dataset.state !== 'connecting'")
    page.wait_for_load_state("networkidle")
    report = result.get_by_role("link", name="Report a player")
    report.scroll_into_view_if_needed()
    assert report.is_visible()
    box = report.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # on the phone's screen
    page.screenshot(path=ARTIFACTS / "report-result-360x740.png")

    report.click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/report/$"))
    assert page.get_by_role("heading", name="Report a player").is_visible()
    ben = page.get_by_role("radio", name="ben")
    assert ben.is_checked()  # the only other person at the table
    note = page.get_by_label("What did you see? (optional)")
    note.focus()
    page.keyboard.type("Ben and the bot? No: Ben fed someone every turn.")
    page.get_by_role("button", name="Send the report").click()
    page.wait_for_load_state()
    status = page.get_by_role("status").filter(has_text="Thank you")
    assert status.is_visible()
    assert "Your report of ben reached the staff with 1 game" in status.inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the confirmation is {width}px wide"
    page.screenshot(path=ARTIFACTS / "report-sent-360x740.png", full_page=True)

    # Back at the table and again: the report stands, not sent twice.
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(f"{server}/games/{game_id}/")
    page.locator("#table-result").get_by_role("link", name="Report a player").click()
    page.get_by_role("button", name="Send the report").press("Enter")
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Already reported").is_visible()
    errors.assert_none()
    context.close()


SHARED_TABLE = f"""
from django.contrib.auth import get_user_model
from games.fairplay import devices
from games.play import tables
User = get_user_model()
cy = User.objects.create_user("cy", password="{PASSWORD}")
dee = User.objects.create_user("dee", password="{PASSWORD}")
for user in (cy, dee):
    devices.record(user.pk, None, "one-phone-" + "z" * 24)
game = tables.create_table(cy, others=("open", "easy"), rated=True)
tables.join_table(game.pk, dee)
print(game.pk)
"""


def test_a_rated_table_of_two_accounts_on_one_device_says_so_on_one_screen(browser, server, manage):
    context, page, errors, _ = at_table_on_a_phone(browser, server, manage, SHARED_TABLE, "cy")
    page.locator("#my-hand .hand-card").first.wait_for()
    note = page.locator("#table-status .shared-note")
    assert note.inner_text() == "Fair play: cy and dee play from the same device."
    assert note.is_visible()
    assert out_of_view(page) == []
    page.screenshot(path=ARTIFACTS / "shared-table-360x740.png")
    errors.assert_none()
    context.close()
