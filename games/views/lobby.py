"""Lobby views: open tables, quick play, a new table, joining, invite links.

Each view is one service call plus a response. ``lobby_context`` is shared with the lobby's
socket, which re-renders the lists for its own user whenever a table changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch, QuerySet
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import display_name_for, is_guest
from games.daily import pages as daily_pages
from games.engine.state import HELD_MELDS_FREE
from games.fairplay import actions as fairplay_actions
from games.forms import NewTableForm, QuickPlayForm
from games.htmx import HtmxHttpRequest
from games.models import Game, Seat
from games.play import errors, tables
from games.ratings import core as ratings
from games.series import services as series_services
from games.social import pages as social_pages
from games.social import presence
from games.table import spectators
from games.views import home

OPEN_TABLES_SHOWN = 30
WATCH_SHOWN = 10
TOKEN_LENGTH = Game._meta.get_field("invite_token").max_length
# The variants as {% term %} words (it translates them).
VARIANT_NAMES = {HELD_MELDS_FREE: "Held melds free"}


@dataclass(frozen=True)
class SeatLine:
    label: str  # a person's name, "Greedy bot", or "Open seat"
    kind: str  # "person", "bot" or "open"
    is_you: bool
    rating: str = ""  # "1012", or "987?" while provisional; empty for an open seat


@dataclass(frozen=True)
class TableLine:
    """One table as the lobby shows it to one user."""

    game: Game
    seats: list[SeatLine]
    yours: bool  # the user sits here
    joinable: bool  # waiting, with an open seat
    can_join: bool  # joinable, by this user
    open_seats: int
    variants: list[str]
    invite_path: str  # for a private table still waiting, shown to its players only
    rated: bool = False

    @property
    def title(self) -> str:
        return gettext("Table %(number)s") % {"number": self.game.pk}


def _seat_line(
    seat: Seat, user: AbstractBaseUser | AnonymousUser, skills: dict | None = None
) -> SeatLine:
    skill = ratings.skill_of_seat(skills, seat) if skills is not None else None
    rating = skill.shown if skill and not _guest(seat) else ""
    if seat.is_bot:
        return SeatLine(seat.get_bot_kind_display(), "bot", False, rating)
    if seat.user is None:
        return SeatLine(gettext("Open seat"), "open", False)
    is_you = seat.user_id == user.pk
    return SeatLine(display_name_for(seat.user), "person", is_you, rating)


def _skills(games: list[Game]) -> dict:
    """The ratings of everyone seated at these tables, in one query."""
    seats = [s for g in games for s in g.seats.all()]
    return ratings.skills_of([s.user_id for s in seats], [s.bot_kind for s in seats])


def table_line(
    game: Game, user: AbstractBaseUser | AnonymousUser, skills: dict | None = None
) -> TableLine:
    if skills is None:
        skills = _skills([game])
    seats = list(game.seats.all())
    yours = user.is_authenticated and any(s.user_id == user.pk for s in seats)
    open_seats = sum(s.is_open for s in seats)
    waiting = game.status == Game.Status.WAITING
    joinable = waiting and open_seats > 0
    show_invite = yours and waiting and not game.public
    return TableLine(
        game=game,
        seats=[_seat_line(s, user, skills) for s in seats],
        yours=yours,
        joinable=joinable,
        can_join=joinable and user.is_authenticated and not yours,
        open_seats=open_seats,
        variants=[VARIANT_NAMES.get(v, v) for v in game.variants],
        invite_path=reverse("invite", args=[game.invite_token]) if show_invite else "",
        rated=ratings.will_be_rated(game.rated, seats, {s.user_id for s in seats if _guest(s)}),
    )


def _guest(seat: Seat) -> bool:
    # The lobby's seats come with their users' profiles: no query.
    return seat.user is not None and is_guest(seat.user)


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    seats = Seat.objects.select_related("user__profile").order_by("index")
    return games.prefetch_related(Prefetch("seats", queryset=seats))


def _to_watch() -> QuerySet[Game]:
    """The games anyone may watch, but those of a person who hides their presence: they
    hid being here, and this list says to everyone that they are playing."""
    return spectators.to_watch().exclude(seats__user__in=presence.hiding())


def lobby_context(user: AbstractBaseUser | AnonymousUser, origin: str = "") -> dict[str, Any]:
    """What the lobby shows ``user``: their games now, and the public tables to join.
    ``origin`` ("https://host") makes invite links whole, ready to copy."""
    if not user.is_authenticated:
        return {}
    open_tables = Game.objects.filter(status=Game.Status.WAITING, public=True)
    current = Game.objects.filter(
        seats__user=user, status__in=[Game.Status.WAITING, Game.Status.PLAYING]
    )
    mine = list(_with_seats(current.order_by("-created_at")))
    listed = list(_with_seats(open_tables.order_by("-created_at"))[:OPEN_TABLES_SHOWN])
    watched = list(_with_seats(_to_watch().exclude(seats__user=user))[:WATCH_SHOWN])
    skills = _skills(mine + listed + watched)
    return {
        "origin": origin,
        "quick_form": QuickPlayForm(),
        "your_games": [table_line(g, user, skills) for g in mine],
        "open_tables": [table_line(g, user, skills) for g in listed],
        "to_watch": [table_line(g, user, skills) for g in watched],
    }


def to_watch_context(user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """The games anyone may watch, for the home page's visitor."""
    watched = list(_with_seats(_to_watch())[:WATCH_SHOWN])
    skills = _skills(watched)
    return {"to_watch": [table_line(g, user, skills) for g in watched]}


def lobby(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return home.home(request, to_watch_context(request.user))
    template = "games/lobby.html#lobby-body" if request.htmx else "games/lobby.html"
    origin = request.build_absolute_uri("/").rstrip("/")
    context = lobby_context(request.user, origin)
    context["daily_line"] = daily_pages.home_line(request.user, timezone.now())
    if not request.htmx:
        # A staff warning (fair play) is shown once, here, where a person comes back to.
        for text in fairplay_actions.take_warnings(request.user):
            messages.warning(request, text)
        context["social"] = social_pages.lobby_friends_context(request.user)
    return render(request, template, context)


@login_required
@require_POST
def quick_play(request: HtmxHttpRequest) -> HttpResponse:
    # No level posted (an older page, a bare POST): Normal, as Quick play always was.
    form = QuickPlayForm(request.POST or {"level": "normal"})
    if not form.is_valid():
        messages.error(request, gettext("Choose the bots' level: Easy, Normal or Hard."))
        return redirect("lobby")
    try:
        game = tables.quick_play(
            request.user,
            form.cleaned_data["level"],
            public=not form.cleaned_data["private"],
            form_key=form.cleaned_data["key"],
        )
    except errors.ServiceError as e:
        messages.error(request, e.message)
        return redirect("lobby")
    return redirect("table", game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def new_table(request: HtmxHttpRequest) -> HttpResponse:
    guest = is_guest(request.user)
    form = NewTableForm(request.POST or None, guest=guest)
    if request.method == "POST" and form.is_valid():
        try:
            ante = form.series_ante()
            if ante is not None:
                made = series_services.create_series(
                    request.user, ante=ante, **form.table_options()
                )
                return redirect("series", made.pk)
            game = tables.create_table(request.user, **form.table_options())
        except errors.ServiceError as e:
            messages.error(request, e.message)
            return redirect("lobby")
        if not game.public and game.status == Game.Status.WAITING:
            link = request.build_absolute_uri(reverse("invite", args=[game.invite_token]))
            messages.success(
                request,
                gettext("Your private table is ready. Invite people with %(link)s")
                % {"link": link},
            )
        return redirect("table", game.pk)
    return render(request, "games/new_table.html", {"form": form, "guest": guest})


@login_required
@require_POST
def join(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    token = request.POST.get("token") or None
    if token and len(token) > TOKEN_LENGTH:
        # No invite link holds one this long: a malformed request, refused as one.
        return HttpResponseBadRequest(
            gettext("That is not an invite link of ours: ask for the table's link again.")
        )
    try:
        game = tables.join_table(game_id, request.user, invite_token=token)
    except errors.ServiceError as e:
        messages.error(request, e.message)
        return _back_to_join_button(game_id, token)
    return redirect("table", game.pk)


def _back_to_join_button(game_id: int, token: str | None) -> HttpResponse:
    """Back to where the Join button was, which now shows why: the table's invite page,
    or the lobby for a token that is not this table's (its invite page would be a 404,
    and the message unseen)."""
    if token and Game.objects.filter(pk=game_id, invite_token=token).exists():
        return redirect("invite", token)
    return redirect("lobby")


def invite(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(_with_seats(Game.objects.all()), invite_token=token)
    context = {"table": table_line(game, request.user), "token": token}
    return render(request, "games/invite.html", context)
