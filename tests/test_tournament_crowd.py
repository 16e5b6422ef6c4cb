"""Arena tournaments in a crowd: a pairing of many deals them all at once, the tie-break
counts opponents at their ratings when each game was dealt, the page's standings are
computed once a change for every watcher, and the server clock takes no tournament's lock
while nobody can be paired. Run on PostgreSQL too (DATABASE_URL), as CI does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.fairplay import tasks as fairplay_tasks
from games.models import Game, Seat
from games.play import server_moves, telling
from games.play.live import snapshots
from games.ratings.models import Rating
from games.tournaments import records, services, standings
from games.tournaments.models import Entry, Tournament, TournamentGame
from games.tournaments.pairing import BOT_WAIT
from tests.fast_games import prepare_last_move
from tests.test_tournaments import _arena, _end_game, _people

pytestmark = pytest.mark.django_db(transaction=False)


def _rev(t: Tournament) -> int:
    return Tournament.objects.values_list("rev", flat=True).get(pk=t.pk)


# --- A crowd's pairing ----------------------------------------------------------------------


def test_a_crowds_pairing_deals_every_table_and_points_each_entry_at_its_own_game():
    t = _arena()
    people = _people(31)
    for person in people:
        services.join(t.pk, person)
    games = services.pair(t.pk)
    assert len(games) == 10  # the last to come waits (for two others, or for bots)
    seated = list(Seat.objects.filter(game__in=games, user__isnull=False))
    assert len(seated) == 30 and len({s.user_id for s in seated}) == 30
    for game in Game.objects.filter(pk__in=[g.pk for g in games]):
        assert game.status == Game.Status.PLAYING and game.seq == 0 and game.deal
        assert game.due_at is not None and game.commitment == Game.commit_to(game.seed)
    entries = {e.user_id: e.game_id for e in Entry.objects.filter(tournament=t)}
    for seat in seated:
        assert entries[seat.user_id] == seat.game_id
    [left] = [u for u, g in entries.items() if g is None]
    assert left not in {s.user_id for s in seated}
    assert TournamentGame.objects.filter(tournament=t).count() == 10
    assert services.pair(t.pk) == []  # the one left waits


def test_the_pairing_keeps_each_new_games_snapshot_as_a_load_would_give_it(
    django_capture_on_commit_callbacks,
):
    """The worker that pairs keeps the new games' snapshots (their first boards need no
    load in it): the same as loading each, names and settings included."""
    t = _arena(bot_kind="easy")
    people = _people(7)
    Profile.objects.update_or_create(user=people[0], defaults={"display_name": "Ada"})
    Profile.objects.update_or_create(user=people[1], defaults={"suggest_throw": "always"})
    for person in people:
        services.join(t.pk, person)
    snapshots.forget()
    with django_capture_on_commit_callbacks(execute=False) as kept_after:
        games = services.pair(t.pk) + services.pair(t.pk, timezone.now() + BOT_WAIT)
    assert len(games) == 3
    with CaptureQueriesContext(connection) as queries:
        for callback in kept_after:
            callback()
    assert not [q for q in queries if "games_game" in q["sql"] or "profile" in q["sql"]]
    kept = {game.pk: snapshots.cached(game.pk) for game in games}
    snapshots.forget()
    for pk, snap in kept.items():
        assert snap is not None and snap == snapshots.load_snapshot(pk)
    names = {s.name for snap in kept.values() for s in snap.seats}
    assert "Ada" in names and "Easy bot 3" in names
    assert {s.suggest for snap in kept.values() for s in snap.seats if s.user_id} == {True, False}


def test_a_games_last_move_is_told_before_what_its_end_queued_after_the_commit(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Every seat's last board goes first: fair play's task, the notices and the arena's
    pairing, queued by the game's end, come after it."""
    t = _arena()
    for person in _people(3):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    prepare_last_move(game.pk)
    done = []
    monkeypatch.setattr(telling, "notify_game", lambda pk, rev, news=None: done.append("told"))
    monkeypatch.setattr(fairplay_tasks, "_enqueue", lambda pk: done.append("fair play"))
    monkeypatch.setattr(services, "_pair_after_end", lambda pk: done.append("pairing"))
    with django_capture_on_commit_callbacks(execute=True):
        assert server_moves.play_due(game.pk, now=timezone.now()).finished
    assert done[0] == "told" and {"fair play", "pairing"} <= set(done)


def test_after_a_pairing_the_clocks_look_again_a_moment_later_not_at_their_next_tick():
    """A crowd's ends pair themselves (gathered, ``services.GATHER`` after each end): the
    clocks' looks, made at every tick of both workers while the revision moved, paired
    them a table at a time."""
    t = _arena()
    for person in _people(3):
        services.join(t.pk, person)
    now = timezone.now()
    assert services.pair(t.pk, now)
    due = Tournament.objects.values_list("due_at", flat=True).get(pk=t.pk)
    assert due == now + services.LOOK_AGAIN
    services.tick(now)  # nothing due: not looked at
    assert Tournament.objects.values_list("due_at", flat=True).get(pk=t.pk) == due


def test_a_crowds_pairing_fills_the_last_table_with_bots_after_the_wait():
    t = _arena(bot_kind="easy")
    for person in _people(5):
        services.join(t.pk, person)
    [full] = services.pair(t.pk)
    [with_bots] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    kinds = sorted(s.bot_kind for s in with_bots.seats.all())
    assert kinds == ["", "", "easy"] and full.pk != with_bots.pk


# --- The tie-break: opponents at their ratings when dealt ------------------------------------


def test_the_tie_break_counts_opponents_at_their_ratings_when_the_game_was_dealt(alice, bob, carol):
    Rating.objects.create(user=bob, mu=30.0, sigma=3.0, games=20)  # 1200
    Rating.objects.create(user=carol, mu=20.0, sigma=3.0, games=20)  # 800
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    tg = TournamentGame.objects.get(game=game)
    by_user = {s.user_id: s.index for s in game.seats.all()}
    assert tg.ratings[by_user[bob.pk]] == 1200 and tg.ratings[by_user[carol.pk]] == 800
    assert tg.ratings[by_user[alice.pk]] == 1000  # a newcomer
    _end_game(game.pk, away_at_end=False)
    # Later, bob and carol's ratings change a lot (other games): alice's performance in
    # this tournament stays what her opponents were when she met them.
    Rating.objects.filter(user=bob).update(mu=50.0)
    Rating.objects.filter(user=carol).update(mu=10.0)
    rows = {entry.user_id: row for row, entry in standings.standings(t)}
    assert rows[alice.pk].score.performance == pytest.approx((1200 + 800) / 2)
    assert rows[bob.pk].score.performance == pytest.approx((1000 + 800) / 2)
    # The record states the same ratings, and replaying it agrees with its standings.
    data = records.tournament_dict(Tournament.objects.get(pk=t.pk))
    assert data["games"][0]["ratings"] == tg.ratings
    from games.tournaments.record import replay_tournament

    out, status = replay_tournament(data)
    assert status == 0 and out["standings_agree"]


def test_a_game_dealt_before_ratings_were_kept_counts_its_seats_current_ratings(alice, bob, carol):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    TournamentGame.objects.filter(game=game).update(ratings=[])  # as an older row
    _end_game(game.pk, away_at_end=False)
    Rating.objects.update_or_create(user=bob, defaults={"mu": 30.0, "sigma": 3.0, "games": 20})
    Rating.objects.update_or_create(user=carol, defaults={"mu": 20.0, "sigma": 3.0, "games": 20})
    rows = {entry.user_id: row for row, entry in standings.standings(t)}
    assert rows[alice.pk].score.performance == pytest.approx((1200 + 800) / 2)


# --- The page's standings: once a change, for every watcher ----------------------------------


def test_every_change_moves_the_tournaments_revision_on(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    t = _arena(minutes=5)
    seen = [_rev(t)]
    for person in (alice, bob, carol):
        services.join(t.pk, person)
        seen.append(_rev(t))
    [game] = services.pair(t.pk)
    seen.append(_rev(t))
    services.pause(t.pk, alice)
    seen.append(_rev(t))
    services.withdraw(t.pk, alice)
    seen.append(_rev(t))
    assert seen == sorted(set(seen))  # each step a new revision
    before = _rev(t)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=6))
    with django_capture_on_commit_callbacks(execute=True):
        _end_game(game.pk, away_at_end=False)  # its end (after the commit) moves it on
    assert _rev(t) >= before + 2  # the game's end, and the tournament's (its clock ran out)
    assert Tournament.objects.get(pk=t.pk).finished_at is not None


def test_the_standings_are_computed_once_a_change_for_all_watchers(
    client, alice, bob, carol, monkeypatch
):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    computed = []
    real = standings.standings
    monkeypatch.setattr(standings, "standings", lambda *a: computed.append(1) or real(*a))
    page = reverse("tournament", args=[t.pk])
    live = reverse("tournament_live", args=[t.pk])
    for person in (alice, bob, carol, alice):
        client.force_login(person)
        assert client.get(page).status_code == 200
        assert client.get(live + "?game=&v=", headers={"HX-Request": "true"}).status_code == 200
    assert len(computed) == 1  # eight requests, four watchers, one computation
    services.pause(t.pk, bob)
    client.force_login(carol)
    text = client.get(live + "?game=&v=", headers={"HX-Request": "true"}).content.decode()
    assert "(paused)" in text and len(computed) == 2
    # Each watcher's own row is marked in the shared board, and nobody else's.
    assert text.count("standings-you") == 1
    carols = Entry.objects.get(tournament=t, user=carol).pk
    assert f'<tr data-entry="{carols}" class="standings-you">' in text


def test_changes_close_together_are_shown_together(client, alice, bob, carol, settings):
    settings.TONGITS_STANDINGS_SECONDS = 3600  # no board is too old within this test
    t = _arena()
    services.join(t.pk, alice)
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    poll = page.split('id="tournament-live" hx-get="')[1].split('"')[0].replace("&amp;", "&")
    services.join(t.pk, bob)
    # The board computed just now still stands: bob appears with the next one.
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    t = Tournament.objects.get(pk=t.pk)
    standings._boards[(t.pk, t.created_at)].made -= 7200  # as if it were two hours old
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "bob" in changed.content.decode()


@pytest.mark.django_db(transaction=True)  # the asking thread reads what the test wrote
def test_a_board_made_long_ago_is_not_shown_while_the_next_is_computed(alice, bob):
    """Found by bench.live --arena's check of the standings each worker shows: everyone
    was at a table for a minute, nobody asked for the page, and the first to ask while
    another thread computed the new board were shown the board of a minute before."""
    import threading

    t = _arena()
    services.join(t.pk, alice)
    old = standings.board(Tournament.objects.get(pk=t.pk))
    old.made -= 60  # made a minute ago, and nobody asked since
    services.join(t.pk, bob)
    now = Tournament.objects.get(pk=t.pk)
    computing = standings._computing[t.pk]
    computing.acquire()  # another thread is computing the new board
    shown = []
    asker = threading.Thread(target=lambda: shown.append(standings.board(now)))
    asker.start()
    computing.release()
    asker.join()
    assert shown[0].rev == now.rev and len(shown[0].rows) == 2


def test_the_arena_benchs_check_reads_the_watchers_own_row(client, alice, bob):
    """bench/live_arena_check.py compares each person's row as the workers show it with
    the database: it must read the page as the template writes it."""
    from bench.live_arena_check import expected, shown_row

    t = _arena()
    services.join(t.pk, alice)
    services.join(t.pk, bob)
    client.force_login(bob)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    entry, row = shown_row(page)
    assert entry == Entry.objects.get(tournament=t, user=bob).pk
    assert expected(t.pk)[1][entry] == row == (1, 0, 0)


def test_the_arena_benchs_check_counts_a_turn_the_clock_played_before_its_persons_board():
    """bench/live_arena_check.py's clock_turns: a turn the server played for a person whose
    first board of the game had not come is a fault of the run; one after it is not."""
    from bench.live_arena_check import clock_turns

    t = _arena()
    for person in _people(3):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    game.refresh_from_db()
    mover = Seat.objects.get(game=game, index=game.turn_seat).user_id
    assert server_moves.play_due(game.pk, now=game.due_at + timedelta(seconds=1)) is not None
    assert clock_turns(t.pk, {})["clock_turns_before_board"] == 1  # no board came at all
    seen_then = (timezone.now() - timedelta(minutes=1)).timestamp()
    after = clock_turns(t.pk, {(game.pk, mover): seen_then})
    assert after["clock_turns_for_people"] == 1 and after["clock_turns_before_board"] == 0
    late = clock_turns(t.pk, {(game.pk, mover): seen_then + 3600})
    assert late["clock_turns_before_board"] == 1


# --- The clock: no lock while nobody can be paired -------------------------------------------


def test_the_clock_pairs_only_when_three_wait_or_someone_has_waited_for_bots(
    alice, bob, carol, monkeypatch
):
    t = _arena()
    calls = []
    real = services.pair
    monkeypatch.setattr(services, "pair", lambda pk, now=None: calls.append(pk) or real(pk, now))
    now = timezone.now()
    services.tick(now)
    assert calls == []  # nobody entered
    services.join(t.pk, alice)
    services.join(t.pk, bob)
    services.tick(timezone.now())
    assert calls == []  # two wait, not for long: no lock taken
    services.join(t.pk, carol)
    services.tick(timezone.now())
    assert calls == [t.pk] and Entry.objects.filter(game__isnull=True).count() == 0
    services.tick(timezone.now())
    assert calls == [t.pk]  # everyone is playing
    late = _people(1, "late")[0]
    services.join(t.pk, late)
    services.tick(timezone.now() + BOT_WAIT)
    assert calls == [t.pk, t.pk]  # one has waited long enough for bots
    assert Entry.objects.get(user=late).game is not None


def test_a_person_who_pauses_sees_it_in_the_standings_at_once(client, alice, bob, settings):
    settings.TONGITS_STANDINGS_SECONDS = 3600  # the board would otherwise stand
    t = _arena()
    services.join(t.pk, bob)
    client.force_login(alice)
    client.post(reverse("tournament_join", args=[t.pk]))
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert "(paused)" not in page
    response = client.post(reverse("tournament_pause", args=[t.pk]), follow=True)
    assert "(paused)" in response.content.decode()


def test_a_crowds_standings_send_the_first_rows_and_the_watchers_own(client, monkeypatch):
    from games.tournaments import views

    monkeypatch.setattr(views, "ROWS_SHOWN", 3)
    t = _arena()
    people = _people(6)
    for person in people:
        services.join(t.pk, person)
    table = [e for _row, e in standings.standings(t)]  # all at 0 points: by name
    last = table[-1]
    client.force_login(last.user)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    shown = [e for e in table if f'data-entry="{e.pk}"' in page]
    assert shown == [*table[:3], last]  # the first three, and the watcher's own row
    assert f'<tr data-entry="{last.pk}" class="standings-you">' in page
    assert "2 more players are in the tournament record." in page
    client.force_login(table[0].user)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert [e for e in table if f'data-entry="{e.pk}"' in page] == table[:3]
    assert "3 more players are in the tournament record." in page


def _poll_of(page: str) -> str:
    return page.split('id="tournament-live" hx-get="')[1].split('"')[0].replace("&amp;", "&")


def test_a_join_below_the_rows_a_watcher_is_shown_gets_their_poll_only_the_count(
    client, monkeypatch, settings
):
    """A crowd joining changed the tournament's revision several times a second, and every
    watcher's poll came back a fresh render of rows it had. Now a poll compares what its
    watcher is shown: a join below those rows gets no content, only the new count of rows
    left out (a header the page shows), and a join among them the part again."""
    from urllib.parse import unquote

    from games.tournaments import views

    settings.TONGITS_STANDINGS_SECONDS = 0  # every change is computed at once
    monkeypatch.setattr(views, "ROWS_SHOWN", 3)
    t = _arena()
    for person in _people(5, "m"):
        services.join(t.pk, person)
    watcher = Entry.objects.get(tournament=t, user__username="m0").user
    client.force_login(watcher)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="standings-more">2 more players' in page
    poll = _poll_of(page)
    rendered = []
    real = views.render
    monkeypatch.setattr(views, "render", lambda *a, **k: rendered.append(a[1]) or real(*a, **k))

    services.join(t.pk, _people(1, "z")[0])  # sorts below the first three (0 points: names)
    quiet = client.get(poll, headers={"HX-Request": "true"})
    assert quiet.status_code == 204 and rendered == []
    assert unquote(quiet["X-Tongits-More"]) == "3 more players are in the tournament record."

    services.join(t.pk, _people(1, "a")[0])  # sorts first: the watcher's rows change
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "a0" in changed.content.decode()
    assert unquote(changed["X-Tongits-More"]) == "4 more players are in the tournament record."


def test_a_watcher_below_the_first_rows_sees_their_own_rows_changes(client, monkeypatch, settings):
    from games.tournaments import views

    settings.TONGITS_STANDINGS_SECONDS = 0
    monkeypatch.setattr(views, "ROWS_SHOWN", 2)
    t = _arena()
    people = _people(4, "m")
    for person in people:
        services.join(t.pk, person)
    client.force_login(people[-1])  # m3: below the first two, shown as its own row
    poll = _poll_of(client.get(reverse("tournament", args=[t.pk])).content.decode())
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    services.pause(t.pk, people[-1])  # its own row changes (and its buttons)
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 200


def test_before_the_start_entrants_are_listed_as_they_joined_so_a_join_adds_a_row_at_the_end(
    client, monkeypatch
):
    from games.tournaments import views

    monkeypatch.setattr(views, "ROWS_SHOWN", 2)
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    t = services.create(
        staff, name="Later", starts_at=timezone.now() + timedelta(hours=1), public=True
    )
    first = _people(3, "m")
    for person in first:
        services.join(t.pk, person)
    client.force_login(first[0])
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    poll = _poll_of(page)
    services.join(t.pk, _people(1, "a")[0])  # would sort first by name: listed last
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    rows = [e.user.username for _row, e in standings.board(Tournament.objects.get(pk=t.pk)).rows]
    assert rows == ["m0", "m1", "m2", "a0"]


def test_a_workers_polls_read_the_tournament_once_a_batch_of_changes(client, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.tournaments import views

    settings.TONGITS_STANDINGS_SECONDS = 3600
    views._polled.clear()
    t = _arena()
    alice, bob = _people(2, "w")
    services.join(t.pk, alice)
    client.force_login(alice)
    poll = _poll_of(client.get(reverse("tournament", args=[t.pk])).content.decode())
    with CaptureQueriesContext(connection) as first:
        assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    with CaptureQueriesContext(connection) as second:
        assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    read = [q for q in first.captured_queries if "tournaments_tournament" in q["sql"]]
    again = [q for q in second.captured_queries if "tournaments_tournament" in q["sql"]]
    assert len(read) == 1 and again == []
    views._polled.clear()
