"""Web Push end to end: a friend's challenge and request, told by the background worker to a
push endpoint of ours that decrypts them with the subscription's own keys (real encryption,
pywebpush unmocked); a push service's 410 deletes the subscription; failures are retried
with backoff; nothing is ever sent twice for one event, whatever the worker does."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import Profile
from games.notifications import delivery, notices, push
from games.notifications.models import Delivery, Notice, PushSubscription
from games.social import services as social
from tests.notifications.support import Browser, run_worker, vapid_ok

pytestmark = pytest.mark.django_db(transaction=True)


def friends(a, b) -> None:
    social.request_friend(a, b.pk)
    social.accept_friend(b, a.pk)


def test_a_challenge_reaches_the_friends_phone_encrypted_for_it_and_signed_by_the_site(
    alice, bob, subscribe, endpoint, vapid
):
    phone = subscribe(bob, "/bob-phone")
    friends(alice, bob)
    run_worker()
    endpoint.received.clear()  # the friend request's push

    social.challenge(alice, bob.pk, ante=2, bot_kind="normal")
    run_worker()

    [got] = endpoint.received
    assert got.path == "/bob-phone"
    assert vapid_ok(got, vapid, endpoint.origin)
    assert int(got.headers["ttl"]) == 600  # a challenge is news for ten minutes
    message = phone.read(got)
    assert message == {
        "title": "alice challenges you",
        "body": "A series, ante 2",
        "url": "/friends/",
        "tag": f"challenge-{alice.pk}",
    }
    assert Notice.objects.get(user=bob, kind="challenge").status == "sent"


def test_a_friend_request_is_told_in_the_recipients_language(alice, bob, subscribe, endpoint):
    Profile.objects.create(user=bob, language="fil")
    phone = subscribe(bob, "/bob-phone")

    social.request_friend(alice, bob.pk)
    run_worker()

    [got] = endpoint.received
    assert phone.read(got)["title"] == "Gusto kang maging kaibigan ni alice"


def test_a_request_from_someone_blocked_reaches_no_phone(alice, bob, subscribe, endpoint):
    subscribe(bob, "/bob-phone")
    social.block(bob, alice.pk)

    social.request_friend(alice, bob.pk)
    run_worker()

    assert endpoint.received == []
    assert not Notice.objects.filter(user=bob).exists()


def test_every_device_of_the_person_gets_it_once(alice, bob, subscribe, endpoint):
    phone, laptop = subscribe(bob, "/phone"), subscribe(bob, "/laptop")

    social.request_friend(alice, bob.pk)
    run_worker()

    by_path = {r.path: r for r in endpoint.received}
    assert sorted(by_path) == ["/laptop", "/phone"]
    assert phone.read(by_path["/phone"]) == laptop.read(by_path["/laptop"])


def test_a_subscription_the_push_service_says_is_gone_is_deleted_and_email_stands_in(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/gone")
    endpoint.statuses["/gone"] = [410]

    social.request_friend(alice, bob.pk)
    run_worker()

    assert [r.path for r in endpoint.received] == ["/gone"]
    assert not PushSubscription.objects.filter(user=bob).exists()
    [email] = mail.outbox
    assert email.to == ["bob@example.com"]
    assert email.subject == "Tongits Online: alice asks to be your friend"


def test_a_404_deletes_the_subscription_too(alice, bob, subscribe, endpoint):
    subscribe(bob, "/unknown")
    endpoint.statuses["/unknown"] = [404]

    social.request_friend(alice, bob.pk)
    run_worker()

    assert not PushSubscription.objects.exists()


def test_a_push_service_error_is_retried_later_with_backoff_and_then_sent_once(
    alice, bob, subscribe, endpoint
):
    phone = subscribe(bob, "/busy")
    endpoint.statuses["/busy"] = [503, 201]

    before = timezone.now()
    social.request_friend(alice, bob.pk)
    run_worker()  # the first try fails; the retry is queued for later

    notice = Notice.objects.get(user=bob)
    row = Delivery.objects.get(notice=notice)
    assert (row.status, row.attempts, row.error) == ("failed", 1, "HTTP 503")
    retry = DBTaskResult.objects.filter(status="READY").get()
    assert retry.run_after >= before + delivery.BACKOFF[0]
    assert notice.status == "queued"

    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())  # time passes
    run_worker()

    assert [r.path for r in endpoint.received] == ["/busy", "/busy"]
    assert phone.read(endpoint.received[-1])["title"] == "alice asks to be your friend"
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert Notice.objects.get(pk=notice.pk).status == "sent"


def test_a_push_that_keeps_failing_is_given_up_after_the_last_backoff(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/down")
    endpoint.statuses["/down"] = [500]
    social.request_friend(alice, bob.pk)
    notice = Notice.objects.get(user=bob)

    later = timezone.now()
    for _ in range(len(delivery.BACKOFF) + 1):
        delivery.deliver_now(notice.pk, later)
        later += timedelta(days=1)

    row = Delivery.objects.get(notice=notice)
    assert (row.status, row.attempts) == ("gave_up", len(delivery.BACKOFF) + 1)
    assert len(endpoint.received) == len(delivery.BACKOFF) + 1
    assert Notice.objects.get(pk=notice.pk).status == "failed"


def test_the_same_event_told_twice_is_one_notice(alice, bob, subscribe, endpoint):
    subscribe(bob, "/bob-phone")

    notices.tell(bob, "friend_request", "friend:999", name="alice", by=alice.pk)
    notices.tell(bob, "friend_request", "friend:999", name="alice", by=alice.pk)
    run_worker()

    assert Notice.objects.filter(user=bob).count() == 1
    assert len(endpoint.received) == 1


def test_a_task_run_again_or_queued_again_after_a_restart_sends_nothing_more(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/bob-phone")
    social.request_friend(alice, bob.pk)
    run_worker()
    notice = Notice.objects.get(user=bob)

    delivery.deliver.enqueue(notice.pk)  # a restarted worker's or a sweep's second task
    delivery.deliver.enqueue(notice.pk)
    run_worker()
    delivery.deliver_now(notice.pk, timezone.now())  # and once more, by hand

    assert len(endpoint.received) == 1


def test_a_worker_that_died_while_sending_leaves_that_device_alone_for_good(
    alice, bob, subscribe, endpoint
):
    # Its row says "sending": the message may or may not have left. At most once.
    subscribe(bob, "/bob-phone")
    social.request_friend(alice, bob.pk)
    notice = Notice.objects.get(user=bob)
    device = PushSubscription.objects.get(user=bob)
    Delivery.objects.create(notice=notice, target=f"push:{device.pk}", status="sending")

    run_worker()

    assert endpoint.received == []
    assert Delivery.objects.get(notice=notice).status == "sending"
    assert Notice.objects.get(pk=notice.pk).why == "unknown"


def test_a_kind_turned_off_sends_nothing(alice, bob, subscribe, endpoint):
    from games.notifications.models import Preferences

    Preferences.objects.create(user=bob, friend_request=False)
    subscribe(bob, "/bob-phone")

    social.request_friend(alice, bob.pk)
    run_worker()

    assert endpoint.received == [] and mail.outbox == []
    assert Notice.objects.get(user=bob).why == "off"


def test_a_challenge_not_delivered_within_its_ten_minutes_is_dropped(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/bob-phone")
    friends(alice, bob)
    social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    notice = Notice.objects.get(user=bob, kind="challenge")

    delivery.deliver_now(notice.pk, timezone.now() + timedelta(minutes=11))

    assert Notice.objects.get(pk=notice.pk).why == "expired"
    assert endpoint.received == []


def test_vapid_keys_prints_a_pair_the_site_signs_its_pushes_with(alice, bob, endpoint, settings):
    out = io.StringIO()
    call_command("vapid_keys", "--subject", "mailto:ops@tongits.example.com", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    for name, value in lines.items():
        setattr(settings, name, value)
    settings.TONGITS_PUSH_SERVICES = ["127.0.0.1"]
    phone = Browser()
    push.keep(bob.pk, phone.subscription(endpoint.url("/bob")), "")

    social.request_friend(alice, bob.pk)
    run_worker()

    [got] = endpoint.received
    assert vapid_ok(got, lines["TONGITS_VAPID_PUBLIC_KEY"], endpoint.origin)
    assert phone.read(got)["title"] == "alice asks to be your friend"


def test_a_notice_whose_task_a_dead_worker_took_is_queued_again_by_the_hourly_command(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/bob-phone")
    social.request_friend(alice, bob.pk)
    DBTaskResult.objects.update(status="RUNNING", worker_ids=["gone"])  # taken, then died
    Notice.objects.update(created_at=timezone.now() - timedelta(minutes=20))
    out = io.StringIO()

    call_command("notify_hourly", stdout=out)
    run_worker()

    assert "1 lost notice(s) queued again" in out.getvalue()
    assert len(endpoint.received) == 1
    call_command("notify_hourly", stdout=io.StringIO())  # sent now: nothing more
    run_worker()
    assert len(endpoint.received) == 1
