"""Nothing of the day's deal reaches someone who has not finished it (issue 51): not its
results, histogram, par or best game, nor anyone's moves or hands, through any page,
partial, record, socket frame or board; staff included. Someone who finished sees the
others' results, never another's game in play."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.daily import days, services, tasks
from games.daily.models import Day
from games.models import Game
from tests.daily_support import play, today_with_seed
from tests.table.support import session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw", is_staff=True)


@pytest.fixture
def day_played(alice, bob):
    """Alice finished today's deal; Bob is in the middle of his game; par is known."""
    now = timezone.now()
    today_with_seed(now)
    alices = play(services.start(alice, now), alice)
    bobs = play(services.start(bob, now), bob, moves=2)
    day = services.ensure_days(now)
    tasks.store_par(day.pk)
    day.refresh_from_db()
    assert alices.status == Game.Status.FINISHED and bobs.status == Game.Status.PLAYING
    return day, alices, bobs


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def secrets_of(day: Day, games: list[Game]) -> list[str]:
    """What a page must not hold for one who has not finished: the day's seed, the games'
    replays and records, the results' own parts and words."""
    found = [day.seed, 'id="daily-results"', "Best result", "daily-mine", "Median"]
    for game in games:
        found += [f"/games/{game.pk}/replay/", f"/games/{game.pk}/record.json"]
    return found


def assert_nothing_of_the_day(html: str, day: Day, games: list[Game]) -> None:
    for secret in secrets_of(day, games):
        assert secret not in html, f"{secret!r} leaked"


def test_one_who_has_not_played_sees_only_the_count_and_the_commitment(day_played, carol, staff):
    day, alices, bobs = day_played
    for client in (client_of(carol), client_of(staff), client_of()):
        page = client.get("/daily/").content.decode()
        assert_nothing_of_the_day(page, day, [alices, bobs])
        assert day.commitment in page and "<strong>1</strong> person has played" in page
        for address in ("/", "/daily/board/", "/leaderboard/", "/players/alice/"):
            assert_nothing_of_the_day(client.get(address).content.decode(), day, [alices, bobs])
        home = client.get("/").content.decode()
        assert "1 played" in home and "median" not in home


def test_the_day_of_today_by_its_date_is_the_same_page(day_played, carol):
    day, _alices, _bobs = day_played
    response = client_of(carol).get(f"/daily/{day.day.isoformat()}/")
    assert response.status_code == 302 and response["Location"] == "/daily/"


def test_no_replay_record_or_table_of_the_day_opens_to_one_who_has_not_played(
    day_played, carol, staff
):
    day, alices, bobs = day_played
    for client in (client_of(carol), client_of(staff), client_of()):
        for game in (alices, bobs):
            for address in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/record.json"):
                response = client.get(address)
                assert response.status_code in (302, 403), address
                assert_nothing_of_the_day(response.content.decode(), day, [])
            table = client.get(f"/games/{game.pk}/")
            assert table.status_code in (302, 403)
    carols = client_of(carol).get("/games/mine/records.zip")
    assert day.seed.encode() not in carols.content


async def test_no_socket_frame_of_a_days_game_reaches_another(day_played, carol):
    day, alices, _bobs = day_played
    headers = await database_sync_to_async(session_headers)(carol)
    watcher = socket(alices.pk, headers)
    connected, _ = await watcher.connect()
    closed = await watcher.receive_output(timeout=3)

    assert closed["type"] == "websocket.close" and closed["code"] >= 4000
    assert await watcher.receive_nothing()


def test_one_who_finished_sees_the_results_and_the_best_game_but_never_a_game_in_play(
    day_played, alice, bob
):
    day, alices, bobs = day_played
    client = client_of(alice)
    page = client.get("/daily/").content.decode()

    assert 'id="daily-results"' in page and 'id="daily-mine"' in page
    assert f"/games/{alices.pk}/replay/" in page and "Best result" in page
    assert f"/games/{bobs.pk}/" not in page
    for address in (f"/games/{bobs.pk}/", f"/games/{bobs.pk}/replay/"):
        assert client.get(address).status_code == 403
    assert 'id="daily-against-par"' in page and day.seed not in page  # the day goes on
    home = client.get("/").content.decode()
    assert "median" in home


def test_both_see_each_others_result_once_both_finished(day_played, alice, bob):
    day, alices, bobs = day_played
    bobs = play(bobs, bob)
    results = {r.user_id: r.chips for r in services.results(day)}
    best, other = sorted((alices, bobs), key=lambda g: (-g.chips[0], g.finished_at))

    for user in (alice, bob):
        page = client_of(user).get("/daily/").content.decode()
        assert "<strong>2</strong> people have played" in page
        assert f"/games/{best.pk}/replay/" in page
        assert set(results) == {alice.pk, bob.pk}
    # The best game's replay opens to the other player; the other game stays its player's.
    best_player = best.seats.get(index=0).user
    other_player = other.seats.get(index=0).user
    assert client_of(other_player).get(f"/games/{best.pk}/replay/").status_code == 200
    assert client_of(best_player).get(f"/games/{other.pk}/replay/").status_code == 403


def test_when_the_day_is_over_everyone_sees_its_seed_results_and_best_game(day_played, bob, carol):
    day, alices, bobs = day_played
    play(bobs, bob)
    Day.objects.filter(pk=day.pk).update(day=day.day - timedelta(days=1))
    day.refresh_from_db()
    assert services.is_closed(day, timezone.now())
    best = services.results(day)[0]

    page = client_of(carol).get(f"/daily/{day.day.isoformat()}/").content.decode()
    assert day.seed in page and 'id="daily-results"' in page
    assert client_of(carol).get(f"/games/{best.game_id}/replay/").status_code == 200
    assert days.day_of(timezone.now()) != day.day
