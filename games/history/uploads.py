"""An uploaded record, a game's or a series': which it is, and where it goes.

Above both kinds of record: a series' record is built on a game's (games.series.records
imports games.history.records), so the choice between them is made here rather than in
games.history.records, which would import its own importer round a circle.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from games.history.records import (
    AlreadyUploaded,
    import_game_record,
    uploaded_game,
    uploaded_series,
)
from games.models import Game
from games.series import record as series_record
from games.series import records as series_records


def import_record(data: str | bytes | dict, user: AbstractBaseUser | None) -> Game:
    """Store an uploaded record (a game's, or a series' with its hands) after the engine
    replays it whole; returns the game (a series' first hand)."""
    series = series_record.parse(data)
    if series is not None:
        copy = uploaded_series(series, user)
        if copy is not None:
            raise AlreadyUploaded(
                gettext("You have uploaded this series record already: it is stored once."),
                copy,
            )
        return series_records.import_series(series, user)
    copy = uploaded_game(data, user)
    if copy is not None:
        raise AlreadyUploaded(
            gettext("You have uploaded this record already: it is stored once."), copy
        )
    return import_game_record(data, user)
