"""{% person_box person %} (a profile's friend buttons and, for a friend, their
presence) and {% people_at_table game_id %} (the same for each other person seated)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe

from accounts.models import display_name_for
from games.models import Seat
from games.social import presence, services
from games.social.pages import FriendLine

register = template.Library()


def _box(context, person, *, show_block: bool = True) -> str:
    user = context.get("user")
    if user is None or not user.is_authenticated or person is None:
        return ""
    relation = services.relation(user.pk, person.pk)
    status = None
    if relation == "friends":
        seen = presence.statuses([person.pk])[person.pk]
        status = FriendLine(person.pk, person.get_username(), "", seen)
    request = context.get("request")
    return render_to_string(
        "social/parts.html#person-box",
        {
            "relation": relation, "other_id": person.pk, "other_name": display_name_for(person),
            "f": status, "status": status, "show_block": show_block,
            "next": request.get_full_path() if request else "",
        },
        request=request,
    )  # fmt: skip


@register.simple_tag(takes_context=True)
def person_box(context, person) -> str:
    return _box(context, person)


@register.simple_tag(takes_context=True)
def people_at_table(context, game_id) -> str:
    """For each other person at the table: their name and an Add friend button (or how
    the viewer stands with them). Names only: nothing of the game."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    seats = Seat.objects.filter(game_id=game_id, user__isnull=False).exclude(user=user)
    people = [s.user for s in seats.select_related("user__profile")]
    if not people:
        return ""
    parts = [
        f'<li class="table-person"><span>{escape(display_name_for(p))}'
        f"</span>{_box(context, p, show_block=False)}</li>"
        for p in people
    ]
    return mark_safe(f'<ul class="table-people">{"".join(parts)}</ul>')
