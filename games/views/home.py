"""The home page a visitor sees, its live counts, and Play now: one press, and a visitor
is a guest at a table with two bots (accounts/guests.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.core.cache import cache
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import GuestRefused, make_guest
from games.daily import pages as daily_pages
from games.htmx import HtmxHttpRequest
from games.models import Game, Seat
from games.play import errors
from games.play import tables as play_tables
from tongits_site.client_ip import client_ip

# With axes in front, login() must be told which backend vouched for the new user.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
COUNTS_KEY, COUNTS_SECONDS = "home-live-counts", 5
POLL_SECONDS = 30


def live_counts() -> dict[str, int]:
    """Tables being played now, and the people seated at tables being played or waiting
    for players. Counted at most once every few seconds per process: a busy home page
    asks the database a handful of times a minute."""
    counts = cache.get(COUNTS_KEY)
    if counts is None:
        live = (Game.Status.PLAYING, Game.Status.WAITING)
        tables = Game.objects.filter(imported=False).aggregate(
            playing=Count("id", filter=Q(status=Game.Status.PLAYING))
        )
        people = (
            Seat.objects.filter(game__status__in=live, user__isnull=False)
            .values("user_id")
            .distinct()
            .count()
        )
        counts = {"tables": tables["playing"], "players": people}
        cache.set(COUNTS_KEY, counts, COUNTS_SECONDS)
    return counts


def home(request: HtmxHttpRequest, to_watch: dict[str, Any]) -> HttpResponse:
    """The page a visitor lands on (the lobby's address, for someone not logged in);
    ``to_watch``: the games anyone may watch, which the lobby lists (it calls this)."""
    context = {"counts": live_counts(), "poll_seconds": POLL_SECONDS, **to_watch}
    context["daily_line"] = daily_pages.home_line(request.user, timezone.now())
    return render(request, "games/home.html", context)


def counts(request: HtmxHttpRequest) -> HttpResponse:
    """The home page's live counts alone, which it asks for again every little while."""
    context = {"counts": live_counts(), "poll_seconds": POLL_SECONDS}
    return render(request, "games/home.html#live-counts", context)


@require_POST
def play_now(request: HtmxHttpRequest) -> HttpResponse:
    """Deal the visitor in against two bots at once: as themselves if logged in, else as
    a new guest account (at most a few an hour from one address)."""
    user = request.user
    if not user.is_authenticated:
        try:
            # The guest speaks the visitor's language (the browser's, or the switch's).
            user = make_guest(client_ip(request), request.LANGUAGE_CODE)
        except GuestRefused as e:
            messages.error(request, e.message)
            return redirect("lobby")
        login(request, user, backend=MODEL_BACKEND)
        # Tagged "guest": a short line that never takes the focus (static/js/nav.js).
        messages.success(
            request,
            _("You play as %(name)s, a guest. Claim the account from the menu to keep your games.")
            % {"name": user.profile.display_name},
            extra_tags="guest",
        )
    try:
        game = play_tables.quick_play(user)
    except errors.ServiceError as e:
        messages.error(request, e.message)
        return redirect("lobby")
    return redirect("table", game.pk)
