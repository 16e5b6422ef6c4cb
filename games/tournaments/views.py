"""Tournament pages: the list, a new one, a tournament's page and its live part (polled
every 2 s by htmx: the countdown, your game, the standings, the podium), the line an
arena's table shows (its name, time left, your rank and points), and the pool buttons.
Each action is one service call plus a redirect."""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.htmx import HtmxHttpRequest
from games.models import Game
from games.play.errors import ServiceError
from games.tournaments import records, services, watching
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Entry, Tournament
from games.tournaments.standings import Board, board, forget

# The live part's refresh: every 2 s for a person waiting to be paired (their table comes
# within seconds), every 10 s for everyone else (the standings, the clock). Before the start
# the page asks once more at the start itself, a moment after it (static/js/tournament.js):
# a crowd waiting for the start sends a fifth of the requests it did, and is paired at once.
POLL_SECONDS = 2
SLOW_POLL_SECONDS = 10
ROWS_SHOWN = 50  # standings rows a watcher is sent, besides their own
ROW_MARK = "<!--standing-->"  # between two rows of the rendered standings
SHOWN = 20
# The live part's answers say in this header how many standings rows are left out
# (static/js/tournament.js shows it): a join changes that, and nothing else a watcher sees.
MORE_HEADER = "X-Tongits-More"


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


# Each worker's tournaments as its polls last read them: (time.monotonic(), row), by id.
_polled: dict[int, tuple[float, Tournament]] = {}
POLLED_KEPT = 50


def _row_for_poll(tournament_id: int) -> Tournament | None:
    """The tournament's row, read at most once every ``TONGITS_STANDINGS_SECONDS`` in this
    worker for all its polls (its standings are shown as late anyway): a crowd's polls,
    hundreds a second, asked for it one query each."""
    seconds = settings.TONGITS_STANDINGS_SECONDS
    held = _polled.get(tournament_id)
    if held is not None and time.monotonic() - held[0] < seconds:
        return held[1]
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is not None and seconds > 0:
        if len(_polled) >= POLLED_KEPT:
            _polled.clear()
        _polled[tournament_id] = (time.monotonic(), t)
    return t


def _visible(request: HtmxHttpRequest, tournament_id: int, poll: bool = False) -> Tournament:
    t = (
        _row_for_poll(tournament_id)
        if poll
        else Tournament.objects.filter(pk=tournament_id).first()
    )
    if t is None:
        raise Http404(gettext("There is no such tournament."))
    token = request.GET.get("invite")
    if watching.invited(request.session, t.pk):
        return t  # its link was opened in this browser: the way back from its tables
    if not services.may_see(t, request.user, token):
        raise PermissionDenied(gettext("This tournament is private: you need its invite link."))
    # Its games are watched, and replayed, through links that do not carry the invite.
    watching.remember_invite(request.session, t, token)
    return t


def _entry(request: HtmxHttpRequest, t: Tournament) -> tuple[Entry | None, Game | None]:
    """The watcher's own entry, and their game of it under way (one query)."""
    if not request.user.is_authenticated:
        return None, None
    entry = Entry.objects.filter(tournament=t, user=request.user).select_related("game").first()
    current = entry.game if entry is not None and entry.game_id else None
    return entry, (None if current is None or current.is_over else current)


def _version(
    t: Tournament, state: str, b: Board, entry: Entry | None, current, held: int | None
) -> str:
    """What the live part shows this watcher, but the countdown (the page counts it itself)
    and how many rows are left out (sent with every answer, ``_more``): a poll that finds
    it unchanged gets no content, so nothing on the page moves (focus included). The
    standings are what the watcher is shown of the board (``_shown``), not its revision:
    a crowd joining changes the revision several times a second, and every watcher's poll
    was a fresh render of rows it had already."""
    seen = (state, _shown(b, entry), entry and entry.state, current and current.pk, held)
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


def _digest(parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _row(row, e: Entry) -> tuple:
    """What the page shows of one standing."""
    s = row.score
    return (e.pk, row.rank, row.name, s.on_fire, s.marks, s.points, s.games,
            round(s.performance), e.state)  # fmt: skip


def _shown(b: Board, entry: Entry | None) -> tuple:
    """What the watcher whose entry is ``entry`` is shown of board ``b``: its games, its
    first ``ROWS_SHOWN`` rows, their own row below them, and whether rows are left out;
    each part's digest made once a board."""
    d = b.digests
    if "top" not in d:  # "top" set last: another thread may read the others once it is
        d["games"] = _digest([(g.pk, g.is_over, [s.shown_name for s in g.seats.all()])
                              for g in b.games])  # fmt: skip
        d["at"] = {e.pk: i for i, (_row_, e) in enumerate(b.rows)}
        d["top"] = _digest([_row(row, e) for row, e in b.rows[:ROWS_SHOWN]])
    own = d["at"].get(entry.pk) if entry is not None else None
    below = _row(*b.rows[own]) if own is not None and own >= ROWS_SHOWN else None
    return (d["games"], d["top"], below, len(b.rows) > ROWS_SHOWN + (below is not None))


def _more(b: Board, entry: Entry | None) -> str:
    """The sentence under the standings that says how many rows are left out, or ''."""
    own = b.digests["at"].get(entry.pk) if entry is not None else None
    hidden = len(b.rows) - ROWS_SHOWN - (1 if own is not None and own >= ROWS_SHOWN else 0)
    if hidden <= 0:
        return ""
    return ngettext(
        "%(n)s more player is in the tournament record.",
        "%(n)s more players are in the tournament record.",
        hidden,
    ) % {"n": hidden}


def _waits(state: str, entry: Entry | None, current) -> bool:
    """In the pool of a running tournament, to be paired any moment."""
    return bool(state == "running" and entry and entry.state == Entry.State.ACTIVE and not current)


def _held(request: HtmxHttpRequest, waits: bool) -> int | None:
    """The series that keeps a waiting person from being paired, if one does."""
    return services.series_held([request.user.pk]).get(request.user.pk) if waits else None


def _board_html(request: HtmxHttpRequest, t: Tournament, b: Board, entry: Entry | None) -> str:
    """The standings and the games, rendered once a board and language in this worker for
    every watcher. A watcher is sent the first ``ROWS_SHOWN`` rows and their own, marked:
    a crowd's standings are a thousand rows, which every watcher would be sent whole at
    every change (the record holds them all)."""
    language = translation.get_language() or ""
    parts = b.html.get(language)
    if parts is None:
        context = {"t": t, "standings": b.rows, "games": b.games, "Game": Game}
        html = render_to_string("games/tournaments/page.html#board", context)
        parts = b.html[language] = html.split(ROW_MARK)  # head, each row, tail
    if len(parts) == 1:  # nobody has entered: no rows
        return mark_safe(parts[0])  # noqa: S308 (our own template's output)
    head, rows, tail = parts[0], parts[1:-1], parts[-1]
    own = next((i for i, (_row, e) in enumerate(b.rows) if entry and e.pk == entry.pk), None)
    shown = rows[:ROWS_SHOWN]
    if own is not None and own >= ROWS_SHOWN:
        shown = [*shown, rows[own]]
    if own is not None:
        mark = f'<tr data-entry="{entry.pk}">'
        marked = f'<tr data-entry="{entry.pk}" class="standings-you">'
        shown = [row.replace(mark, marked, 1) if mark in row else row for row in shown]
    if len(rows) > len(shown):  # said after the table's scrolling box
        _shown(b, entry)
        more = format_html(
            '<p class="muted standings-more" id="standings-more">{}</p>', _more(b, entry)
        )
        end = tail.index("</tbody>")
        tail = tail[:end] + tail[end:].replace("</div>", f"</div>{more}", 1)
    return mark_safe(head + "".join(shown) + tail)  # noqa: S308 (our own template's output)


def _context(request: HtmxHttpRequest, t: Tournament, found=None) -> dict[str, Any]:
    """``found``: the watcher's entry and game as the caller read them (a poll: the part it
    renders shows what it decided on, even if a pairing commits meanwhile)."""
    now = timezone.now()
    state = t.state(now)
    b = board(t)
    entry, current = found if found is not None else _entry(request, t)
    until = t.starts_at if state == "upcoming" else t.ends_at
    waits = _waits(state, entry, current)
    held = _held(request, waits)
    insider = request.user.is_authenticated and (
        entry is not None or request.user.pk == t.created_by_id
    )
    return {
        "t": t,
        "state": state,
        "version": _version(t, state, b, entry, current, held),
        "held_series": held,
        # Rounded up: the page counts down from it and asks once more at zero, which must
        # not come before the start (a poll that finds nothing new gets no content).
        "seconds_left": (left := max(0, math.ceil((until - now).total_seconds()))),
        "clock_shown": _clock(left),
        "board_html": _board_html(request, t, b, entry),
        "podium": b.podium() if state == "finished" else [],
        "entry": entry,
        "current": current,
        "poll_seconds": POLL_SECONDS if waits else SLOW_POLL_SECONDS,
        "invite_url": request.build_absolute_uri(_url(t, invite=True))
        if insider and not t.public
        else "",
        # The link this browser opened: its page come back to without it still joins.
        "invite": request.GET.get("invite", "") or _remembered(request, t),
        "can_join": state in ("upcoming", "running") and request.user.is_authenticated,
    }


def _remembered(request: HtmxHttpRequest, t: Tournament) -> str:
    return t.invite_token if not t.public and watching.invited(request.session, t.pk) else ""


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
    t = _visible(request, tournament_id, poll=True)
    entry, current = _entry(request, t)
    if current is not None and request.GET.get("game") != str(current.pk):
        return HttpResponseClientRedirect(reverse("table", args=[current.pk]))
    # Nothing new for this watcher (the board is this worker's, computed once a change):
    # no content, but how many rows are left out, which the page puts in place itself.
    state = t.state(timezone.now())
    held = _held(request, _waits(state, entry, current))
    b = board(t)
    version = _version(t, state, b, entry, current, held)
    if request.GET.get("v") == version:
        response = HttpResponse(status=204)  # htmx swaps nothing
    else:
        # The same entry and game as the redirect's check: read again, a pairing committed
        # in between would put its game in the part's next poll, which then never redirects.
        context = _context(request, t, found=(entry, current))
        response = render(request, "games/tournaments/page.html#live", {**context, "oob": True})
    response[MORE_HEADER] = quote(_more(b, entry))  # percent-encoded: a header is ASCII
    return response


BAR_BOARD_SECONDS = 15.0


def at_table(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The line an arena's table shows under its bar (issue 48): the tournament's name,
    its time left (counted down by the page), the person's rank and points, asked for a
    while after each of their games (from this worker's board, up to ``BAR_BOARD_SECONDS``
    old: a board of 999 rows a second, in a round of games ending, held the workers up)."""
    t = _visible(request, tournament_id, poll=True)
    now = timezone.now()
    state = t.state(now)
    # Their row found on the board by their account: their entry is not asked for (one
    # query a bar; the board has every entrant's).
    b = board(t, seconds=BAR_BOARD_SECONDS)
    context = {
        "t": t,
        "state": state,
        "seconds_left": (left := max(0, math.ceil((t.ends_at - now).total_seconds()))),
        "clock_shown": _clock(left),
        "own": b.row_of(request.user.pk),
        "players": len(b.rows),
    }
    return render(request, "games/tournaments/at_table.html", context)


def _act(request: HtmxHttpRequest, tournament_id: int, action, done) -> HttpResponse:
    """``done``: what to say once it is done, or a callable that says it of the entry."""
    token = request.POST.get("invite") or None
    try:
        if action is services.join:
            entry = action(tournament_id, request.user, invite_token=token)
        else:
            entry = action(tournament_id, request.user)
    except ServiceError as e:
        messages.error(request, str(e.message))
    else:
        messages.success(request, done(entry) if callable(done) else done)
        if action is services.join:
            # To the waiting table (games/tournaments/waiting.py), whose socket brings the
            # game. The worker's board is left be: their row comes with the next board
            # (TONGITS_STANDINGS_SECONDS); a crowd's joins made it computed again each.
            return redirect(reverse("tournament_table", args=[tournament_id]))
        forget(tournament_id)  # the page they go back to shows their change at once
    url = reverse("tournament", args=[tournament_id])
    return redirect(f"{url}?invite={token}" if token else url)


@login_required
@require_POST
def join(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    # Before the start, "you play as soon as two others wait" was not so. (Of the
    # tournament the join locked and read: no query of its own.)
    def done(entry: Entry) -> str:
        if entry.tournament.state(timezone.now()) == "upcoming":
            return gettext("You are in. Pairing starts when the tournament does.")
        return gettext("You are in: you play as soon as two others wait.")

    return _act(request, tournament_id, services.join, done)


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
