"""What the replay page needs to show the coach, for the page and for its partials."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from games.models import Game

from . import analysis, report
from .models import Analysis

# While an analysis runs the page asks for news this often.
POLL = "every 1s"
POLL_ELSEWHERE = "every 5s"


def coach_context(
    user: AbstractBaseUser | AnonymousUser, game: Game, names: list[str], total: int
) -> dict[str, Any]:
    """The coach's part of a replay the caller has already allowed ``user`` to see."""
    current = analysis.current(game)
    done = current is not None and current.status == Analysis.Status.DONE
    try:
        analysis.check_can_analyse(user, game)
        can_ask = True
    except PermissionDenied:
        can_ask = False
    # Another game's analysis this person asked for, still under way: theirs to wait for
    # before they may ask for this one (``analysis.request_analysis``).
    asking = current is None or current.status == Analysis.Status.FAILED
    elsewhere = analysis.under_way_for(user) if can_ask and asking else None
    return {
        "coach": {
            "analysis": current,
            "can_ask": can_ask,
            "elsewhere": elsewhere,
            # The block asks for news while this game's analysis runs, and now and then
            # while another one keeps the person waiting (the button comes back after it).
            "poll": POLL if current is not None and current.active else POLL_ELSEWHERE,
            "report": report.build(current, names, total) if done else None,
        }
    }
