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
from django.contrib.auth.models import Group
from django.db import transaction
from django.test import Client
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.fairplay import actions
from games.fairplay.models import AccountWarning, Pair, Report, ReportSent, StaffAction
from games.history import stats
from games.models import Game, Seat
from games.play import moves, tables
from games.ratings import core as ratings
from games.ratings.models import Rating
from tests.conftest import PASSWORDS
from tests.fast_games import finish
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import SEED
from tests.test_languages import speaking, untranslated

pytestmark = pytest.mark.django_db
User = get_user_model()


def fair_play_staff(username: str, **fields):
    """A member of staff in the "Fair play" group. Fairplay's migration 0004 makes the
    group; a test that empties the database (``transaction=True``) loses it, so it is
    made again here as the migration makes it."""
    from django.contrib.auth.models import Permission

    user = User.objects.create_user(username, password="pw-w-12345678", is_staff=True, **fields)
    group, made = Group.objects.get_or_create(name="Fair play")
    if made:
        names = [StaffAction.SEE, *StaffAction.NEEDS.values(), "fairplay.view_staffaction"]
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label="fairplay", codename__in=[n.split(".")[1] for n in names]
            )
        )
    user.groups.add(group)
    return User.objects.get(pk=user.pk)  # its permissions read afresh


@pytest.fixture
def warden(db):
    return fair_play_staff("warden")


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
    solo = tables.quick_play(alice)
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


# --- Who may act (issue 46) ------------------------------------------------------------------

ACT = reverse_lazy("fairplay_act")


def _act(user, **form):
    return signed_in(user).post(ACT, {"reason": "A reason.", **form})


def _nothing_done(*accounts) -> bool:
    fresh = [User.objects.get(pk=a.pk) for a in accounts]
    return (
        all(a.is_active for a in fresh)
        and not StaffAction.objects.exists()
        and not Game.objects.filter(voided_at__isnull=False).exists()
        and not Report.objects.filter(closed_at__isnull=False).exists()
    )


def test_staff_without_permissions_neither_see_fair_play_nor_act(alice, bob, carol, make_game):
    """A staff account given no permission closed a superuser's account and voided a pair
    (every rating recomputed) through the Fair play page."""
    plain = User.objects.create_user("plain", is_staff=True)
    boss = User.objects.create_superuser("boss", password="pw-b-12345678")
    finished_game([alice, bob, carol], make_game)
    pair = pair_of(alice, bob)
    signed_in(alice).post(reverse("report_player", args=["bob"]))
    for url in (reverse("fairplay_pairs"), reverse("fairplay_pair", args=[pair.pk])):
        page = signed_in(plain).get(url)
        assert page.status_code == 403
        assert "given fair play&#x27;s permissions" in page.content.decode()
    assert (
        reverse("fairplay_pairs")
        not in signed_in(plain).get(reverse("staff_dashboard")).content.decode()
    )

    refused = [
        _act(plain, action="close", account=boss.pk),
        _act(plain, action="warn", account=bob.pk),
        _act(plain, action="void", pair=pair.pk),
        _act(plain, action="dismiss", account=bob.pk),
    ]

    assert [r.status_code for r in refused] == [403] * 4
    assert _nothing_done(boss, bob) and not AccountWarning.objects.exists()


@pytest.mark.parametrize("kind", ["warn", "void", "close", "dismiss"])
def test_each_action_needs_its_own_permission(kind, alice, bob, carol, make_game):
    finished_game([alice, bob, carol], make_game)
    pair = pair_of(alice, bob)
    signed_in(alice).post(reverse("report_player", args=["bob"]))
    staff = User.objects.create_user("staff", is_staff=True)
    staff.user_permissions.add(*_perms("see_fair_play", StaffAction.NEEDS[kind]))
    staff = User.objects.get(pk=staff.pk)
    target = {"void": {"pair": pair.pk}}.get(kind, {"account": bob.pk})
    others = [k for k in StaffAction.NEEDS if StaffAction.NEEDS[k] != StaffAction.NEEDS[kind]]

    answers = {
        k: _act(
            staff,
            action=k,
            **({"pair": pair.pk} if k in ("void", "clear") else {"account": bob.pk}),
        )
        for k in others
    }
    assert {k: r.status_code for k, r in answers.items()} == {k: 403 for k in others}
    assert "needs the fairplay." in answers[others[0]].content.decode()
    assert _nothing_done(bob)

    done = _act(staff, action=kind, **target)
    assert done.status_code == 302
    assert list(StaffAction.objects.values_list("kind", "staff__username")) == [(kind, "staff")]


def test_clearing_a_flagged_pair_needs_the_right_to_void_it_and_is_not_for_its_own(
    alice, bob, carol, make_game
):
    finished_game([alice, bob, carol], make_game)
    pair = pair_of(alice, bob)
    Pair.objects.filter(pk=pair.pk).update(flagged_after=1)
    seer = User.objects.create_user("seer", is_staff=True)
    seer.user_permissions.add(*_perms("see_fair_play", "warn_account"))
    alice.is_staff = True
    alice.save()
    alice.user_permissions.add(*_perms("see_fair_play", "void_pair"))

    refused = [_act(seer, action="clear", pair=pair.pk), _act(alice, action="clear", pair=pair.pk)]

    assert [r.status_code for r in refused] == [403, 403]
    assert Pair.objects.get(pk=pair.pk).cleared_at is None
    assert not StaffAction.objects.exists()


def _perms(*names: str):
    from django.contrib.auth.models import Permission

    codenames = [n.split(".")[-1] for n in names]
    return Permission.objects.filter(content_type__app_label="fairplay", codename__in=codenames)


def test_the_page_offers_only_the_actions_one_may_take(alice, bob, carol, make_game):
    finished_game([alice, bob, carol], make_game)
    pair = pair_of(alice, bob)
    staff = User.objects.create_user("staff", is_staff=True)
    staff.user_permissions.add(*_perms("see_fair_play", "warn_account"))
    page = signed_in(staff).get(reverse("fairplay_pair", args=[pair.pk])).content.decode()
    assert 'value="warn"' in page
    assert 'value="close"' not in page and 'value="void"' not in page
    full = signed_in(fair_play_staff("warden")).get(reverse("fairplay_pair", args=[pair.pk]))
    assert 'value="close"' in full.content.decode() and 'value="void"' in full.content.decode()


def test_nobody_closes_an_account_holding_a_right_they_lack(alice):
    """ "More rights": a superuser's account is closed only by a superuser, and any other
    account only by someone holding every permission it holds (its own and its groups')."""
    from django.contrib.auth.models import Permission

    warden = fair_play_staff("warden")
    boss = User.objects.create_superuser("boss", password="pw-b-12345678")
    editor = fair_play_staff("editor")
    editor.user_permissions.add(Permission.objects.get(codename="delete_user"))
    peer = fair_play_staff("peer")

    for account, says in (
        (boss, "Only a superuser may close a superuser&#x27;s account."),
        (editor, "editor holds rights you do not"),
        (warden, "Nobody acts on their own account"),
    ):
        refused = _act(warden, action="close", account=account.pk)
        assert refused.status_code == 403 and says in refused.content.decode(), account
    assert _nothing_done(boss, editor, warden)

    assert _act(warden, action="close", account=peer.pk).status_code == 302  # the same rights
    assert _act(warden, action="close", account=alice.pk).status_code == 302  # none
    other_boss = User.objects.create_superuser("boss2", password="pw-b-12345678")
    assert _act(other_boss, action="close", account=boss.pk).status_code == 302
    assert _act(other_boss, action="close", account=editor.pk).status_code == 302
    closed = set(User.objects.filter(is_active=False).values_list("username", flat=True))
    assert closed == {"peer", "alice", "boss", "editor"}
    logged = StaffAction.objects.order_by("at", "pk").values_list("staff__username", "whom")
    assert list(logged) == [
        ("warden", "peer"), ("warden", "alice"), ("boss2", "boss"), ("boss2", "editor"),
    ]  # fmt: skip


def test_nobody_acts_on_a_pair_they_are_in_or_on_their_own_reports(alice, bob, make_game):
    warden = fair_play_staff("warden")
    finished_game([alice, warden, bob], make_game)
    signed_in(alice).post(reverse("report_player", args=["warden"]))
    for form in (
        {"action": "void", "pair": pair_of(alice, warden).pk},
        {"action": "dismiss", "account": warden.pk},
        {"action": "warn", "account": warden.pk},
    ):
        refused = _act(warden, **form)
        assert refused.status_code == 403, form
        assert "Nobody acts on their own account" in refused.content.decode()
    assert _nothing_done(alice, warden)


def test_an_action_called_without_a_reason_is_refused_and_changes_nothing(bob, warden):
    with pytest.raises(actions.Refused):
        actions.close_account(warden, bob, "   ")
    assert _nothing_done(bob)


def test_the_fair_play_group_holds_every_fair_play_permission():
    group = Group.objects.get(name="Fair play")
    held = set(group.permissions.values_list("content_type__app_label", "codename"))
    wanted = {tuple(p.split(".")) for p in [StaffAction.SEE, *StaffAction.NEEDS.values()]}
    assert held == wanted | {("fairplay", "view_staffaction")}


def test_the_log_says_who_what_whom_why_and_when_in_the_admin_and_keeps_whom(bob, warden):
    _act(warden, action="warn", account=bob.pk, reason="Soft play with alice.")
    bob.delete()
    action = StaffAction.objects.get()
    assert (action.staff, action.kind, action.account, action.whom) == (warden, "warn", None, "bob")
    admin = signed_in(warden)
    listing = admin.get(reverse("admin:fairplay_staffaction_changelist")).content.decode()
    assert "Soft play with alice." in listing and "bob" in listing and "warden" in listing
    shown = admin.get(reverse("admin:fairplay_staffaction_change", args=[action.pk]))
    assert shown.status_code == 200  # to read: the log is never edited or deleted there
    assert admin.get(reverse("admin:fairplay_staffaction_add")).status_code == 403
    assert (
        admin.post(
            reverse("admin:fairplay_staffaction_delete", args=[action.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert StaffAction.objects.filter(pk=action.pk).exists()


def test_voided_games_show_as_such_and_leave_the_figures(alice, bob, carol, warden, make_game):
    shared = [finished_game([alice, bob, carol], make_game, seed=s) for s in (1, 2)]
    apart = finished_game([alice, carol, "easy"], make_game, seed=3)
    pair = pair_of(alice, bob)
    before = stats.player_stats(alice).games
    page = signed_in(warden).get(reverse("fairplay_pair", args=[pair.pk])).content.decode()
    assert "Void their 2 games" in page
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
    assert "warden voided the pair&#x27;s games" in page and "Shared hands." in page


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
    state = moves.game_state(live)
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
