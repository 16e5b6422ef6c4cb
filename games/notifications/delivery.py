"""Delivering a notice, in the background worker (django-tasks, database backend, run by
``manage.py db_worker``), never in a request's or a socket's thread.

A notice goes by Web Push to each device of the person that allowed it; to a person with
no such device, by email (if they keep email on and have an address); a digest always by
email. Before anything goes out to a target, its ``Delivery`` row is written as
``sending``, under the unique (notice, target) constraint: a task run twice, queued again
or restarted finds the row and sends nothing, and a worker that died mid-send leaves the
row ``sending`` for good. So a notice reaches a device at most once; a failure we know
of (a push service's 5xx or 429, a timeout, a mail server's refusal) is retried with
backoff; a push service's 404 or 410 deletes the subscription.

Quiet hours (the person's own, in their time zone) hold a notice until they end: its task
is queued again to run then. A notice that would be stale by then (a challenge, which
expires in ten minutes) is dropped: the person finds it on their lobby if it still stands.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django_tasks import task

from games.models import Game

from . import mail, push, quiet
from .models import Delivery, Kind, Notice, Preferences, PushSubscription
from .wording import TTL, Words, words

log = logging.getLogger(__name__)

# Waits before the 2nd, 3rd ... try of a target; after the last, it is given up.
BACKOFF = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10),
           timedelta(hours=1), timedelta(hours=6))  # fmt: skip
EMAIL = "email"


@task()
def deliver(notice_id: int) -> str:
    """Deliver one notice now (or hold it for quiet hours); what happened, for the log."""
    return deliver_now(notice_id, timezone.now())


def deliver_now(notice_id: int, now: datetime) -> str:
    notice = Notice.objects.select_related("user__profile").filter(pk=notice_id).first()
    if notice is None or notice.status != Notice.Status.QUEUED:
        return "done already"
    prefs = Preferences.for_user(notice.user_id)
    why = _not_to_send(notice, prefs, now)
    if why:
        return _drop(notice, why)
    if notice.kind != Kind.DIGEST:
        until = quiet.quiet_until(now, prefs.time_zone, prefs.quiet_from, prefs.quiet_until)
        if until is not None:
            return _hold(notice, until)
    return _send(notice, prefs, now)


def _not_to_send(notice: Notice, prefs: Preferences, now: datetime) -> str:
    if not notice.user.is_active:
        return "inactive"
    if not prefs.wants(notice.kind):
        return "off"
    expires = parse_datetime(notice.facts.get("expires") or "")
    if expires is not None and expires <= now:
        return "expired"
    if notice.kind == Kind.YOUR_TURN and not _still_their_turn(notice):
        return "stale"
    return ""


def _still_their_turn(notice: Notice) -> bool:
    # Held through quiet hours or retried, a "your turn" may have been played meanwhile.
    facts = notice.facts
    return Game.objects.filter(
        pk=facts["table"], seq=facts["seq"], status=Game.Status.PLAYING
    ).exists()


def _drop(notice: Notice, why: str) -> str:
    Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.DROPPED, why=why)
    return f"dropped: {why}"


def _hold(notice: Notice, until: datetime) -> str:
    expires = parse_datetime(notice.facts.get("expires") or "")
    if expires is not None and expires <= until:
        return _drop(notice, "quiet")
    with transaction.atomic():
        Notice.objects.filter(pk=notice.pk).update(deliver_after=until)
        deliver.using(run_after=until).enqueue(notice.pk)
    return f"held until {until.isoformat()}"


@dataclass
class Tally:
    sent: int = 0
    retry: int = 0  # targets to try again
    gone: int = 0
    wait: timedelta = timedelta(0)


def _send(notice: Notice, prefs: Preferences, now: datetime) -> str:
    language = getattr(getattr(notice.user, "profile", None), "language", "") or "en"
    with translation.override(language):
        said = words(notice.kind, notice.facts)
        tally = _to_targets(notice, said, _targets(notice, prefs))
        if not tally.sent and not tally.retry and tally.gone:
            # Every device's subscription was gone: email stands in for them.
            tally = _to_targets(notice, said, _targets(notice, prefs))
    return _settle(notice, tally, now)


def _targets(notice: Notice, prefs: Preferences) -> list[str]:
    if notice.kind != Kind.DIGEST and push.enabled():
        devices = PushSubscription.objects.filter(user_id=notice.user_id).order_by("pk")
        found = [f"push:{pk}" for pk in devices.values_list("pk", flat=True)]
        if found:
            return found
    wants_email = notice.kind == Kind.DIGEST or prefs.email
    if notice.facts.get("push_only"):
        wants_email = False
    return [EMAIL] if wants_email and notice.user.email else []


def _to_targets(notice: Notice, said: Words, targets: list[str]) -> Tally:
    tally = Tally()
    for target in targets:
        attempts = _claim(notice, target)
        if attempts:
            _one(notice, said, target, attempts, tally)
    return tally


def _claim(notice: Notice, target: str) -> int:
    """Take ``target`` for this try: its attempt number, or 0 if it is sent, being sent,
    gone or given up. The row is committed before anything goes out."""
    try:
        with transaction.atomic():
            Delivery.objects.create(notice=notice, target=target, status=Delivery.Status.SENDING)
        return 1
    except IntegrityError:
        pass
    row = Delivery.objects.filter(notice=notice, target=target, status=Delivery.Status.FAILED)
    attempts = row.values_list("attempts", flat=True).first()
    if attempts is None:
        return 0
    taken = row.filter(attempts=attempts).update(
        status=Delivery.Status.SENDING, attempts=attempts + 1
    )
    return attempts + 1 if taken else 0


def _one(notice: Notice, said: Words, target: str, attempts: int, tally: Tally) -> None:
    if target == EMAIL:
        error, gone, wait = _email(notice, said), False, 0
    else:
        error, gone, wait = _push(notice, said, int(target.split(":", 1)[1]))
    row = Delivery.objects.filter(notice=notice, target=target)
    if not error:
        row.update(status=Delivery.Status.SENT, error="")
        tally.sent += 1
    elif gone:
        row.update(status=Delivery.Status.GONE, error=error)
        tally.gone += 1
    elif attempts > len(BACKOFF):
        row.update(status=Delivery.Status.GAVE_UP, error=error)
        log.warning(
            "Notice %s to %s: gave up after %s tries (%s).", notice.pk, target, attempts, error
        )
    else:
        row.update(status=Delivery.Status.FAILED, error=error)
        tally.retry += 1
        tally.wait = max(tally.wait, BACKOFF[attempts - 1], timedelta(seconds=wait))


def _push(notice: Notice, said: Words, subscription_id: int) -> tuple[str, bool, int]:
    device = PushSubscription.objects.filter(pk=subscription_id).first()
    if device is None:
        return "removed", True, 0
    message = {"title": said.title, "body": said.body, "url": said.path, "tag": said.tag}
    outcome = push.send(device, message, _ttl(notice))
    if outcome.gone:
        device.delete()
        log.info("Push subscription %s is gone (%s): deleted.", subscription_id, outcome.error)
    return outcome.error, outcome.gone, outcome.retry_after


def _ttl(notice: Notice) -> int:
    """How long the push service keeps it for a device that is off: its kind's time, or
    longer while the event still stands (a correspondence challenge waits days)."""
    kept = TTL[Kind(notice.kind)]
    expires = parse_datetime(notice.facts.get("expires") or "")
    if expires is not None:
        kept = max(kept, expires - timezone.now())
    return int(kept.total_seconds())


def _email(notice: Notice, said: Words) -> str:
    email = mail.message(notice.user.email, notice.user_id, notice.kind, said)
    try:
        email.send()
    except (smtplib.SMTPException, OSError) as e:
        return type(e).__name__
    return ""


def _settle(notice: Notice, tally: Tally, now: datetime) -> str:
    if tally.retry:
        deliver.using(run_after=now + tally.wait).enqueue(notice.pk)
        return f"sent {tally.sent}, {tally.retry} to retry"
    # From every try so far, not this one's alone (a retry finds the others sent).
    done = set(Delivery.objects.filter(notice=notice).values_list("status", flat=True))
    if tally.sent or Delivery.Status.SENT in done:
        status, why = Notice.Status.SENT, ""
    elif Delivery.Status.SENDING in done:
        status, why = Notice.Status.FAILED, "unknown"  # a worker died mid-send: never again
    elif done:
        status, why = Notice.Status.FAILED, "failed"
    else:
        status, why = Notice.Status.DROPPED, "nowhere"
    Notice.objects.filter(pk=notice.pk, status=Notice.Status.QUEUED).update(status=status, why=why)
    return f"{status} ({tally.sent} sent)"
