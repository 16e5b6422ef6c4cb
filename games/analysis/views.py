"""The coach on the replay page: a button to ask, a progress bar that fills while the
worker judges the moves (htmx polls this view), then the result, all without a reload."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.access import refusals_explained, replayable_game, shown_seat_names
from games.htmx import HtmxHttpRequest
from games.words.narration import distinct_names

from . import analysis
from .context import coach_context
from .models import Analysis


@login_required
@refusals_explained
@require_http_methods(["GET", "POST"])
def coach(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET: the coach's part of the replay page, as it is now. POST: ask for an analysis."""
    game = replayable_game(request.user, game_id)
    refused = ""
    if request.method == "POST":
        try:
            analysis.request_analysis(game, request.user)  # other refusals are explained
        except analysis.AnalysisRefused as e:
            refused = str(e)
            if not request.htmx:
                messages.error(request, refused)
        if not request.htmx:
            return redirect("replay", game.pk)
    else:
        analysis.recover_stale(game=game)
    names = distinct_names(shown_seat_names(game))
    context = {"game": game, **coach_context(request.user, game, names, game.seq)}
    # htmx swaps only a 2xx answer in: the refusal is said inside the block it swaps.
    context["coach"]["refused"] = refused
    response = render(request, "games/analysis/coach.html", context)
    current = context["coach"]["analysis"]
    if request.htmx and current is not None and current.status == Analysis.Status.DONE:
        # The replay's own step (its move list and the move shown) gets the marks too.
        response["HX-Trigger"] = "coach-done"
    return response
