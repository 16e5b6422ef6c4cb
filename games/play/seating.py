"""One game in play at a time: the check every way to a seat passes through.

A person holds a game in play from its deal until it is over, and a series from its first
deal until it ends or they leave it (between hands its next hand is dealt to them when the
pause ends). Nobody holds two. ``games.play.dealing`` asks ``playing`` when a person sits
down (a new table, Play again, a rematch, a challenge, a series: refused while they hold
one) and when a table is dealt (its people must hold none: a person who sat at a table
waiting for people, then was dealt a game elsewhere, gives that seat up when it fills);
an arena's pairing asks it for the people it would seat.

Correspondence tables (``Game.correspondence``: a turn of an hour or more) are apart: they
wait days for their people, so a person may hold many at once, up to
``TONGITS_CORRESPONDENCE_MAX`` (a table of theirs waiting for people counts too), and holding
them never keeps anyone from a live game, nor a live game from them. For a live table only
live games and live series count.

The caller locks the people's rows first (``lock``: one statement, in the order of their
ids, as an arena's pairing locks them), so that two deals of one person at once cannot
both find them free: the second sees the first's game once it commits.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import CORRESPONDENCE_SECONDS, Game, Seat
from games.series import hooks as series
from games.words.text import lazy_message

IN_ANOTHER_GAME = _(
    "You are playing another game: finish it before you sit at another table (a series "
    "keeps your seat until you leave it or it ends)."
)


def at_correspondence_most() -> Promise:
    """The refusal at a correspondence table to someone at ``TONGITS_CORRESPONDENCE_MAX``
    of them: what counts, and that live play is still open to them."""
    return lazy_message(
        lambda: (
            ngettext(
                "You are at %(most)s correspondence table already, as many as one person may "
                "be: finish it, or leave a table still waiting for people, before you sit at "
                "another. Live tables are not counted.",
                "You are at %(most)s correspondence tables already, as many as one person may "
                "be: finish one, or leave a table still waiting for people, before you sit at "
                "another. Live tables are not counted.",
                settings.TONGITS_CORRESPONDENCE_MAX,
            )
            % {"most": settings.TONGITS_CORRESPONDENCE_MAX}
        )
    )


def lock(user_ids: Iterable[int]) -> None:
    """Lock these people's rows, in one statement in the order of their ids, until the
    caller's transaction ends. Outside one a lock would end with its statement: nothing
    is held, so nothing is asked (a test's table dealt on its own)."""
    ids = sorted(set(user_ids))
    if ids and transaction.get_connection().in_atomic_block:
        rows = get_user_model().objects.select_for_update().filter(pk__in=ids)
        list(rows.order_by("pk").values_list("pk"))


def playing(user_ids: Iterable[int], game: Game | None = None) -> set[int]:
    """Those of these people who hold a game in play besides ``game`` (and its series,
    when ``game`` is a hand of one). Two queries, however many people. At a
    correspondence ``game`` (saved or not yet): those who hold as many correspondence
    tables as they may."""
    ids = list(set(user_ids))
    if not ids:
        return set()
    if game is not None and game.correspondence:
        return at_most_correspondence(ids, game)
    dealt = Seat.objects.filter(
        user_id__in=ids, game__status=Game.Status.PLAYING,
        game__turn_seconds__lt=CORRESPONDENCE_SECONDS,
    )  # fmt: skip
    if game is not None and game.pk is not None:
        dealt = dealt.exclude(game_id=game.pk)
    busy = set(dealt.values_list("user_id", flat=True))
    held = series_held([i for i in ids if i not in busy])
    if held and game is not None and game.pk is not None:
        own = series.series_of(game.pk)
        held = {user: s for user, s in held.items() if s != own}
    return busy | set(held)


def series_held(user_ids: list[int]) -> dict[int, int]:
    """Each of these people who holds a seat in a live series that goes on, and its id
    (asked of the series' hooks: play's callers need not import series)."""
    return series.seats_held(user_ids, turn_below=CORRESPONDENCE_SECONDS)


def correspondence_held(user_ids: Iterable[int], game: Game | None = None) -> dict[int, int]:
    """How many unfinished correspondence tables each of these people sits at (waiting
    for people or in play), ``game`` left out: one query."""
    rows = Seat.objects.filter(
        user_id__in=list(user_ids),
        game__status__in=[Game.Status.WAITING, Game.Status.PLAYING],
        game__turn_seconds__gte=CORRESPONDENCE_SECONDS,
    )
    if game is not None and game.pk is not None:
        rows = rows.exclude(game_id=game.pk)
    counts: dict[int, int] = {}
    for user_id in rows.values_list("user_id", flat=True):
        counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def at_most_correspondence(user_ids: list[int], game: Game | None = None) -> set[int]:
    """Those of these people who sit at ``TONGITS_CORRESPONDENCE_MAX`` correspondence
    tables already (besides ``game``)."""
    most = settings.TONGITS_CORRESPONDENCE_MAX
    return {u for u, n in correspondence_held(user_ids, game).items() if n >= most}
