"""The "Your turn" page and its vacation buttons."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import listing, vacations


@never_cache
@login_required
def your_turn(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    lines = listing.games_of(request.user.pk, now)
    context = {
        "lines": lines,
        "waiting": sum(ln.yours for ln in lines),
        "most": settings.TONGITS_CORRESPONDENCE_MAX,
        "vacation": vacations.current(request.user.pk, now),
        "days_left": vacations.days_left(request.user.pk, now),
        "now": now,
    }
    return render(request, "correspondence/your_turn.html", context)


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    if request.POST.get("action") == "end":
        if vacations.end(request.user):
            messages.success(request, gettext("Welcome back: your clocks run again."))
        return redirect("your_turn")
    raw = request.POST.get("days", "")
    days = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0
    try:
        vacations.start(request.user, days)
    except vacations.VacationError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, gettext("Your correspondence clocks are paused."))
    return redirect("your_turn")
