"""The ``{% load tournament_results %}`` library (named in games/templatetags/): what a
profile shows of a person's tournaments."""

from __future__ import annotations

from django import template

from games.tournaments.models import Entry

register = template.Library()


@register.simple_tag
def tournament_results(user) -> dict[str, int]:
    """Finished tournaments ``user`` entered, and on how many podiums they stood."""
    podiums = Entry.objects.filter(user=user, tournament__finished_at__isnull=False)
    lists = list(podiums.values_list("tournament__podium", flat=True))
    return {"played": len(lists), "podiums": sum(user.pk in p for p in lists)}
