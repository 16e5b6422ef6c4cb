"""``{% vacations_at game_id as away %}``: the people seated at a table who are on
vacation now, and until when, shown to everyone at it: one query."""

from __future__ import annotations

from django import template
from django.utils import timezone

from accounts.models import display_name_for
from games.correspondence.models import Vacation

register = template.Library()


@register.simple_tag
def vacations_at(game_id) -> list[tuple[str, object]]:
    now = timezone.now()
    rows = Vacation.objects.filter(
        user__seats__game_id=game_id, starts_at__lte=now, ends_at__gt=now
    ).select_related("user__profile")
    return [(display_name_for(v.user), v.ends_at) for v in rows]
