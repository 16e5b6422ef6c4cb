"""The tournament page's poll that finds nothing new is answered before the sessions and
the user are loaded (games/tournaments/quick_poll.py), and says only what the view says:
anything it cannot vouch for (a session gone or no longer valid, a game to go to, a
private tournament) is the view's to answer, as before."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from games.tournaments import services, views
from games.tournaments.models import Tournament

HX = {"HX-Request": "true"}


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", password="pw", is_staff=True)


def _arena(staff, **fields) -> Tournament:
    start = timezone.now() + timedelta(minutes=5)
    return services.create(staff, name="Crowd arena", starts_at=start, public=True, **fields)


def _poll_url(client, t: Tournament, query: str = "") -> str:
    page = client.get(reverse("tournament", args=[t.pk]) + query).content.decode()
    return page.split('id="tournament-live" hx-get="')[1].split('"')[0].replace("&amp;", "&")


def test_an_unchanged_poll_is_answered_from_raw_queries_with_what_the_view_says(
    client, staff, alice, bob, carol, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr(views, "ROWS_SHOWN", 1)  # rows are left out: the header says so
    t = _arena(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    client.force_login(alice)
    poll = _poll_url(client, t)
    # The session row and its person's; the tournament's row is read at most once in
    # TONGITS_STANDINGS_SECONDS for all a worker's polls (here every time).
    with django_assert_max_num_queries(3):
        quick = client.get(poll, headers=HX)
    assert quick.status_code == 204 and not quick.content
    assert unquote(quick["X-Tongits-More"]) == "2 more players are in the tournament record."
    client.cookies["django_language"] = "fil"
    said = unquote(client.get(poll, headers=HX)["X-Tongits-More"])
    assert said == "2 pang manlalaro ang nasa record ng torneo."
    # A watcher who never signed in, with no session at all: the same, with no query but
    # the tournament's row.
    client.logout()
    client.cookies.pop("sessionid", None)
    anonymous = _poll_url(client, t)
    assert client.get(anonymous, headers=HX).status_code == 204


def test_a_session_that_no_longer_holds_gets_the_views_answer_not_a_204(client, staff, alice, bob):
    t = _arena(staff)
    services.join(t.pk, alice)
    client.force_login(alice)
    poll = _poll_url(client, t)
    assert client.get(poll, headers=HX).status_code == 204
    # Its password changed (another browser): the session no longer verifies, as Django
    # would find; the view answers, as to a visitor, and the page offers sign-in.
    alice.set_password("a new one")
    alice.save()
    changed = client.get(poll, headers=HX)
    assert changed.status_code == 200 and "Join" not in changed.content.decode()
    # Signed out elsewhere (the session row gone), or the account closed.
    client.force_login(alice)
    poll = _poll_url(client, t)
    assert client.get(poll, headers=HX).status_code == 204
    Session.objects.all().delete()
    assert client.get(poll, headers=HX).status_code == 200
    client.force_login(alice)
    poll = _poll_url(client, t)
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    assert client.get(poll, headers=HX).status_code == 200


def test_a_paired_person_is_sent_to_their_table_and_a_change_of_theirs_shown(
    client, staff, alice, bob, carol
):
    t = _arena(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    client.force_login(alice)
    poll = _poll_url(client, t)
    services.pause(t.pk, alice)  # from another tab: the page shows it
    assert client.get(poll, headers=HX).status_code == 200
    services.join(t.pk, alice)
    poll = _poll_url(client, t)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    [game] = services.pair(t.pk)
    sent = client.get(poll, headers=HX)
    assert sent.status_code == 200 and sent["HX-Redirect"] == reverse("table", args=[game.pk])


def test_a_private_tournaments_poll_needs_its_invite_in_this_browser(client, alice, bob):
    t = services.create(alice, name="Friends", starts_at=timezone.now() + timedelta(hours=1))
    client.force_login(bob)
    poll = _poll_url(client, t, f"?invite={t.invite_token}")
    bare = poll.split("&invite=")[0]
    assert client.get(bare, headers=HX).status_code == 204  # the link was opened here
    client.force_login(get_user_model().objects.create_user("dave"))
    assert client.get(bare, headers=HX).status_code == 403
