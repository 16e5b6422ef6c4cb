"""{% person_box person %} (a profile's friend buttons and, for a friend, their
presence) and {% people_at_table game_id %} (the same for each other person seated)."""

from __future__ import annotations

from django import template
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe

from accounts.models import display_name_for
from games.models import Seat
from games.social import pages, presence, services
from games.social.pages import FriendLine

register = template.Library()


def _box(context, person, *, show_block: bool = True, relation: str | None = None) -> str:
    user = context.get("user")
    if user is None or not user.is_authenticated or person is None:
        return ""
    if relation is None:
        relation = services.relation(user.pk, person.pk)
    status = None
    if relation == "friends":
        seen = presence.statuses([person.pk])[person.pk]
        status = FriendLine(person.pk, person.get_username(), "", seen)
    request = context.get("request")
    # Without the request, so no context processor runs again for a box (a table page
    # has two): the box needs only the page's CSRF token, which the page's context has.
    return render_to_string(
        "social/parts.html#person-box",
        {
            "relation": relation, "other_id": person.pk, "other_name": _name(person),
            "f": status, "status": status, "show_block": show_block,
            "next": request.get_full_path() if request else "",
            "csrf_token": context.get("csrf_token"),
        },
    )  # fmt: skip


@register.simple_tag(takes_context=True)
def person_box(context, person) -> str:
    return _box(context, person)


class _Person:
    """A person seated at the table as the table page's snapshot names them: what a
    person box reads of a user (its username only for a friend, which is looked up)."""

    def __init__(self, pk: int, name: str) -> None:
        self.pk, self.name = pk, name

    def get_username(self) -> str:
        return get_user_model().objects.values_list("username", flat=True).get(pk=self.pk)


def _people(viewer_id: int, known) -> list[_Person]:
    return [_Person(pk, name) for pk, name in known if pk != viewer_id]


def _name(person) -> str:
    return person.name if isinstance(person, _Person) else display_name_for(person)


@register.simple_tag(takes_context=True)
def people_at_table(context, game_id) -> str:
    """For each other person at the table: their name and an Add friend button (or how
    the viewer stands with them). Names only: nothing of the game."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    known = context.get("table_people")  # the table page's (user id, name) of its seats
    if known is not None:
        people = _people(user.pk, known)
    else:
        seats = Seat.objects.filter(game_id=game_id, user__isnull=False).exclude(user=user)
        people = [s.user for s in seats.select_related("user__profile")]
    if not people:
        return ""
    relations = pages.relations(user.pk, [p.pk for p in people])  # two queries for all
    parts = [
        f'<li class="table-person"><span>{escape(_name(p))}'
        f"</span>{_box(context, p, show_block=False, relation=relations[p.pk])}</li>"
        for p in people
    ]
    return mark_safe(f'<ul class="table-people">{"".join(parts)}</ul>')
