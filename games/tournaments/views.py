"""Tournament pages: the list, a new one, a tournament's page and its live part (polled
every 2 s by htmx: the countdown, your game, the standings, the podium), and the pool
buttons. Each action is one service call plus a redirect."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.htmx import HtmxHttpRequest
from games.models import Game
from games.play.services import ServiceError
from games.tournaments import records, services
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Tournament
from games.tournaments.standings import games_of, standings

POLL_SECONDS = 2  # the live part's refresh: at most one request a second per watcher
SHOWN = 20


def tournaments(request: HtmxHttpRequest) -> HttpResponse:
    """Public tournaments coming and running, yours (made or entered), and the last ended."""
    now = timezone.now()
    visible = Q(public=True)
    if request.user.is_authenticated:
        visible |= Q(created_by=request.user) | Q(entries__user=request.user)
    rows = Tournament.objects.filter(visible).distinct()
    context = {
        "current": list(rows.filter(finished_at__isnull=True).order_by("starts_at")[:SHOWN]),
        "ended": list(rows.filter(finished_at__isnull=False).order_by("-starts_at")[:SHOWN]),
        "now": now,
    }
    return render(request, "games/tournaments/list.html", context)


@login_required
def new_tournament(request: HtmxHttpRequest) -> HttpResponse:
    staff = request.user.is_staff
    form = TournamentForm(request.POST or None, staff=staff)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            t = services.create(
                request.user, name=data["name"], starts_at=data["starts_at"],
                minutes=data["minutes"], variant=data["variant"],
                rated=data["rated"] == "rated", turn_seconds=data["turn_seconds"],
                bot_kind=data["bot_kind"], public=bool(staff and data.get("public")),
            )  # fmt: skip
        except ServiceError as e:
            form.add_error(None, str(e.message))
        else:
            return redirect(_url(t))
    return render(request, "games/tournaments/new.html", {"form": form, "staff": staff})


def _url(t: Tournament, invite: bool = False) -> str:
    url = reverse("tournament", args=[t.pk])
    return f"{url}?invite={t.invite_token}" if invite else url


def _visible(request: HtmxHttpRequest, tournament_id: int) -> Tournament:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise Http404(gettext("There is no such tournament."))
    if not services.may_see(t, request.user, request.GET.get("invite")):
        raise PermissionDenied(gettext("This tournament is private: you need its invite link."))
    return t


def _context(request: HtmxHttpRequest, t: Tournament) -> dict[str, Any]:
    now = timezone.now()
    state = t.state(now)
    tgs = games_of(t)
    table = standings(t, tgs)
    entry = None
    if request.user.is_authenticated:
        entry = next((e for _row, e in table if e.user_id == request.user.pk), None)
    current = entry.game if entry is not None and entry.game_id else None
    if current is not None and current.is_over:
        current = None
    until = t.starts_at if state == "upcoming" else t.ends_at
    insider = request.user.is_authenticated and (
        entry is not None or request.user.pk == t.created_by_id
    )
    seen = (
        state, entry and entry.state, current and current.pk,
        [(row.rank, row.key, row.score.marks, e.state) for row, e in table],
        [(tg.game_id, tg.game.status) for tg in tgs],
    )  # fmt: skip
    return {
        "t": t,
        "state": state,
        # What the live part shows, but the countdown (the page counts it itself): a poll
        # that finds it unchanged gets no content, so nothing on the page moves (focus
        # included).
        "version": hashlib.sha256(repr(seen).encode()).hexdigest()[:16],
        "seconds_left": (left := max(0, int((until - now).total_seconds()))),
        "clock_shown": _clock(left),
        "standings": table,
        "podium": [row for row, _e in table if row.rank <= 3 and row.score.games]
        if state == "finished"
        else [],
        "entry": entry,
        "current": current,
        "games": [tg.game for tg in reversed(tgs)],
        "Game": Game,
        "poll_seconds": POLL_SECONDS,
        "invite_url": request.build_absolute_uri(_url(t, invite=True))
        if insider and not t.public
        else "",
        "invite": request.GET.get("invite", ""),
        "can_join": state in ("upcoming", "running") and request.user.is_authenticated,
    }


def _clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def tournament(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    t = _visible(request, tournament_id)
    return render(request, "games/tournaments/page.html", _context(request, t))


def live(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live part. A person whose new game was dealt since the page was made
    (``?game=`` says which it showed) is sent to its table."""
    t = _visible(request, tournament_id)
    context = _context(request, t)
    current = context["current"]
    if current is not None and request.GET.get("game") != str(current.pk):
        return HttpResponseClientRedirect(reverse("table", args=[current.pk]))
    if request.GET.get("v") == context["version"]:
        return HttpResponse(status=204)  # htmx swaps nothing
    return render(request, "games/tournaments/page.html#live", {**context, "oob": True})


def _act(request: HtmxHttpRequest, tournament_id: int, action, done: str) -> HttpResponse:
    token = request.POST.get("invite") or None
    try:
        if action is services.join:
            action(tournament_id, request.user, invite_token=token)
        else:
            action(tournament_id, request.user)
    except ServiceError as e:
        messages.error(request, str(e.message))
    else:
        messages.success(request, done)
    url = reverse("tournament", args=[tournament_id])
    return redirect(f"{url}?invite={token}" if token else url)


@login_required
@require_POST
def join(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        services.join,
        gettext("You are in: you play as soon as two others wait."),
    )


@login_required
@require_POST
def pause(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        services.pause,
        gettext("Paused: you get no new game until you come back."),
    )


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        services.withdraw,
        gettext("You withdrew: your points stay in the standings."),
    )


def record(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament record: its finished games and the standings they make (compact
    JSON; ``manage.py replay`` recomputes the standings from it)."""
    t = _visible(request, tournament_id)
    data = records.tournament_dict(t)
    response = JsonResponse(data, json_dumps_params={"separators": (",", ":")})
    response["Content-Disposition"] = (
        f'attachment; filename="tongits-tournament-{tournament_id}.json"'
    )
    return response
