"""Table views: the page, the POST fallback for actions, and play again.

Each is one service call plus a response. The live path is the table's socket
(games/sockets/table.py); ``act`` accepts the very same fields for browsers without it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.htmx import HtmxHttpRequest
from games.models import is_correspondence
from games.play import actions, after_game, tables
from games.play.errors import ServiceError
from games.play.live import rows
from games.ratings import pages as rating_pages
from games.series import pages as series_pages
from games.table import rendering, spectators
from games.tournaments import pages as tournament_pages


# A seat's page and boards hold its hand: never kept by a browser's back button or by a
# proxy between it and us (Cache-Control: no-store, private).
@never_cache
def table(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The whole table as this person sees it: their seat's view, or a spectator's. Anyone
    may watch a public table or a game of bots, without an account (games.table.spectators);
    a visitor refused a private table is asked to log in."""
    try:
        tbl = spectators.load_table(game_id, request.user, request.session)
    except PermissionDenied:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise
    context = rendering.board_context(tbl)
    context.update(_about(tbl))
    context["tournament"] = tournament_pages.for_game(game_id)
    if context["tournament"] is None:  # a tournament's game is never a series' hand
        context.update(series_pages.context_for_game(game_id, request.user))
    # For the chat drawer (games/social/chat/templatetags): flags, never the snapshot.
    context["chat_table"] = {"public": tbl.game.public, "seated": tbl.mine is not None}
    # A vacation stops only a correspondence table's clocks: a live table neither says it
    # nor asks for it (a query of every page).
    context["by_post"] = is_correspondence(tbl.game.turn_seconds)
    if context.get("invite_path"):
        context["invite_url"] = request.build_absolute_uri(context["invite_path"])
    return render(request, "games/table.html", context)


def _about(tbl: rendering.Table) -> dict:
    """The menu's part about who sits here: the ratings line, and for the people menu
    (games/social/templatetags) who sits here, as the snapshot has it."""
    about = rating_pages.table_ratings_kept(
        tbl.game.pk, tbl.seats, tbl.game.rated, tbl.game.turn_seconds, tbl.game.is_over
    )
    about["table_people"] = [(s.user_id, s.name) for s in tbl.seats if s.user_id and not s.bot_kind]
    return about


@never_cache
def about(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The menu's part about who sits at this table, alone: asked for when the menu opens
    on a page that went on to an arena's next game over its socket (static/js/table.js),
    so that the move from game to game costs no query for it."""
    tbl = spectators.load_table(game_id, request.user, request.session)
    me = tbl.mine.index if tbl.mine is not None else None
    context = {"game_id": game_id, "me": me, **_about(tbl)}
    return render(request, "games/table.html#about", context)


@never_cache
@login_required
@require_POST
def act(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The same action as a socket frame; htmx gets the board back, a plain form a redirect."""
    message = ""
    try:
        actions.perform(game_id, request.user, actions.post_data(request.POST))
    except ServiceError as e:
        message = e.message
    if request.htmx:
        tbl = rendering.load_table(game_id, request.user)
        return HttpResponse(rendering.render_frame(tbl, message=message))
    if message:
        messages.error(request, message)
    return redirect("table", game_id=game_id)


@login_required
@require_POST
def play_again(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The next game with the same bots: made by the first player to ask, joined by the rest."""
    # A seat at the game, in one statement (the snapshot of a finished game with a next
    # one is loaded again whole, four statements, at every press but the first); the
    # refusals as the table's page gives them.
    if not rows.seated(game_id, request.user.pk):
        if rendering.load_table(game_id, request.user).mine is None:
            raise PermissionDenied(gettext("Only a player at this table can start the next game."))
    series_url = series_pages.url_of_hand(game_id)
    if series_url:
        # A series deals its own next hand at its one URL: a plain new table here would
        # leave the series and its pot behind.
        return HttpResponseClientRedirect(series_url) if request.htmx else redirect(series_url)
    try:
        following = after_game.play_again(game_id, request.user)
    except ServiceError as e:
        messages.error(request, e.message)
        return _go_to(request, game_id)  # the whole page again, with the message
    return _go_to(request, following.pk)


@login_required
@require_POST
def leave(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Get up from a table whose cards are not dealt yet: back to the lobby."""
    try:
        tables.leave_table(game_id, request.user)
    except ServiceError as e:
        messages.error(request, e.message)
        return _go_to(request, game_id)
    messages.success(request, gettext("You left table %(number)s.") % {"number": game_id})
    url = reverse("lobby")
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _go_to(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    url = reverse("table", args=[game_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
