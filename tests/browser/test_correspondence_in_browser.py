"""A correspondence hand between two people in real browsers, over simulated days: Ann
makes a table of a day a turn on New table, Ben joins from the lobby, and each plays their
turns from their phone when told. Between turns a day passes: the game's clocks are moved
back by the hours that passed (the server's own clock keeps running; nobody sleeps), the
background worker runs, and what it sends is read as it arrives: Ann's pushes at a push
endpoint of the test's own that decrypts them with her subscription's keys (real
encryption, nothing of pywebpush mocked), Ben's emails in Django's outbox (the locmem
backend, in the worker's process). The person to move sees their game first on Your turn
and the badge on every page. The rest of the hand is left to the server (both away), and
both are told it ended."""

from __future__ import annotations

import json

import pytest

from games.notifications.push import new_vapid_keys
from tests.browser.support import PageErrors, act, sign_up
from tests.notifications.support import Browser, PushEndpoint

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
PUBLIC, PRIVATE = new_vapid_keys()
DAY = 86400

# One call a simulated day: the bots answer at once (waited for), then the hours pass
# (the game's clocks moved back), then the background worker runs (locmem mail, whose
# outbox is read in its process). Prints who is to move and the emails sent.
A_DAY_PASSES = """
import io, json, time
from datetime import timedelta
from django.core import mail
from django.core.management import call_command
from django.db.models import F
from games.models import Game
for _ in range(400):  # up to 20 s: a busy machine's bot may still be thinking
    g = Game.objects.get(pk={game})
    seat = g.seats.filter(index=g.turn_seat).select_related("user").first()
    if g.status != "playing" or (seat and seat.user_id):
        break
    time.sleep(0.05)
gone = timedelta(hours={hours})
Game.objects.filter(pk={game}).update(
    turn_started_at=F("turn_started_at") - gone, due_at=F("due_at") - gone,
    last_move_at=F("last_move_at") - gone, started_at=F("started_at") - gone,
    rev=F("rev") + 1)  # a new version: the workers load the game again
call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0",
             stdout=io.StringIO(), stderr=io.StringIO())
who = seat.user.username if g.status == "playing" and seat and seat.user_id else None
print(json.dumps({{"who": who, "emails": [{{"to": m.to, "subject": m.subject}}
                                          for m in getattr(mail, "outbox", [])]}}))
"""

SETUP = """
import json
from django.contrib.auth import get_user_model
from games.notifications import push
User = get_user_model()
ann, ben = User.objects.get(username={ann!r}), User.objects.get(username={ben!r})
push.keep(ann.pk, json.loads({subscription!r}), "Ann's phone")
ben.email = "ben@example.com"
ben.save()
"""

# The rest of the hand by the server, from a person's turn (the server's own clock may be
# moving a bot: the stored moves must not race it).
FINISH = """
import time
from games.models import Game
from tests.fast_games import finish
for _ in range(400):  # up to 20 s: a busy machine's bot may still be thinking
    g = Game.objects.get(pk={game})
    seat = g.seats.filter(index=g.turn_seat).first()
    if g.status != "playing" or (seat and seat.user_id):
        break
    time.sleep(0.05)
if g.status == "playing":
    finish({game})
"""


@pytest.fixture(scope="module")
def server_env(server_env) -> dict[str, str]:
    return {
        **server_env, "TONGITS_VAPID_PUBLIC_KEY": PUBLIC, "TONGITS_VAPID_PRIVATE_KEY": PRIVATE,
        "TONGITS_PUSH_SERVICES": "127.0.0.1",
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    }  # fmt: skip


def test_a_correspondence_hand_over_days_with_your_turn_a_push_and_an_email(
    browser, server, manage, tmp_path
):
    endpoint = PushEndpoint()
    phone_keys = Browser()
    try:
        ann_ctx = browser.new_context(viewport=PHONE)
        ben_ctx = browser.new_context(viewport=PHONE)
        ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
        errors = [PageErrors(ann), PageErrors(ben)]
        names = {"ann": sign_up(ann, server), "ben": sign_up(ben, server)}
        sub = json.dumps(phone_keys.subscription(endpoint.url("/ann")))
        manage("shell", "-c", SETUP.format(ann=names["ann"], ben=names["ben"], subscription=sub))

        # Ann makes a table of a day a turn, Ben joins it from the lobby.
        ann.goto(f"{server}/tables/new/")
        ann.get_by_label("Time for a turn").select_option(str(DAY))
        ann.get_by_label("Seat 2").select_option("easy")
        ann.get_by_role("button", name="Create table").click()
        ann.wait_for_url(f"{server}/games/*/")
        game = int(ann.url.rstrip("/").split("/")[-1])
        ben.goto(f"{server}/")
        ben.locator(f"#join-{game}").click()
        ben.wait_for_url(f"{server}/games/{game}/")
        pages = {"ann": ann, "ben": ben}

        pushes, emails, played = [], [], set()
        for day in range(1, 4):
            passed = a_day_passes(manage, game)
            emails += passed["emails"]
            pushes = [phone_keys.read(r) for r in endpoint.received]
            if passed["who"] is None:
                break
            page = pages[next(k for k, v in names.items() if v == passed["who"])]
            page.goto(f"{server}/your-turn/")
            first = page.locator(".correspondence-game").first
            assert first.get_attribute("data-game") == str(game)
            assert "Your turn" in first.inner_text()
            assert page.locator("#your-turn-link .news-count-number").inner_text() == "1"
            if day == 1:
                page.screenshot(path=str(tmp_path / "your-turn.png"))
            first.get_by_role("link").click()
            page.wait_for_url(f"{server}/games/{game}/")
            if day == 1:
                page.screenshot(path=str(tmp_path / "table.png"))
            play_one_turn(page)
            played.add(passed["who"])

        assert played == set(names.values()), "both people played their turns"
        assert any(p["title"] == f"Your turn at Table {game}" for p in pushes), pushes
        to_ben = [e for e in emails if e["to"] == ["ben@example.com"]]
        assert any(f"Your turn at Table {game}" in e["subject"] for e in to_ben), emails

        # The rest is left to the server; both are told the hand ended (the bots may have
        # ended it already, in a day that passed above: its email is among those).
        emails += a_day_passes(manage, game, first=FINISH.format(game=game))["emails"]
        told = [phone_keys.read(r)["title"] for r in endpoint.received]
        assert any(t.startswith(f"Your game at Table {game} ended") for t in told), told
        assert any("ended" in e["subject"] for e in emails if e["to"] == ["ben@example.com"])
        for e in errors:
            e.assert_none()
    finally:
        endpoint.stop()


def a_day_passes(manage, game: int, first: str = "") -> dict:
    out = manage("shell", "-c", first + A_DAY_PASSES.format(game=game, hours=20))
    return json.loads(out.strip().splitlines()[-1])


def play_one_turn(page) -> None:
    """Draw (not on the dealer's first turn, R3) or fold a Draw call, then discard the last
    card of the hand."""
    buttons = {
        n: page.get_by_role("button", name=n, exact=True) for n in ("Fold", "Draw", "Discard")
    }
    for _ in range(100):
        shown = [n for n, b in buttons.items() if b.is_visible()]
        if shown:
            break
        page.wait_for_timeout(100)
    if "Fold" in shown:
        act(page, "Fold")
        return
    if "Draw" in shown:
        act(page, "Draw")
    page.locator("#my-hand .hand-card").last.click()
    act(page, "Discard")
