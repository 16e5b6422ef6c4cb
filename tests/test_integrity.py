"""The stored games agree with their logs, seeded games included, and nothing rendered
about a game in play shows its seed or a hand."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.history.records import stored_difference, verify_deal
from games.models import Game, Move, Seat
from games.play import aborts
from tests.history_support import SEED, finish, hand_codes, play_some, seed_games, shown_cards

pytestmark = pytest.mark.django_db


def check_stored() -> tuple[int, list[dict]]:
    """Run ``manage.py replay --stored``: its exit status and its JSON lines."""
    out = io.StringIO()
    try:
        call_command("replay", "--stored", stdout=out, stderr=io.StringIO())
        status = 0
    except SystemExit as e:
        status = e.code
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture
def some_games(make_game, alice, bob, carol):
    seed_games("alice", 6, seed=9)
    finished = finish(make_game([alice, "greedy", bob], seed=SEED))
    aborted = play_some(make_game([carol, "greedy", alice], seed=SEED + 2), 3)
    aborts.abort_game(aborted.pk, carol, "testing")
    live = play_some(make_game([bob, "random", carol], seed=SEED + 1), 5)  # one game in play
    return finished, live, aborted


def test_the_integrity_check_passes_on_good_data(some_games):
    status, lines = check_stored()

    assert status == 0
    assert lines == [{"checked": 9, "differ": 0}]


def test_the_integrity_check_catches_a_tampered_move(some_games):
    finished, _, _ = some_games
    move = Move.objects.get(game=finished, seq=1)
    wrong_seat = (move.seat + 1) % 3
    Move.objects.filter(pk=move.pk).update(payload={**move.payload, "seat": wrong_seat})

    status, lines = check_stored()

    assert status == 1
    assert lines[0]["game"] == finished.pk and lines[0]["ok"] is False
    assert "move 1 is illegal" in lines[0]["error"]
    assert lines[-1] == {"checked": 9, "differ": 1}


def test_the_integrity_check_catches_a_tampered_result(some_games):
    finished, _, _ = some_games
    Game.objects.filter(pk=finished.pk).update(chips=[9, 9, -18])

    status, lines = check_stored()

    assert status == 1
    assert [line.get("game") for line in lines[:-1]] == [finished.pk]


def test_seed_games_makes_finished_games_against_bots_that_replay_to_their_results():
    seed_games("dora", 15, seed=4)

    dora = get_user_model().objects.get(username="dora")
    games = list(Game.objects.filter(seats__user=dora).order_by("pk"))
    assert len(games) == 15
    assert not dora.has_usable_password()
    now = timezone.now()
    for game in games:
        assert game.status == Game.Status.FINISHED
        assert stored_difference(game) is None
        assert verify_deal(game)[0]
        assert now - timedelta(days=60) < game.started_at < game.finished_at < now
        seats = list(game.seats.all())
        assert sum(s.user_id == dora.pk for s in seats) == 1
        assert {s.bot_kind for s in seats if s.user_id is None} <= {"greedy", "random"}
        times = list(game.moves.values_list("created_at", flat=True))
        assert times == sorted(times) and times[-1] == game.finished_at
    starts = [g.started_at for g in games]
    assert starts == sorted(starts)


def test_seed_games_with_a_seed_makes_the_same_games_every_time():
    seed_games("dora", 3, seed=11)
    seed_games("emil", 3, seed=11)

    def deals(name: str) -> list:
        return list(Game.objects.filter(seats__user__username=name).order_by("pk").values_list(
            "seed", "winner_seat", "chips"
        ))  # fmt: skip

    assert deals("dora") == deals("emil")


def test_seed_games_reuses_an_existing_user(alice):
    seed_games("alice", 2)

    alice.refresh_from_db()
    assert get_user_model().objects.filter(username="alice").count() == 1
    assert alice.check_password("pw-alice-123!")
    assert Seat.objects.filter(user=alice).count() == 2


def test_no_page_about_a_game_in_play_shows_its_seed_or_any_hand(
    client, make_game, alice, bob, carol
):
    seed_games("alice", 3, seed=1)
    live = play_some(make_game([alice, "greedy", bob], seed=SEED), 7)
    carol.is_staff = True
    carol.save()
    secret_cards = hand_codes(live)
    pages = [
        reverse("my_games"),
        reverse("my_games") + "?result=lost",
        reverse("player", args=["alice"]),
        reverse("player", args=["bob"]),
        reverse("leaderboard"),
        reverse("staff_dashboard"),
        reverse("replay", args=[live.pk]),
        reverse("replay", args=[live.pk]) + "?move=3",
        reverse("record_json", args=[live.pk]),
    ]

    for person in (alice, bob, carol):
        client.force_login(person)
        for page in pages:
            response = client.get(page)
            body = response.content.decode(errors="replace")
            assert live.seed not in body, (person, page)
            assert not shown_cards(body) & secret_cards, (person, page)


def test_a_moves_own_sql_reads_and_writes_what_the_orm_would(make_game, alice, bob, carol):
    # games/play/live/rows.py writes a move's statements out once per process; the values
    # must be the ORM's, dates, JSON and booleans included, on either database.
    from django.db import transaction

    from games.models import Game
    from games.play.live import rows
    from games.play.moves import MOVE_FIELDS, SUMMARY_FIELDS

    game = make_game([alice, bob, carol], seed=5)
    with transaction.atomic():
        locked = rows.locked_game(game.pk, MOVE_FIELDS)
        orm = Game.objects.get(pk=game.pk)
        assert {f: getattr(locked, f) for f in MOVE_FIELDS} == {
            f: getattr(orm, f) for f in MOVE_FIELDS
        }
        locked.seq, locked.rev = locked.seq + 7, locked.rev + 7
        locked.last_move_at = orm.started_at
        rows.save_fields(locked, SUMMARY_FIELDS)
    again = Game.objects.get(pk=game.pk)
    assert (again.seq, again.rev, again.last_move_at) == (orm.seq + 7, orm.rev + 7, orm.started_at)
    assert rows.locked_game(10**9, MOVE_FIELDS) is None


def test_a_moves_log_and_summary_are_written_together_or_not_at_all(make_game, alice, bob, carol):
    # On PostgreSQL rows.log_and_save is one statement: the move's row and the summary.
    # A move whose number is taken already (a race lost) must leave the summary alone.
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    from games.models import Game
    from games.play.live import rows
    from games.play.moves import MOVE_FIELDS, SUMMARY_FIELDS

    game = make_game([alice, bob, carol], seed=5)
    seq, now = game.seq + 1, timezone.now()
    with transaction.atomic():
        locked = rows.locked_game(game.pk, MOVE_FIELDS)
        locked.seq, locked.rev, locked.last_move_at = seq, locked.rev + 1, now
        move = (game.pk, seq, locked.turn_seat, {"type": "draw"}, "id-1", False, now)
        rows.log_and_save(move, locked, SUMMARY_FIELDS)
    logged = game.moves.get(seq=seq)
    assert (logged.payload, logged.client_move_id, logged.by_server) == (
        {"type": "draw"},
        "id-1",
        False,
    )
    assert logged.created_at == now
    again = Game.objects.get(pk=game.pk)
    assert (again.seq, again.last_move_at) == (seq, now)

    with pytest.raises(IntegrityError), transaction.atomic():
        locked = rows.locked_game(game.pk, MOVE_FIELDS)
        locked.rev = locked.rev + 50
        rows.log_and_save(
            (game.pk, seq, 0, {"type": "draw"}, "id-2", False, now), locked, SUMMARY_FIELDS
        )
    assert Game.objects.get(pk=game.pk).rev == again.rev
    assert game.moves.filter(seq=seq).count() == 1
