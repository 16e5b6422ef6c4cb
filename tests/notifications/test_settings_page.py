"""The Notifications part of Settings (each kind, email, time zone, quiet hours), in English
and Filipino, and the device's subscription the page's script posts: kept only for a push
service's address, so nobody can aim the worker at another server."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.notifications.models import Preferences, PushSubscription
from tests.notifications.support import Browser

pytestmark = pytest.mark.django_db

SETTINGS = "/accounts/settings/"
SUBSCRIBE = "/notifications/devices/"
FCM = "https://fcm.googleapis.com/fcm/send/abc123"


@pytest.fixture
def vapid(vapid, settings) -> str:
    # The site's keys, sending to a real push service's host (never reached here).
    settings.TONGITS_PUSH_SERVICES = ["fcm.googleapis.com", "push.services.mozilla.com"]
    return vapid


def choices(**changes) -> dict:
    data = {
        "part": "notifications", "your_turn": "on", "game_ended": "on", "challenge": "on",
        "friend_request": "on", "digest": "on", "email": "on", "address": "alice@example.com",
        "time_zone": "Asia/Manila", "quiet_from": "22:00", "quiet_until": "08:00",
    }  # fmt: skip
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_settings_show_every_kind_email_and_quiet_hours(client, alice, vapid):
    client.force_login(alice)

    page = client.get(SETTINGS).content.decode()

    assert 'id="notifications"' in page
    for label in ("Your turn at a table that waits", "A friend challenges you",
                  "Someone asks to be your friend", "A daily email of the games waiting for you",
                  "Time zone", "Quiet from", "Allow notifications on this device"):  # fmt: skip
        assert label in page, label
    assert f'data-push-key="{vapid}"' in page
    assert "js/notifications.js" in page


def test_settings_speak_filipino(client, alice, vapid):
    client.force_login(alice)
    client.cookies["django_language"] = "fil"

    page = client.get(SETTINGS).content.decode()

    assert "Mga abiso" in page and "Tahimik na oras" in page
    assert "Payagan ang mga abiso sa device na ito" in page


def test_without_vapid_keys_the_page_says_emails_stand_in(client, alice, settings):
    settings.TONGITS_VAPID_PUBLIC_KEY = settings.TONGITS_VAPID_PRIVATE_KEY = ""
    client.force_login(alice)

    page = client.get(SETTINGS).content.decode()

    assert 'data-push-key=""' in page and "emails stand in for them" in page


def test_the_choices_are_saved(client, alice):
    client.force_login(alice)

    response = client.post(SETTINGS, choices(challenge=None, digest=None, quiet_from="23:00",
                                              address="alice@home.example"))  # fmt: skip

    assert response.status_code == 302 and response["Location"].endswith("#notifications")
    prefs = Preferences.objects.get(user=alice)
    assert (prefs.challenge, prefs.digest, prefs.your_turn) == (False, False, True)
    assert prefs.time_zone == "Asia/Manila" and prefs.quiet_from.hour == 23
    alice.refresh_from_db()
    assert alice.email == "alice@home.example"


def test_an_unknown_time_zone_or_half_quiet_hours_are_refused_and_nothing_changes(client, alice):
    client.force_login(alice)

    bad_zone = client.post(SETTINGS, choices(time_zone="Asia/Atlantis")).content.decode()
    half = client.post(SETTINGS, choices(quiet_until="")).content.decode()

    assert "There is no time zone by that name." in bad_zone
    assert "Give quiet hours both a start and an end, or neither." in half
    assert not Preferences.objects.filter(user=alice).exists()


def test_the_display_name_form_still_saves_alone(client, alice):
    client.force_login(alice)

    client.post(SETTINGS, {"display_name": "Lola Nena"})

    assert alice.profile.display_name == "Lola Nena"
    assert not Preferences.objects.filter(user=alice).exists()


def post_json(client, url: str, data) -> tuple[int, dict]:
    response = client.post(url, json.dumps(data), content_type="application/json")
    return response.status_code, response.json()


def test_a_devices_subscription_is_kept_with_the_browsers_time_zone(client, alice, vapid):
    client.force_login(alice)
    sub = Browser().subscription(FCM)

    status, answer = post_json(client, SUBSCRIBE, {"subscription": sub, "time_zone": "Asia/Dubai"})

    assert status == 200 and answer["ok"]
    kept = PushSubscription.objects.get(user=alice)
    assert kept.info() == sub
    assert Preferences.objects.get(user=alice).time_zone == "Asia/Dubai"


def test_a_time_zone_the_person_chose_is_not_replaced_by_a_devices(client, alice, vapid):
    Preferences.objects.create(user=alice, time_zone="America/Toronto")
    client.force_login(alice)

    post_json(client, SUBSCRIBE, {"subscription": Browser().subscription(FCM),
                                  "time_zone": "Asia/Dubai"})  # fmt: skip

    assert Preferences.objects.get(user=alice).time_zone == "America/Toronto"


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://internal.example.com/admin/",  # not a push service
        "https://fcm.googleapis.com.evil.example/x",  # looks like one
        "http://fcm.googleapis.com/fcm/send/x",  # not over https
        "ftp://fcm.googleapis.com/x",
    ],
)
def test_a_subscription_anywhere_but_at_a_push_service_is_refused(
    client, alice, vapid, endpoint, settings
):
    settings.TONGITS_PUSH_SERVICES = ["fcm.googleapis.com"]
    client.force_login(alice)

    status, answer = post_json(
        client, SUBSCRIBE, {"subscription": Browser().subscription(endpoint)}
    )

    assert status == 400 and not answer["ok"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        [],
        {"subscription": "x"},
        {"subscription": {"endpoint": FCM, "keys": {"p256dh": "AAAA", "auth": "AAAA"}}},
        {"subscription": {"endpoint": FCM}},
    ],
)
def test_a_malformed_subscription_is_refused(client, alice, vapid, body):
    client.force_login(alice)
    data = body if isinstance(body, str) else json.dumps(body)

    response = client.post(SUBSCRIBE, data, content_type="application/json")

    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


def test_only_a_person_logged_in_subscribes(client, vapid):
    response = client.post(SUBSCRIBE, "{}", content_type="application/json")

    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_browser_subscribed_again_by_another_account_is_theirs_now(client, alice, bob, vapid):
    sub = Browser().subscription(FCM)
    client.force_login(alice)
    post_json(client, SUBSCRIBE, {"subscription": sub})
    client.force_login(bob)

    post_json(client, SUBSCRIBE, {"subscription": sub})

    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


def test_stopping_on_this_device_forgets_its_subscription(client, alice, bob, vapid):
    sub = Browser().subscription(FCM)
    client.force_login(alice)
    post_json(client, SUBSCRIBE, {"subscription": sub})
    client.force_login(bob)
    post_json(client, "/notifications/devices/forget/", {"endpoint": FCM})  # not bob's
    assert PushSubscription.objects.exists()
    client.force_login(alice)

    post_json(client, "/notifications/devices/forget/", {"endpoint": FCM})

    assert not PushSubscription.objects.exists()


def test_the_service_worker_shows_pushed_notices_and_opens_their_page(client):
    source = client.get("/sw.js").content.decode()

    assert 'addEventListener("push"' in source and "showNotification" in source
    assert 'addEventListener("notificationclick"' in source
    assert '"__ICON__"' not in source and "img/icon-192" in source


def test_check_deploy_warns_of_emails_linking_to_a_plain_http_address(settings):
    from django.core import checks

    settings.TONGITS_SITE_URL = "http://127.0.0.1:8000"
    warned = [m.id for m in checks.run_checks(include_deployment_checks=True)]
    settings.TONGITS_SITE_URL = "https://tongits.example.com"
    fine = [m.id for m in checks.run_checks(include_deployment_checks=True)]

    assert "notifications.W001" in warned and "notifications.W001" not in fine
