"""A person's correspondence games, "Your turn" first by the time left, each with its
table's last move, and the badge's count. Each is a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from games.engine.cards import parse_card, short
from games.models import CORRESPONDENCE_SECONDS, Game, Move, Seat

UNFINISHED = [Game.Status.WAITING, Game.Status.PLAYING]


def waiting_count(user_id: int) -> int:
    """How many correspondence games wait for this person's move: one query."""
    return Game.objects.filter(
        status=Game.Status.PLAYING, turn_seconds__gte=CORRESPONDENCE_SECONDS,
        seats__user_id=user_id, seats__index=F("turn_seat"), seats__away=False,
    ).count()  # fmt: skip


def waiting_count_sql(user_id: int) -> tuple[str, list]:
    """``waiting_count`` as one SQL number, for a select list (every page of a signed-in
    person asks it, with the other facts of its person: tongits_site/person_facts.py).
    The seat's column "index" is quoted: a keyword to SQLite, which ``make run`` uses."""
    sql = (
        f"(SELECT count(*) FROM {Game._meta.db_table} g JOIN {Seat._meta.db_table} s"
        " ON s.game_id = g.id WHERE s.user_id = %s AND g.status = %s"
        ' AND g.turn_seconds >= %s AND s."index" = g.turn_seat AND NOT s.away)'
    )
    return sql, [user_id, Game.Status.PLAYING.value, CORRESPONDENCE_SECONDS]


@dataclass(frozen=True)
class Line:
    game_id: int
    yours: bool  # their turn
    status: str
    due_at: datetime | None
    turn_seconds: int
    to_move: str  # who is to move (empty: nobody yet)
    last_move: str  # the table's last move in words (never a hidden card)


def games_of(user_id: int, now: datetime | None = None) -> list[Line]:
    """The person's unfinished correspondence games: theirs to move first, each group by
    the time left. Two queries."""
    now = now or timezone.now()
    last = Move.objects.filter(game_id=OuterRef("game_id")).order_by("-seq")
    mine = (
        Seat.objects.filter(
            user_id=user_id,
            game__status__in=UNFINISHED,
            game__turn_seconds__gte=CORRESPONDENCE_SECONDS,
        )  # fmt: skip
        .annotate(
            last_payload=Subquery(last.values("payload")[:1]),
            last_seat=Subquery(last.values("seat")[:1]),
        )
        .select_related("game")
    )
    mine = list(mine)
    names = _names([s.game_id for s in mine])
    lines = []
    for seat in mine:
        game = seat.game
        playing = game.status == Game.Status.PLAYING
        yours = playing and game.turn_seat == seat.index and not seat.away
        table = names.get(game.pk, {})
        to_move = table.get(game.turn_seat, "") if playing else ""
        said = ""
        if seat.last_payload is not None:
            said = last_move_text(table.get(seat.last_seat, "?"), seat.last_payload)
        lines.append(
            Line(game.pk, yours, game.status, game.due_at, game.turn_seconds, to_move, said)
        )
    far = datetime.max.replace(tzinfo=now.tzinfo)
    lines.sort(key=lambda ln: (not ln.yours, ln.due_at or far, ln.game_id))
    return lines


def _names(game_ids: list[int]) -> dict[int, dict[int, str]]:
    rows = Seat.objects.filter(game_id__in=game_ids).select_related("user__profile")
    return {g: {} for g in game_ids} | _by_game(rows)


def _by_game(rows) -> dict[int, dict[int, str]]:
    found: dict[int, dict[int, str]] = {}
    for seat in rows:
        found.setdefault(seat.game_id, {})[seat.index] = seat.shown_name
    return found


def last_move_text(name: str, payload: dict) -> str:
    """A move as everyone at the table saw it: the card only of a discard (it lies face
    up on the pile); a secret set, a draw from the stock and the like name no card."""
    kind = payload.get("type")
    words = {
        "draw": gettext("%(name)s drew from the stock"),
        "take": gettext("%(name)s took the discard"),
        "meld": gettext("%(name)s laid down a meld"),
        "secret": gettext("%(name)s laid down a secret set"),
        "layoff": gettext("%(name)s laid off a card"),
        "call": gettext("%(name)s called Draw"),
        "fold": gettext("%(name)s folded"),
        "fight": gettext("%(name)s fought the Draw"),
    }
    if kind == "discard" and payload.get("card"):
        card = short(parse_card(payload["card"]))
        return gettext("%(name)s discarded %(card)s") % {"name": name, "card": card}
    return words.get(kind, gettext("%(name)s moved")) % {"name": name}
