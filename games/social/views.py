"""The Friends page and the forms that change friends, blocks, presence and challenges.

Each form posts, one service call changes (or refuses, changing nothing, with a message),
and the person is sent back where they were (``next``, a path of ours) or to Friends."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.play import after_game
from games.play.errors import ServiceError
from games.redirects import local_path
from games.series import pages as series_pages
from games.social import pages, presence, services
from games.social.news import News


def _back(request: HttpRequest) -> HttpResponse:
    return redirect(local_path(request, request.POST.get("next"), reverse("friends")))


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    return render(request, "social/friends.html", pages.friends_context(request.user))


def _answer(request: HttpRequest, message: str, *, error: bool = False) -> HttpResponse:
    """A toast's form (htmx) is answered in the toast's place, and the page stays: a
    person at a table goes on playing (templates/social/news.html)."""
    context = {"message": message, "error": error}
    return render(request, "social/news.html#answered", context)


def _change(do: Callable[..., services.Done]) -> Callable[[HttpRequest, int], HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        try:
            done = do(request.user, pk)
        except ServiceError as e:
            if getattr(request, "htmx", False):
                return _answer(request, e.message, error=True)
            messages.error(request, e.message)
        else:
            if getattr(request, "htmx", False):
                return _answer(request, done.message)
            messages.success(request, done.message)
        return _back(request)

    return view


request_friend = _change(services.request_friend)
accept_friend = _change(services.accept_friend)
decline_friend = _change(services.decline_friend)
remove_friend = _change(services.remove_friend)
block = _change(services.block)
unblock = _change(services.unblock)
decline_challenge = _change(services.decline_challenge)
cancel_challenge = _change(services.cancel_challenge)


@login_required
@require_POST
def add_friend(request: HttpRequest) -> HttpResponse:
    """Friends' Add a friend form: a username."""
    try:
        person = services.find_person(request.POST.get("username", ""))
        done = services.request_friend(request.user, person.pk)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done.message)
    return _back(request)


@login_required
@require_POST
def challenge(request: HttpRequest, pk: int) -> HttpResponse:
    what = request.POST.get("what", pages.ONE_HAND)
    try:
        ante = None if what == pages.ONE_HAND else int(what)
    except ValueError:
        ante = 0  # refused below with the ante's message
    try:
        turn = request.POST.get("turn", "0")
        turn = int(turn) if turn.isascii() and turn.isdigit() and len(turn) < 7 else -1
        services.challenge(
            request.user, pk, ante=ante, bot_kind=request.POST.get("bots", "normal"),
            turn_seconds=turn,
        )  # fmt: skip
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request, gettext("Challenge sent: you will be taken to the table when it is accepted.")
        )
    return _back(request)


@login_required
@require_POST
def accept_challenge(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        game = services.accept_challenge(request.user, pk)
    except ServiceError as e:
        if getattr(request, "htmx", False):  # from a toast: said there
            return _answer(request, e.message, error=True)
        messages.error(request, e.message)
        return _back(request)
    return _go(request, reverse("table", args=[game.pk]))


@login_required
def news(request: HttpRequest) -> HttpResponse:
    """The person's news again (static/js/news.js asks when a challenge's time is up)."""
    context = {"news": News(request.user.pk), "oob": True}
    return render(request, "social/news.html#feed", context)


@login_required
@require_POST
def presence_setting(request: HttpRequest) -> HttpResponse:
    hidden = request.POST.get("hidden") == "on"
    presence.set_hidden(request.user.pk, hidden)
    messages.success(
        request,
        gettext("Your friends no longer see when you are here.")
        if hidden
        else gettext("Your friends see when you are here."),
    )
    return _back(request)


@login_required
@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """The result screen's Rematch: the same people at a new private table, dealt when
    all have accepted (bots take the seats of those who do not within
    ``TONGITS_REMATCH_SECONDS``, by the server clock). A series deals its own next hand."""
    series_url = series_pages.url_of_hand(pk)
    if series_url:
        return _go(request, series_url)
    try:
        game = after_game.play_again(pk, request.user, rematch=True)
    except ServiceError as e:
        messages.error(request, e.message)
        return _go(request, reverse("table", args=[pk]))
    return _go(request, reverse("table", args=[game.pk]))


def _go(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)
