"""What other pages show of a tournament: the way back to it from one of its tables."""

from __future__ import annotations

from django.urls import reverse

from games.tournaments.models import TournamentGame


def for_game(game_id: int) -> dict | None:
    """The tournament of game ``game_id`` (its page's URL and name), or None."""
    tg = TournamentGame.objects.filter(game_id=game_id).select_related("tournament").first()
    if tg is None:
        return None
    return {"url": reverse("tournament", args=[tg.tournament_id]), "name": tg.tournament.name_shown}
