"""A tournament's standings, derived from its games' results (never stored): each
entry's finished games in the order they were dealt, scored by ``scoring``."""

from __future__ import annotations

from django.db.models import Prefetch

from accounts.models import display_name_for
from games.models import Game, Seat
from games.ratings import core as ratings
from games.tournaments import scoring
from games.tournaments.models import Entry, Tournament, TournamentGame


def games_of(t: Tournament) -> list[TournamentGame]:
    """Its games, oldest first, with their seats (and their people)."""
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
    rows = t.games.select_related("game").prefetch_related(seats)
    return sorted(rows, key=lambda tg: tg.game_id)


def results(t: Tournament, tgs: list[TournamentGame] | None = None) -> dict[int, list]:
    """Each person's (user id) results, in the order their games were dealt."""
    tgs = games_of(t) if tgs is None else tgs
    seats = [s for tg in tgs for s in tg.game.seats.all()]
    skills = ratings.skills_of(
        user_ids={s.user_id for s in seats if s.user_id},
        bot_kinds={s.bot_kind for s in seats if s.bot_kind},
    )
    out: dict[int, list[scoring.Result]] = {}
    for tg in tgs:
        game = tg.game
        if game.status != Game.Status.FINISHED or game.winner_seat is None:
            continue  # aborted games and games under way count for nobody
        table = list(game.seats.all())
        for seat in table:
            if seat.user_id is None:
                continue  # bots score nothing
            place = scoring.place_of(seat.index, game.winner_seat, game.chips)
            met = tuple(
                float(skill.value)
                for other in table
                if other.index != seat.index
                and (skill := ratings.skill_of_seat(skills, other)) is not None
            )
            out.setdefault(seat.user_id, []).append(
                scoring.Result(
                    place=place, tongits=place == 1 and game.end == "tongits",
                    away=seat.index in tg.away, opponents=met,
                )
            )  # fmt: skip
    return out


def standings(
    t: Tournament, tgs: list[TournamentGame] | None = None
) -> list[tuple[scoring.Standing, Entry]]:
    """Everyone who entered, best first, with their entry."""
    entries = {e.pk: e for e in t.entries.select_related("user")}
    found = results(t, tgs)
    table = scoring.standings(
        (e.pk, display_name_for(e.user), found.get(e.user_id, [])) for e in entries.values()
    )
    return [(row, entries[row.key]) for row in table]
