"""Rate limits: a socket that floods the table is throttled and then closed (4429), and one
account cannot make tables without end. Both limits are settings."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.models import Game, Move
from games.play import errors
from games.play import tables as play_tables
from games.play.ratelimit import ADMIT, CLOSE, DROP, WARN, FrameLimiter, TokenBucket
from tests.table.support import SEED, frame, session_headers, socket
from tests.test_settings import fresh_settings


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_token_bucket_admits_a_burst_then_its_rate():
    clock = FakeClock()
    bucket = TokenBucket(rate=2, burst=3, clock=clock)

    burst = [bucket.take() for _ in range(4)]
    clock.now += 0.5  # one token back
    after_half_a_second = [bucket.take(), bucket.take()]
    clock.now += 60  # never more than the burst
    after_a_minute = [bucket.take() for _ in range(4)]

    assert burst == [True, True, True, False]
    assert after_half_a_second == [True, False]
    assert after_a_minute == [True, True, True, False]


def test_a_frame_limiter_warns_once_per_run_of_drops_and_closes_once_on_a_long_one():
    clock = FakeClock()
    limiter = FrameLimiter(TokenBucket(rate=1, burst=1, clock=clock), max_dropped=3)

    first = [limiter.verdict() for _ in range(3)]
    clock.now += 1
    second = [limiter.verdict() for _ in range(7)]

    assert first == [ADMIT, WARN, DROP]
    assert second == [ADMIT, WARN, DROP, DROP, CLOSE, DROP, DROP]


@pytest.fixture
def tight(settings):
    settings.TONGITS_SOCKET_FRAMES_PER_SECOND = 0.001
    settings.TONGITS_SOCKET_FRAME_BURST = 3
    settings.TONGITS_SOCKET_FRAMES_DROPPED_MAX = 5


@pytest.mark.django_db(transaction=True)
async def test_a_flooding_socket_is_throttled_then_closed_with_4429(
    tight, alice, bob, carol, make_game
):
    game = await database_sync_to_async(make_game)([alice, bob, carol], seed=SEED)
    outsider = [alice, bob, carol][(game.dealer + 1) % 3]  # not their turn
    sock = socket(game.pk, await database_sync_to_async(session_headers)(outsider))
    assert (await sock.connect())[0]
    await sock.receive_from(timeout=3)  # the snapshot
    out_of_turn = frame({"action": "draw", "seq": "0"})

    answers = []
    for _ in range(3):  # the burst: each is answered (it is not their turn)
        await sock.send_to(text_data=out_of_turn)
        answers.append(await sock.receive_from(timeout=3))
    await sock.send_to(text_data=out_of_turn)
    slow_down = await sock.receive_from(timeout=3)
    for _ in range(4):  # dropped without a word
        await sock.send_to(text_data=out_of_turn)
    silent = await sock.receive_nothing(timeout=0.2)
    for _ in range(50):  # the sixth dropped frame in a row closes the socket
        await sock.send_to(text_data=out_of_turn)
    closed = await sock.receive_output(timeout=3)

    assert all('role="alert"' in a and "faster" not in a for a in answers)
    assert "faster than the table can take them" in slow_down
    assert silent
    assert closed == {"type": "websocket.close", "code": 4429}
    assert await database_sync_to_async(Move.objects.count)() == 0
    await sock.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_another_players_socket_is_not_limited_by_a_flood(
    tight, alice, bob, carol, make_game
):
    game = await database_sync_to_async(make_game)([alice, bob, carol], seed=SEED)
    people = [alice, bob, carol]
    flooder = socket(game.pk, await database_sync_to_async(session_headers)(people[0]))
    other = socket(game.pk, await database_sync_to_async(session_headers)(people[1]))
    for s in (flooder, other):
        assert (await s.connect())[0]
        await s.receive_from(timeout=3)

    for _ in range(20):
        await flooder.send_to(text_data=frame({"action": "fight"}))
    await other.send_to(text_data=frame({"action": "fight"}))
    answer = await other.receive_from(timeout=3)

    assert "faster than" not in answer and 'role="alert"' in answer
    await flooder.disconnect()
    await other.disconnect()


@pytest.mark.django_db
def test_quick_play_refuses_more_tables_a_minute_than_the_setting_with_a_message(
    client, alice, settings
):
    settings.TONGITS_TABLES_PER_MINUTE = 3
    client.force_login(alice)

    answers = []
    for _ in range(5):
        answers.append(client.post(reverse("quick_play")))
        # She plays it out at once (one game in play at a time), and asks for the next.
        Game.objects.filter(created_by=alice).update(status=Game.Status.FINISHED)
    lobby = client.get(reverse("lobby")).content.decode()
    refused = client.post(reverse("quick_play"), follow=True).content.decode()

    assert [a.url.startswith("/games/") or a.url for a in answers][:3] == [True] * 3
    assert [a.url for a in answers][3:] == [reverse("lobby")] * 2
    assert Game.objects.filter(created_by=alice).count() == 3
    assert "made 3 tables in the last minute" in lobby + refused


@pytest.mark.django_db
def test_a_new_table_is_refused_while_the_account_sits_at_too_many_unfinished_ones(
    client, alice, settings
):
    settings.TONGITS_OPEN_TABLES_MAX = 2
    first = play_tables.create_table(alice)
    play_tables.create_table(alice)

    with pytest.raises(errors.ServiceError, match="2 unfinished tables"):
        play_tables.quick_play(alice)
    client.force_login(alice)
    form = {"visibility": "public", "seat_2": "open", "seat_3": "open"}
    page = client.post(reverse("new_table"), form, follow=True).content.decode()
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED)
    again = play_tables.quick_play(alice)

    assert "2 unfinished tables" in page
    assert again.status == Game.Status.PLAYING
    assert Game.objects.filter(created_by=alice).count() == 3


@pytest.mark.django_db
def test_joining_is_refused_while_the_account_sits_at_too_many_unfinished_tables(
    client, alice, bob, carol, settings
):
    """One account sitting down at every open table would keep them all from filling."""
    settings.TONGITS_OPEN_TABLES_MAX = 2
    tables = [play_tables.create_table(who) for who in (alice, carol, carol)]
    play_tables.join_table(tables[0].pk, bob)
    play_tables.join_table(tables[1].pk, bob)

    with pytest.raises(errors.ServiceError, match="2 unfinished tables"):
        play_tables.join_table(tables[2].pk, bob)
    client.force_login(bob)
    page = client.post(reverse("join_table", args=[tables[2].pk]), follow=True)
    refused = [s.user_id for s in tables[2].seats.all()]
    Game.objects.filter(pk=tables[0].pk).update(status=Game.Status.FINISHED)
    later = play_tables.join_table(tables[2].pk, bob)

    assert "finish a game before joining another table" in page.content.decode()
    assert refused == [carol.pk, None, None]
    assert [s.user_id for s in later.seats.all()] == [carol.pk, bob.pk, None]


def test_the_limits_are_read_from_the_environment():
    result = fresh_settings(
        "TONGITS_SOCKET_FRAMES_PER_SECOND, TONGITS_SOCKET_FRAME_BURST,"
        " TONGITS_SOCKET_FRAMES_DROPPED_MAX, TONGITS_TABLES_PER_MINUTE, TONGITS_OPEN_TABLES_MAX",
        TONGITS_SOCKET_FRAMES_PER_SECOND="2.5",
        TONGITS_SOCKET_FRAME_BURST="8",
        TONGITS_SOCKET_FRAMES_DROPPED_MAX="40",
        TONGITS_TABLES_PER_MINUTE="4",
        TONGITS_OPEN_TABLES_MAX="6",
    )

    assert result.stdout.strip() == repr((2.5, 8, 40, 4, 6))
