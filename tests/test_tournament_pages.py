"""Tournament pages: the list, a new one (staff's public, anyone's private with its invite
link), the tournament's page and its live part, and the pool buttons."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.play import tables
from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.test_tournaments import _end_game


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("staff", password="pw", is_staff=True)


def _public(staff, **fields) -> Tournament:
    return services.create(
        staff, name="Hourly arena", starts_at=timezone.now(), public=True, **fields
    )


def _form(**over):
    start = (timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": "Friday arena", "starts_at": start, "minutes": "30", "variant": "",
            "rated": "rated", "turn_seconds": "20", "bot_kind": "normal"}  # fmt: skip
    return {**data, **over}


def test_the_list_shows_public_tournaments_and_ones_own_but_not_others_private(
    client, staff, alice, bob
):
    _public(staff)
    services.create(bob, name="Bob and friends", starts_at=timezone.now())
    client.force_login(alice)
    page = client.get(reverse("tournaments")).content.decode()
    assert "Hourly arena" in page and "Bob and friends" not in page
    client.force_login(bob)
    assert "Bob and friends" in client.get(reverse("tournaments")).content.decode()


def test_a_person_makes_a_private_tournament_and_gets_its_invite_link(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("new_tournament"), _form(public="on"))
    t = Tournament.objects.get()
    assert response.status_code == 302 and not t.public  # public is staff's only
    page = client.get(response.url).content.decode()
    assert f"?invite={t.invite_token}" in page
    client.force_login(bob)
    assert client.get(response.url).status_code == 403
    invited = f"{response.url}?invite={t.invite_token}"
    assert "tournament-join" in client.get(invited).content.decode()
    client.post(reverse("tournament_join", args=[t.pk]), {"invite": t.invite_token})
    assert Entry.objects.filter(tournament=t, user=bob).exists()


def test_staff_schedule_a_public_one_and_a_bad_form_makes_nothing(client, staff):
    client.force_login(staff)
    response = client.post(reverse("new_tournament"), _form(minutes="7"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    response = client.post(reverse("new_tournament"), _form(starts_at="2020-01-01T00:00"))
    assert "60 days" in response.content.decode() and not Tournament.objects.exists()
    client.post(reverse("new_tournament"), _form(public="on", variant="held-melds-free"))
    t = Tournament.objects.get()
    assert t.public and t.variants == ["held-melds-free"]


def test_join_pause_withdraw_and_come_back_from_the_page(client, staff, alice):
    t = _public(staff)
    client.force_login(alice)
    url = reverse("tournament", args=[t.pk])
    client.post(reverse("tournament_join", args=[t.pk]))
    page = client.get(url).content.decode()
    assert "tournament-pause" in page and "Waiting for opponents" in page
    client.post(reverse("tournament_pause", args=[t.pk]))
    page = client.get(url).content.decode()
    assert "Come back" in page and "(paused)" in page
    client.post(reverse("tournament_withdraw", args=[t.pk]))
    assert Entry.objects.get(user=alice).state == "withdrawn"
    client.post(reverse("tournament_join", args=[t.pk]))
    assert Entry.objects.get(user=alice).state == "active"


def test_joining_before_the_start_says_pairing_waits_for_it(client, staff, alice, bob):
    """It said "you play as soon as two others wait" while the clock said it had not
    started."""
    later = services.create(
        staff, name="Later", starts_at=timezone.now() + timedelta(minutes=5), public=True
    )
    now = _public(staff)
    client.force_login(alice)

    early = client.post(reverse("tournament_join", args=[later.pk]), follow=True)
    running = client.post(reverse("tournament_join", args=[now.pk]), follow=True)

    assert "You are in. Pairing starts when the tournament does." in early.content.decode()
    assert "you play as soon as two others wait" not in early.content.decode()
    assert "You are in: you play as soon as two others wait." in running.content.decode()


def test_the_new_tournament_forms_local_time_hint_is_in_filipino_too(client, alice):
    """A "%" in a {% translate %} string is looked up doubled: the hint stayed English."""
    from tests.test_languages import speaking

    client.force_login(alice)
    speaking(client, "fil")
    page = client.get(reverse("new_tournament")).content.decode()

    assert 'data-says="Iyan ay %(when)s sa oras mo."' in page


def test_the_live_part_sends_a_paired_person_to_their_table_and_shows_no_secret(
    client, staff, alice, bob, carol
):
    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    client.force_login(alice)
    live = reverse("tournament_live", args=[t.pk])
    assert client.get(live, headers={"HX-Request": "true"}).status_code == 200
    [game] = services.pair(t.pk)
    response = client.get(live + "?game=", headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"] == reverse("table", args=[game.pk])
    page = client.get(live + f"?game={game.pk}", headers={"HX-Request": "true"})
    text = page.content.decode()
    assert page.status_code == 200 and "go to your table" in text
    assert game.seed not in text and reverse("replay", args=[game.pk]) not in text
    # A watcher without an account sees the standings and the game to watch.
    client.logout()
    text = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("table", args=[game.pk]) in text and game.seed not in text


def test_a_person_between_hands_of_a_series_is_not_paired_and_is_told_why(
    client, staff, alice, bob, carol
):
    """Paired while their series paused between hands, a person was then dealt the series'
    next hand as well: two tables at once, one of them played by the server."""
    from games.series import services as series
    from tests.fast_games import finish
    from tests.test_languages import speaking, untranslated

    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    finish(series.state(made).latest.pk)  # between hands now
    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)

    [game] = services.pair(t.pk, timezone.now() + timedelta(seconds=30))

    assert alice.pk not in {s.user_id for s in game.seats.all()}
    client.force_login(alice)
    live = reverse("tournament_live", args=[t.pk])
    text = client.get(live, headers={"HX-Request": "true"}).content.decode()
    assert "You hold a seat in" in text and reverse("series", args=[made.pk]) in text
    names = frozenset({"Hourly arena", "alice", "bob", "carol"})
    assert untranslated(client, reverse("tournament", args=[t.pk]), names) == set()
    speaking(client, "en")
    series.leave(made.pk, alice)  # the series ends: nobody is left in it
    again = client.get(live, headers={"HX-Request": "true"}).content.decode()
    assert "You hold a seat in" not in again and "Waiting for opponents" in again
    [mine] = services.pair(t.pk, timezone.now() + timedelta(seconds=30))
    assert alice.pk in {s.user_id for s in mine.seats.all()}


def test_the_end_shows_the_podium_and_every_game_linked_to_its_replay(
    client, staff, alice, bob, carol
):
    t = _public(staff, minutes=2)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    game = _end_game(game.pk, away_at_end=False)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=3))
    assert services.end_if_over(t.pk)
    text = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'class="podium"' in text and "This tournament has ended." in text
    assert reverse("replay", args=[game.pk]) in text
    assert "hx-trigger" not in text.split('id="tournament-live"')[1].split(">")[0]
    winner = game.seats.get(index=game.winner_seat).user
    assert winner.username in text.split('class="podium"')[1].split("</ol>")[0]
    # A page opened while it ran learns of the end from its live part, which takes the
    # Pause and Withdraw buttons away with it.
    client.force_login(alice)
    live = client.get(
        reverse("tournament_live", args=[t.pk]) + "?game=&v=old", headers={"HX-Request": "true"}
    ).content.decode()
    assert "This tournament has ended." in live
    actions = live.split('id="tournament-actions"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in actions and "button" not in actions


def test_the_tournament_pages_leave_nothing_in_english_in_filipino(
    client, staff, alice, bob, carol
):
    from tests.test_languages import untranslated

    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    _end_game(game.pk, away_at_end=False)
    services.pause(t.pk, bob)
    client.force_login(alice)
    for url in (
        reverse("tournaments"),
        reverse("new_tournament"),
        reverse("tournament", args=[t.pk]),
    ):
        names = frozenset({"Hourly arena", "alice", "bob", "carol"})  # data, not words
        assert untranslated(client, url, names) == set(), url


def test_how_to_play_has_a_tournaments_section_with_the_scoring(client):
    page = client.get(reverse("how_to_play")).content.decode()
    section = page.split('id="tournaments"')[1].split("</section>")[0]
    assert "a win by Tongits <strong>3</strong>" in section and "counts double" in section
    client.cookies["django_language"] = "fil"
    page = client.get(reverse("how_to_play")).content.decode()
    assert 'href="#tournaments">Mga torneo</a>' in page
    assert "doble ang bawat laro" in page.split('id="tournaments"')[1]


def test_nobody_sees_a_game_of_a_tournament_as_finished_before_it_is(staff, alice, bob, carol):
    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_a_tournament_tables_way_on_is_back_to_the_tournament(client, staff, alice, bob, carol):
    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    client.force_login(alice)
    page = client.get(reverse("table", args=[game.pk])).content.decode()
    assert "in-tournament" in page
    assert f'href="{reverse("tournament", args=[t.pk])}">Back to the tournament' in page
    dave = get_user_model().objects.create_user("dave")  # (Alice plays one game at a time)
    other = tables.quick_play(dave)
    client.force_login(dave)
    assert "in-tournament" not in client.get(reverse("table", args=[other.pk])).content.decode()


def test_a_poll_that_finds_nothing_new_gets_no_content(client, staff, alice, bob, carol):
    t = _public(staff)
    services.join(t.pk, alice)
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    poll = page.split('id="tournament-live" hx-get="')[1].split('"')[0].replace("&amp;", "&")
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    services.join(t.pk, bob)  # the standings changed: the part comes again
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "bob" in changed.content.decode()


def test_staff_see_a_tournament_and_its_entries_in_the_admin(client, staff, alice):
    staff.is_superuser = True
    staff.save()
    t = _public(staff)
    services.join(t.pk, alice)
    client.force_login(staff)
    page = client.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    assert page.status_code == 200 and "alice" in page.content.decode()
    assert client.get(reverse("admin:tournaments_tournament_changelist")).status_code == 200


def test_a_wrong_or_strange_invite_token_is_refused_plainly(client, alice, bob):
    mine = services.create(alice, name="Friends", starts_at=timezone.now())
    client.force_login(bob)
    url = reverse("tournament", args=[mine.pk])
    assert client.get(url + "?invite=%ED%A0%80").status_code == 403  # not UTF-8
    for token in ("nope", "é" * 12, ""):
        assert client.get(url, {"invite": token}).status_code == 403
        response = client.post(reverse("tournament_join", args=[mine.pk]), {"invite": token})
        assert response.status_code == 302
    assert not Entry.objects.filter(user=bob).exists()


def test_a_profile_counts_finished_tournaments_and_podiums(client, staff, alice, bob, carol):
    t = _public(staff, minutes=2)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    game = _end_game(game.pk, away_at_end=False)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=3))
    assert services.end_if_over(t.pk)
    t.refresh_from_db()
    from games.tournaments.standings import standings

    expected = [e.user_id for row, e in standings(t) if row.rank <= 3 and row.score.games]
    assert t.podium == expected and len(t.podium) >= 1
    winner = game.seats.get(index=game.winner_seat).user
    page = client.get(reverse("player", args=[winner.username])).content.decode()
    stat = page.split(">Tournaments</dt>")[1].split("</div>")[0]
    on_podium = int(winner.pk in t.podium)
    assert "<dd>1 " in stat and f"({on_podium} podium" in stat


def _trigger(response) -> str:
    text = response.content.decode()
    start = text.index('id="tournament-live"')
    found = text[start:].split('hx-trigger="', 1)[1]
    return found[: found.index('"')]


def test_only_a_person_waiting_to_be_paired_polls_every_two_seconds(
    client, staff, alice, bob, carol
):
    """A crowd before the start sends a fifth of the polls it did: every 10 s, and once
    more when the tournament starts; a person in the pool while it runs, every 2 s."""
    soon = services.create(
        staff, name="Later arena", starts_at=timezone.now() + timedelta(minutes=5), public=True
    )
    services.join(soon.pk, alice)
    client.force_login(alice)
    assert _trigger(client.get(f"/tournaments/{soon.pk}/")) == "every 10s, tongits:start"
    now = _public(staff)
    services.join(now.pk, alice)
    assert _trigger(client.get(f"/tournaments/{now.pk}/")) == "every 2s"  # waiting to be paired
    services.pause(now.pk, alice)
    assert _trigger(client.get(f"/tournaments/{now.pk}/")) == "every 10s"
    client.force_login(bob)  # not entered: a watcher
    assert _trigger(client.get(f"/tournaments/{now.pk}/")) == "every 10s"


def test_the_countdown_to_the_start_is_rounded_up_so_the_page_never_asks_too_soon(
    client, staff, alice
):
    """The page counts down from the server's seconds and asks once more at zero; a count
    rounded down reached zero up to a second before the start, and that ask found nothing
    new (no content), so the person waited for the next poll, 10 s on."""
    soon = services.create(
        staff, name="Soon arena", starts_at=timezone.now() + timedelta(seconds=30.9), public=True
    )
    client.force_login(alice)
    text = client.get(f"/tournaments/{soon.pk}/").content.decode()
    assert 'data-seconds="31"' in text and ">0:31<" in text


def test_an_arena_table_shows_the_tournament_its_time_left_and_your_rank_and_points(
    client, staff, alice, bob, carol
):
    """Issue 48: an arena's table names its tournament at once, and its line (asked for
    again after each game) says the time left, your rank and your points."""
    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    client.force_login(alice)
    page = client.get(reverse("table", args=[game.pk])).content.decode()
    line = reverse("tournament_at_table", args=[t.pk])
    assert f'id="arena-bar" class="arena-bar" hx-get="{line}"' in page
    assert f'class="arena-name">{t.name_shown}</a>' in page

    html = client.get(line, headers={"HX-Request": "true"}).content.decode()
    assert f'href="{reverse("tournament", args=[t.pk])}" class="arena-name">Hourly arena' in html
    assert re.search(
        r'class="arena-clock" data-seconds="\d+" data-says="@@ left">(\d+:)?\d+:\d\d left<', html
    ), html
    assert re.search(r'class="arena-rank">#1 of 3<', html), html
    assert re.search(r'class="arena-points">0 points<', html), html
    # Asked for again after each game (static/js/table.js), not every 15 s (issue 52).
    assert 'hx-trigger="tongits:bar"' in html
    # A watcher who is not in it sees no rank; in Filipino, nothing in English.
    dave = get_user_model().objects.create_user("dave")
    client.force_login(dave)
    assert "arena-rank" not in client.get(line).content.decode()
    client.cookies["django_language"] = "fil"
    client.force_login(alice)
    html = client.get(line).content.decode()
    assert " pa<" in html and "#1 sa 3" in html and "puntos" in html


def test_the_board_reads_no_deal_and_the_bar_finds_its_persons_row_by_their_account(
    client, staff, alice, bob, carol, django_assert_num_queries
):
    """Issue 52: a crowd's board is computed every few seconds in each worker. Its games
    come without their deals (nor their seats' accounts), and what the page and the bar
    read of them asks nothing more; the bar finds its person's row on the board by their
    account, without asking for their entry."""
    from games.tournaments import standings

    t = _public(staff)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    _end_game(game.pk)
    b = standings.board(Tournament.objects.get(pk=t.pk))
    [shown] = b.games
    assert "deal" in shown.get_deferred_fields()
    with django_assert_num_queries(0):
        listed = [(g.pk, g.is_over, {s.shown_name for s in g.seats.all()}) for g in b.games]
        mine = b.row_of(alice.pk)
        nobody = b.row_of(staff.pk)
    assert listed == [(game.pk, True, {"alice", "bob", "carol"})]
    assert mine is not None and mine.name == "alice" and nobody is None
    assert b.row_of(None) is None
    # The bar: the session, the user and the tournament's row, and no query for the entry
    # (the board is this worker's, made above).
    client.force_login(alice)
    line = reverse("tournament_at_table", args=[t.pk])
    with django_assert_num_queries(3):
        html = client.get(line, headers={"HX-Request": "true"}).content.decode()
    assert f'class="arena-rank">#{mine.rank} of 3<' in html
