"""The Notifications settings (a part of the Settings page), a device's push subscription
(posted by static/js/notifications.js), and the unsubscribe link of every email.

The link needs no log-in: it is signed for one person and one kind. Its page asks for one
click (a POST) rather than turning the kind off on a GET, since mail scanners and link
previews open links by themselves; a mail program's own Unsubscribe button (RFC 8058's
one-click POST) turns it off at once.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from . import mail, push
from .forms import PreferencesForm
from .models import Kind, Preferences
from .quiet import zone

LONGEST_BODY = 8_000  # a subscription's JSON is well under 1 KB


def settings_context(user: AbstractBaseUser, form: PreferencesForm | None = None) -> dict:
    """What the Settings page shows of notifications (``accounts.views`` saves the form:
    the page's forms are one view's)."""
    prefs = Preferences.for_user(user.pk)
    return {
        "notifications_form": form or PreferencesForm(instance=prefs, user=user),
        "push_key": settings.TONGITS_VAPID_PUBLIC_KEY if push.enabled() else "",
        "push_devices": user.push_subscriptions.count(),
    }


def preferences_form(user: AbstractBaseUser, data=None) -> PreferencesForm:
    return PreferencesForm(data, instance=Preferences.for_user(user.pk), user=user)


def _json(request: HttpRequest) -> dict | None:
    if len(request.body) > LONGEST_BODY:
        return None
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _refused(text: str) -> JsonResponse:
    return JsonResponse({"ok": False, "message": text}, status=400)


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Keep this browser's push subscription; the browser's time zone becomes the person's
    if they had none."""
    data = _json(request)
    if data is None or not push.enabled():
        return _refused(_("This device could not be set up for notifications."))
    try:
        push.keep(request.user.pk, data.get("subscription"), _device(request))
    except push.BadSubscription:
        return _refused(_("This device could not be set up for notifications."))
    _learn_time_zone(request.user.pk, data.get("time_zone"))
    return JsonResponse({"ok": True, "message": _("Notifications are on for this device.")})


@login_required
@require_POST
def unsubscribe_device(request: HttpRequest) -> JsonResponse:
    data = _json(request) or {}
    endpoint = data.get("endpoint")
    if isinstance(endpoint, str):
        push.forget(request.user.pk, endpoint)
    return JsonResponse({"ok": True, "message": _("Notifications are off for this device.")})


def _device(request: HttpRequest) -> str:
    agent = request.headers.get("User-Agent", "")
    return agent[:120]


def _learn_time_zone(user_id: int, name) -> None:
    if isinstance(name, str) and zone(name) is not None:
        prefs = Preferences.for_user(user_id)
        if not prefs.time_zone:
            prefs.time_zone = name
            prefs.save()


@csrf_exempt  # the signed token is the proof; a mail program posts without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    found = mail.read_token(token)
    if found is None:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=404)
    user_id, kind = found
    context = {"kind": Kind(kind).label, "token": token}
    if request.method == "POST":
        prefs = Preferences.for_user(user_id)
        every = request.POST.get("all") == "1"
        if every:  # no email at all; what goes to their devices stays as it was
            prefs.email = prefs.digest = False
        else:
            setattr(prefs, kind, False)
        prefs.save()
        context.update(done=True, all=every)
    return render(request, "notifications/unsubscribe.html", context)
