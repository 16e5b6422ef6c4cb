"""The daily deal (issue 51): one deal a day for everyone, dealt from a seed committed in
advance; each person's one game of it against two Normal bots that answer the same moves
the same way; par; and the day's results, which nobody sees before they have played it."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.daily import days, par, services, tasks
from games.daily.models import Day, Entry
from games.engine.deal import deal_from_seed
from games.engine.state import Phase
from games.models import Game
from games.play import moves as play_moves
from games.play import server_moves
from tests.daily_support import (
    bot_moves,
    greedy_person,
    hard_person,
    manila,
    play,
    today_with_seed,
)

pytestmark = pytest.mark.django_db


def test_the_day_turns_at_midnight_in_manila_not_utc():
    assert days.day_of(manila("2026-12-05 23:59:59")).isoformat() == "2026-12-05"
    assert days.day_of(manila("2026-12-06 00:00:00")).isoformat() == "2026-12-06"
    # 16:00 UTC is midnight in Manila (UTC+8): the UTC date is still the 5th.
    assert days.ends(days.day_of(manila("2026-12-05 12:00"))).isoformat() == (
        "2026-12-06T00:00:00+08:00"
    )


def test_todays_and_tomorrows_deals_are_drawn_ahead_with_their_commitments():
    now = manila("2026-12-05 09:00")
    today = services.ensure_days(now)
    tomorrow = Day.objects.get(day=today.day + timedelta(days=1))

    assert today.day.isoformat() == "2026-12-05"
    assert Game.commit_to(today.seed) == today.commitment
    assert Game.commit_to(tomorrow.seed) == tomorrow.commitment
    assert today.seed != tomorrow.seed
    assert services.ensure_days(now + timedelta(hours=14)).pk == today.pk  # drawn once


def test_making_a_day_queues_its_par_in_the_background(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        day = services.ensure_days(manila("2026-12-05 09:00"))
    queued = DBTaskResult.objects.filter(task_path="games.daily.tasks.work_out_par")
    assert day.pk in [task.args_kwargs["args"][0] for task in queued]


def test_each_person_plays_the_days_deal_once_in_seat_zero_against_two_normal_bots(alice, bob):
    now = timezone.now()
    first = services.start(alice, now)
    again = services.start(alice, now)
    other = services.start(bob, now)
    day = services.ensure_days(now)

    assert first.pk == again.pk and other.pk != first.pk
    for game in (first, other):
        assert game.daily and not game.public and not game.rated
        assert game.seed == day.seed and game.commitment == day.commitment
        dealer, hands, stock = deal_from_seed(int(day.seed))
        assert game.dealer == dealer and game.deal["stock"] == other.deal["stock"]
        assert [s.bot_kind for s in game.seats.order_by("index")] == ["", "normal", "normal"]
    assert first.seats.get(index=0).user == alice and other.seats.get(index=0).user == bob
    assert Entry.objects.filter(day=day).count() == 2


def test_two_games_of_the_day_with_the_same_moves_meet_the_same_bot_moves(alice, bob):
    now = timezone.now()
    alices = play(services.start(alice, now), alice, greedy_person)
    bobs = play(services.start(bob, now), bob, greedy_person)

    assert alices.status == bobs.status == Game.Status.FINISHED
    assert bot_moves(alices) == bot_moves(bobs) and bot_moves(alices)
    assert alices.chips == bobs.chips


def test_par_is_what_a_person_scores_who_plays_as_hard_at_the_live_table(alice):
    # Par is worked out in the engine alone; a person who makes Hard's moves at the real
    # table meets the same Normal answers from the server clock, and scores par exactly.
    now = timezone.now()
    day = services.ensure_days(now)
    game = play(services.start(alice, now), alice, hard_person(day.seed))
    worked_out = par.play(int(day.seed))

    assert game.status == Game.Status.FINISHED
    assert game.chips[0] == worked_out.chips
    assert list(game.moves.order_by("seq").values_list("payload", flat=True)) == worked_out.moves


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_works_out_the_par_of_each_day_drawn():
    services.ensure_days(timezone.now())  # today's and tomorrow's, each queued after its commit
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0",
        stdout=StringIO(), stderr=StringIO(),
    )  # fmt: skip

    assert Day.objects.count() == 2
    for day in Day.objects.all():
        assert day.par == par.play(int(day.seed)).chips


def test_par_is_stored_once_by_its_task():
    day = services.ensure_days(timezone.now())
    chips = tasks.store_par(day.pk)
    day.refresh_from_db()

    assert day.par == chips == par.play(int(day.seed)).chips
    assert day.par_moves and day.par_at is not None
    Day.objects.filter(pk=day.pk).update(par=chips + 100)
    assert tasks.store_par(day.pk) == chips + 100  # never worked out again


def test_a_daily_game_left_alone_is_finished_by_the_server_clock_and_counts(alice):
    now = timezone.now()
    game = services.start(alice, now)
    later = now + timedelta(days=1)
    for _ in range(500):
        if server_moves.play_due(game.pk, now=later) is None:
            break
    game.refresh_from_db()
    day = services.ensure_days(now)

    assert game.status == Game.Status.FINISHED
    assert game.seats.get(index=0).away
    assert [r.game_id for r in services.results(day)] == [game.pk]
    assert services.has_finished(alice, day)


def test_a_day_is_over_only_after_its_midnight_and_when_its_last_game_has_ended(alice, bob):
    now = timezone.now()
    today_with_seed(now)  # a known deal: Bob's one move must not end his game
    play(services.start(alice, now), alice)
    bobs = play(services.start(bob, now), bob, moves=1)
    day = services.ensure_days(now)
    after = days.ends(day.day) + timedelta(seconds=1)

    assert not services.is_closed(day, now)
    assert not services.is_closed(day, after)  # Bob's game, begun before midnight, goes on
    play(bobs, bob)
    assert services.is_closed(day, after)


def test_a_daily_game_counts_in_no_figure_or_leaderboard_of_the_site(client, alice):
    play(services.start(alice, timezone.now()), alice)
    board = client.get("/leaderboard/").content.decode()  # by someone else
    client.force_login(alice)
    profile = client.get("/players/alice/").content.decode()

    from games.history import stats

    assert stats.player_stats(alice).games == 0
    assert stats.recent_gains(alice) == []
    assert "/players/alice/" not in board
    assert "daily deal" in profile.lower()


def test_anyone_checks_a_past_days_seed_and_par_once_the_day_is_over(alice):
    day = services.ensure_days(timezone.now())
    tasks.store_par(day.pk)
    out = StringIO()
    with pytest.raises(CommandError, match="not over yet"):
        call_command("verify_deal", "--daily", day.day.isoformat(), stdout=out)

    Day.objects.filter(pk=day.pk).update(day=day.day - timedelta(days=2))
    day.refresh_from_db()
    call_command("verify_deal", "--daily", day.day.isoformat(), stdout=out)
    assert f"seed {day.seed}" in out.getvalue()
    assert "the seed's SHA-256 is the commitment" in out.getvalue()
    assert "scored the same" in out.getvalue()

    Day.objects.filter(pk=day.pk).update(par=day.par + 1)
    with pytest.raises(CommandError, match="par played again scores"):
        call_command("verify_deal", "--daily", day.day.isoformat(), stdout=out)


def test_the_daily_deal_command_makes_the_days_and_works_out_missing_pars():
    out = StringIO()
    call_command("daily_deal", "--par", stdout=out)
    assert Day.objects.count() == 2 and not Day.objects.filter(par__isnull=True).exists()
    assert "commitment" in out.getvalue()


def test_the_duplicate_score_counts_days_that_are_over_and_the_board_ranks_by_it(alice, bob):
    now = timezone.now()
    for back in range(1, 7):
        made = Day.objects.create(day=days.day_of(now) - timedelta(days=back), seed=str(back),
                                  commitment=Game.commit_to(str(back)), par=back % 3)  # fmt: skip
        for user in (alice, bob):
            game = play(services.start(user, now), user)  # today's deal, then moved back
            Entry.objects.filter(game=game).update(day=made)
    # Today's game does not count yet: the day goes on.
    play(services.start(alice, now), alice)
    expected = {}
    for user in (alice, bob):
        rows = Entry.objects.filter(user=user).exclude(day__day=days.day_of(now))
        diffs = [e.game.chips[0] - e.day.par for e in rows.order_by("-day__day")]
        expected[user.pk] = sum(diffs) / len(diffs)
        assert services.duplicate_for(user, now).mean == pytest.approx(expected[user.pk])
        assert services.duplicate_for(user, now).days == 6

    month = days.month_of(days.day_of(now) - timedelta(days=1))
    board = services.monthly_board(month, now)
    in_month = [s for s in board if s.score.days >= services.MIN_DAYS]
    assert [s.user_id for s in in_month] == [s.user_id for s in board]
    assert board == sorted(board, key=lambda s: (-s.score.mean, -s.score.days, s.username))


def test_the_daily_pages_leave_nothing_in_english_in_filipino(client, alice, bob):
    from tests.test_languages import untranslated

    now = timezone.now()
    day = services.ensure_days(now)
    tasks.store_par(day.pk)
    play(services.start(alice, now), alice)
    tomorrow = Day.objects.get(day=day.day + timedelta(days=1))
    names = frozenset({"alice", "bob", day.commitment, tomorrow.commitment, "Median", "par"})
    names |= {"Normal bot 2, Normal bot 3"}  # the profile's own list of games: bots' names
    pages = {"before": "/daily/", "board": "/daily/board/", "home": "/"}
    client.force_login(bob)
    left = {page: untranslated(client, path, names) for page, path in pages.items()}
    client.force_login(alice)
    left["after"] = untranslated(client, "/daily/", names)
    left["profile"] = untranslated(client, "/players/alice/", names)

    assert {page: found for page, found in left.items() if found} == {}


def test_a_visitor_plays_the_daily_deal_as_a_guest(client):
    response = client.post("/daily/play/")
    entry = Entry.objects.select_related("user__profile", "game").get()

    assert response.status_code == 302 and response["Location"] == f"/games/{entry.game_id}/"
    assert entry.user.profile.is_guest and entry.game.daily and not entry.game.rated
    assert client.post("/daily/play/")["Location"] == f"/games/{entry.game_id}/"  # once a day
    assert client.get("/daily/play/").status_code == 405


def test_the_daily_deals_hand_rings_no_suggested_throw(client, alice):
    # The table's hand rings the card a tap on the pile throws (issue 48); the daily deal's
    # scores measure the player alone, so its hand never does, even with a discard to make.
    game = play(services.start(alice, timezone.now()), alice, moves=1)
    # The day's dealer may be the person, whose first move is a discard; then the turn comes
    # back at its draw. Play on to a turn with a discard to make, whatever today's deal is.
    for _ in range(4):
        if game.is_over or play_moves.game_state(game).phase is Phase.PLAY:
            break
        game = play(game, alice, moves=1)
    assert not game.is_over and game.turn_seat == 0
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="act-discard"' in page and "data-arrange=" in page
    assert "data-suggest=" not in page
