"""History pages: my games, every record of mine as a zip, a player's profile, the
leaderboard. Each reads stored results through ``games.history.stats`` (a fixed number of queries,
however many games) and renders; none shows a game that is still being played.
"""

from __future__ import annotations

import json
import zipfile
from collections import defaultdict
from io import BytesIO
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers

from games.history import charts, stats
from games.history.records import record_dict
from games.htmx import HtmxHttpRequest
from games.models import Game, Move, Seat
from games.ratings import pages as rating_pages
from games.series import pages as series_pages

PAGE_SIZE = 25


def wants_partial(request: HtmxHttpRequest) -> bool:
    """An htmx swap gets the named partial; a history restore needs the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def render_page(
    request: HtmxHttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or for htmx only its partial; caches keep the two apart."""
    name = f"{template}#{partial}" if wants_partial(request) else template
    response = render(request, name, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
def my_games(request: HtmxHttpRequest) -> HttpResponse:
    result = request.GET.get("result", "")
    end = request.GET.get("end", "")
    seats = stats.history(request.user, result, end)
    page = Paginator(seats, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "rows": series_pages.mark_hands([stats.history_row(seat) for seat in page]),
        "result": result if result in stats.RESULTS else "",
        "end": end if end in stats.ENDS else "",
        "results": stats.RESULTS,
        "ends": stats.ENDS,
    }
    return render_page(request, "games/history/mine.html", "history-body", context)


@login_required
def my_records(request: HttpRequest) -> HttpResponse:
    """Every record of the user's finished games, one JSON file each, in one zip."""
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for game, moves in _finished_games_with_moves(request.user):
            text = json.dumps(record_dict(game, moves), indent=1)
            archive.writestr(f"tongits-{game.pk}.json", text)
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    filename = f"tongits-records-{request.user.pk}.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _finished_games_with_moves(user: AbstractBaseUser) -> list[tuple[Game, list]]:
    # Three queries for any number of games: games, their seats, all their moves.
    players = Seat.objects.select_related("user__profile")
    games = list(
        Game.objects.filter(
            seats__user=user, imported=False, started_at__isnull=False,
            status__in=(Game.Status.FINISHED, Game.Status.ABORTED),
        )
        .prefetch_related(Prefetch("seats", queryset=players))
        .order_by("pk")
    )  # fmt: skip
    moves = defaultdict(list)
    rows = Move.objects.filter(game__in=[g.pk for g in games]).order_by("game_id", "seq")
    for game_id, payload in rows.values_list("game_id", "payload"):
        moves[game_id].append(payload)
    return [(game, moves[game.pk]) for game in games]


RECENT_GAMES = 10


def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's numbers over every finished game, and their recent games: all of them
    for the player, only the public ones for anyone else."""
    people = get_user_model().objects.select_related("profile")
    person = get_object_or_404(people, username=username)
    seats = stats.history(person)
    if request.user != person:
        seats = seats.filter(game__public=True)
    context = {
        "person": person,
        "stats": stats.player_stats(person),
        "chart": charts.cumulative_chips(stats.recent_gains(person)),
        "rows": series_pages.mark_hands([stats.history_row(seat) for seat in seats[:RECENT_GAMES]]),
        **rating_pages.profile_ratings(person.pk),
        **series_pages.pots_won(person.pk),
    }
    return render(request, "games/history/player.html", context)


def leaderboard(request: HttpRequest) -> HttpResponse:
    context = {
        "by_chips": stats.by_net_chips(),
        "by_rate": stats.by_win_rate(),
        "bots": stats.bots(),
        "min_games": stats.MIN_GAMES_FOR_RATE,
        **rating_pages.leaderboard(),
    }
    return render(request, "games/history/leaderboard.html", context)
