"""Who may watch a private tournament's games: whoever may see the tournament (its
creator, its entrants, staff, and whoever opened its invite link), and nobody else. Its
games are private tables (the pairing deals them so), so they are not listed to watch
and a stranger is refused at their page and socket; play asks here through its hooks.

An invite link opened is kept in the browser's session, so the links from the tournament's
page (its games, their replays, the way back from a table) need not carry it."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase

from games.tournaments.models import Tournament, TournamentGame
from games.tournaments.services import may_see

INVITES = "tournament_invites"
KEPT = 50  # the invite links one browser remembers, the latest


def remember_invite(session: SessionBase, t: Tournament, token: str | None) -> None:
    """Keep in the browser's session that it opened ``t``'s invite link, if ``token`` is
    that link's (written only when it is news: the tournament's page polls with it every
    few seconds)."""
    if t.public or not may_see(t, AnonymousUser(), token):  # the link itself, not its holder
        return
    ids = session.get(INVITES, [])
    if ids[-1:] != [t.pk]:
        others = [i for i in ids if i != t.pk]
        session[INVITES] = [*others[-(KEPT - 1) :], t.pk]


def invited(session: SessionBase | None, tournament_id: int) -> bool:
    """Whether this browser has opened the invite link of ``tournament_id``."""
    return session is not None and tournament_id in session.get(INVITES, [])


def may_watch(
    game_id: int, user: AbstractBaseUser | AnonymousUser, session: SessionBase | None
) -> bool:
    """Whether ``user`` may watch game ``game_id`` of a private tournament without a seat
    at it, and replay it once it is over (games.play.hooks.on_watch). One query, two for
    a person with no invite in ``session``."""
    tg = TournamentGame.objects.filter(game_id=game_id).select_related("tournament").first()
    if tg is None:
        return False
    return invited(session, tg.tournament_id) or may_see(tg.tournament, user, None)
