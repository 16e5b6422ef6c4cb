"""Limits on how fast one socket or one account can make the server work.

A socket's frames go through a token bucket kept in the consumer itself: checking it costs
no thread hop and no query, so a flood of frames is dropped as cheaply as it arrives. An
account's new tables are counted in the database, where they are.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import CORRESPONDENCE_SECONDS, Game
from games.words.text import lazy_message

TOO_MANY_REQUESTS = 4429  # the close code: the socket sent far too much
ADMIT, WARN, DROP, CLOSE = "admit", "warn", "drop", "close"
# Lazy: the socket that says it renders it in its own language.
SLOW_DOWN = _("You are sending moves faster than the table can take them; some were ignored.")


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each admitted event takes one."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class FrameLimiter:
    """What to do with a socket's next frame: ADMIT it; drop it, saying so once (WARN)
    per run of dropped frames; DROP it silently; or CLOSE (once) a socket whose run of
    dropped frames grew past ``max_dropped`` (no person clicks that fast for that long)."""

    def __init__(self, bucket: TokenBucket, max_dropped: int) -> None:
        self.bucket, self.max_dropped = bucket, max_dropped
        self.dropped = 0

    @classmethod
    def from_settings(cls) -> FrameLimiter:
        bucket = TokenBucket(
            settings.TONGITS_SOCKET_FRAMES_PER_SECOND, settings.TONGITS_SOCKET_FRAME_BURST
        )
        return cls(bucket, settings.TONGITS_SOCKET_FRAMES_DROPPED_MAX)

    def verdict(self) -> str:
        if self.bucket.take():
            self.dropped = 0
            return ADMIT
        self.dropped += 1
        if self.dropped == self.max_dropped + 1:
            return CLOSE
        return WARN if self.dropped == 1 else DROP


def check_can_make_table(user: AbstractBaseUser) -> str | None:
    """Why ``user`` may not make another table now, or None. Call it inside the
    transaction that makes the table, after locking the user's row."""
    per_minute = settings.TONGITS_TABLES_PER_MINUTE
    recent = Game.objects.filter(
        created_by=user, created_at__gte=timezone.now() - timedelta(minutes=1)
    )
    if recent.count() >= per_minute:
        return lazy_message(
            lambda: (
                ngettext(
                    "You have made %(count)d table in the last minute: "
                    "wait a moment before making another.",
                    "You have made %(count)d tables in the last minute: "
                    "wait a moment before making another.",
                    per_minute,
                )
                % {"count": per_minute}
            )
        )
    return check_open_tables(user)


def check_open_tables(user: AbstractBaseUser, *, joining: bool = False) -> str | None:
    """Why ``user`` may not sit at one more unfinished table, or None: making one, or
    ``joining`` someone else's (sitting down at every open table would keep them from
    filling). Call it inside the transaction, after locking the user's row."""
    most = settings.TONGITS_OPEN_TABLES_MAX
    # Live tables only: correspondence tables have their own limit (games.play.seating).
    unfinished = Game.objects.filter(
        seats__user=user, status__in=[Game.Status.WAITING, Game.Status.PLAYING],
        turn_seconds__lt=CORRESPONDENCE_SECONDS,
    )  # fmt: skip
    if unfinished.count() < most:
        return None
    return lazy_message(
        lambda: (
            (
                ngettext(
                    "You already sit at %(count)d unfinished table: "
                    "finish a game before joining another table.",
                    "You already sit at %(count)d unfinished tables: "
                    "finish a game before joining another table.",
                    most,
                )
                if joining
                else ngettext(
                    "You already sit at %(count)d unfinished table: "
                    "finish a game before making another table.",
                    "You already sit at %(count)d unfinished tables: "
                    "finish a game before making another table.",
                    most,
                )
            )
            % {"count": most}
        )
    )
