"""What staff do about a pair or an account from the Fair play page, each logged
(``StaffAction``: who, when, why, and the games it touched).

- ``warn``: the account is shown the warning once, on its next lobby page.
- ``void_pair``: the pair's finished rated games (both accounts seated) are marked voided
  (``Game.voided_at``): kept in the history and replays, marked, and left out of ratings
  and figures. The ratings are then rebuilt by ``games.ratings.core.recompute``, the one
  path that rebuilds them (``manage.py recompute_ratings`` runs the same), and the
  standings of their tournaments (a finished one's podium too) without them.
- ``close_account``: the account can no longer log in (``is_active`` off, saved: its
  sessions end with it, as Django checks it on every request; the save's signal closes
  its open sockets at once, ``accounts.signals``, and takes it off the tournaments'
  standings and podiums, ``games.tournaments``).
- ``dismiss``: the account's open reports are dealt with (closed).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game
from games.play import hooks
from games.ratings import core as ratings

from .models import AccountWarning, Pair, Report, StaffAction

Kind = StaffAction.Kind


def _log(staff: AbstractBaseUser, kind: str, reason: str, **fields) -> StaffAction:
    return StaffAction.objects.create(staff=staff, kind=kind, reason=reason.strip(), **fields)


@transaction.atomic
def warn(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    action = _log(staff, Kind.WARN, reason, account=account)
    AccountWarning.objects.create(account=account, action=action)
    return action


def pair_games(pair: Pair):
    """The pair's finished rated games that still count: both accounts were seated."""
    return (
        Game.objects.filter(
            status=Game.Status.FINISHED, rated=True, imported=False, voided_at__isnull=True
        )
        .filter(seats__user_id=pair.low_id)
        .filter(seats__user_id=pair.high_id)
        .distinct()
    )


@transaction.atomic
def void_pair(staff: AbstractBaseUser, pair: Pair, reason: str) -> StaffAction:
    """Void the pair's rated games and rebuild every rating without them."""
    ids = sorted(pair_games(pair).values_list("pk", flat=True))
    Game.objects.filter(pk__in=ids).update(voided_at=timezone.now())
    ratings.recompute()
    hooks.voided(ids)  # tournaments: their standings and podiums without them
    return _log(staff, Kind.VOID, reason, pair=pair, games=ids)


@transaction.atomic
def close_account(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    account.is_active = False
    # Its save signal: its sockets close once committed (4401), and it leaves the
    # tournaments' standings and podiums.
    account.save(update_fields=["is_active"])
    return _log(staff, Kind.CLOSE, reason, account=account)


@transaction.atomic
def dismiss(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    Report.objects.filter(reported=account, closed_at__isnull=True).update(closed_at=timezone.now())
    return _log(staff, Kind.DISMISS, reason, account=account)


def take_warnings(user: AbstractBaseUser) -> list[str]:
    """The account's warnings not yet shown, as the words to show, marked shown: each
    is seen once. One query when there is none."""
    if not user.is_authenticated:
        return []
    unseen = list(
        AccountWarning.objects.filter(account=user, seen_at__isnull=True).select_related("action")
    )
    if not unseen:
        return []
    AccountWarning.objects.filter(pk__in=[w.pk for w in unseen]).update(seen_at=timezone.now())
    return [
        gettext(
            "A warning from the staff about fair play: %(reason)s Playing as a team with "
            "another account breaks the rules; the account can be closed."
        )
        % {"reason": w.action.reason}
        for w in unseen
    ]
