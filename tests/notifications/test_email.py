"""Email: the fallback for a person with no device that allowed push, and the daily digest,
each with a one-click unsubscribe per kind (a signed link needing no log-in, and the
List-Unsubscribe headers a mail program shows as its own button)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from games.notifications import digest
from games.notifications.models import Notice, Preferences
from games.social import services as social
from tests.notifications.support import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

MANILA = ZoneInfo("Asia/Manila")


def unsubscribe_link(email) -> str:
    return re.search(r"https://tongits\.example\.com(/notifications/unsubscribe/\S+/)", email.body)[
        1
    ]


def test_a_person_without_push_gets_an_email_with_the_page_and_a_way_out(alice, bob, vapid, client):
    social.request_friend(alice, bob.pk)
    run_worker()

    [email] = mail.outbox
    assert email.to == ["bob@example.com"]
    assert email.subject == "Tongits Online: alice asks to be your friend"
    assert "Open it: https://tongits.example.com/friends/" in email.body
    path = unsubscribe_link(email)
    assert email.extra_headers["List-Unsubscribe"] == f"<https://tongits.example.com{path}>"
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_unsubscribe_link_turns_that_kind_off_in_one_click_without_logging_in(
    alice, bob, carol, vapid, client
):
    social.request_friend(alice, bob.pk)
    run_worker()
    path = unsubscribe_link(mail.outbox[0])

    page = client.get(path)  # a link preview or a mail scanner changes nothing
    assert page.status_code == 200
    assert "Turn off “Someone asks to be your friend”?" in page.content.decode()
    assert Preferences.for_user(bob.pk).friend_request is True

    done = client.post(path)

    assert "is off" in done.content.decode()
    prefs = Preferences.for_user(bob.pk)
    assert prefs.friend_request is False and prefs.challenge is True and prefs.email is True
    social.request_friend(carol, bob.pk)
    run_worker()
    assert len(mail.outbox) == 1


def test_a_mail_programs_one_click_post_turns_it_off(alice, bob, vapid, client):
    social.request_friend(alice, bob.pk)
    run_worker()
    path = unsubscribe_link(mail.outbox[0])

    client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )

    assert Preferences.for_user(bob.pk).friend_request is False


def test_stop_all_emails_turns_off_email_and_the_digest(alice, bob, vapid, client):
    social.request_friend(alice, bob.pk)
    run_worker()

    client.post(unsubscribe_link(mail.outbox[0]), {"all": "1"})

    prefs = Preferences.for_user(bob.pk)
    assert prefs.email is False and prefs.digest is False
    assert prefs.friend_request is True  # a device with push still hears of requests


def test_a_forged_or_mangled_link_changes_nothing(alice, bob, vapid, client):
    social.request_friend(alice, bob.pk)
    run_worker()
    path = unsubscribe_link(mail.outbox[0])

    assert client.post(path[:-5] + "xxxx/").status_code == 404
    assert client.post("/notifications/unsubscribe/not-a-token/").status_code == 404
    assert not Preferences.objects.filter(user=bob).exists()


def test_nothing_is_emailed_to_a_person_who_turned_email_off_or_has_no_address(
    alice, bob, carol, vapid
):
    Preferences.objects.create(user=bob, email=False)
    carol.email = ""
    carol.save()

    social.request_friend(alice, bob.pk)
    social.request_friend(alice, carol.pk)
    run_worker()

    assert mail.outbox == []
    assert set(Notice.objects.values_list("why", flat=True)) == {"nowhere"}


def waiting_table(make_game, alice, bob, carol):
    """A table whose turns last a day, dealt: one of the three people is to move."""
    game = make_game([alice, bob, carol], seed=11, turn_seconds=86400)
    return game, [alice, bob, carol][game.turn_seat]


def test_the_digest_comes_once_a_day_from_the_persons_own_morning(
    make_game, alice, bob, carol, vapid
):
    game, waiting = waiting_table(make_game, alice, bob, carol)
    Preferences.objects.create(user=waiting, time_zone="Asia/Manila")

    assert digest.send_digests(datetime(2026, 12, 7, 7, 30, tzinfo=MANILA)) == 0
    assert digest.send_digests(datetime(2026, 12, 7, 8, 5, tzinfo=MANILA)) == 1
    digest.send_digests(datetime(2026, 12, 7, 9, 5, tzinfo=MANILA))  # cron, an hour later
    run_worker()

    [email] = mail.outbox
    assert email.to == [waiting.email]
    assert email.subject == "Tongits Online: 1 game waits for you"
    assert f"Table {game.pk}" in email.body
    assert "List-Unsubscribe" in email.extra_headers

    digest.send_digests(datetime(2026, 12, 8, 8, 5, tzinfo=MANILA))  # the next morning
    run_worker()
    assert len(mail.outbox) == 2


def test_no_digest_for_a_live_table(make_game, alice, bob, carol, vapid):
    make_game([alice, bob, carol], seed=11)

    assert digest.send_digests(datetime(2026, 12, 7, 12, 0, tzinfo=MANILA)) == 0
