"""What other pages show of a tournament: the way back to it from one of its tables."""

from __future__ import annotations

import time
from collections import OrderedDict

from django.urls import reverse

from games.tournaments.models import Tournament, TournamentGame

# Per process, by game: its tournament as a table page links to it (None: a game of no
# tournament). A game's tournament is fixed when it is dealt (the pairing makes both in
# one transaction), so only the tournament's name is looked up again, after NAME_SECONDS
# (staff may rename it). At an arena's start each of a table's three pages asked this.
NAME_SECONDS = 60.0
KEPT = 4096
_of_game: OrderedDict[int, tuple[float, Tournament | None]] = OrderedDict()


def for_game(game_id: int) -> dict | None:
    """The tournament of game ``game_id`` (its page's URL and name), or None."""
    now = time.monotonic()
    hit = _of_game.get(game_id)
    if hit is None or (hit[1] is not None and now - hit[0] > NAME_SECONDS):
        tg = TournamentGame.objects.filter(game_id=game_id).select_related("tournament").first()
        hit = _of_game[game_id] = (now, tg.tournament if tg is not None else None)
        while len(_of_game) > KEPT:
            _of_game.popitem(last=False)
    tournament = hit[1]
    if tournament is None:
        return None
    return {
        "id": tournament.pk,
        "url": reverse("tournament", args=[tournament.pk]),
        "name": tournament.name_shown,
    }


def forget() -> None:
    _of_game.clear()
