"""Who may watch a table without a seat, as on lichess: anyone, with an account or not, at
a public table, and at any game whose seats are all bots. A private table with a person
at it stays her own (and her invitees'): the people seated there, and nobody else; but
for a private game that the table cannot tell about, whom play's hooks admit
(``invited``: a private tournament's game, to whoever may see the tournament).

A watcher is a spectator: the engine's observer view (``seat_view(state, None)``), so no
hand, stock or secret set is shown before the game ends. The page and the socket both ask
here, on a snapshot in hand (no query).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from games.models import Game, Seat
from games.play import hooks
from games.play.live import snapshots
from games.play.live.snapshots import Snapshot
from games.table import rendering

# Close codes of the table's socket (games/sockets/table.py): log in, forbidden, not found.
LOG_IN, FORBIDDEN, NOT_FOUND = 4401, 4403, 4404


def bots_only(snap: Snapshot) -> bool:
    """Every seat is a bot's: nobody's game to keep private."""
    return bool(snap.seats) and all(s.bot_kind for s in snap.seats)


def open_to_all(snap: Snapshot) -> bool:
    """Anyone may watch: a public table, or a game of bots only."""
    return snap.public or bots_only(snap)


def table_for(
    snap: Snapshot, user: AbstractBaseUser | AnonymousUser, *, invited: bool = False
) -> rendering.Table:
    """The table as ``user`` sees it: her seat's view, or a spectator's where anyone may
    watch, or she is ``invited`` (``invited_to``). PermissionDenied otherwise."""
    if user.is_authenticated:
        try:
            return rendering.table_for(snap, user)
        except PermissionDenied:
            if not (bots_only(snap) or invited):
                raise
    elif not (open_to_all(snap) or invited):
        raise PermissionDenied(rendering.LOG_IN_TO_WATCH)
    return rendering.Table(snap, snap.seats, None, False)


def invited_to(game_id: int, user: AbstractBaseUser | AnonymousUser, session=None) -> bool:
    """Whether play's hooks admit ``user`` (and her browser's ``session``) to watch this
    private game without a seat: a query or two, asked only of a watcher refused."""
    return hooks.may_watch(game_id, user, session)


def load_table(
    game_id: int, user: AbstractBaseUser | AnonymousUser, session=None
) -> rendering.Table:
    """``table_for`` the game as the database holds it now; Http404 if there is none."""
    snap = snapshots.fresh(game_id)
    if snap is None:
        raise Http404(gettext("There is no such game."))
    try:
        return table_for(snap, user)
    except PermissionDenied:
        if not invited_to(game_id, user, session):
            raise
    return table_for(snap, user, invited=True)


def refusal_code(
    snap: Snapshot | None, user: AbstractBaseUser | AnonymousUser, *, invited: bool = False
) -> int | None:
    """The socket's close code for a watcher who may not watch (None: she may)."""
    if snap is None:
        return NOT_FOUND
    try:
        table_for(snap, user, invited=invited)
    except PermissionDenied:
        return FORBIDDEN if user.is_authenticated else LOG_IN
    return None


def to_watch() -> QuerySet[Game]:
    """Games being played now that anyone may watch, newest first."""
    person = Seat.objects.filter(game=OuterRef("pk"), bot_kind="")
    return Game.objects.filter(
        Q(public=True) | ~Exists(person), status=Game.Status.PLAYING, imported=False
    ).order_by("-created_at", "-pk")
