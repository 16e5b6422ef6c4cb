"""The service layer on the real database: tables, and every move through submit_move.

Positions come from seeded deals: three people play simple moves (draw, meld whatever can
be melded, discard the lowest card) through ``submit_move`` until the seat to act has the
kind of move a test wants among its legal moves.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection

from games.engine import Move, apply, replay, seat_view
from games.engine.moves import (
    CALL,
    DISCARD,
    DRAW,
    FIGHT,
    FOLD,
    LAYOFF,
    MELD,
    SECRET,
    TAKE,
)  # fmt: skip
from games.engine.view import SeatView
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.play import after_game, errors, moves, telling
from games.play import tables as play_tables
from games.play.live import snapshots
from tests.threads import race

pytestmark = pytest.mark.django_db

SIMPLE_PREFERENCE = (DRAW, MELD, DISCARD, FOLD)


def simple_move(view: SeatView, *, call: bool = False) -> Move:
    """Draw, meld the first meld there is, discard the lowest card, fold; or call Draw."""
    first: dict[str, Move] = {}
    for move in view.legal:
        first.setdefault(move.type, move)
    for kind in ((CALL,) if call else ()) + SIMPLE_PREFERENCE:
        if kind in first:
            return first[kind]
    raise AssertionError(f"no simple move among {view.legal}")


def turn_view(game: Game) -> SeatView:
    game.refresh_from_db()
    state = moves.game_state(game)
    return seat_view(state, state.turn)


def people(game: Game) -> dict[int, object]:
    return {s.index: s.user for s in game.seats.select_related("user")}


def someone_else_opened(view: SeatView) -> bool:
    return any(info.opened for info in view.seats if info.seat != view.seat)


def play_until(game: Game, kind: str, *, limit: int = 300) -> tuple[object, Move]:
    """Play simple moves until a ``kind`` move is legal; return who may make it, and it.
    To reach an answer to a Draw call, a seat calls as soon as another seat has opened."""
    users = people(game)
    call = kind in (FOLD, FIGHT)
    for _ in range(limit):
        view = turn_view(game)
        assert not view.finished, f"the game ended before a {kind} move was legal"
        wanted = [m for m in view.legal if m.type == kind]
        if wanted:
            return users[view.seat], wanted[0]
        move = simple_move(view, call=call and someone_else_opened(view))
        moves.submit_move(game.pk, users[view.seat], move.to_dict(), expected_seq=game.seq)
    raise AssertionError(f"no {kind} move within {limit} moves")


def play_out(game: Game, *, limit: int = 400) -> None:
    users = people(game)
    for _ in range(limit):
        view = turn_view(game)
        if view.finished:
            return
        moves.submit_move(game.pk, users[view.seat], simple_move(view).to_dict())
    raise AssertionError("the game did not end")


# --- Each move type -----------------------------------------------------------------------

# Seeds whose simple play reaches each kind of move (found once by trying seeds).
SEEDS = {
    DRAW: 4, TAKE: 7, MELD: 1, SECRET: 3, LAYOFF: 88, DISCARD: 1, CALL: 1, FOLD: 6, FIGHT: 6,
}  # fmt: skip


@pytest.mark.parametrize("kind", list(SEEDS))
def test_it_applies_and_logs_each_kind_of_move(make_game, alice, bob, carol, kind):
    game = make_game([alice, bob, carol], seed=SEEDS[kind])
    user, move = play_until(game, kind)
    before = moves.game_state(game)
    seq = game.seq

    result = moves.submit_move(
        game.pk, user, move.to_dict(), expected_seq=seq, client_move_id=f"{kind}-1"
    )

    game.refresh_from_db()
    row = game.moves.get(seq=seq + 1)
    assert result.seq == game.seq == seq + 1
    assert result.payload == row.payload == move.to_dict()
    assert row.seat == move.seat and row.client_move_id == f"{kind}-1" and not row.by_server
    assert moves.game_state(game) == apply(before, move)
    assert result.finished == game.is_over


def test_a_call_answered_by_everyone_settles_the_game(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=SEEDS[FIGHT])
    user, move = play_until(game, FIGHT)
    moves.submit_move(game.pk, user, move.to_dict())

    while not turn_view(game).finished:
        view = turn_view(game)
        answer = next(m for m in view.legal if m.type == FOLD)
        moves.submit_move(game.pk, people(game)[view.seat], answer.to_dict())

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end == "fought_draw"


# --- Errors change nothing ----------------------------------------------------------------


def first_move(game: Game) -> tuple[object, Move]:
    view = turn_view(game)
    return people(game)[view.seat], view.legal[0]


def test_it_rejects_a_move_sent_for_an_older_version_and_changes_nothing(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    user, move = first_move(game)
    moves.submit_move(game.pk, user, move.to_dict(), expected_seq=0)
    user, move = first_move(game)

    with pytest.raises(errors.StaleMove) as caught:
        moves.submit_move(game.pk, user, move.to_dict(), expected_seq=0)

    game.refresh_from_db()
    assert caught.value.current_seq == 1
    assert game.seq == 1 and game.moves.count() == 1


def test_a_repeated_client_move_id_is_applied_once_and_answered_the_same(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    user, move = first_move(game)

    first = moves.submit_move(game.pk, user, move.to_dict(), client_move_id="tap-1")
    again = moves.submit_move(game.pk, user, move.to_dict(), client_move_id="tap-1")

    game.refresh_from_db()
    assert not first.duplicate and again.duplicate
    assert (again.seq, again.payload) == (first.seq, first.payload)
    assert game.seq == 1 and game.moves.count() == 1


def test_another_move_from_the_same_page_is_told_the_table_changed_not_taken_for_the_first(
    make_game, alice, bob, carol
):
    """The page's move id names the page (game, version, seat), so two tabs of one seat
    send the same id: the second tab's other move was answered as the first one's repeat,
    with no message."""
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    user, first, other = people(game)[view.seat], view.legal[0], view.legal[1]
    moves.submit_move(game.pk, user, first.to_dict(), expected_seq=0, client_move_id="page-0")

    with pytest.raises(errors.StaleMove):
        moves.submit_move(game.pk, user, other.to_dict(), expected_seq=0, client_move_id="page-0")
    again = moves.submit_move(
        game.pk, user, first.to_dict(), expected_seq=0, client_move_id="page-0"
    )

    game.refresh_from_db()
    assert again.duplicate and game.seq == 1 and game.moves.count() == 1


def test_im_back_from_an_old_page_after_the_end_is_refused_and_changes_nothing(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    Seat.objects.filter(game=game, index=0).update(away=True)  # the clock played for alice
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    rev = Game.objects.get(pk=game.pk).rev

    with pytest.raises(errors.NotAllowed, match="This game has ended"):
        moves.mark_back(game.pk, alice)

    assert Game.objects.get(pk=game.pk).rev == rev
    assert Seat.objects.get(game=game, index=0).away


def test_another_seats_client_move_id_is_refused_and_tells_nothing_of_their_move(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    user, move = first_move(game)
    moves.submit_move(game.pk, user, move.to_dict(), client_move_id="tap-1")
    other = next(u for u in (alice, bob, carol) if u != user)

    with pytest.raises(errors.BadMove) as caught:
        moves.submit_move(game.pk, other, {"type": "draw"}, client_move_id="tap-1")

    game.refresh_from_db()
    assert game.seq == 1
    assert move.type not in caught.value.message


@pytest.mark.django_db(transaction=True)
def test_a_move_is_saved_and_answered_even_when_the_channel_layer_is_down(
    make_game, settings, alice, bob, carol
):
    # A real Redis layer at a port where nothing listens: notifying after the commit fails.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0", "socket_timeout": 1}]},
        }
    }
    game = make_game([alice, bob, carol], seed=1)
    user, move = first_move(game)

    result = moves.submit_move(game.pk, user, move.to_dict(), expected_seq=game.seq)

    game.refresh_from_db()
    assert result.seq == 1 and game.seq == 1 and game.moves.count() == 1


def test_it_rejects_an_illegal_move_with_the_rule_and_changes_nothing(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    user = people(game)[view.seat]
    absent = next(c for c in range(52) if c not in view.hand)

    with pytest.raises(errors.BadMove) as caught:
        moves.submit_move(game.pk, user, Move.discard(view.seat, absent).to_dict())

    assert "does not hold" in caught.value.message
    assert Game.objects.get(pk=game.pk).seq == 0 and not MoveRow.objects.exists()


def test_it_rejects_a_malformed_move(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1)
    user = people(game)[turn_view(game).seat]

    with pytest.raises(errors.BadMove, match="malformed"):
        moves.submit_move(game.pk, user, {"type": "teleport"})
    with pytest.raises(errors.BadMove):
        moves.submit_move(game.pk, user, ["draw"])  # type: ignore[arg-type]


def test_it_rejects_a_move_out_of_turn(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    waiting = people(game)[(view.seat + 1) % 3]

    with pytest.raises(errors.BadMove, match="may not act now"):
        moves.submit_move(game.pk, waiting, {"type": "draw"})


def test_it_rejects_a_move_by_someone_not_at_the_table(make_game, alice, bob, carol):
    game = make_game([alice, "greedy", bob], seed=1)

    with pytest.raises(errors.NotAllowed, match="not playing at this table"):
        moves.submit_move(game.pk, carol, {"type": "draw"})
    with pytest.raises(errors.NotAllowed):
        moves.submit_move(game.pk, AnonymousUser(), {"type": "draw"})
    assert Game.objects.get(pk=game.pk).seq == 0


def test_it_rejects_moves_once_the_game_has_ended(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=2)
    play_out(game)
    seq = Game.objects.get(pk=game.pk).seq

    with pytest.raises(errors.NotAllowed, match="ended"):
        moves.submit_move(game.pk, alice, {"type": "draw"})

    assert Game.objects.get(pk=game.pk).seq == seq


def test_it_rejects_moves_before_the_deal(alice, bob):
    game = play_tables.create_table(alice)
    play_tables.join_table(game.pk, bob)

    with pytest.raises(errors.NotAllowed, match="not started"):
        moves.submit_move(game.pk, alice, {"type": "draw"})


# --- The log is the truth -----------------------------------------------------------------


def test_the_stored_result_equals_the_outcome_of_a_replay(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=2)

    play_out(game)

    game.refresh_from_db()
    outcome = replay(game.record()).state.outcome
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert (game.winner_seat, game.end) == (outcome.winner, outcome.end)
    assert game.points == list(outcome.points)
    assert game.chips == list(outcome.chips)
    assert game.burned == list(outcome.burned)
    assert game.turn_seat is None and game.due_at is None


def test_the_record_replays_every_logged_move(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=5)
    for _ in range(12):
        view = turn_view(game)
        moves.submit_move(game.pk, people(game)[view.seat], simple_move(view).to_dict())

    game.refresh_from_db()
    result = replay(game.record())
    assert result.ok
    assert len(result.applied) == game.seq == 12
    assert [m.to_dict() for m in result.applied] == [
        row.payload for row in game.moves.order_by("seq")
    ]


def test_the_cached_state_equals_a_fresh_replay(
    make_game, alice, bob, carol, django_capture_on_commit_callbacks
):
    game = make_game([alice, bob, carol], seed=5)
    # Run the on-commit hooks, which is where a new state enters the cache.
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(9):
            view = turn_view(game)
            moves.submit_move(game.pk, people(game)[view.seat], simple_move(view).to_dict())
    game.refresh_from_db()
    assert snapshots._positions[(game.pk, game.commitment)].seq == game.seq

    cached = moves.game_state(game)
    moves.forget_cached_states()
    fresh = moves.game_state(game)

    assert cached is not fresh
    assert cached == fresh


def test_the_snapshot_the_movers_process_keeps_equals_a_fresh_load(
    make_game, alice, bob, carol, django_capture_on_commit_callbacks
):
    game = make_game([alice, bob, carol], seed=5)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(7):
            view = turn_view(game)
            moves.submit_move(game.pk, people(game)[view.seat], simple_move(view).to_dict())
    kept = snapshots.cached(game.pk)
    moves.forget_cached_states()
    loaded = snapshots.load_snapshot(game.pk)

    assert kept is not None and kept.rev == loaded.rev and kept.seq == loaded.seq == 7
    assert kept.state == loaded.state and kept.position.last_move == loaded.position.last_move
    assert (kept.seats, kept.due_at, kept.status) == (loaded.seats, loaded.due_at, loaded.status)


def test_a_position_is_caught_up_by_the_moves_since_and_equals_a_replay(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=5)
    early = moves.game_state(game)  # this process knows move 0 only
    for _ in range(5):  # moves made elsewhere (no on-commit hooks run here)
        view = turn_view(game)
        moves.submit_move(game.pk, people(game)[view.seat], simple_move(view).to_dict())
    game.refresh_from_db()

    caught_up = moves.game_state(game)
    moves.forget_cached_states()

    assert early.ply == 0 and caught_up == moves.game_state(game)


def test_a_game_row_read_before_a_move_commits_gets_the_state_at_its_own_seq(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=5)
    stale = Game.objects.get(pk=game.pk)  # a page or socket read the row at seq 0 ...
    view = turn_view(game)
    moves.submit_move(game.pk, people(game)[view.seat], simple_move(view).to_dict())
    moves.forget_cached_states()  # ... and its replay reads the log after move 1

    state = moves.game_state(stale)

    assert stale.seq == 0 and state.ply == 0
    # Nor is the cache left holding move 1's state under seq 0.
    assert moves.game_state(stale).ply == 0
    game.refresh_from_db()
    assert moves.game_state(game).ply == game.seq == 1


def test_the_summary_columns_follow_the_turn(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1, turn_seconds=30)
    view = turn_view(game)
    assert game.turn_seat == view.seat
    assert game.due_at == game.turn_started_at + timedelta(seconds=30)

    user = people(game)[view.seat]
    while turn_view(game).seat == view.seat:
        moves.submit_move(game.pk, user, simple_move(turn_view(game)).to_dict())

    game.refresh_from_db()
    assert game.turn_seat == (view.seat + 1) % 3
    assert game.last_move_at is not None


# --- Races --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_of_two_racing_moves_for_the_same_version_exactly_one_is_applied(
    make_game, alice, bob, carol
):
    game = make_game([alice, bob, carol], seed=1)
    view = turn_view(game)
    user = people(game)[view.seat]
    one, other = view.legal[0], view.legal[-1]

    outcomes = race(
        lambda: moves.submit_move(game.pk, user, one.to_dict(), expected_seq=0, client_move_id="a"),
        lambda: moves.submit_move(
            game.pk, user, other.to_dict(), expected_seq=0, client_move_id="b"
        ),
    )

    applied = [o for o in outcomes if isinstance(o, moves.MoveResult)]
    refused = [o for o in outcomes if not isinstance(o, moves.MoveResult)]
    game.refresh_from_db()
    assert len(applied) == 1 and applied[0].seq == 1
    # PostgreSQL queues the second behind the row lock, which then finds the game moved on;
    # SQLite, which has no row locks, may refuse it at the database instead.
    assert all(isinstance(e, (errors.StaleMove, DatabaseError)) for e in refused)
    if connection.vendor == "postgresql":
        assert len(refused) == 1 and isinstance(refused[0], errors.StaleMove)
    assert game.seq == 1 and game.moves.count() == 1
    assert game.moves.get().payload == applied[0].payload


# --- Tables -------------------------------------------------------------------------------


def test_a_table_waits_for_people_and_deals_when_the_last_seat_fills(alice, bob, carol):
    game = play_tables.create_table(alice)
    play_tables.join_table(game.pk, bob)
    assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING

    play_tables.join_table(game.pk, carol)

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert [s.user for s in game.seats.all()] == [alice, bob, carol]
    assert game.commitment == Game.commit_to(game.seed)
    assert game.turn_seat == game.dealer and game.due_at is not None


def test_joining_twice_keeps_one_seat(alice, bob):
    game = play_tables.create_table(alice)

    play_tables.join_table(game.pk, bob)
    play_tables.join_table(game.pk, bob)

    assert game.seats.filter(user=bob).count() == 1


def test_joining_a_full_table_is_refused_plainly(alice, bob, carol):
    game = play_tables.create_table(alice, others=("open", "greedy"))
    play_tables.join_table(game.pk, bob)

    with pytest.raises(errors.NotAllowed, match="This table is full"):
        play_tables.join_table(game.pk, carol)


def test_a_private_table_takes_only_people_with_its_invite_token(alice, bob, carol):
    game = play_tables.create_table(alice, public=False)

    with pytest.raises(errors.NotAllowed, match="invite link"):
        play_tables.join_table(game.pk, bob)
    with pytest.raises(errors.NotAllowed, match="invite link"):
        play_tables.join_table(game.pk, bob, invite_token="wrong-é")
    play_tables.join_table(game.pk, carol, invite_token=game.invite_token)

    assert game.seats.get(index=1).user == carol


def test_quick_play_deals_a_watchable_game_against_two_normal_bots_unless_asked_private(alice, bob):
    game = play_tables.quick_play(alice)

    assert game.public and game.status == Game.Status.PLAYING
    assert not play_tables.quick_play(bob, public=False).public
    assert [(s.user, s.bot_kind) for s in game.seats.all()] == [
        (alice, ""),
        (None, "normal"),
        (None, "normal"),
    ]


def test_it_refuses_an_unknown_seat_choice_or_variant(alice):
    with pytest.raises(errors.ServiceError):
        play_tables.create_table(alice, others=("open", "cheater"))
    with pytest.raises(errors.ServiceError):
        play_tables.create_table(alice, variants=["no-rules"])
    assert not Game.objects.exists()


def test_a_move_by_an_away_person_brings_them_back(make_game, alice, bob, carol):
    game = make_game([alice, bob, carol], seed=1)
    user, move = first_move(game)
    Seat.objects.filter(game=game, user=user).update(away=True)

    moves.submit_move(game.pk, user, move.to_dict())

    assert not Seat.objects.get(game=game, user=user).away


# --- Play again ---------------------------------------------------------------------------


@pytest.fixture
def dave(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


def finished(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def occupants(game: Game) -> list[object]:
    return [s.user or s.bot_kind or None for s in game.seats.all()]


def test_the_first_to_play_again_makes_the_next_table_and_the_others_sit_at_it(
    make_game, alice, bob, carol
):
    game = finished(make_game([alice, bob, carol], seed=1))

    first = after_game.play_again(game.pk, bob)
    assert first.status == Game.Status.WAITING and occupants(first) == [bob, None, None]
    assert after_game.play_again(game.pk, carol) == first
    assert after_game.play_again(game.pk, alice) == first

    first.refresh_from_db()
    game.refresh_from_db()
    assert game.next_game == first and Game.objects.count() == 2
    assert first.status == Game.Status.PLAYING
    assert occupants(first) == [bob, carol, alice]


def test_the_next_table_keeps_the_bots_in_their_places_around_the_presser(make_game, alice, bob):
    game = finished(make_game([alice, "greedy", bob], seed=1, public=False))

    following = after_game.play_again(game.pk, bob)
    # Counted from bob (seat 2): alice's seat (open), then the greedy bot's.
    assert occupants(following) == [bob, None, "greedy"] and not following.public
    after_game.play_again(game.pk, alice)

    following.refresh_from_db()
    assert following.status == Game.Status.PLAYING
    assert occupants(following) == [bob, alice, "greedy"]


def test_playing_again_twice_keeps_one_seat_at_one_next_table(make_game, alice, bob):
    game = finished(make_game([alice, bob, "random"], seed=1))

    assert after_game.play_again(game.pk, alice) == after_game.play_again(game.pk, alice)
    assert Game.objects.count() == 2 and Seat.objects.filter(user=alice).count() == 2


def test_only_the_players_of_a_finished_game_may_play_again(make_game, alice, bob, dave):
    game = make_game([alice, bob, "greedy"], seed=1, public=False)

    with pytest.raises(errors.NotAllowed, match="Finish this game first"):
        after_game.play_again(game.pk, alice)
    finished(game)
    with pytest.raises(errors.NotAllowed, match="Only a player"):
        after_game.play_again(game.pk, dave)
    assert Game.objects.count() == 1


def test_a_private_next_table_lets_in_the_last_games_people_but_no_one_else(
    make_game, alice, bob, carol, dave
):
    game = finished(make_game([alice, bob, carol], seed=1, public=False))
    following = after_game.play_again(game.pk, alice)

    with pytest.raises(errors.NotAllowed, match="Only a player"):
        after_game.play_again(game.pk, dave)
    with pytest.raises(errors.NotAllowed, match="invite link"):
        play_tables.join_table(following.pk, dave)
    play_tables.join_table(following.pk, bob)  # no token: bob played the game before

    assert occupants(following) == [alice, bob, None]


def test_the_finished_table_is_told_after_the_commit_that_a_next_game_exists(
    make_game, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    game = finished(make_game([alice, bob, "greedy"], seed=1))
    told: list[tuple[int, int]] = []
    monkeypatch.setattr(telling, "notify_game", lambda *args: told.append(args))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        after_game.play_again(game.pk, alice)
    assert told == []
    for callback in callbacks:
        callback()

    game.refresh_from_db()
    assert (game.pk, game.rev) in told


@pytest.mark.django_db(transaction=True)
def test_two_people_pressing_play_again_at_once_make_one_next_table(make_game, alice, bob, carol):
    game = finished(make_game([alice, bob, carol], seed=1))

    outcomes = race(
        lambda: after_game.play_again(game.pk, alice),
        lambda: after_game.play_again(game.pk, bob),
    )

    tables = {o.pk for o in outcomes if isinstance(o, Game)}
    # SQLite, which has no row locks, may refuse the second at the database instead.
    assert all(isinstance(o, (Game, DatabaseError)) for o in outcomes), outcomes
    if connection.vendor == "postgresql":
        assert len(tables) == 1 and all(isinstance(o, Game) for o in outcomes)
    game.refresh_from_db()
    assert Game.objects.count() == 2 and tables == {game.next_game_id}
