"""Quiet hours, in the person's own time zone: a notice that falls in them waits until they
end (its task queued to run then), a challenge that would be stale by then is dropped, and
a person elsewhere in the world is told at once. The clock is passed in, not slept."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django_tasks_db.models import DBTaskResult

from games.notifications import delivery, notices
from games.notifications.models import Notice, Preferences
from games.notifications.quiet import quiet_until

MANILA = ZoneInfo("Asia/Manila")  # UTC+8, no daylight saving
TORONTO = ZoneInfo("America/Toronto")


def test_a_window_over_midnight_ends_the_next_morning_in_the_persons_zone():
    late = datetime(2026, 12, 7, 23, 30, tzinfo=MANILA)
    early = datetime(2026, 12, 8, 6, 0, tzinfo=MANILA)
    noon = datetime(2026, 12, 8, 12, 0, tzinfo=MANILA)
    ends = datetime(2026, 12, 8, 8, 0, tzinfo=MANILA)

    assert quiet_until(late, "Asia/Manila", time(22), time(8)) == ends
    assert quiet_until(early, "Asia/Manila", time(22), time(8)) == ends
    assert quiet_until(noon, "Asia/Manila", time(22), time(8)) is None
    assert quiet_until(late, "Asia/Manila", time(22), time(8)).tzinfo == UTC


def test_the_same_instant_is_quiet_in_manila_and_not_in_toronto():
    instant = datetime(2026, 12, 7, 16, 0, tzinfo=UTC)  # midnight in Manila, 11:00 in Toronto

    assert quiet_until(instant, "Asia/Manila", time(22), time(8)) is not None
    assert quiet_until(instant, "America/Toronto", time(22), time(8)) is None


def test_no_quiet_hours_without_a_known_time_zone_or_with_none_set():
    instant = datetime(2026, 12, 7, 23, 0, tzinfo=UTC)

    assert quiet_until(instant, "", time(22), time(8)) is None
    assert quiet_until(instant, "Mars/Olympus", time(22), time(8)) is None
    assert quiet_until(instant, "Asia/Manila", None, None) is None
    assert quiet_until(instant, "Asia/Manila", time(9), time(9)) is None


def test_quiet_hours_end_at_the_wall_clock_time_across_a_daylight_saving_change():
    # Toronto moves its clocks forward at 02:00 on 8 March 2026: 08:00 that morning is
    # 12:00 UTC, not 13:00.
    night = datetime(2026, 3, 8, 1, 0, tzinfo=TORONTO)

    ends = quiet_until(night, "America/Toronto", time(22), time(8))

    assert ends == datetime(2026, 3, 8, 12, 0, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_a_push_in_quiet_hours_waits_for_their_end_and_is_sent_then_once(
    alice, bob, subscribe, endpoint
):
    phone = subscribe(bob, "/bob-phone")
    Preferences.objects.create(user=bob, time_zone="Asia/Manila")  # quiet 22:00 to 08:00
    notices.tell(bob, "friend_request", "friend:1", name="alice", by=alice.pk)
    notice = Notice.objects.get(user=bob)
    DBTaskResult.objects.all().delete()  # the task tell() queued: run by hand below
    night = datetime(2026, 12, 7, 23, 30, tzinfo=MANILA)
    morning = datetime(2026, 12, 8, 8, 0, tzinfo=MANILA)

    said = delivery.deliver_now(notice.pk, night)

    assert said.startswith("held")
    assert endpoint.received == []
    notice.refresh_from_db()
    assert notice.deliver_after == morning
    held = DBTaskResult.objects.get()
    assert held.run_after == morning and held.task_path.endswith("delivery.deliver")

    assert delivery.deliver_now(notice.pk, morning - timedelta(minutes=5)).startswith("held")
    delivery.deliver_now(notice.pk, morning + timedelta(minutes=1))  # the clock moved on
    delivery.deliver_now(notice.pk, morning + timedelta(minutes=2))  # the held task, later

    [got] = endpoint.received
    assert phone.read(got)["title"] == "alice asks to be your friend"


@pytest.mark.django_db(transaction=True)
def test_a_person_in_daylight_is_told_at_once(alice, bob, subscribe, endpoint):
    subscribe(bob, "/bob-phone")
    Preferences.objects.create(user=bob, time_zone="America/Toronto")
    notices.tell(bob, "friend_request", "friend:1", name="alice", by=alice.pk)
    notice = Notice.objects.get(user=bob)

    delivery.deliver_now(notice.pk, datetime(2026, 12, 7, 23, 30, tzinfo=MANILA))

    assert len(endpoint.received) == 1


@pytest.mark.django_db(transaction=True)
def test_a_challenge_in_quiet_hours_is_dropped_for_it_would_be_stale_by_morning(
    alice, bob, subscribe, endpoint
):
    subscribe(bob, "/bob-phone")
    Preferences.objects.create(user=bob, time_zone="Asia/Manila")
    night = datetime(2026, 12, 7, 23, 30, tzinfo=MANILA)
    notices.tell(bob, "challenge", "challenge:1", expires=night + timedelta(minutes=10),
                 name="alice", by=alice.pk, ante=None)  # fmt: skip
    notice = Notice.objects.get(user=bob)

    delivery.deliver_now(notice.pk, night)

    assert Notice.objects.get(pk=notice.pk).why == "quiet"
    assert endpoint.received == []
