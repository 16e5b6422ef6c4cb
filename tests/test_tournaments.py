"""Arena tournaments (games.tournaments): entries, the pairing pool on the database, the
standings from real games, the end of the clock, and pairing raced from threads on
PostgreSQL (as several workers would)."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games import bots
from games.engine import apply, seat_view
from games.models import Game, Seat
from games.play import clock, hooks, moves, server_moves, tables
from games.play.errors import NotAllowed, ServiceError
from games.tournaments import scoring, services
from games.tournaments.models import Entry, Tournament, TournamentGame
from games.tournaments.pairing import BOT_WAIT
from games.tournaments.record import replay_tournament
from games.tournaments.records import tournament_dict
from games.tournaments.standings import standings
from tests.fast_games import prepare_last_move
from tests.threads import race


def _arena(by=None, minutes=30, **fields) -> Tournament:
    staff = by or get_user_model().objects.create_user("staff", is_staff=True)
    return services.create(
        staff, name="Hourly arena", starts_at=timezone.now(), minutes=minutes, public=True,
        **fields,
    )  # fmt: skip


def _people(n: int, prefix: str = "p") -> list:
    User = get_user_model()
    return [User.objects.create_user(f"{prefix}{i}") for i in range(n)]


def _end_game(game_id: int, away_at_end: bool = True) -> Game:
    """Play a tournament game to its end through the services; the seat to move last is
    the one the server plays for (away, if a person's)."""
    prepare_last_move(game_id)
    game = Game.objects.get(pk=game_id)
    if not away_at_end:
        Seat.objects.filter(game_id=game_id).exclude(index=game.turn_seat).update(away=False)
    moves.forget_cached_states()
    result = server_moves.play_due(game_id, now=timezone.now())
    assert result is not None and result.finished
    return Game.objects.get(pk=game_id)


# --- Making one, entering, pausing, withdrawing -------------------------------------------


def test_only_staff_schedule_public_tournaments_and_bad_settings_change_nothing(alice):
    with pytest.raises(NotAllowed):
        services.create(alice, name="Mine", starts_at=timezone.now(), public=True)
    with pytest.raises(ServiceError, match="length"):
        services.create(alice, name="Mine", starts_at=timezone.now(), minutes=7)
    with pytest.raises(ServiceError, match="name"):
        services.create(alice, name="   ", starts_at=timezone.now())
    assert not Tournament.objects.exists()
    mine = services.create(alice, name="Mine", starts_at=timezone.now())
    assert not mine.public and mine.invite_token


def test_a_private_tournament_takes_only_people_with_its_invite_link(alice, bob):
    mine = services.create(alice, name="Friends", starts_at=timezone.now())
    with pytest.raises(NotAllowed, match="invite link"):
        services.join(mine.pk, bob)
    assert not Entry.objects.filter(user=bob).exists()
    services.join(mine.pk, bob, invite_token=mine.invite_token)
    services.join(mine.pk, alice)  # its creator needs no link
    assert mine.entries.count() == 2


def test_pause_and_withdraw_leave_the_pool_and_joining_again_comes_back(alice, bob, carol):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    services.pause(t.pk, bob)
    assert services.pair(t.pk) == []  # two in the pool: they wait
    services.join(t.pk, bob)
    services.withdraw(t.pk, carol)
    assert services.pair(t.pk) == []
    services.join(t.pk, carol)
    [game] = services.pair(t.pk)
    assert {s.user_id for s in game.seats.all()} == {alice.pk, bob.pk, carol.pk}
    with pytest.raises(NotAllowed):
        services.pause(t.pk, get_user_model().objects.create_user("stranger"))


def test_a_join_enters_once_refuses_a_guest_a_rated_arena_and_moves_the_revision(alice):
    """A Join's statements are written out (games/tournaments/join_rows.py): what it reads
    and writes is the ORM's."""
    from accounts.guests import make_guest

    t = _arena()
    entry = services.join(t.pk, alice)
    again = services.join(t.pk, alice)  # a second press: the same entry, still waiting
    stored = Entry.objects.get(tournament=t, user=alice)
    assert entry.pk == again.pk == stored.pk and stored.state == Entry.State.ACTIVE
    assert stored.waiting_since is not None and again.tournament.pk == t.pk
    assert Tournament.objects.get(pk=t.pk).rev == t.rev + 2
    services.withdraw(t.pk, alice)
    back = services.join(t.pk, alice)
    assert back.pk == entry.pk and Entry.objects.get(pk=entry.pk).state == Entry.State.ACTIVE
    with pytest.raises(NotAllowed, match="claim yours"):
        services.join(t.pk, make_guest("192.0.2.9"))
    casual = _arena(by=t.created_by, rated=False)
    assert services.join(casual.pk, make_guest("192.0.2.10")).pk is not None
    with pytest.raises(NotAllowed):
        services.join(t.pk + 1000, alice)


def test_a_stale_pause_does_not_undo_a_withdrawal(alice):
    """Pause from a page left open after withdrawing turned the entry into "paused"."""
    t = _arena()
    services.join(t.pk, alice)
    services.withdraw(t.pk, alice)
    with pytest.raises(NotAllowed, match="join it again"):
        services.pause(t.pk, alice)
    assert Entry.objects.get(user=alice).state == Entry.State.WITHDRAWN


# --- Pairing on the database --------------------------------------------------------------


def test_three_waiting_are_dealt_a_game_of_the_tournament_and_leave_the_pool(alice, bob, carol):
    t = _arena(variant="held-melds-free", turn_seconds=15, rated=False)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    assert game.status == Game.Status.PLAYING
    assert (game.variants, game.turn_seconds, game.rated) == (["held-melds-free"], 15, False)
    assert TournamentGame.objects.get(game=game).tournament == t
    assert set(Entry.objects.values_list("game_id", flat=True)) == {game.pk}
    assert services.pair(t.pk) == []  # all three are at a table


def test_a_closed_account_is_never_paired_again_and_leaves_the_standings(alice, bob, carol):
    """A closed account (it cannot log in) was dealt into game after game, its every turn
    timed out and played by the server, at the table of people who can play; and it kept
    its place in the standings."""
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    carol.is_active = False
    carol.save()  # staff close it (the admin's way: fair play's Close saves it too)

    [game] = services.pair(t.pk, timezone.now() + BOT_WAIT)

    people = {s.user_id for s in game.seats.all() if s.user_id}
    assert people == {alice.pk, bob.pk}
    assert {entry.user_id for _row, entry in standings(t)} == {alice.pk, bob.pk}
    assert Entry.objects.get(user=carol).state == Entry.State.ACTIVE  # kept, not shown


def test_closing_an_account_takes_it_off_the_podium_and_the_others_results_stand(alice, bob, carol):
    """A closed account kept its points and its podium place in finished tournaments."""
    from games.fairplay import actions as fairplay

    dave = get_user_model().objects.create_user("dave")
    t = _arena()
    for person in (alice, bob, carol, dave):
        services.join(t.pk, person)
    [first] = services.pair(t.pk)  # three at once; the fourth waits for bots
    [second] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    # Opponents' ratings at the deal that break every tie (performance): four ranks, three
    # on the podium, whatever the games' results.
    TournamentGame.objects.filter(game=first).update(ratings=[1000, 1100, 1300])
    TournamentGame.objects.filter(game=second).update(ratings=[1000, 900, 900])
    _end_game(first.pk, away_at_end=False)
    _end_game(second.pk, away_at_end=False)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(hours=3))
    assert services.end_if_over(t.pk)
    t.refresh_from_db()
    before = {entry.user_id: row.score for row, entry in standings(t)}
    assert len(t.podium) == 3 and len(before) == 4
    gone = t.podium[0]
    fourth = next(u for u in before if u not in t.podium)

    from tests.test_fairplay_actions import fair_play_staff

    staff = fair_play_staff("warden")
    fairplay.close_account(staff, get_user_model().objects.get(pk=gone), "played as a team")

    t.refresh_from_db()
    after = {entry.user_id: row.score for row, entry in standings(t)}
    assert gone not in after and gone not in t.podium
    assert t.podium == [u for u in before if u != gone] and fourth in t.podium
    assert all(after[u] == before[u] for u in after)  # their games stand as they were
    # Its record leaves the closed account out as the site does: the replay agrees.
    data = tournament_dict(t)
    result, status = replay_tournament(data)
    assert status == 0 and result["standings_agree"] and len(data["entrants"]) == 3


def test_one_person_waiting_gets_two_bots_of_its_level_after_twenty_seconds(alice):
    t = _arena(bot_kind="easy")
    services.join(t.pk, alice)
    assert services.pair(t.pk) == []
    [game] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    seats = list(game.seats.all())
    assert sorted(s.bot_kind for s in seats) == ["", "easy", "easy"]


def test_no_pairing_before_the_start_or_after_the_clock_ended(alice, bob, carol):
    t = _arena(minutes=5)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    assert services.pair(t.pk, t.starts_at - timedelta(seconds=1)) == []
    assert services.pair(t.pk, t.ends_at) == []
    assert not Game.objects.exists()


def test_a_person_in_two_running_tournaments_sits_at_one_table_at_a_time(alice, bob, carol):
    one, two = _arena(), _arena(by=get_user_model().objects.create_user("staff2", is_staff=True))
    for t in (one, two):
        for person in (alice, bob, carol):
            services.join(t.pk, person)
    assert len(services.pair(one.pk)) == 1
    assert services.pair(two.pk, timezone.now() + BOT_WAIT) == []


def test_a_person_playing_a_game_of_their_own_is_paired_once_it_is_over(alice, bob, carol):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    own = tables.quick_play(carol)
    assert services.pair(t.pk, timezone.now() + BOT_WAIT)[0].seats.filter(user=carol).count() == 0
    _end_game(own.pk)
    [game] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    assert game.seats.filter(user=carol).exists()


# --- A game's end, the standings and the end of the clock ---------------------------------


def test_a_finished_game_scores_by_place_and_its_people_wait_again(alice, bob, carol):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    game = _end_game(game.pk, away_at_end=False)
    tg = TournamentGame.objects.get(game=game)
    assert tg.away == [game.seats.get(user__isnull=False, away=True).index]
    rows = {entry.user_id: row for row, entry in standings(t)}
    for seat in game.seats.all():
        score = rows[seat.user_id].score
        if seat.index in tg.away:
            assert score.points == 0  # lost on time while away (or won so: still nothing)
        elif seat.index == game.winner_seat:
            assert score.points == (3 if game.end == "tongits" else 2)
        assert score.games == 1
    assert len(services.pool(t)) == 3  # back in the pool


def _play_live(game: Game, left_to_the_server) -> Game:
    """Play a tournament game through the services as people and the clock would: a turn
    ``left_to_the_server(seat, its number)`` is played by the server when its clock runs
    out (the seat goes away), any other by its person (the greedy bot chooses for them,
    and acting brings them back). Everyone away is back before the last move, which its
    seat's person makes."""
    people = {s.index: s.user for s in game.seats.select_related("user")}
    turns: dict[int, int] = {}
    last_seat = None
    for _ in range(400):
        game = Game.objects.get(pk=game.pk)
        if game.is_over:
            return game
        state = moves.game_state(game)
        seat = state.turn
        if seat != last_seat:
            turns[seat] = turns.get(seat, 0) + 1
        last_seat = seat
        rng = random.Random(bots.bot_seed(game.seed, game.seq, seat))  # as the clock's
        move = bots.choose("greedy", seat_view(state, seat), rng)
        if apply(state, move).outcome is not None:
            for person in people.values():
                moves.mark_back(game.pk, person)
        elif left_to_the_server(seat, turns[seat]):
            assert server_moves.play_due(game.pk, now=game.due_at) is not None
            continue
        moves.submit_move(game.pk, people[seat], move.to_dict())
    raise AssertionError("the game did not end")


def test_a_seat_the_server_played_most_of_scores_as_away_though_back_before_the_end(
    alice, bob, carol, monkeypatch
):
    """Away was judged at a game's last move only: a person could leave every turn to the
    server and come back before the end, and score in full."""
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    # A deal of 42 moves, six turns a seat (greedy moves come from the seed), whoever sits where.
    monkeypatch.setattr(tables.secrets, "randbits", lambda bits: 8)
    [game] = services.pair(t.pk)
    seat_of = {s.user_id: s.index for s in game.seats.all()}
    alice_seat, carol_seat = seat_of[alice.pk], seat_of[carol.pk]
    # Alice leaves every turn to the server; Carol's clock runs out once, on her first turn.
    game = _play_live(game, lambda seat, n: seat == alice_seat or (seat == carol_seat and n == 1))

    assert game.seq == 42
    assert not game.seats.filter(away=True).exists()  # everyone was back at the end
    tg = TournamentGame.objects.get(game=game)
    assert tg.away == [alice_seat]
    rows = {entry.user_id: row for row, entry in standings(t)}
    assert rows[alice.pk].score.marks == (0,)
    carol_place = scoring.place_of(carol_seat, game.winner_seat, game.chips)
    assert rows[carol.pk].score.points == scoring.base_points(
        scoring.Result(carol_place, tongits=carol_place == 1 and game.end == "tongits")
    )


def test_games_voided_by_fair_play_leave_the_standings_and_the_podium(alice, bob, carol):
    """Voided games count in no one's figures: the standings kept their points, and a
    finished tournament's podium stood as before."""
    from games.fairplay import actions as fairplay
    from tests.test_fairplay_actions import fair_play_staff, pair_of

    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    _end_game(game.pk, away_at_end=False)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(hours=3))
    assert services.end_if_over(t.pk)
    t.refresh_from_db()
    assert t.podium and sum(row.score.points for row, _e in standings(t)) > 0
    rev = t.rev

    fairplay.void_pair(fair_play_staff("warden"), pair_of(alice, bob), "played as a team")

    t.refresh_from_db()
    assert [(row.score.points, row.score.games) for row, _e in standings(t)] == [(0, 0)] * 3
    assert t.podium == [] and t.rev > rev
    # Its record leaves the voided game out too, so a replay of it makes its standings.
    data = tournament_dict(t)
    result, status = replay_tournament(data)
    assert data["games"] == [] and status == 0 and result["standings_agree"]


def test_the_finish_hook_pairs_again_after_the_commit(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    with django_capture_on_commit_callbacks(execute=True):
        _end_game(game.pk)
    assert TournamentGame.objects.filter(tournament=t).count() == 2


def test_bots_score_nothing_and_do_not_stand(alice):
    t = _arena(bot_kind="normal")
    services.join(t.pk, alice)
    [game] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    _end_game(game.pk)
    assert [entry.user_id for _row, entry in standings(t)] == [alice.pk]


def test_the_clock_ends_the_tournament_once_the_game_under_way_is_over(alice, bob, carol):
    t = _arena(minutes=2)
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    later = t.ends_at + timedelta(seconds=1)
    services.tick(later)
    t.refresh_from_db()
    assert t.finished_at is None and t.state(later) == "ending"
    _end_game(game.pk)
    # (The game's end, after its commit, ends it too; here the clock's next look does.)
    services.tick(later + services.RECHECK)
    t.refresh_from_db()
    assert t.state(later) == "finished"
    assert sum(row.score.games for row, _e in standings(t)) == 3  # the last game counts


def test_the_server_clock_tick_pairs_through_the_hook(alice, bob, carol):
    assert services.tick in hooks._tick
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    clock.tick()
    assert TournamentGame.objects.filter(tournament=t).count() == 1


# --- Races on PostgreSQL ------------------------------------------------------------------

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent transactions"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_pairing_raced_from_threads_seats_nobody_twice_and_leaves_fewer_than_three():
    people = _people(10)
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    arenas = [
        services.create(staff, name=f"A{i}", starts_at=timezone.now(), public=True)
        for i in range(2)
    ]
    for t in arenas:
        for person in people:
            services.join(t.pk, person)
    # Four pairers at once, two a tournament, as four workers' clocks would.
    outcomes = race(*(lambda t=t: services.pair(t.pk) for t in arenas for _ in range(2)))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    _check_nobody_seated_twice()
    # Nobody waits while two others wait too (everyone is free for either tournament).
    seated = set(Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True))
    assert len(seated) >= len(people) - 2
    assert len(seated) == 9  # three tables of three; one waits


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_games_ending_while_the_clock_pairs_never_seat_a_person_twice():
    people = _people(9)
    t = _arena()
    for person in people:
        services.join(t.pk, person)
    games = services.pair(t.pk)
    assert len(games) == 3
    for game in games:
        prepare_last_move(game.pk)
    stop = threading.Event()

    def clock_ticks():
        while not stop.is_set():
            services.tick(timezone.now())

    ends = [lambda g=g: server_moves.play_due(g.pk, now=timezone.now()) for g in games]
    ticker = threading.Thread(target=lambda: (clock_ticks(), connection.close()))
    ticker.start()
    try:
        outcomes = race(*ends, lambda: services.pair(t.pk), lambda: services.pair(t.pk))
    finally:
        stop.set()
        ticker.join(60)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    services.pair(t.pk)
    _check_nobody_seated_twice()
    assert len(services.pool(Tournament.objects.get(pk=t.pk))) == 0  # all nine re-seated


def _check_nobody_seated_twice() -> None:
    unfinished = Seat.objects.filter(
        user__isnull=False, game__status__in=[Game.Status.WAITING, Game.Status.PLAYING]
    ).values_list("user_id", flat=True)
    unfinished = list(unfinished)
    assert len(unfinished) == len(set(unfinished)), sorted(unfinished)


# --- The hourly tournament ----------------------------------------------------------------


def test_the_hourly_command_makes_each_coming_hour_once(db):
    from io import StringIO

    from django.core.management import call_command

    call_command("hourly_tournament", "--hours", "2", stdout=StringIO())
    call_command("hourly_tournament", "--hours", "3", stdout=(out := StringIO()))
    assert "1 hourly" in out.getvalue()
    hourly = list(Tournament.objects.order_by("starts_at"))
    assert len(hourly) == 3 and all(t.public and t.rated and t.minutes == 45 for t in hourly)
    assert [t.starts_at.minute for t in hourly] == [0, 0, 0]
    assert hourly[0].name_shown.startswith("Hourly arena")
