"""Staff read notices, their deliveries and people's devices in the admin, never a device's
keys."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.notifications import notices, push
from games.notifications.models import Notice, PushSubscription
from tests.notifications.support import Browser

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_see_what_was_told_and_each_device_but_not_its_keys(client, alice, bob, vapid):
    staff = get_user_model().objects.create_superuser("staff", "s@example.com", "pw-staff-1!")
    client.force_login(staff)
    notices.tell(bob, "friend_request", "friend:1", name="alice", by=alice.pk)
    browser = Browser()
    device = push.keep(bob.pk, browser.subscription("http://127.0.0.1:9/x"), "Bob's phone")
    notice = Notice.objects.get()

    pages = [
        client.get("/admin/notifications/notice/?q=bob"),
        client.get(f"/admin/notifications/notice/{notice.pk}/change/"),
        client.get("/admin/notifications/pushsubscription/"),
        client.get(f"/admin/notifications/pushsubscription/{device.pk}/change/"),
        client.get("/admin/notifications/preferences/"),
    ]

    assert [p.status_code for p in pages] == [200] * 5
    assert "friend:1" in pages[0].content.decode()
    assert "Bob&#x27;s phone" in pages[3].content.decode()
    every = "".join(p.content.decode() for p in pages)
    assert device.p256dh not in every and device.auth not in every
    assert PushSubscription.objects.count() == 1
