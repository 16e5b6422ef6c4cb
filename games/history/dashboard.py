"""The staff dashboard: how the site is playing, and games that need a hand.

Only counts and names: never a deal, a seed or a hand, since most games listed here are
still being played.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.access import refusals_explained
from games.history import charts, stats
from games.history.stats import player_of
from games.play import aborts, errors


def staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous visitors log in first; signed-in people who are not staff get a 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_active and request.user.is_staff):
            raise PermissionDenied(gettext("This page is for the site's staff."))
        return view(request, *args, **kwargs)

    return refusals_explained(wrapper)


class AbortForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        strip=True,
        help_text=_("Shown to staff with the aborted game."),
    )


@staff_only
def dashboard(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    stuck = list(stats.stuck_games(now))
    context = {
        "counts": stats.game_counts(now),
        "per_day": charts.games_per_day(stats.started_per_day(now)),
        "lengths": stats.game_lengths(),
        "ends": stats.end_counts(),
        "wins": stats.bot_and_human_wins(),
        "busiest": stats.busiest_players(),
        "stuck": [(g, [player_of(s) for s in g.seats.all()]) for g in stuck],
        "aborted": stats.aborted_games(),
        "stuck_minutes": int(stats.STUCK_AFTER.total_seconds() // 60),
        "form": AbortForm(),
    }
    return render(request, "games/history/dashboard.html", context)


@require_POST
@staff_only
def abort(request: HttpRequest, game_id: int) -> HttpResponse:
    form = AbortForm(request.POST)
    if not form.is_valid():
        refused = gettext("Game %(number)s was not aborted: give a reason.")
        messages.error(request, refused % {"number": game_id})
        return redirect("staff_dashboard")
    try:
        aborts.abort_game(game_id, request.user, form.cleaned_data["reason"])
    except errors.ServiceError as e:
        messages.error(
            request,
            gettext("Game %(number)s was not aborted: %(why)s")
            % {"number": game_id, "why": e.message},
        )
    else:
        messages.success(request, gettext("Game %(number)s aborted.") % {"number": game_id})
    return redirect("staff_dashboard")
