"""Numbers about players and games, counted by the database from the stored results.

A finished game's result columns (winner, end, points, chips, burned) are written with its
last move and checked against a replay of the log (``manage.py replay --stored``), so
counting them is counting the log. Uploaded records (``Game.imported``) count for nobody.
Every function here runs a fixed number of queries, however many games there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Avg,
    Case,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    FloatField,
    IntegerField,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    When,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce, TruncDate
from django.utils.translation import pgettext_lazy

from games.models import Game, Move, Seat

FINISHED, ABORTED = Game.Status.FINISHED, Game.Status.ABORTED
ENDS = {
    "tongits": pgettext_lazy("end", "Tongits"),
    "draw": pgettext_lazy("end", "Draw"),
    "fought_draw": pgettext_lazy("end", "Fought Draw"),
    "stock": pgettext_lazy("end", "Stock"),
}
RESULTS = ("won", "lost", "burned")
MIN_GAMES_FOR_RATE = 5
STUCK_AFTER = timedelta(minutes=10)


# --- Expressions on Seat rows -------------------------------------------------------------


def own(field: str, output=None) -> Case:
    """The seat's own entry of its game's per-seat list (``chips``, ``points``, ``burned``).

    The seat's index picks the entry; JSON arrays cannot be indexed by a column, hence the
    three cases.
    """
    output = output or IntegerField()
    cases = [
        When(index=i, then=Cast(KeyTextTransform(str(i), f"game__{field}"), output))
        for i in range(3)
    ]
    return Case(*cases, output_field=output)


def won() -> Q:
    return Q(game__status=FINISHED, game__winner_seat=F("index"))


def lost() -> Q:
    return Q(game__status=FINISHED) & ~Q(game__winner_seat=F("index"))


def burned() -> Q:
    cases = Q()
    for i in range(3):
        cases |= Q(index=i, **{f"game__burned__{i}": True})
    return Q(game__status=FINISHED) & cases


def counted_seats() -> QuerySet[Seat]:
    """Seats of finished games that count in stats (not a game staff voided, nor a game
    of the daily deal, which has scores of its own: games.daily)."""
    return Seat.objects.filter(
        game__status=FINISHED, game__imported=False, game__voided_at__isnull=True,
        game__daily=False,
    )  # fmt: skip


def _tallies() -> dict:
    return {
        "games": Count("id"),
        "wins": Count("id", filter=won()),
        "net": Coalesce(Sum(own("chips")), 0),
    }


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


# --- My games -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    name: str
    username: str = ""  # empty for a bot or an uploaded record's seat: no profile page


@dataclass(frozen=True)
class HistoryRow:
    game: Game
    seat: int
    opponents: list[Player]
    result: str  # won, lost, aborted
    end: str
    points: int | None
    chips: int | None
    burned: bool


def history(user: AbstractBaseUser, result: str = "", end: str = "") -> QuerySet[Seat]:
    """The user's seats in games that were dealt and are over, newest first.

    Live games are the lobby's business; waiting ones were never played.
    """
    seats = Seat.objects.filter(
        user=user, game__imported=False, game__status__in=(FINISHED, ABORTED),
        game__started_at__isnull=False,
    )  # fmt: skip
    if result in RESULTS:
        seats = seats.filter({"won": won, "lost": lost, "burned": burned}[result]())
    if end in ENDS:
        seats = seats.filter(game__end=end)
    players = Seat.objects.select_related("user__profile")
    return (
        seats.select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=players))
        .order_by("-game__finished_at", "-game_id")
    )


def player_of(seat: Seat) -> Player:
    return Player(seat.shown_name, seat.user.get_username() if seat.user_id else "")


def history_row(seat: Seat) -> HistoryRow:
    """One line of a history: the game as ``seat`` saw it (prefetched seats, no query)."""
    game, i = seat.game, seat.index
    others = [player_of(s) for s in game.seats.all() if s.index != i]
    finished = game.status == FINISHED
    result = ("won" if game.winner_seat == i else "lost") if finished else "aborted"
    return HistoryRow(
        game=game, seat=i, opponents=others, result=result, end=game.end,
        points=game.points[i] if finished and game.points else None,
        chips=game.chips[i] if finished and game.chips else None,
        burned=bool(finished and game.burned and game.burned[i]),
    )  # fmt: skip


# --- A player's profile -------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    net: int
    tongits_wins: int
    burned: int
    calls: int
    calls_won: int

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.games)

    @property
    def call_rate(self) -> float | None:
        return _rate(self.calls_won, self.calls)


def player_stats(user: AbstractBaseUser) -> PlayerStats:
    """Two queries: the seats' tallies, and the Draw calls."""
    seats = counted_seats().filter(user=user)
    tallies = seats.aggregate(
        **_tallies(),
        tongits_wins=Count("id", filter=won() & Q(game__end="tongits")),
        burned=Count("id", filter=burned()),
    )
    return PlayerStats(**tallies, **draw_calls(user))


def draw_calls(user: AbstractBaseUser) -> dict[str, int]:
    """How many times the user called Draw, and how many of those calls they won.

    A call always ends the game (R7: both fold, or a fight settles it), so in a finished
    game it can only be found in one that ended by a Draw: filtering on the end first
    keeps the database from reading every move the user ever made.
    """
    draw_ends = ("draw", "fought_draw")
    calls = Move.objects.filter(
        game__status=FINISHED, game__imported=False, game__voided_at__isnull=True,
        game__daily=False, game__end__in=draw_ends, game__seats__user=user,
        game__seats__index=F("seat"), payload__type="call",
    )  # fmt: skip
    return calls.aggregate(
        calls=Count("id"), calls_won=Count("id", filter=Q(game__winner_seat=F("seat")))
    )


def recent_gains(user: AbstractBaseUser, last: int = 50) -> list[int]:
    """The user's net chips in each of their last ``last`` finished games, oldest first."""
    seats = counted_seats().filter(user=user).annotate(gain=own("chips"))
    newest = seats.order_by("-game__finished_at", "-game_id").values_list("gain", flat=True)
    return list(reversed(newest[:last]))


# --- The leaderboard ----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    name: str
    username: str
    games: int
    wins: int
    net: int

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.games)


def _people(guests: bool = True) -> QuerySet:
    seats = counted_seats().filter(user__isnull=False)
    if not guests:
        seats = seats.exclude(user__profile__is_guest=True)
    return seats.values("user_id", "user__username", "user__profile__display_name").annotate(
        **_tallies()
    )


# The boards rank people, not visits: an unclaimed guest is one press of Play now, made
# afresh for a new browser and removed after a month, so one person could hold many rows
# (or keep only the lucky one) under names they never chose. A guest joins the boards,
# games and all, once claimed.


def _standing(row: dict) -> Standing:
    name = row["user__profile__display_name"] or row["user__username"]
    return Standing(name, row["user__username"], row["games"], row["wins"], row["net"])


def by_net_chips(limit: int = 20) -> list[Standing]:
    rows = _people(guests=False).order_by("-net", "-wins", "user__username")[:limit]
    return [_standing(r) for r in rows]


def by_win_rate(limit: int = 20, min_games: int = MIN_GAMES_FOR_RATE) -> list[Standing]:
    rate = ExpressionWrapper(Cast("wins", FloatField()) / F("games"), output_field=FloatField())
    rows = (
        _people(guests=False)
        .filter(games__gte=min_games)
        .annotate(rate=rate)
        .order_by("-rate", "-games", "user__username")[:limit]
    )
    return [_standing(r) for r in rows]


def bots() -> list[Standing]:
    """Each bot kind as one player: every seat it filled, whoever sat beside it."""
    labels = dict(Seat.BOT_CHOICES)
    rows = (
        counted_seats()
        .exclude(bot_kind="")
        .values("bot_kind")
        .annotate(**_tallies())
        .order_by("-net", "bot_kind")
    )
    return [
        Standing(labels.get(r["bot_kind"], r["bot_kind"]), "", r["games"], r["wins"], r["net"])
        for r in rows
    ]


# --- The staff dashboard ------------------------------------------------------------------


def game_counts(now: datetime) -> dict[str, int]:
    """Games running now, waiting for players, and started today / in the last 7 days."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    live = Game.objects.filter(imported=False)
    return live.aggregate(
        playing=Count("id", filter=Q(status=Game.Status.PLAYING)),
        waiting=Count("id", filter=Q(status=Game.Status.WAITING)),
        today=Count("id", filter=Q(started_at__gte=midnight)),
        week=Count("id", filter=Q(started_at__gte=midnight - timedelta(days=6))),
    )


def started_per_day(now: datetime, days: int = 7) -> list[tuple[date, int]]:
    """Games dealt on each of the last ``days`` days (UTC), oldest first, zeros included."""
    first = now.date() - timedelta(days=days - 1)
    rows = (
        Game.objects.filter(imported=False, started_at__date__gte=first)
        .annotate(day=TruncDate("started_at"))
        .values("day")
        .annotate(n=Count("id"))
    )
    counts = {r["day"]: r["n"] for r in rows}
    every_day = [first + timedelta(days=i) for i in range(days)]
    return [(day, counts.get(day, 0)) for day in every_day]


def game_lengths() -> dict:
    """Mean moves and mean duration of finished games."""
    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    return Game.objects.filter(status=FINISHED, imported=False).aggregate(
        finished=Count("id"), moves=Avg("seq"), duration=Avg(duration)
    )


def end_counts() -> list[tuple[str, int]]:
    rows = (
        Game.objects.filter(status=FINISHED, imported=False)
        .values("end")
        .annotate(n=Count("id"))
        .order_by("-n", "end")
    )
    return [(ENDS.get(r["end"], r["end"]), r["n"]) for r in rows]


def bot_and_human_wins() -> dict:
    """Share of finished games won by a bot seat and by a person's seat, and each kind
    of seat's own win rate (a bot fills more seats than people do in quick play)."""
    is_bot = ~Q(bot_kind="")
    t = counted_seats().aggregate(
        bot_seats=Count("id", filter=is_bot),
        bot_wins=Count("id", filter=is_bot & won()),
        human_seats=Count("id", filter=~is_bot),
        human_wins=Count("id", filter=~is_bot & won()),
    )
    games = t["bot_wins"] + t["human_wins"]  # each finished game has one winning seat
    return {
        **t,
        "games": games,
        "bot_share": _rate(t["bot_wins"], games),
        "human_share": _rate(t["human_wins"], games),
        "bot_rate": _rate(t["bot_wins"], t["bot_seats"]),
        "human_rate": _rate(t["human_wins"], t["human_seats"]),
    }


def busiest_players(limit: int = 10) -> list[Standing]:
    rows = _people().order_by("-games", "user__username")[:limit]
    return [_standing(r) for r in rows]


def stuck_games(now: datetime) -> QuerySet[Game]:
    """Games in play where nothing has moved for ``STUCK_AFTER``."""
    quiet = Coalesce("last_move_at", "started_at")
    players = Seat.objects.select_related("user__profile")
    return (
        Game.objects.filter(status=Game.Status.PLAYING)
        .annotate(quiet_since=quiet)
        .filter(quiet_since__lt=now - STUCK_AFTER)
        .prefetch_related(Prefetch("seats", queryset=players))
        .order_by("quiet_since")
    )


def aborted_games(limit: int = 20) -> QuerySet[Game]:
    return (
        Game.objects.filter(status=ABORTED, imported=False)
        .select_related("aborted_by__profile")
        .order_by("-finished_at", "-pk")[:limit]
    )
