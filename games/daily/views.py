"""The daily deal's pages: today's (and any past day's) deal, Play, the month's board.
Each is one service call and a response; what a person may see of a day is decided in
``services`` (``may_see_results``), never here."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import GuestRefused, make_guest
from games.play.errors import ServiceError
from tongits_site.client_ip import client_ip

from . import days, pages, services
from .models import Day

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def today(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    day = services.ensure_days(now)
    return _day_page(request, day, now)


def day(request: HttpRequest, day: str) -> HttpResponse:
    now = timezone.now()
    when = _date(day)
    if when == days.day_of(now):
        return redirect("daily")
    found = get_object_or_404(Day, day=when)
    if when > days.day_of(now):
        raise Http404(_("That day's deal has not begun."))
    return _day_page(request, found, now)


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404(_("There is no such day.")) from None


def _day_page(request: HttpRequest, day: Day, now) -> HttpResponse:
    context = pages.day_context(request.user, day, now)
    if context["is_today"]:
        tomorrow = Day.objects.filter(day__gt=day.day).order_by("day").first()
        context["tomorrow"] = tomorrow
    return render(request, "games/daily/day.html", context)


@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """Today's deal for the person: their game of it (begun, or made now). A visitor plays
    as a guest, as Play now makes one."""
    user = request.user
    if not user.is_authenticated:
        try:
            user = make_guest(client_ip(request), request.LANGUAGE_CODE)
        except GuestRefused as e:
            messages.error(request, e.message)
            return redirect("daily")
        login(request, user, backend=MODEL_BACKEND)
    try:
        game = services.start(user)
    except ServiceError as e:
        messages.error(request, e.message)
        return redirect("daily")
    return redirect("table", game.pk)


def board(request: HttpRequest, month: str = "") -> HttpResponse:
    now = timezone.now()
    if month:
        first = _date(f"{month}-01")
        if first > days.day_of(now):
            raise Http404(_("That month has not begun."))
    else:
        first = days.month_of(days.day_of(now))
    return render(request, "games/daily/board.html", pages.month_context(first, now))
