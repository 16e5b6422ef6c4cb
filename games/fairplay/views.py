"""The staff Fair play page: pairs of accounts by score, and one pair's evidence.

Staff only (``staff_only``: others get a 403, visitors the log-in page). It shows counts,
names and links to the replays of finished games, never a card: the scoring reads only
finished games, and a replay shows a game's cards only once it has ended.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.history.dashboard import staff_only

from .detector import ALPHA, THRESHOLD
from .models import Pair

LISTED = 100


def _names(pairs: list[Pair]) -> dict[int, str]:
    ids = {p.low_id for p in pairs} | {p.high_id for p in pairs}
    users = get_user_model().objects.filter(pk__in=ids)
    return {u.pk: u.get_username() for u in users}


@staff_only
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
    }
    return render(request, "games/fairplay/pairs.html", context)


@staff_only
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
        "games": games,
        "threshold": THRESHOLD,
    }
    return render(request, "games/fairplay/pair.html", context)
