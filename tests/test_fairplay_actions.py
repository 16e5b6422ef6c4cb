"""Fair play's reports and staff actions (issue 28): Report from the result screen and the
profile, the reports on the staff Fair play page, and warn, void a pair's rated games
(the ratings exactly as ``recompute`` makes them without those games) and close an
account, each logged; voided games marked in the history and left out of the figures;
nothing on the staff pages shows a card of a game in play."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.fairplay import actions
from games.fairplay.models import AccountWarning, Pair, Report, ReportSent, StaffAction
from games.history import stats
from games.models import Game, Seat
from games.play import services
from games.ratings import core as ratings
from games.ratings.models import Rating
from tests.conftest import PASSWORDS
from tests.fast_games import finish
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import SEED
from tests.test_languages import speaking, untranslated

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def warden(db):
    return User.objects.create_user("warden", password="pw-w-12345678", is_staff=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finished_game(people, make_game, rated=True, seed=7) -> Game:
    game = make_game(people, seed=seed, rated=rated)
    return finish(game.pk, random.Random(seed))


def pair_of(one, other) -> Pair:
    low, high = sorted([one.pk, other.pk])
    return Pair.objects.get_or_create(low_id=low, high_id=high)[0]


# --- Report ---------------------------------------------------------------------------------


def test_the_result_screen_offers_report_when_another_person_played(alice, bob, make_game):
    game = finished_game([alice, bob, "easy"], make_game)
    page = signed_in(alice).get(reverse("table", args=[game.pk])).content.decode()
    assert f'href="{reverse("report_game", args=[game.pk])}"' in page
    # Against bots only (Quick play) there is nobody to report.
    solo = services.quick_play(alice)
    finish(solo.pk)
    page = signed_in(alice).get(reverse("table", args=[solo.pk])).content.decode()
    assert reverse("report_game", args=[solo.pk]) not in page


def test_report_from_the_result_screen_carries_the_game_and_is_confirmed_once(
    alice, bob, carol, make_game
):
    game = finished_game([alice, bob, carol], make_game)
    client = signed_in(alice)
    url = reverse("report_game", args=[game.pk])
    form = client.get(url).content.decode()
    assert "bob" in form and "carol" in form and 'name="reported"' in form
    sent = client.post(url, {"reported": bob.pk, "note": "They fed each other all game."})
    assert sent.status_code == 200
    assert "Report sent" in sent.content.decode()
    assert "reached the staff with 1 game" in sent.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported) == (alice, bob)
    assert list(report.games.values_list("pk", flat=True)) == [game.pk]
    # Again: not duplicated, and said so.
    again = client.post(url, {"reported": bob.pk})
    assert (
        "Already reported" in again.content.decode() and "not sent twice" in again.content.decode()
    )
    assert Report.objects.count() == 1 and report.games.count() == 1


def test_report_from_a_profile_carries_the_recent_games_together(alice, bob, carol, make_game):
    games = [finished_game([alice, bob, "easy"], make_game, seed=s) for s in (3, 4)]
    finished_game([alice, carol, "easy"], make_game, seed=5)  # not with Bob
    client = signed_in(alice)
    profile = client.get(reverse("player", args=["bob"])).content.decode()
    url = reverse("report_player", args=["bob"])
    assert f'href="{url}"' in profile
    own = client.get(reverse("player", args=["alice"])).content.decode()
    assert reverse("report_player", args=["alice"]) not in own  # nobody reports themselves
    assert "your last 2 games together" in client.get(url).content.decode()
    sent = client.post(url, {"note": ""})
    assert "reached the staff with 2 games" in sent.content.decode()
    report = Report.objects.get(reported=bob)
    assert set(report.games.values_list("pk", flat=True)) == {g.pk for g in games}
    # A later game of theirs, reported from the result screen, joins the same report.
    third = finished_game([bob, alice, "easy"], make_game, seed=6)
    client.post(reverse("report_game", args=[third.pk]), {"reported": bob.pk})
    assert Report.objects.count() == 1 and report.games.count() == 3


def test_bad_reports_are_refused_plainly_and_change_nothing(alice, bob, carol, make_game):
    User.objects.create_user("dave")
    dave = User.objects.get(username="dave")
    client = signed_in(alice)
    game = finished_game([alice, bob, carol], make_game, seed=9)
    live = make_game([alice, bob, carol], rated=True)  # in play
    response = client.get(reverse("report_game", args=[live.pk]), follow=True)
    assert "once it is over" in response.content.decode()
    url = reverse("report_game", args=[game.pk])
    not_there = client.post(url, {"reported": dave.pk})
    assert "Choose the player you report." in not_there.content.decode()
    too_long = client.post(url, {"reported": bob.pk, "note": "x" * 501})
    assert too_long.status_code == 200 and "at most 500" in too_long.content.decode()
    myself = client.post(reverse("report_player", args=["alice"]), follow=True)
    assert "You cannot report yourself." in myself.content.decode()
    # Someone who did not play it cannot report from it.
    outsider = signed_in(dave).post(url, {"reported": bob.pk}, follow=True)
    assert "once it is over" in outsider.content.decode()
    assert not Report.objects.exists()
    assert signed_in(alice).get(url).status_code == 200  # and nothing broke
    anonymous = Client().post(url, {"reported": bob.pk})
    assert anonymous.status_code == 302 and not Report.objects.exists()


def test_reports_are_limited_per_hour(settings, alice, make_game):
    settings.TONGITS_REPORTS_PER_HOUR = 2
    others = [User.objects.create_user(f"p{i}") for i in range(3)]
    client = signed_in(alice)
    for person in others[:2]:
        assert (
            "Report sent"
            in client.post(reverse("report_player", args=[person.username])).content.decode()
        )
    refused = client.post(reverse("report_player", args=[others[2].username]))
    assert refused.status_code == 429
    assert "many reports in the last hour" in refused.content.decode()
    assert Report.objects.count() == 2
    ReportSent.objects.update(at=timezone.now() - timedelta(hours=2))
    assert "Report sent" in client.post(reverse("report_player", args=["p2"])).content.decode()


def test_reporting_one_person_again_and_again_counts_against_the_limit(settings, alice, bob):
    """A repeat added to the one open report, whose row the limit counted once: one
    person could send it without end, each time moving it to the top of staff's list."""
    settings.TONGITS_REPORTS_PER_HOUR = 2
    client = signed_in(alice)
    url = reverse("report_player", args=["bob"])
    codes = [client.post(url, {"note": f"saw it {i}"}).status_code for i in range(4)]

    assert codes == [200, 200, 429, 429]
    assert Report.objects.get().note == "saw it 0\nsaw it 1"


def test_a_repeat_with_nothing_new_leaves_the_report_where_it_is(alice, bob):
    client = signed_in(alice)
    url = reverse("report_player", args=["bob"])
    client.post(url, {"note": "saw it"})
    Report.objects.update(updated_at=timezone.now() - timedelta(minutes=30))
    before = Report.objects.get().updated_at

    again = client.post(url, {"note": "saw it"})

    assert again.status_code == 200 and Report.objects.get().updated_at == before


# --- The staff page: reports and actions ----------------------------------------------------


def test_reports_appear_on_the_staff_page_with_their_games(alice, bob, carol, warden, make_game):
    game = finished_game([alice, bob, carol], make_game)
    signed_in(alice).post(
        reverse("report_game", args=[game.pk]), {"reported": bob.pk, "note": "odd"}
    )
    page = signed_in(warden).get(reverse("fairplay_pairs")).content.decode()
    assert "<strong>bob</strong>, reported by alice" in page
    assert reverse("replay", args=[game.pk]) in page and "odd" in page
    # Dealt with: it leaves the list, and the action is logged.
    done = signed_in(warden).post(
        reverse("fairplay_act"), {"action": "dismiss", "account": bob.pk, "reason": "Looked: fine."}
    )
    assert done.status_code == 302
    page = signed_in(warden).get(reverse("fairplay_pairs")).content.decode()
    assert "reported by alice" not in page and "No open report." in page
    assert "warden dealt with the reports (bob): Looked: fine." in page
    # A new report of Bob by Alice is a new one (the old is closed).
    signed_in(alice).post(reverse("report_player", args=["bob"]))
    assert Report.objects.filter(closed_at__isnull=True).count() == 1


def test_a_warning_is_seen_once_and_logged(alice, warden):
    response = signed_in(warden).post(
        reverse("fairplay_act"), {"action": "warn", "account": alice.pk, "reason": "Soft play."}
    )
    assert response.status_code == 302
    action = StaffAction.objects.get()
    assert (action.staff, action.kind, action.account, action.reason) == (
        warden,
        "warn",
        alice,
        "Soft play.",
    )
    assert action.at is not None
    client = signed_in(alice)
    first = client.get(reverse("lobby")).content.decode()
    assert "A warning from the staff about fair play: Soft play." in first
    second = client.get(reverse("lobby")).content.decode()
    assert "A warning from the staff" not in second
    assert AccountWarning.objects.get().seen_at is not None


def test_actions_need_a_reason_and_staff(alice, bob, warden):
    nothing = signed_in(warden).post(
        reverse("fairplay_act"), {"action": "close", "account": bob.pk, "reason": "  "}, follow=True
    )
    assert "nothing was done" in nothing.content.decode()
    assert (
        signed_in(warden)
        .post(
            reverse("fairplay_act"),
            {"action": "close", "account": 999999, "reason": "x"},
            follow=True,
        )
        .content.decode()
        .count("There is no such account")
    )
    refused = signed_in(alice).post(
        reverse("fairplay_act"), {"action": "close", "account": bob.pk, "reason": "I say so"}
    )
    assert refused.status_code == 403
    bob.refresh_from_db()
    assert bob.is_active and not StaffAction.objects.exists()


def test_closing_an_account_ends_its_sessions_and_log_ins(bob, warden):
    client = signed_in(bob)
    assert client.get(reverse("lobby")).wsgi_request.user == bob
    signed_in(warden).post(
        reverse("fairplay_act"), {"action": "close", "account": bob.pk, "reason": "Colluding."}
    )
    bob.refresh_from_db()
    assert not bob.is_active
    assert not client.get(reverse("lobby")).wsgi_request.user.is_authenticated
    fresh = Client()
    fresh.post(reverse("login"), {"username": "bob", "password": PASSWORDS["bob"]})
    assert not fresh.get(reverse("lobby")).wsgi_request.user.is_authenticated
    assert StaffAction.objects.get().kind == "close"


def test_voided_games_show_as_such_and_leave_the_figures(alice, bob, carol, warden, make_game):
    shared = [finished_game([alice, bob, carol], make_game, seed=s) for s in (1, 2)]
    apart = finished_game([alice, carol, "easy"], make_game, seed=3)
    pair = pair_of(alice, bob)
    before = stats.player_stats(alice).games
    page = signed_in(warden).get(reverse("fairplay_pair", args=[pair.pk])).content.decode()
    assert "Void their 2 rated games" in page
    signed_in(warden).post(
        reverse("fairplay_act"), {"action": "void", "pair": pair.pk, "reason": "Shared hands."}
    )
    voided = set(Game.objects.filter(voided_at__isnull=False).values_list("pk", flat=True))
    assert voided == {g.pk for g in shared}
    assert StaffAction.objects.get().games == sorted(voided)
    assert stats.player_stats(alice).games == before - 2
    client = signed_in(alice)
    history = client.get(reverse("my_games")).content.decode()
    assert history.count(">voided</span>") == 2
    replay = client.get(reverse("replay", args=[shared[0].pk])).content.decode()
    assert "Voided by staff for fair play" in replay
    assert "Voided by staff" not in client.get(reverse("replay", args=[apart.pk])).content.decode()
    page = signed_in(warden).get(reverse("fairplay_pair", args=[pair.pk])).content.decode()
    assert "warden voided the pair&#x27;s rated games" in page and "Shared hands." in page


# --- Voiding changes ratings exactly as recompute says --------------------------------------

PEOPLE = ("p0", "p1", "p2", "p3")
OCCUPANT = st.sampled_from([*range(len(PEOPLE)), "easy", "hard"])


@st.composite
def paths(draw):
    """A random history of rated games among four people and two bot levels."""
    games = []
    for _ in range(draw(st.integers(1, 12))):
        seats = draw(st.lists(OCCUPANT, min_size=3, max_size=3))
        people = [s for s in seats if isinstance(s, int)]
        if len(set(people)) != len(people):
            continue  # a person sits once a table
        winner = draw(st.integers(0, 2))
        chips = draw(st.lists(st.integers(-20, 20), min_size=3, max_size=3))
        games.append((seats, winner, chips))
    return games


def _expected(users, games, skipped: set[int]) -> dict:
    """The ratings the pure step gives over the games not skipped, in order."""
    skills: dict = {}
    for game, (seats, winner, chips) in games:
        if game.pk in skipped:
            continue
        keys = [("user", users[s].pk) if isinstance(s, int) else ("bot", s) for s in seats]
        if not ratings._counts(keys):  # bots only: no game to rate
            continue
        priors = {k: skills.get(k, ratings.NEW) for k in keys}
        skills.update(ratings.rate(priors, keys, winner, chips))
    return skills


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=paths(), low=st.integers(0, 3), high=st.integers(0, 3))
def test_voiding_a_pairs_games_gives_the_ratings_recompute_gives_without_them(
    warden, path, low, high
):
    if low == high:
        high = (low + 1) % 4
    with transaction.atomic():
        users = [User.objects.create_user(name) for name in PEOPLE]
        at = timezone.now()
        made = []
        for n, (seats, winner, chips) in enumerate(path):
            game = Game.objects.create(
                status=Game.Status.FINISHED, rated=True, winner_seat=winner, chips=chips,
                finished_at=at + timedelta(seconds=n), started_at=at, dealer=0,
            )  # fmt: skip
            rows = [
                Seat.objects.create(game=game, index=i, user=users[s])
                if isinstance(s, int)
                else Seat.objects.create(game=game, index=i, bot_kind=s)
                for i, s in enumerate(seats)
            ]
            ratings.rate_finished(game.pk, rows, winner, chips, game.finished_at)
            made.append((game, (seats, winner, chips)))
        pair = pair_of(users[low], users[high])
        action = actions.void_pair(warden, pair, "test")
        theirs = {g.pk for g, (seats, _, _) in made if low in seats and high in seats}
        assert set(action.games) == theirs
        expected = _expected(users, made, theirs)
        stored = {ratings._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
        assert stored == {k: (s.mu, s.sigma, s.games) for k, s in expected.items()}
        # And recompute, run again, finds nothing to change.
        ratings.recompute()
        again = {ratings._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
        assert again == stored
        transaction.set_rollback(True)


# --- Nothing of a game in play on the staff pages --------------------------------------------


def test_the_staff_pages_show_no_card_of_a_game_in_play(alice, bob, carol, warden, make_game):
    done = finished_game([alice, bob, carol], make_game, seed=11)
    live = make_game([alice, bob, carol], seed=SEED, rated=True)  # a seed long enough to find
    pair = pair_of(alice, bob)
    signed_in(alice).post(reverse("report_player", args=["bob"]))  # while the live game plays
    signed_in(carol).post(reverse("report_game", args=[done.pk]), {"reported": alice.pk})
    report = Report.objects.get(reporter=alice)
    assert set(report.games.values_list("pk", flat=True)) == {done.pk}  # not the live one
    client = signed_in(warden)
    state = services.game_state(live)
    hidden = hidden_cards(state, None)
    for url in (reverse("fairplay_pairs"), reverse("fairplay_pair", args=[pair.pk])):
        text = client.get(url).content.decode()
        assert not leaks(text, hidden, live.seed), url
        assert reverse("replay", args=[live.pk]) not in text, url
        assert reverse("replay", args=[done.pk]) in text or url.endswith(f"/{pair.pk}/")


# --- Filipino --------------------------------------------------------------------------------


def test_the_report_and_staff_pages_speak_filipino(client, alice, bob, carol, warden, make_game):
    game = finished_game([alice, bob, carol], make_game)
    client.force_login(alice)
    for path in (reverse("report_game", args=[game.pk]), reverse("report_player", args=["bob"])):
        assert untranslated(client, path, frozenset({"bob", "carol", "alice"})) == set(), path
    fil = speaking(client, "fil")
    sent = fil.post(reverse("report_player", args=["bob"])).content.decode()
    assert "Naipadala ang ulat" in sent
    result = fil.get(reverse("table", args=[game.pk])).content.decode()
    assert "Iulat ang isang manlalaro" in result
    client.force_login(warden)
    for path in (reverse("fairplay_pairs"),):
        left = untranslated(
            client, path, frozenset({"bob", "alice", "warden", "<strong>bob</strong>"})
        )
        assert left == set(), left
