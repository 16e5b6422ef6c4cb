"""What the game services tell series: imported by ``games.services``, so it imports
nothing of theirs."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from games.series.models import Hand, Series


def pause() -> timedelta:
    return timedelta(seconds=settings.TONGITS_SERIES_PAUSE_SECONDS)


def hand_finished(game_id: int, now: datetime) -> None:
    """A hand of a series ended: the pause before the next one starts now. One query for
    a game of no series."""
    series_id = Hand.objects.filter(game_id=game_id).values_list("series_id", flat=True).first()
    if series_id is not None:
        Series.objects.filter(pk=series_id).update(next_at=now + pause(), ready=[])
