"""What staff do about a pair or an account from the Fair play page, each logged
(``StaffAction``: who, what, whom, why, when, and the games it touched).

- ``warn``: the account is shown the warning once, on its next lobby page.
- ``void_pair``: the pair's finished counted games (rated ones and series hands, casual
  series too; both accounts seated) are marked voided (``Game.voided_at``): kept in the
  history and replays, marked, and left out of ratings, figures and series pots (a series'
  ledger counts a voided hand as aborted). The ratings are then rebuilt by
  ``games.ratings.core.recompute``, the one path that rebuilds them (``manage.py
  recompute_ratings`` runs the same), and the standings of their tournaments (a finished
  one's podium too) without them.
- ``close_account``: the account can no longer log in (``is_active`` off, saved: its
  sessions end with it, as Django checks it on every request; the save's signal closes
  its open sockets at once, ``accounts.signals``, and takes it off the tournaments'
  standings and podiums, ``games.tournaments``).
- ``dismiss``: the account's open reports are dealt with (closed).

Each checks first (``check``), whoever calls it: the actor is active staff holding the
action's permission (``StaffAction.NEEDS``), gives a reason, does not act on their own
account or a pair they are in, and closes no account holding a right they lack
(``outranks``). A refusal is a ``Refused`` (a ``PermissionDenied``, so a page says why
with a 403) and changes nothing.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game
from games.play import hooks
from games.ratings import core as ratings

from .models import AccountWarning, Pair, Report, StaffAction
from .scoring import counted_games

Kind = StaffAction.Kind


class Refused(PermissionDenied):
    """A staff action refused: its message says why; nothing was done."""


def may_see(staff: AbstractBaseUser) -> bool:
    """Whether the account may see the Fair play pages."""
    return bool(staff.is_active and staff.is_staff and staff.has_perm(StaffAction.SEE))


def may(staff: AbstractBaseUser, kind: str) -> bool:
    """Whether the account holds what ``kind`` of action needs (its target aside)."""
    return may_see(staff) and staff.has_perm(StaffAction.NEEDS[kind])


def outranks(staff: AbstractBaseUser, account: AbstractBaseUser) -> bool:
    """Whether ``staff`` holds every right ``account`` holds: a superuser's account is
    closed only by a superuser, and otherwise each permission the account has (its own
    and its groups') must be one ``staff`` has too. Staff status alone is no right."""
    if account.is_superuser:
        return staff.is_superuser
    return staff.is_superuser or account.get_all_permissions() <= staff.get_all_permissions()


def check(
    staff: AbstractBaseUser,
    kind: str,
    reason: str,
    account: AbstractBaseUser | None = None,
    pair: Pair | None = None,
) -> None:
    """Refuse (``Refused``) an action that may not be done; nothing is changed here."""
    if not may(staff, kind):
        raise Refused(
            gettext("Your account may not do this (it needs the %(permission)s permission).")
            % {"permission": StaffAction.NEEDS[kind]}
        )
    if not reason.strip():
        raise Refused(gettext("Say why: every action is logged with its reason."))
    if (account is not None and account.pk == staff.pk) or (
        pair is not None and staff.pk in (pair.low_id, pair.high_id)
    ):
        raise Refused(gettext("Nobody acts on their own account: ask another member of staff."))
    if kind == Kind.CLOSE and account is not None and not outranks(staff, account):
        if account.is_superuser:
            raise Refused(gettext("Only a superuser may close a superuser's account."))
        raise Refused(
            gettext(
                "%(name)s holds rights you do not: only someone who holds all of them may "
                "close this account."
            )
            % {"name": account.get_username()}
        )


def log_action(staff: AbstractBaseUser, kind: str, reason: str, **fields) -> StaffAction:
    account, pair = fields.get("account"), fields.get("pair")
    if account is not None:
        whom = account.get_username()
    else:
        names = dict(
            get_user_model()
            .objects.filter(pk__in=[pair.low_id, pair.high_id])
            .values_list("pk", "username")
        )
        whom = f"{names.get(pair.low_id, '?')} + {names.get(pair.high_id, '?')}"
    return StaffAction.objects.create(
        staff=staff, kind=kind, reason=reason.strip(), whom=whom, **fields
    )


@transaction.atomic
def warn(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    check(staff, Kind.WARN, reason, account=account)
    action = log_action(staff, Kind.WARN, reason, account=account)
    AccountWarning.objects.create(account=account, action=action)
    return action


def pair_games(pair: Pair):
    """The pair's finished counted games (rated, or a series' hand) not voided yet: both
    accounts were seated."""
    return (
        counted_games()
        .filter(voided_at__isnull=True)
        .filter(seats__user_id=pair.low_id)
        .filter(seats__user_id=pair.high_id)
        .distinct()
    )


@transaction.atomic
def void_pair(staff: AbstractBaseUser, pair: Pair, reason: str) -> StaffAction:
    """Void the pair's counted games and rebuild every rating without them (their series'
    pots are derived from the hands, so they are made again without them as they are read)."""
    check(staff, Kind.VOID, reason, pair=pair)
    ids = sorted(pair_games(pair).values_list("pk", flat=True))
    Game.objects.filter(pk__in=ids).update(voided_at=timezone.now())
    ratings.recompute()
    hooks.voided(ids)  # tournaments: their standings and podiums without them
    return log_action(staff, Kind.VOID, reason, pair=pair, games=ids)


@transaction.atomic
def close_account(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    # Its rights read afresh: the caller's copy may be older than a grant made meanwhile.
    account = get_user_model().objects.select_for_update().get(pk=account.pk)
    check(staff, Kind.CLOSE, reason, account=account)
    account.is_active = False
    # Its save signal: its sockets close once committed (4401), and it leaves the
    # tournaments' standings and podiums.
    account.save(update_fields=["is_active"])
    return log_action(staff, Kind.CLOSE, reason, account=account)


@transaction.atomic
def dismiss(staff: AbstractBaseUser, account: AbstractBaseUser, reason: str) -> StaffAction:
    check(staff, Kind.DISMISS, reason, account=account)
    Report.objects.filter(reported=account, closed_at__isnull=True).update(closed_at=timezone.now())
    return log_action(staff, Kind.DISMISS, reason, account=account)


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
