"""An arena's waiting table: where Join leads (issue 52).

The page is the arena's table (templates/games/table.html) with no game yet: its board's
parts are empty places the first game's board fills, its felt says when the tournament
starts, and its socket (games/sockets/arena.py) is open and listening on the person's
tables group from the moment they joined. The pairing tells that group of their game, and
the socket goes on to it as it goes on to every next game: at a crowd's start nobody loads
a page or opens a socket (999 table pages and handshakes in the same seconds before), and
nobody polls the tournament's page while waiting (the socket replaces the polls).

Without the socket the page still leads to the game: loaded again once the person is
paired, it sends them to their table (static/js/table.js loads it again when its socket
stays down; without scripts the page asks again by itself every little while), and the
tournament's page says where their game is, as before.
"""

from __future__ import annotations

import math

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from games.htmx import HtmxHttpRequest
from games.models import Game
from games.tournaments import views
from games.tournaments.models import Entry

# How often the page asks again by itself when it runs no scripts (no socket).
NO_SCRIPT_SECONDS = 10


@never_cache
@login_required
def waiting_table(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    t = views._visible(request, tournament_id)
    entry, current = views._entry(request, t)
    if current is not None:  # paired: the game's own page
        return redirect("table", game_id=current.pk)
    now = timezone.now()
    state = t.state(now)
    if entry is None or entry.state != Entry.State.ACTIVE or state not in ("upcoming", "running"):
        return redirect(reverse("tournament", args=[t.pk]))  # nothing to wait for here
    url = reverse("tournament", args=[t.pk])
    context = {
        "arena_wait": {
            "upcoming": state == "upcoming",
            "seconds_left": max(0, math.ceil((t.starts_at - now).total_seconds())),
            "refresh": NO_SCRIPT_SECONDS,
        },
        "game_id": "",
        "tournament": {"id": t.pk, "url": url, "name": t.name_shown},
        # The chat drawer's flags (its phrases, never free text, until a game comes).
        "chat_table": {"public": True, "seated": True},
        "me": None,
        "spectator": False,
        "dealt": False,
        "seq": "",
    }
    context["arena_wait"]["clock_shown"] = views._clock(context["arena_wait"]["seconds_left"])
    return render(request, "games/table.html", context)


def their_game(user_id: int, tournament_id: int) -> tuple[int | None, bool]:
    """(A waiting table's socket, on a database thread: games/sockets/arena.py.) The
    person's game of the tournament being played (None: none), and whether they are in
    its pool at all. One query."""
    row = (
        Entry.objects.filter(tournament_id=tournament_id, user_id=user_id)
        .values_list("state", "game_id", "game__status")
        .first()
    )
    if row is None or row[0] != Entry.State.ACTIVE:
        return None, False
    return (row[1] if row[2] == Game.Status.PLAYING else None), True


def first_games(at: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """(On a database thread.) For each (person, tournament) of ``at``, the person's game
    of it being played, if any. One query for all of a process's waiting sockets."""
    rows = Entry.objects.filter(
        user_id__in={u for u, _ in at}, tournament_id__in={t for _, t in at},
        state=Entry.State.ACTIVE, game__status=Game.Status.PLAYING,
    ).values_list("user_id", "tournament_id", "game_id")  # fmt: skip
    wanted = set(at)
    return {(u, t): g for u, t, g in rows if (u, t) in wanted}
