"""Ratings (issue 9): openskill's Plackett-Luce model, moved by finished rated games."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.models import Game
from games.play import server_moves, tables
from games.ratings import core
from games.ratings.models import Rating, RatingChange
from tests.fast_games import finish, play_out, prepare, prepare_last_move

pytestmark = pytest.mark.django_db


def test_ranks_put_the_winner_first_then_chips_with_ties_equal():
    assert core.ranks(1, [-3, 7, -4]) == [2, 1, 3]
    assert core.ranks(0, [2, -1, -1]) == [1, 2, 2]
    # A winner is first even when a loser's chips tie with theirs (no such game, but the
    # rule does not lean on R10's sums).
    assert core.ranks(2, [0, 0, 0]) == [2, 2, 1]


def test_a_rated_game_moves_the_winner_up_and_the_losers_down(alice):
    game = tables.quick_play(alice)
    assert game.rated
    game = finish(game.pk)

    skills = core.skills_of([alice.pk], ["normal"])
    me = skills[("user", alice.pk)]
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {0, 1, 2}
    for change in changes.values():
        assert change.sigma < change.sigma_before
    # Alice sits in seat 0. Both bots share one rating (the Normal level's), moved by one
    # seat's win and the other's loss at once, so only a person's change has one direction:
    # up when she won, down when she came last. Second (a loser who paid less than the
    # other) she beat one seat of that shared rating and lost to the other, which can go
    # either way.
    place = core.ranks(game.winner_seat, game.chips)[0]
    if place == 1:
        assert changes[0].mu > changes[0].mu_before
        assert me.mu > core.NEW.mu
    elif place == 3:
        assert changes[0].mu < changes[0].mu_before
        assert me.mu < core.NEW.mu
    assert me.games == 1 and skills[("bot", "normal")].games == 1
    assert me.provisional and me.shown.endswith("?")


def test_a_game_rates_once(alice):
    game = finish(tables.quick_play(alice).pk)
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    seats = list(game.seats.all())
    assert not core.rate_finished(game.pk, seats, game.winner_seat, game.chips, game.finished_at)
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 3


def test_casual_tables_and_imported_games_leave_ratings_alone(alice):
    casual = tables.create_table(alice, others=("greedy", "random"), rated=False)
    finish(casual.pk)
    assert not Rating.objects.exists()
    played = finish(tables.quick_play(alice).pk)
    Game.objects.filter(pk=played.pk).update(imported=True)
    RatingChange.objects.all().delete()
    assert not core.rate_finished(
        played.pk, list(played.seats.all()), played.winner_seat, played.chips, played.finished_at
    )


def test_bots_alone_are_not_rated(make_game):
    game = make_game(["greedy", "random", "greedy"], seed=3, rated=True)
    finish(game.pk)
    assert not RatingChange.objects.exists()


def test_a_rating_stops_being_provisional_after_ten_games(alice):
    for _ in range(core.PROVISIONAL_GAMES):
        finish(tables.quick_play(alice).pk)
    me = core.skills_of([alice.pk])[("user", alice.pk)]
    assert me.games == core.PROVISIONAL_GAMES
    assert not me.provisional and not me.shown.endswith("?")


def test_recompute_gives_the_live_numbers_over_a_few_hundred_games(users, settings):
    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    settings.TONGITS_OPEN_TABLES_MAX = 10_000
    rng = random.Random(9)
    people = list(users.values())
    for n in range(240):
        person = people[n % 3]
        others = (rng.choice(["greedy", "random"]), rng.choice(["greedy", "random"]))
        game = tables.create_table(person, others=others, rated=n % 7 != 0)
        finish(game.pk, rng)
    live = _everything()
    assert len(live[1]) > 400  # rated seats

    call_command("recompute_ratings", verbosity=0)

    assert _everything() == live


@hypothesis_settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 20), st.booleans()), min_size=0, max_size=12
    ),  # each game's finish stamp (few values: ties) and whether it was rated live
    st.randoms(use_true_random=False),
)
def test_recompute_replays_live_games_as_applied_and_the_others_where_they_finished(stamps, rng):
    # Games as recompute reads them: (pk, ..., finished_at), in the order they finished.
    games = sorted(((pk, "result", at) for pk, (at, _) in enumerate(stamps)), key=lambda g: g[::-1])
    live = [pk for pk, (_, rated) in enumerate(stamps) if rated]
    rng.shuffle(live)  # the order their ratings were applied in, whatever their stamps
    applied = {pk: 100 + 3 * n for n, pk in enumerate(live)}  # their first change ids

    order = [g[0] for g in core._replay_order(games, applied)]

    assert sorted(order) == list(range(len(stamps)))  # each game once
    assert [pk for pk in order if pk in applied] == live
    never = [pk for pk in order if pk not in applied]
    assert never == [g[0] for g in games if g[0] not in applied]
    finished = {g[0]: (g[2], g[0]) for g in games}
    for pk in never:
        # After the live games applied before the first one that finished after it.
        later = [n for n, g in enumerate(live) if finished[g] > finished[pk]]
        before = live[: later[0]] if later else live
        assert {g for g in order[: order.index(pk)] if g in applied} == set(before)
    if live == sorted(live, key=finished.get):  # no race: the order they finished
        assert order == [g[0] for g in games]


def _everything():
    ratings = sorted(
        Rating.objects.values_list("user_id", "bot_kind", "mu", "sigma", "games"),
        key=lambda r: (r[0] or 0, r[1]),
    )
    changes = list(
        RatingChange.objects.order_by("game_id", "seat").values_list(
            "game_id", "seat", "mu_before", "sigma_before", "mu", "sigma", "games",
            "rating__user_id", "rating__bot_kind",
        )
    )  # fmt: skip
    return ratings, changes


@hypothesis_settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(st.sampled_from(["plays", "with_alice", "claims"]), st.integers(0, 1)),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 2**16),
)
def test_a_rebuild_gives_the_live_numbers_whenever_guests_claim_their_accounts(
    alice, settings, steps, seed
):
    """Guests play (alone with bots, or with alice) and claim their accounts in any order:
    a rebuild of every rating gives exactly the live numbers, as it read who was a guest
    when each game ended (``Profile.claimed_at``), not who is one now."""
    from accounts.guests import make_guest
    from accounts.models import Profile

    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    settings.TONGITS_OPEN_TABLES_MAX = 10_000
    rng = random.Random(seed)
    with transaction.atomic():
        guests = [make_guest(None), make_guest(None)]
        for action, who in steps:
            guest = guests[who]
            if action == "claims":  # what the claim view writes
                Profile.objects.filter(user=guest, is_guest=True).update(
                    is_guest=False, claimed_at=timezone.now()
                )
                continue
            if action == "plays":
                game = tables.create_table(guest, others=("greedy", "random"), rated=True)
            else:
                game = tables.create_table(guest, others=("open", "greedy"), rated=True)
                tables.join_table(game.pk, alice)
            finish(game.pk, rng)
        live = _everything()

        core.recompute()

        assert _everything() == live
        transaction.set_rollback(True)


def test_ratings_show_in_the_lobby_the_table_the_profile_and_the_leaderboard(
    client, alice, bob, monkeypatch
):
    monkeypatch.setattr("games.ratings.pages.MIN_GAMES", 1)
    played = finish(tables.quick_play(alice).pk)
    me = core.skills_of([alice.pk])[("user", alice.pk)].shown
    normal = core.skills_of(bot_kinds=["normal"])[("bot", "normal")].shown
    waiting = tables.create_table(alice, others=("open", "normal"), rated=True)
    client.force_login(bob)

    lobby = client.get("/").content.decode()
    assert f"rating </span>{me}" in lobby and f"rating </span>{normal}" in lobby
    assert "rated" in lobby

    client.force_login(alice)
    table = client.get(f"/games/{waiting.pk}/").content.decode()
    assert "Rated table" in table and f"{me}</span>" in table
    assert (
        "Casual table"
        in client.get(
            f"/games/{tables.create_table(alice, others=('greedy', 'greedy')).pk}/"
        ).content.decode()
    )

    profile = client.get("/players/alice/").content.decode()
    assert me in profile and "Rating over the last game" in profile and "<svg" in profile

    board = client.get("/leaderboard/").content.decode()
    assert "Best rating" in board and "Bot levels by rating" in board
    assert "Normal bot" in board.split('id="bot-ratings"')[1]
    assert played.is_over


# --- Concurrent finishes on PostgreSQL (issue 23) ---------------------------------------------

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent transactions"
)


def _lock_waiters() -> int:
    """Sessions of this database waiting for a lock (another transaction's row or table),
    beyond those already waiting when the test began (``_waiting_before``): a session that
    an earlier test left behind is not one of this test's (seen once in a full run)."""
    return _all_lock_waiters() - _waiting_before


_waiting_before = 0


@pytest.fixture(autouse=True)
def _count_waiters_left_behind(request) -> None:
    global _waiting_before
    _waiting_before = 0
    if "transactional_db" in request.fixturenames or request.node.get_closest_marker("django_db"):
        if connection.vendor == "postgresql":
            _waiting_before = _all_lock_waiters()


def _all_lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _until(done: Callable[[], bool], timeout: float = 60) -> bool:
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


@contextmanager
def _held(take: Callable[[], object], commit: bool = True) -> Iterator[None]:
    """Another transaction that has done ``take`` (locked or inserted rows) and commits, or
    rolls back, when the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                take()
                taken.set()
                release.wait(60)
                transaction.set_rollback(not commit)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(30)
    try:
        yield
    finally:
        release.set()
        holder.join(60)


class _Running(threading.Thread):
    """A call on a thread (and a connection) of its own; its result or error kept."""

    def __init__(self, call: Callable[[], object]) -> None:
        super().__init__()
        self.call, self.outcome = call, None
        self.start()

    def run(self) -> None:
        try:
            self.outcome = self.call()
        except Exception as e:
            self.outcome = e
        finally:
            connection.close()


PLAYERS = 6  # new people ending their first games at once


def _last_move(game_id: int) -> Game:
    """The server's move that ends a game ``prepare_last_move`` made ready."""
    result = server_moves.play_due(game_id, now=timezone.now())
    assert result is not None and result.finished, result
    return Game.objects.get(pk=game_id)


def _many_tables(settings) -> None:
    settings.TONGITS_TABLES_PER_MINUTE = 10_000
    settings.TONGITS_OPEN_TABLES_MAX = 10_000


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_recompute_replays_games_in_the_order_their_ratings_were_applied(alice, bob, settings):
    _many_tables(settings)
    # Bob's game makes the Easy and Normal levels' rating rows, Alice's then makes hers.
    finish(tables.create_table(bob, others=("easy", "normal"), rated=True).pk)
    finish(tables.create_table(alice, others=("easy", "normal"), rated=True).pk)
    early = tables.create_table(alice, others=("easy", "easy"), rated=True)
    # Two games of one person in play at once are dealt no more (games.play.seating); these
    # stand for two dealt before that rule, whose ratings a rebuild must still replay.
    Game.objects.filter(pk=early.pk).update(status=Game.Status.FINISHED)
    late = tables.create_table(alice, others=("normal", "normal"), rated=True)
    Game.objects.filter(pk=early.pk).update(status=Game.Status.PLAYING)
    prepare(early.pk)
    prepare(late.pk)

    # While another game holds the Easy level's row, Alice's Easy game ends (its last move
    # stored and stamped) and waits for it; her Normal game ends after it but is rated
    # first. Both move her rating, so the order they are replayed in changes the numbers.
    with _held(lambda: list(Rating.objects.select_for_update().filter(bot_kind="easy"))):
        first = _Running(lambda: play_out(early.pk))
        assert _until(lambda: _lock_waiters() == 1)
        play_out(late.pk)
    first.join(60)
    assert isinstance(first.outcome, Game), first.outcome
    early.refresh_from_db()
    late.refresh_from_db()
    assert early.finished_at < late.finished_at
    # The profile shows the rating as it stands: the change applied last, not the newest.
    me = Rating.objects.get(user=alice)
    assert core.history(alice.pk)[-1][1:] == (me.mu, me.sigma, me.games)
    live = _everything()

    call_command("recompute_ratings", verbosity=0)

    assert _everything() == live


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_game_that_finishes_while_ratings_are_recomputed_keeps_its_rating(alice, settings):
    _many_tables(settings)
    for _ in range(3):
        finish(tables.quick_play(alice).pk)
    game = tables.quick_play(alice)
    prepare(game.pk)

    # A transaction holding a change row stops the recompute midway (after it has read the
    # games), as a long one would be; the game ends meanwhile.
    with _held(lambda: list(RatingChange.objects.select_for_update()[:1])):
        recompute = _Running(lambda: call_command("recompute_ratings", verbosity=0))
        assert _until(lambda: _lock_waiters() == 1)
        ending = _Running(lambda: play_out(game.pk))
        assert _until(lambda: not ending.is_alive() or _lock_waiters() == 2)
    recompute.join(60)
    ending.join(60)
    assert recompute.outcome is None and isinstance(ending.outcome, Game), (
        recompute.outcome,
        ending.outcome,
    )

    assert RatingChange.objects.filter(game=game).count() == 3
    live = _everything()
    call_command("recompute_ratings", verbosity=0)
    assert _everything() == live


@postgres_only
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_first_games_of_new_people_sharing_new_bot_levels_end_together_without_deadlock(
    settings,
):
    _many_tables(settings)
    User = get_user_model()
    pairs = list(itertools.combinations(["easy", "normal", "greedy", "random"], 2))
    for n, (one, other) in enumerate(pairs * 3):
        Rating.objects.filter(user=None).delete()  # the two bot levels are new again
        games = []
        for i in range(PLAYERS):
            person = User.objects.create_user(f"new-{n}-{i}")
            game = tables.create_table(person, others=(one, other), rated=True)
            prepare_last_move(game.pk)  # the server's next move ends it
            games.append(game.pk)
        waiting = (one, other)[n % 2]
        # Another game has made one level's row and will roll back, so the games' last
        # moves all wait, some holding the other level's new row; then they go at once.
        new_level = Rating(bot_kind=waiting, mu=core.NEW.mu, sigma=core.NEW.sigma)
        with _held(new_level.save, commit=False):
            ending = [_Running(lambda pk=pk: _last_move(pk)) for pk in games]

            # Every game waits (for the held row, or for a game that holds the other new
            # row); a game that failed instead stops the wait and shows its error.
            def all_wait(running: list[_Running] = ending) -> bool:
                alive = all(t.is_alive() for t in running)
                return not alive or _lock_waiters() == PLAYERS

            assert _until(all_wait), _lock_waiters()
            assert all(t.is_alive() for t in ending), [t.outcome for t in ending]
        for thread in ending:
            thread.join(60)

        assert all(isinstance(t.outcome, Game) for t in ending), [t.outcome for t in ending]
        assert RatingChange.objects.filter(game__in=games).count() == 3 * PLAYERS
