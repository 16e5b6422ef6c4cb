"""{% fixed %} (tongits_site/fixed.py): a part rendered once per name, language and the
values given, and never shown to a reader of another language or other values."""

from __future__ import annotations

from django.template import engines
from django.urls import reverse
from django.utils import translation


def test_a_fixed_part_is_kept_per_language_and_value_and_the_rest_stays_live():
    page = engines["django"].from_string(
        '{% load i18n %}{% fixed "test-part" n %}{% translate "Log in" %} {{ n }} {{ x }}'
        "{% endfixed %} {{ x }}"
    )
    with translation.override("en"):
        assert page.render({"n": 1, "x": "a"}) == "Log in 1 a a"
        assert page.render({"n": 1, "x": "b"}) == "Log in 1 a b"  # kept: x is not a value
        assert page.render({"n": 2, "x": "c"}) == "Log in 2 c c"
    with translation.override("fil"):
        shown = page.render({"n": 1, "x": "d"})
    assert shown == "Mag-log in 1 d d"


def test_a_page_tells_a_guest_from_a_person_with_an_account(client, alice, db):
    """The menu's guest parts and the name on Log out come from the profile read with the
    page's other facts of its person (tongits_site/person_facts.py), and the kept parts
    of the menu are the same for both (tongits_site/fixed.py)."""
    from accounts.guests import make_guest
    from accounts.models import Profile

    Profile.objects.update_or_create(user=alice, defaults={"display_name": "Alicia"})
    client.force_login(alice)
    html = client.get(reverse("leaderboard")).content.decode()
    assert "nav-claim" not in html and '<span class="visually-hidden">Alicia</span>' in html
    guest = make_guest("192.0.2.7")
    client.force_login(guest)
    html = client.get(reverse("leaderboard")).content.decode()
    assert 'class="nav-claim"' in html and reverse("my_games") in html
    client.logout()
    html = client.get(reverse("leaderboard")).content.decode()
    assert "nav-claim" not in html and reverse("my_games") not in html and reverse("signup") in html


def test_each_page_keeps_its_own_title(client, db):
    """The head around the title is kept; the title, a block each page fills, is not."""
    titles = set()
    for name in ("login", "signup", "leaderboard"):
        html = client.get(reverse(name)).content.decode()
        titles.add(html.split("<title>")[1].split("</title>")[0])
    assert len(titles) == 3, titles
