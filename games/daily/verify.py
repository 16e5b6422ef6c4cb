"""Checking a past day's deal, as anyone can once the day is over: its seed's SHA-256 is
the commitment shown since before the day began, and Hard playing the seed's deal in the
daily seat scores the stored par (``manage.py verify_deal --daily DATE``)."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from games.engine.cards import CODES
from games.engine.deal import deal_from_seed
from games.models import Game

from . import par, services
from .models import Day


def check_day(text: str) -> tuple[bool, list[str]]:
    """(all good, the lines to print) for the day written ``text`` (2026-12-05)."""
    try:
        day = Day.objects.get(day=date.fromisoformat(text))
    except (ValueError, Day.DoesNotExist):
        return False, [f"no daily deal of {text}"]
    if not services.is_closed(day, timezone.now()):
        return False, [f"the deal of {text} is not over yet: its seed is still secret"]
    lines = [f"seed {day.seed}", f"commitment {day.commitment}"]
    if Game.commit_to(day.seed) != day.commitment:
        return False, [*lines, "the seed's SHA-256 is NOT the commitment"]
    dealer, hands, _stock = deal_from_seed(int(day.seed))
    lines += ["the seed's SHA-256 is the commitment", f"dealer seat {dealer}"]
    lines.append("your hand (seat 0): " + " ".join(CODES[c] for c in hands[0]))
    if day.par is None:
        return True, [*lines, "no par was worked out"]
    again = par.play(int(day.seed))
    if again.chips != day.par:
        return False, [*lines, f"par played again scores {again.chips}, not {day.par}"]
    return True, [*lines, f"par {day.par}: Hard played it again and scored the same"]
