"""Lobby views: PLACEHOLDER, being written (open tables, quick play, new table, join)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from games.views import HtmxHttpRequest


def lobby(request: HtmxHttpRequest) -> HttpResponse:
    template = "games/lobby.html#lobby-body" if request.htmx else "games/lobby.html"
    return render(request, template)


def quick_play(request):  # placeholder
    raise NotImplementedError


new_table = join = invite = quick_play
