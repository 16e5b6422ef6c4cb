"""Series pages: the series' table (its current hand, or the screen between hands), and
the actions between hands. Each is one service call plus a response."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.htmx import HtmxHttpRequest
from games.play.errors import ServiceError
from games.ratings import pages as rating_pages
from games.series import pages, records, services
from games.series.models import Hand, Series
from games.table import rendering


def _watchable(request: HtmxHttpRequest, series_id: int) -> services.State:
    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        raise Http404(gettext("There is no such series."))
    st = services.state(series)
    if not pages.may_watch(st, request.user):
        raise PermissionDenied(gettext("This series is private."))
    return st


# Its hand in play is a seat's table, with the hand: never kept by a browser's back
# button or a proxy (Cache-Control: no-store, private), as the table's own page.
@never_cache
@login_required
def series_page(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    """The series' one URL: its hand in play as a table, else the screen between hands
    (or at its end). A pause that is over deals the next hand first."""
    st = _watchable(request, series_id)
    if st.between:
        st = services.go_on_if_due(series_id)
    context = pages.context(st, request.user)
    if st.latest.is_over or st.series.ended:
        return render(request, "games/series/between.html", context)
    tbl = rendering.load_table(st.latest.pk, request.user)
    context.update(rendering.board_context(tbl))
    context.update(rating_pages.table_ratings(st.latest.pk, tbl.seats))
    return render(request, "games/table.html", context)


@login_required
def waiting(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    """Polled by the screen between hands: a redirect to the series once its next hand is
    dealt (or it ended), else nothing."""
    st = _watchable(request, series_id)
    shown = request.GET.get("hands", "")
    if st.between:
        st = services.go_on_if_due(series_id)
    if str(len(st.hands)) != shown or st.series.ended:
        return HttpResponseClientRedirect(reverse("series", args=[series_id]))
    return HttpResponse(status=204)


@login_required
def panel(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    """The series panel beside hand ``?game=``'s table, as it is now: the table's page
    asks for it when the hand ends, so the pot and standings count that hand at once."""
    st = _watchable(request, series_id)
    game_id = request.GET.get("game", "")
    hand = None
    if game_id.isdigit() and len(game_id) < 19:  # a bigint's digits, no more
        hand = Hand.objects.filter(series_id=series_id, game_id=int(game_id)).first()
    if hand is None:
        raise Http404(gettext("That game is not a hand of this series."))
    context = pages.context(st, request.user, shown_hand=hand.number)
    context["game_id"] = hand.game_id
    return render(request, "games/series/parts.html#panel", context)


def _act(request: HtmxHttpRequest, series_id: int, action) -> HttpResponse:
    try:
        action(series_id, request.user)
    except ServiceError as e:
        messages.error(request, e.message)
    url = reverse("series", args=[series_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def next_hand(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    return _act(request, series_id, services.ready)


@login_required
@require_POST
def leave(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    try:
        services.leave(series_id, request.user)
    except ServiceError as e:
        messages.error(request, e.message)
        return redirect("series", series_id)
    messages.success(request, gettext("You left the series; a bot plays your seat from now on."))
    return redirect("lobby")


@login_required
@require_POST
def end(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    return _act(request, series_id, services.end)


@login_required
def record(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    """The series record: every hand that is over, with the pot's ledger. Compact JSON:
    a long series' record is read by programs, and indenting it nearly doubles it."""
    st = _watchable(request, series_id)
    try:
        data = records.series_dict(st.series, st)
    except PermissionError:
        raise PermissionDenied(
            gettext("The series record can be downloaded once its first hand is over.")
        ) from None
    response = JsonResponse(data, json_dumps_params={"separators": (",", ":")})
    response["Content-Disposition"] = f'attachment; filename="tongits-series-{series_id}.json"'
    return response
