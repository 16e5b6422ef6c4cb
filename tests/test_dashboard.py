"""The staff dashboard: for staff only, numbers that match the games, and an abort action
for games that look stuck, which records who aborted them and why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.history import stats
from games.models import Game
from games.play import aborts, errors, telling
from tests.history_support import SEED, finish, play_some, seed_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(carol):
    carol.is_staff = True
    carol.save()
    return carol


def stuck(game: Game, minutes: int = 11) -> Game:
    """Make the game's last move ``minutes`` old, as if its server clock had died."""
    quiet = timezone.now() - timedelta(minutes=minutes)
    Game.objects.filter(pk=game.pk).update(last_move_at=quiet, started_at=quiet)
    game.refresh_from_db()
    return game


def abort(client, game: Game, reason: str = "Its seats stopped answering."):
    return client.post(reverse("abort_game", args=[game.pk]), {"reason": reason})


def test_the_dashboard_asks_an_anonymous_visitor_to_log_in(client):
    response = client.get(reverse("staff_dashboard"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_dashboard_refuses_players_who_are_not_staff(client, alice):
    client.force_login(alice)

    response = client.get(reverse("staff_dashboard"))

    assert response.status_code == 403
    assert "for the site&#x27;s staff" in response.content.decode()


def test_the_dashboard_shows_staff_how_the_site_is_playing(client, staff, alice, make_game, bob):
    seed_games("alice", 12, seed=2)
    play_some(make_game([alice, "greedy", bob], seed=SEED), 2)
    client.force_login(staff)

    html = client.get(reverse("staff_dashboard")).content.decode()

    assert "<dt>Playing now</dt><dd>1</dd>" in html
    lengths = stats.game_lengths()
    assert f"{lengths['moves']:.1f} moves" in html
    assert (
        '<svg class="chart-svg" viewBox="0 0 320 120" role="img" aria-label="Games started per day'
        in html
    )
    assert html.count('class="chart-bar"') == 7
    for name, n in stats.end_counts():
        assert f"<li>{name}: <strong>{n}</strong></li>" in html
    wins = stats.bot_and_human_wins()
    assert f"Games won by a bot seat: <strong>{wins['bot_wins']}</strong>" in html
    assert wins["bot_wins"] + wins["human_wins"] == 12
    assert '<a href="/players/alice/">alice</a>: 12' in html


def test_games_started_today_and_this_week_are_counted_per_day(make_game, alice, bob):
    now = timezone.now()
    old = finish(make_game([alice, "greedy", bob], seed=SEED))
    Game.objects.filter(pk=old.pk).update(started_at=now - timedelta(days=3))
    finish(make_game([alice, "random", bob], seed=SEED + 1))

    days = stats.started_per_day(now)

    assert [n for _, n in days] == [0, 0, 0, 1, 0, 0, 1]
    assert stats.game_counts(now)["today"] == 1
    assert stats.game_counts(now)["week"] == 2


def test_a_game_with_no_move_for_ten_minutes_is_listed_as_stuck_with_an_abort_form(
    client, staff, make_game, alice, bob
):
    quiet = stuck(play_some(make_game([alice, "greedy", "greedy"], seed=SEED), 2))
    busy = play_some(make_game([bob, "greedy", "greedy"], seed=SEED + 1), 2)
    client.force_login(staff)

    html = client.get(reverse("staff_dashboard")).content.decode()

    assert f'<form method="post" action="/staff/games/{quiet.pk}/abort/"' in html
    assert f"/staff/games/{busy.pk}/abort/" not in html
    assert f'id="reason-{quiet.pk}" name="reason" maxlength="500" required' in html


def test_staff_abort_a_stuck_game_and_the_dashboard_says_who_and_why(
    client, staff, make_game, alice, bob
):
    game = stuck(play_some(make_game([alice, "greedy", bob], seed=SEED), 2))
    client.force_login(staff)

    response = abort(client, game, "Both players left hours ago.")

    game.refresh_from_db()
    assert response.status_code == 302
    assert game.status == Game.Status.ABORTED
    assert game.aborted_by == staff
    assert game.abort_reason == "Both players left hours ago."
    assert game.finished_at is not None and game.due_at is None and game.chips is None
    html = client.get(reverse("staff_dashboard")).content.decode()
    assert f"Game {game.pk} aborted." in html
    assert "by carol: Both players left hours ago." in html


def test_an_abort_needs_a_reason(client, staff, make_game, alice, bob):
    game = stuck(play_some(make_game([alice, "greedy", bob], seed=SEED), 2))
    client.force_login(staff)

    abort(client, game, "   ")

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert "give a reason" in client.get(reverse("staff_dashboard")).content.decode()


def test_players_cannot_abort_a_game(client, make_game, alice, bob):
    game = stuck(play_some(make_game([alice, "greedy", bob], seed=SEED), 2))
    client.force_login(alice)

    response = abort(client, game)

    game.refresh_from_db()
    assert response.status_code == 403
    assert game.status == Game.Status.PLAYING


def test_aborting_is_a_post(client, staff, make_game, alice, bob):
    game = stuck(play_some(make_game([alice, "greedy", bob], seed=SEED), 2))
    client.force_login(staff)

    assert client.get(reverse("abort_game", args=[game.pk])).status_code == 405


def test_a_finished_game_cannot_be_aborted(client, staff, make_game, alice, bob):
    game = finish(make_game([alice, "greedy", bob], seed=SEED))
    client.force_login(staff)

    abort(client, game)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.aborted_by is None
    html = client.get(reverse("staff_dashboard")).content.decode()
    assert "Only a game that is waiting or being played can be aborted." in html


def test_abort_game_tells_the_tables_sockets_only_after_the_commit(
    make_game, alice, bob, carol, django_capture_on_commit_callbacks, monkeypatch
):
    game = play_some(make_game([alice, "greedy", bob], seed=SEED), 2)
    sent = []
    monkeypatch.setattr(telling, "notify_game", lambda game_id, rev: sent.append((game_id, rev)))

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        aborts.abort_game(game.pk, carol, "testing")
        assert sent == []

    assert callbacks
    game.refresh_from_db()
    assert sent == [(game.pk, game.rev)]


def test_abort_game_refuses_a_game_that_is_over(make_game, alice, bob, carol):
    game = finish(make_game([alice, "greedy", bob], seed=SEED))

    with pytest.raises(errors.NotAllowed):
        aborts.abort_game(game.pk, carol, "too late")


def test_the_dashboard_never_shows_a_live_games_seed_or_cards(client, staff, make_game, alice, bob):
    game = stuck(play_some(make_game([alice, "greedy", bob], seed=SEED), 4))
    client.force_login(staff)

    html = client.get(reverse("staff_dashboard")).content.decode()

    assert f"Game {game.pk}" in html
    assert game.seed not in html
    assert "data-card" not in html
