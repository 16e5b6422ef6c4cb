"""What the site's pages show of ratings: a table's seats, a profile's chart, the
leaderboard's lists. Each is a fixed number of queries, however many games."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.utils import translation
from django.utils.translation import ngettext

from accounts.models import display_name_for
from games.history import charts
from games.models import Game, Seat
from games.ratings import core
from games.ratings.models import CORRESPONDENCE, LIVE, Rating

MIN_GAMES = 5  # games to be listed on the leaderboard by rating
LISTED = 20


@dataclass(frozen=True)
class SeatRating:
    name: str
    shown: str
    provisional: bool


# This worker's table lines, by game and seats, for KEPT_SECONDS: a table's three people load
# its page together (an arena's start: a thousand pages in seconds). The people seated play
# no other live game meanwhile, so only a bot's rating may be that much older; a game's end
# (``over``) is a key of its own, so its new ratings are shown at once.
KEPT_SECONDS = 5.0
_lines: dict[tuple, tuple[float, dict[str, Any]]] = {}
LINES_KEPT = 1024


def table_ratings_kept(
    game_id: int, seats: Sequence, rated: bool, turn_seconds: int, over: bool
) -> dict[str, Any]:
    """``table_ratings``, computed once in ``KEPT_SECONDS`` for a table's seats."""
    # The line holds names in the reader's language ("Random na bot 3"): one per language.
    key = (
        translation.get_language(),
        game_id,
        over,
        bool(rated),
        tuple((s.index, s.user_id, s.bot_kind) for s in seats),
    )
    now = time.monotonic()
    held = _lines.get(key)
    if held is not None and now - held[0] < KEPT_SECONDS:
        return dict(held[1])
    line = table_ratings(game_id, seats, rated, turn_seconds)
    if len(_lines) >= LINES_KEPT:
        _lines.clear()
    _lines[key] = (now, line)
    return dict(line)


def table_ratings(
    game_id: int, seats: Sequence, rated: bool | None = None, turn_seconds: int | None = None
) -> dict[str, Any]:
    """The table page's line of ratings: each seated player's in the table's category
    (live or correspondence), and whether the table's result will move ratings (not a
    guest's, nor at a table of only guests and bots). Two queries, and a third without
    ``rated`` and ``turn_seconds`` (the game's own, which the table's snapshot holds)."""
    if rated is None or turn_seconds is None:
        row = Game.objects.filter(pk=game_id).values_list("rated", "turn_seconds").first()
        rated, turn_seconds = row if row is not None else (False, None)
    guests = core.guest_ids(s.user_id for s in seats)
    category = core.category_of(turn_seconds)
    skills = core.skills_of([s.user_id for s in seats], [s.bot_kind for s in seats], category)
    lines = []
    for seat in seats:
        skill = core.skill_of_seat(skills, seat)
        if skill is not None and seat.user_id not in guests:  # a guest has no rating
            lines.append(SeatRating(seat.shown_name, skill.shown, skill.provisional))
    table_rated = core.will_be_rated(bool(rated), seats, guests)
    return {"table_rated": table_rated, "seat_ratings": lines}


@dataclass(frozen=True)
class RatingChart:
    chart: charts.LineChart
    current: str


def profile_ratings(user_id: int) -> dict[str, Any]:
    """The profile's live rating and its chart over the player's last rated games, and
    their correspondence rating if they have one: two queries (the newest change holds
    the rating as it is now)."""
    changes = core.history(user_id)
    skill = core.Skill(changes[-1][1], changes[-1][2], changes[-1][3]) if changes else core.NEW
    points = [round(mu * core.SCALE) for _, mu, _, _ in changes]
    slow = core.history(user_id, last=1, category=CORRESPONDENCE)
    by_post = core.Skill(slow[-1][1], slow[-1][2], slow[-1][3]) if slow else None
    return {"rating": skill, "rating_chart": rating_chart(points), "correspondence_rating": by_post}


def rating_chart(values: Sequence[int]) -> charts.LineChart | None:
    """The rating after each game, from the new player's rating before the first."""
    if not values:
        return None
    start = round(core.NEW.mu * core.SCALE)
    series = [start, *values]
    low, high = min(series), max(series)
    span = (high - low) or 1
    w, h, pad = charts.WIDTH, charts.HEIGHT, charts.PAD
    step = (w - 2 * pad) / len(values)

    def y(value: int) -> float:
        return round(pad + (high - value) * (h - 2 * pad) / span, 1)

    points = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(series)]
    path = "M" + " L".join(f"{x},{yy}" for x, yy in points)
    words = {"n": len(values), "now": series[-1], "low": low, "high": high, "start": start}
    summary = (
        ngettext(
            "Rating over the last game: now %(now)s, lowest %(low)s, highest %(high)s "
            "(a new player starts at %(start)s).",
            "Rating over the last %(n)s games: now %(now)s, lowest %(low)s, highest %(high)s "
            "(a new player starts at %(start)s).",
            len(values),
        )
        % words
    )
    return charts.LineChart(w, h, path, y(start), points[-1][0], points[-1][1], summary)


@dataclass(frozen=True)
class Ranked:
    name: str
    username: str
    shown: str
    games: int


def leaderboard() -> dict[str, Any]:
    """People by rating (at least ``MIN_GAMES`` rated games), and the bot levels apart, in
    each category: the live one, and beside it the correspondence one (rated apart, so
    listed apart). Four queries."""
    live, by_post = _ranked(LIVE), _ranked(CORRESPONDENCE)
    return {
        "by_rating": live[0],
        "bot_ratings": live[1],
        "by_correspondence_rating": by_post[0],
        "bot_correspondence_ratings": by_post[1],
        "rating_min_games": MIN_GAMES,
    }


def _ranked(category: str) -> tuple[list[Ranked], list[Ranked]]:
    # People with games enough, best first; every bot level rated in the category.
    people = (
        Rating.objects.filter(user__isnull=False, games__gte=MIN_GAMES, category=category)
        .select_related("user__profile")
        .order_by(F("mu").desc(), "pk")[:LISTED]
    )
    bots = Rating.objects.filter(category=category).exclude(bot_kind="")
    return (
        [
            Ranked(
                display_name_for(r.user), r.user.get_username(), core.shown(r.mu, r.games), r.games
            )
            for r in people
        ],
        [
            Ranked(_bot_name(r.bot_kind), "", core.shown(r.mu, r.games), r.games)
            for r in bots.order_by(F("mu").desc(), "pk")
        ],
    )


def _bot_name(kind: str) -> str:
    return dict(Seat.BOT_CHOICES).get(kind, f"{kind.title()} bot")
