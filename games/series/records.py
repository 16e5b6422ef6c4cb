"""Series records in and out of the database: download one, upload one."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game
from games.records import BadRecord, import_game_record, move_refused, record_dict
from games.rule_messages import unreadable
from games.series import services
from games.series.models import Hand, Series
from games.series.record import DEALER_RULE, FORMAT, ledger_json, replay_series


def series_dict(series: Series) -> dict[str, Any]:
    """The series as a ``tongits-series/1`` object: its hands that are over, in order."""
    st = services.state(series)
    games = (
        Game.objects.filter(series_hand__series=series)
        .prefetch_related("seats__user__profile")
        .order_by("series_hand__number")
    )
    hands = [record_dict(g) for g in games if g.revealed]
    return {
        "format": FORMAT,
        "id": series.pk,
        "ante": series.ante,
        "dealer_rule": DEALER_RULE,
        "ended": series.ended,
        "people_at_end": list(series.people_at_end),
        "hands": hands,
        "pot": ledger_json(st.book)["events"],
    }


@transaction.atomic
def import_series(data: dict[str, Any], user: AbstractBaseUser | None) -> Game:
    """Store an uploaded series record (each hand an imported game, linked as a series
    that has ended) after every hand replays; returns its first hand's game."""
    result, status = replay_series(data)
    if status:
        raise BadRecord(_unreadable(result))
    ended = bool(data.get("ended"))
    series = Series.objects.create(
        created_by=user, ante=data["ante"], imported=True,
        ended_at=timezone.now() if ended else None,
        end_reason=Series.UPLOADED if ended else "",
        people_at_end=sorted(set(data.get("people_at_end", []))) if ended else [],
    )  # fmt: skip
    games = [import_game_record(hand, user) for hand in data["hands"]]
    for number, game in enumerate(games, start=1):
        Hand.objects.create(series=series, game=game, number=number)
    return games[0]


def _unreadable(result: dict[str, Any]) -> str:
    """What an upload says of a series record that does not replay: the hand, then the
    move the engine refused or why the record cannot be read, in the active language."""
    move = result.get("move")
    if isinstance(move, int):
        reason = move_refused(move, result["error"])
    else:
        said = unreadable(result["error"])
        reason = said[:1].upper() + said[1:] + "."
    if result.get("hand"):
        return gettext("The series record cannot be read. Hand %(hand)s: %(reason)s") % {
            "hand": result["hand"],
            "reason": reason,
        }
    return gettext("The series record cannot be read. %(reason)s") % {"reason": reason}
