"""Who may see a game's whole record, and what its seats are called.

A replay shows everything (every hand, secret sets' cards, the seed), so it exists only
for a game that is over: ``check_can_replay`` refuses a game in play to everyone, staff
included, and is the one place that decides who may see a replay, its record or its
coach. It sits below history and the coach, which both ask it (a circle before).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from games.models import BOT_NAMES, Game, Seat
from games.play import hooks


def seat_names(game: Game) -> list[str]:
    """What a record calls each seat, in seat order (a bot's name in English)."""
    return [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.index)]


def named_as_bot(index: int, name: str) -> bool:
    """Whether a record's name for seat ``index`` is the one a bot's seat gets
    (``Seat.name``: "Normal bot 2", in English): how an uploaded record tells its bots."""
    return any(name == f"{kind} {index + 1}" for kind in BOT_NAMES.values())


def shown_seat_names(game: Game) -> list[str]:
    """What a page calls each seat, in seat order, in the active language."""
    return [seat.shown_name for seat in sorted(game.seats.all(), key=lambda s: s.index)]


# Apps above may decide who replays some games, without this module importing them
# (games.daily: a day's games stay closed to whoever has not played that day's deal).
# ``rule(user, game)`` raises PermissionDenied with its reason, or returns True (may see)
# or None (the rules below decide). Registered from the app's ``AppConfig.ready``.
_replay_rules: list[Callable[[AbstractBaseUser | AnonymousUser, Game], bool | None]] = []


def on_replay(rule: Callable[[AbstractBaseUser | AnonymousUser, Game], bool | None]) -> None:
    if rule not in _replay_rules:
        _replay_rules.append(rule)


def check_can_replay(
    user: AbstractBaseUser | AnonymousUser, game: Game, session: SessionBase | None = None
) -> None:
    """Raise PermissionDenied or Http404, with a message for the person, unless ``user``
    may see this game's replay and record (``session``: her browser's, which may hold an
    invitation to watch a private game: ``games.play.hooks.may_watch``)."""
    if not game.is_over:
        raise PermissionDenied(
            gettext(
                "This game is still being played. Its replay and record open when it ends, "
                "for everyone alike."
            )
        )
    if game.deal is None:
        raise Http404(
            gettext("This game ended before the cards were dealt: there is nothing to replay.")
        )
    if game.imported:
        if user.is_staff or user.pk == game.created_by_id:
            return
        raise PermissionDenied(
            gettext("This is a record someone uploaded: only they can replay it.")
        )
    if any(rule(user, game) for rule in _replay_rules):
        return
    if game.public or user.is_staff or any(s.user_id == user.pk for s in game.seats.all()):
        return
    if hooks.may_watch(game.pk, user, session):  # a private tournament's, to its invitees
        return
    raise PermissionDenied(gettext("This was a private game: only its players can replay it."))


def replayable_game(
    user: AbstractBaseUser | AnonymousUser, game_id: int, session: SessionBase | None = None
) -> Game:
    """The game ``game_id`` with its seats, if ``user`` may replay it (else as above)."""
    players = Seat.objects.select_related("user__profile")
    game = (
        Game.objects.select_related("aborted_by")
        .prefetch_related(Prefetch("seats", queryset=players))
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise Http404(gettext("There is no such game."))
    check_can_replay(user, game, session)
    return game


def refusals_explained(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Say why a replay is refused, with the right status, rather than a bare 403/404."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied as e:
            return _refused(request, str(e), 403)
        except Http404 as e:
            return _refused(request, str(e), 404)

    return wrapper


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    context = {"message": message or gettext("You cannot see this page.")}
    return render(request, "games/history/refused.html", context, status=status)
