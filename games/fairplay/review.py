"""What fair play holds for review: a flagged pair's series pots wait (``held_pairs``,
asked by series through its hooks) until staff either void the pair's games, which makes
the pots again without those hands, or clear the pair (``clear_pair``), logged."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from . import actions
from .models import Pair, StaffAction


def held_pairs(user_ids: Sequence[int]) -> list[tuple[int, int]]:
    """The flagged pairs among these accounts that staff have not cleared: one query."""
    rows = Pair.objects.filter(
        low_id__in=user_ids, high_id__in=user_ids, flagged_after__isnull=False,
        cleared_at__isnull=True,
    ).values_list("low_id", "high_id")  # fmt: skip
    return list(rows)


@transaction.atomic
def clear_pair(staff: AbstractBaseUser, pair: Pair, reason: str) -> StaffAction:
    """Staff found the flagged pair honest: its held pots count again. Logged. Clearing
    decides a flagged pair's fate as voiding does, so it needs the same permission, and
    nobody clears a pair they are one of (``actions.check``)."""
    actions.check(staff, StaffAction.Kind.CLEAR, reason, pair=pair)
    Pair.objects.filter(pk=pair.pk).update(cleared_at=timezone.now())
    return actions.log_action(staff, StaffAction.Kind.CLEAR, reason, pair=pair)
