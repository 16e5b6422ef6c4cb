"""What a correspondence hand tells by itself (play's move hook, no explicit call): "your
turn" to the person to move after each move that made it theirs, never at a live table;
once per move even when the worker runs its tasks again after a restart; held in quiet
hours; and never a hidden card (every push decrypted, every email, every stored notice)."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import bots
from games.engine import seat_view
from games.models import Game
from games.notifications import delivery
from games.notifications.models import Notice, Preferences
from games.play import moves, server_moves
from tests.notifications.support import run_worker
from tests.notifications.test_games import Sent
from tests.table.leaks import hidden_cards, leaks

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


def play(game: Game, people: dict, count: int, rng: random.Random) -> Game:
    """``count`` moves of the hand: people's through the services as from their page, bots'
    by the clock (a bot at a correspondence table moves at once)."""
    for _ in range(count):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = moves.game_state(game)
        seat = game.seats.get(index=state.turn)
        if seat.user_id:
            move = bots.choose("greedy", seat_view(state, state.turn), rng)
            moves.submit_move(game.pk, people[seat.user_id], move.to_dict())
        else:
            server_moves.play_due(game.pk, now=timezone.now() + timedelta(seconds=5))
    game.refresh_from_db()
    return game


def test_each_move_that_makes_it_a_persons_turn_tells_them_once_even_after_a_restart(
    make_game, alice, bob, subscribe, endpoint
):
    phones = {"/alice": subscribe(alice, "/alice"), "/bob": subscribe(bob, "/bob")}
    game = make_game([alice, "easy", bob], seed=21, turn_seconds=DAY)
    game = play(game, {alice.pk: alice, bob.pk: bob}, 12, random.Random(1))
    run_worker()
    told = list(Notice.objects.filter(kind="your_turn", status="sent"))
    assert told, "nobody was told it was their turn"
    assert len({n.key for n in told}) == len(told)
    assert len(endpoint.received) == len(told)
    assert all(phones[r.path].read(r)["title"] == f"Your turn at Table {game.pk}"
               for r in endpoint.received)  # fmt: skip

    for notice in told:  # a restarted worker, or the hourly sweep, queues them again
        delivery.deliver.enqueue(notice.pk)
    run_worker()
    assert len(endpoint.received) == len(told)


def test_a_live_table_tells_nobody_whose_turn_it_is(make_game, alice, bob, subscribe, endpoint):
    subscribe(alice, "/alice"), subscribe(bob, "/bob")
    game = make_game([alice, "easy", bob], seed=21)
    play(game, {alice.pk: alice, bob.pk: bob}, 12, random.Random(1))
    run_worker()
    assert not Notice.objects.filter(kind="your_turn").exists()
    assert endpoint.received == []


def test_your_turn_in_quiet_hours_waits_for_the_morning(make_game, alice, bob, vapid):
    # Quiet nearly all day while the worker runs on the real clock, whatever the hour in
    # Manila when the test runs (else a daytime run sends the notice at once); then the
    # night's quiet hours, 22:00 to 08:00, for the times the test gives.
    for person in (alice, bob):
        Preferences.objects.create(
            user=person, time_zone="Asia/Manila", quiet_from=time(0, 0), quiet_until=time(23, 59)
        )
    game = make_game([alice, "easy", bob], seed=21, turn_seconds=DAY)
    play(game, {alice.pk: alice, bob.pk: bob}, 12, random.Random(1))
    DBTaskResult.objects.filter(task_path__endswith="deliver").delete()
    run_worker()  # the turns' look at the game: notices made, their delivery queued
    DBTaskResult.objects.filter(task_path__endswith="deliver").delete()
    Preferences.objects.update(quiet_from=time(22, 0), quiet_until=time(8, 0))
    manila = ZoneInfo("Asia/Manila")
    night = datetime(2026, 12, 7, 23, 30, tzinfo=manila)
    notice = Notice.objects.filter(kind="your_turn").first()
    assert notice is not None

    assert delivery.deliver_now(notice.pk, night).startswith("held")
    assert mail.outbox == []
    delivery.deliver_now(notice.pk, datetime(2026, 12, 8, 8, 1, tzinfo=manila))
    notice.refresh_from_db()
    assert notice.status in ("sent", "stale")  # the turn may have been played since


def test_a_whole_correspondence_hand_tells_no_hidden_card(
    make_game, alice, bob, subscribe, endpoint
):
    seed = 2**127 + 31  # as long as a real seed: a short one would be found in any number
    sent = Sent(endpoint, {"/alice": subscribe(alice, "/alice")})  # bob: email
    game = make_game([alice, "easy", bob], seed=seed, turn_seconds=DAY)
    people, rng, found = {alice.pk: alice, bob.pk: bob}, random.Random(seed), []
    while game.status == Game.Status.PLAYING:
        game = play(game, people, 1, rng)
        run_worker()  # what that move told, read against the cards hidden after it
        over = game.status != Game.Status.PLAYING
        hidden = set() if over else hidden_cards(moves.game_state(game), None)
        found += [leak for text in sent.new() for leak in leaks(text, hidden, game.seed)]
    assert found == []
    assert mail.outbox, "bob, with no push, was emailed"
