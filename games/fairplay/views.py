"""The staff Fair play page: pairs of accounts by score, one pair's evidence, the
reports, the actions taken; and the Report pages players use.

The staff pages are for staff given fair play's permission to see them
(``fair_play_only``: others get a 403, visitors the log-in page), and each action for
those given its own (``actions.check``; docs/fair-play.md, "Who may act"). They show
counts, names and links to the replays of finished games, never a card: the scoring
reads only finished games, a report carries only games that are over, and a replay shows
a game's cards only once it has ended.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from games.history.dashboard import staff_only
from games.models import Game
from games.redirects import local_path

from . import actions, evidence, reports, review
from .detector import ALPHA, THRESHOLD
from .models import Pair, Report, StaffAction

LISTED = 100
LOGGED = 50  # the staff actions shown, the latest first


def fair_play_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Staff holding ``fairplay.see_fair_play`` (the Fair play group has it); a 403 that
    says so for other staff."""

    @staff_only
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not actions.may_see(request.user):
            raise PermissionDenied(
                gettext("These pages are for staff given fair play's permissions.")
            )
        return view(request, *args, **kwargs)

    return wrapper


def _allowed(user) -> dict[str, bool]:
    """The actions this member of staff may take, by kind: the page offers only those."""
    return {kind: actions.may(user, kind) for kind in StaffAction.NEEDS}


def _names(pairs: list[Pair]) -> dict[int, str]:
    ids = {p.low_id for p in pairs} | {p.high_id for p in pairs}
    users = get_user_model().objects.filter(pk__in=ids)
    return {u.pk: u.get_username() for u in users}


@fair_play_only
def pairs(request: HttpRequest) -> HttpResponse:
    rows = list(Pair.objects.order_by("-peak", "-score", "pk")[:LISTED])  # flagged first
    names = _names(rows)
    listed = [
        {"pair": p, "low": names.get(p.low_id, "?"), "high": names.get(p.high_id, "?")}
        for p in rows
    ]
    context = {
        "rows": listed,
        "threshold": THRESHOLD,
        "alpha": ALPHA,
        "flagged": Pair.objects.filter(flagged_after__isnull=False).count(),
        "reports": _open_reports(),
        "log": StaffAction.objects.select_related("staff")[:LOGGED],
        "kinds": StaffAction.Kind,
        "can": _allowed(request.user),
    }
    return render(request, "games/fairplay/pairs.html", context)


def _open_reports() -> list[dict]:
    """Open reports, the latest first, with the games each carries (only games that are
    over: links to their replays)."""
    rows = (
        Report.objects.filter(closed_at__isnull=True)
        .select_related("reporter", "reported")
        .prefetch_related("games")
        .order_by("-updated_at", "-pk")[:LISTED]
    )
    return [
        {
            "report": r,
            "games": [
                g.pk
                for g in sorted(r.games.all(), key=lambda g: -g.pk)
                if g.status in (Game.Status.FINISHED, Game.Status.ABORTED)
            ],
        }
        for r in rows
    ]


@fair_play_only
def pair(request: HttpRequest, pair_id: int) -> HttpResponse:
    found = get_object_or_404(Pair, pk=pair_id)
    names = _names([found])
    low, high = names.get(found.low_id, "?"), names.get(found.high_id, "?")
    directions = []
    for giver, receiver, label_from, label_to in (
        (found.low_id, found.high_id, low, high),
        (found.high_id, found.low_id, high, low),
    ):
        counts = found.evidence.get(f"{giver}>{receiver}", {})
        directions.append({"from": label_from, "to": label_to, "counts": counts})
    games = found.pair_games.select_related("game").order_by("-weight", "-game_id")[:50]
    context = {
        "pair": found,
        "low": low,
        "high": high,
        "directions": directions,
        "third_chips": found.evidence.get("third_chips", 0),
        "signals": evidence.lines(found, low, high),
        "games": games,
        "threshold": THRESHOLD,
        "countable": actions.pair_games(found).count(),
        "log": found.actions.select_related("staff")[:LOGGED],
        "kinds": StaffAction.Kind,
        "can": _allowed(request.user),
    }
    return render(request, "games/fairplay/pair.html", context)


# --- Reports: anyone signed in --------------------------------------------------------------


class ReportForm(forms.Form):
    note = forms.CharField(
        label=_("What did you see? (optional)"), required=False, max_length=reports.NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def report_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """Report someone you played a finished game with (the result screen's Report)."""
    game = get_object_or_404(Game, pk=game_id)
    people = reports.people_to_report(game, request.user)
    if not people:
        messages.error(
            request, gettext("You can report only someone you played a game with, once it is over.")
        )
        return redirect("table", game.pk)
    form = ReportForm(request.POST if request.method == "POST" else None)
    chosen = None
    if request.method == "POST":
        wanted = request.POST.get("reported", "")
        chosen = next((p for p in people if str(p.pk) == wanted), None)
        if chosen is None and len(people) == 1:
            chosen = people[0]
        if chosen is None:
            form.add_error(None, gettext("Choose the player you report."))
        elif form.is_valid():
            return _sent(request, chosen, game=game, note=form.cleaned_data["note"])
    context = {"form": form, "game": game, "people": people, "chosen": chosen}
    return render(request, "games/fairplay/report.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report an account from its profile: the report carries your recent games together."""
    person = get_object_or_404(get_user_model(), username=username)
    if person.pk == request.user.pk:
        messages.error(request, gettext("You cannot report yourself."))
        return redirect("player", username)
    form = ReportForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        return _sent(request, person, note=form.cleaned_data["note"])
    games = len(reports.shared_games(request.user, person))
    context = {"form": form, "person": person, "games": games}
    return render(request, "games/fairplay/report.html", context)


def _sent(request: HttpRequest, person, *, game: Game | None = None, note: str = ""):
    try:
        sent = reports.send(request.user, person, game=game, note=note)
    except reports.ReportRefused as e:
        context = {"refused": e.message, "person": person, "game": game}
        return render(request, "games/fairplay/report_sent.html", context, status=429)
    context = {"sent": sent, "person": person, "game": game}
    return render(request, "games/fairplay/report_sent.html", context)


# --- Staff actions ---------------------------------------------------------------------------


class ActionForm(forms.Form):
    action = forms.ChoiceField(choices=StaffAction.Kind.choices)
    reason = forms.CharField(label=_("Why"), max_length=1000, strip=True)
    account = forms.IntegerField(required=False)
    pair = forms.IntegerField(required=False)


@fair_play_only
@require_POST
def act(request: HttpRequest) -> HttpResponse:
    """One staff action (warn, void a pair's games, close an account, deal with the
    reports), logged with who, when and why. One the actor may not take is refused with
    a 403 that says why (``actions.Refused``), and changes nothing."""
    form = ActionForm(request.POST)
    back = local_path(request, request.POST.get("back"), reverse("fairplay_pairs"))
    if not form.is_valid():
        messages.error(request, gettext("Say why, and choose an action: nothing was done."))
        return redirect(back)
    kind, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    if kind == StaffAction.Kind.CLEAR:
        pair = Pair.objects.filter(pk=form.cleaned_data["pair"] or 0).first()
        if pair is None:
            messages.error(request, gettext("There is no such pair: nothing was done."))
            return redirect(back)
        review.clear_pair(request.user, pair, reason)
        messages.success(request, gettext("The pair is cleared: its held series pots count."))
        return redirect(back)
    if kind == StaffAction.Kind.VOID:
        pair = Pair.objects.filter(pk=form.cleaned_data["pair"] or 0).first()
        if pair is None:
            messages.error(request, gettext("There is no such pair: nothing was done."))
            return redirect(back)
        done = actions.void_pair(request.user, pair, reason)
        messages.success(
            request,
            ngettext(
                "%(n)s game voided; the ratings and series pots were recomputed without it.",
                "%(n)s games voided; the ratings and series pots were recomputed without them.",
                len(done.games),
            )
            % {"n": len(done.games)},
        )
        return redirect(back)
    account = get_user_model().objects.filter(pk=form.cleaned_data["account"] or 0).first()
    if account is None:
        messages.error(request, gettext("There is no such account: nothing was done."))
        return redirect(back)
    name = account.get_username()
    if kind == StaffAction.Kind.WARN:
        actions.warn(request.user, account, reason)
        said = gettext("%(name)s is warned; they will see it on their next lobby page.")
    elif kind == StaffAction.Kind.CLOSE:
        actions.close_account(request.user, account, reason)
        said = gettext("%(name)s's account is closed.")
    else:
        actions.dismiss(request.user, account, reason)
        said = gettext("The reports of %(name)s are dealt with.")
    messages.success(request, said % {"name": name})
    return redirect(back)
