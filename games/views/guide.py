"""The How to play page: the rules of docs/rules.md told with pictures of cards."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def how_to_play(request: HttpRequest) -> HttpResponse:
    # Static text: every section's id is its rule id, so /how-to-play/#R7 opens rule R7.
    return render(request, "games/how_to_play.html")
