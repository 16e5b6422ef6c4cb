"""Series tables (issue 9): hand after hand at one table, the winner deals next, a pot
taken by two wins in a row, leavers replaced by a bot, and a ledger derived from the
stored games."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from games.engine import replay
from games.history.records import verify_deal
from games.models import Game
from games.play import aborts, tables
from games.play.errors import NotAllowed, ServiceError
from games.series import services as series
from games.series.ledger import HandResult, ledger
from games.series.models import Series
from tests.fast_games import finish

pytestmark = pytest.mark.django_db


def hand(number: int, winner: int | None, chips=None, *, over: bool = True) -> HandResult:
    if winner is not None and chips is None:
        chips = tuple(2 if s == winner else -1 for s in range(3))
    return HandResult(number, True, over, winner, chips, dealer=0)


def test_the_pot_carries_over_until_a_seat_wins_two_hands_in_a_row():
    book = ledger(2, [hand(1, 0), hand(2, 1)])
    assert book.pot == 12 and book.streak_seat == 1 and book.streak == 1
    assert not [e for e in book.events if e.kind == "pot"]

    book = ledger(2, [hand(1, 0), hand(2, 1), hand(3, 1)])
    taken = [e for e in book.events if e.kind == "pot"]
    assert [(e.hand, e.seat, e.amount) for e in taken] == [(3, 1, 18)]
    assert book.pot == 0 and book.streak == 0
    assert book.standings[1].pots_won == 1 and book.standings[1].wins == 2
    # Seat 1 paid three antes and took the pot of nine: +12 from the pot, plus its hands.
    assert book.standings[1].pot_chips == 12
    assert book.standings[1].net == 12 + 2 + 2 - 1
    assert book.total() == 0

    # After a pot the count starts again: a third win in a row is one, not a second pot.
    book = ledger(1, [hand(1, 2), hand(2, 2), hand(3, 2)])
    assert [e.kind for e in book.events].count("pot") == 1
    assert book.pot == 3 and book.streak_seat == 2 and book.streak == 1


def test_an_aborted_hand_breaks_the_streak_and_keeps_its_antes_in_the_pot():
    book = ledger(1, [hand(1, 0), hand(2, None), hand(3, 0)])
    assert book.pot == 9 and book.streak == 1


def returns(book) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in book.events if e.kind == "return"]


def test_an_unwon_pot_gives_each_person_back_their_own_antes_and_the_rest_to_the_house():
    # Rules, Series: ante 5 against two bots, three hands, nobody won twice in a row, then
    # ended: the person gets back the 15 she put in, not the bots' 30 (issue 23).
    book = ledger(5, [hand(1, 0), hand(2, 1), hand(3, 0)], ended=True, people=[0])
    assert returns(book) == [(0, 15)]
    assert book.house == 30 and book.pot == 0 and book.total() == 0
    assert book.standings[0].pot_chips == 0  # paid 15, got 15 back: never more

    # Two people left of three (a friend left, or a bot holds the seat): each their own.
    book = ledger(5, [hand(1, 0), hand(2, 1)], ended=True, people=[0, 2])
    assert returns(book) == [(0, 10), (2, 10)]
    assert book.house == 10 and book.total() == 0
    assert [s.pot_chips for s in book.standings] == [0, -10, 0]

    nobody = ledger(1, [hand(1, 0)], ended=True, people=[])
    assert returns(nobody) == [] and nobody.house == 3 and nobody.total() == 0


def test_only_the_pot_since_it_was_last_taken_goes_back_and_an_aborted_hand_counts():
    # Seat 1 took the pot of hands 1-2; hand 3 was aborted (its antes stay in the pot and
    # break the streak), hand 4 won by seat 1 is a first win again; then it ended.
    hands = [hand(1, 1), hand(2, 1), hand(3, None), hand(4, 1)]
    book = ledger(2, hands, ended=True, people=[0, 1])
    assert [(e.hand, e.seat, e.amount) for e in book.events if e.kind == "pot"] == [(2, 1, 12)]
    assert book.put_in == [4, 4, 4]  # hands 3 and 4: the aborted one counts
    assert returns(book) == [(0, 4), (1, 4)]
    assert book.house == 4 and book.total() == 0
    # Seat 1: -8 antes, +12 pot, +4 back; seat 0 is even on the last pot, -4 on the first;
    # seat 2 (a bot) leaves its 4 in the last pot to the house.
    assert [s.pot_chips for s in book.standings] == [-4, 8, -8]

    # Still going on: nothing is returned and the pot holds every seat's antes.
    going = ledger(2, hands)
    assert going.pot == 12 and going.put_in == [4, 4, 4] and returns(going) == []
    assert going.streak_seat == 1 and going.streak == 1


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="pw-staff-123!", is_staff=True)


def _ready_all(st):
    for seat in st.seats:
        if seat.user_id and seat.index not in st.series.left:
            st = series.ready(st.series.pk, seat.user)
    return st


def test_the_winner_of_a_hand_deals_the_next(alice):
    made = series.create_series(alice, ante=1, others=("greedy", "random"), rated=True)
    for number in range(1, 4):
        st = series.state(made)
        finish(st.latest.pk)
        st = series.state(Series.objects.get(pk=made.pk))
        winner = st.latest.winner_seat
        st = _ready_all(st)
        assert len(st.hands) == number + 1
        following = st.latest
        assert following.status == Game.Status.PLAYING
        assert following.dealer == winner == following.deal["dealer"]
        assert len(following.deal["hands"][winner]) == 13
        assert following.turn_seat == winner
    # The first hand's dealer was drawn from its seed; later ones come from the deal's
    # input, and every hand's seed still verifies against its commitment and its deal.
    for result in st.hands[:-1]:
        game = Game.objects.get(series_hand__series=made, series_hand__number=result.number)
        assert verify_deal(game)[0], verify_deal(game)


def test_a_seat_that_wins_twice_in_a_row_takes_the_pot(alice):
    made = series.create_series(alice, ante=2, others=("greedy", "greedy"))
    taken = None
    for _ in range(30):
        st = series.state(Series.objects.get(pk=made.pk))
        finish(st.latest.pk)
        st = series.state(Series.objects.get(pk=made.pk))
        taken = st.book.last_taken
        if taken is not None:
            break
        _ready_all(st)
    assert taken is not None
    winners = [h.winner for h in st.hands]
    assert winners[-1] == winners[-2] == taken.seat
    # Every hand before was not a second win in a row, so the pot had carried over.
    assert taken.amount == 3 * 2 * len(st.hands) - _taken_before(st)
    assert st.book.pot == 0
    assert st.book.total() == 0


def _taken_before(st) -> int:
    return sum(e.amount for e in st.book.events[:-1] if e.kind == "pot")


def test_a_leaver_is_replaced_by_a_bot_and_the_series_goes_on(alice, bob):
    made = series.create_series(alice, ante=1, others=("open", "greedy"), bot_kind="random")
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)

    st = series.leave(made.pk, bob)
    assert st.series.left == [1] and len(st.hands) == 1  # alice has not said she is ready
    st = series.ready(made.pk, alice)
    assert len(st.hands) == 2
    seats = {s.index: (s.user_id, s.bot_kind) for s in st.seats}
    assert seats == {0: (alice.pk, ""), 1: (None, "random"), 2: (None, "greedy")}
    assert st.latest.status == Game.Status.PLAYING
    # What bob put in stays in the pot; he cannot act in the series any more.
    assert st.book.pot == 6
    with pytest.raises(NotAllowed):
        series.ready(made.pk, bob)


def test_a_deleted_persons_seat_is_taken_by_the_bot_at_the_next_hand(alice, bob):
    """Staff deleted an account between hands: the next hand was dealt with a seat that
    had neither a person nor a bot, whose every turn waited out the clock."""
    made = series.create_series(alice, ante=1, others=("open", "greedy"), bot_kind="easy")
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)
    get_user_model().objects.filter(pk=bob.pk).delete()

    st = series.ready(made.pk, alice)

    assert len(st.hands) == 2 and st.series.left == [1]
    seats = {s.index: (s.user_id, s.bot_kind) for s in st.seats}
    assert seats == {0: (alice.pk, ""), 1: (None, "easy"), 2: (None, "greedy")}
    assert st.book.total() == 0


def test_a_series_left_to_a_closed_account_ends(alice, bob):
    """Nobody could end it: the closed account cannot log in, and the series dealt hand
    after hand to it, its antes piling into a pot nobody could win."""
    made = series.create_series(alice, ante=5, others=("open", "greedy"))
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)  # staff close it

    st = series.leave(made.pk, bob)

    assert st.series.ended and "No person" in st.series.end_reason
    assert len(st.hands) == 1 and st.series.left == [0, 1]
    assert st.book.total() == 0


def test_the_series_ends_when_no_person_is_left(alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    finish(series.state(made).latest.pk)
    st = series.leave(made.pk, alice)
    assert st.series.ended and "No person" in st.series.end_reason
    assert st.book.house == 3 and st.book.total() == 0


def test_anyone_seated_ends_it_between_hands_and_the_ledger_sums_to_zero(
    alice, bob, carol, django_user_model
):
    made = series.create_series(alice, ante=1, others=("open", "open"))
    game = series.state(made).latest
    tables.join_table(game.pk, bob)
    tables.join_table(game.pk, carol)
    with pytest.raises(NotAllowed):
        series.end(made.pk, bob)  # mid-hand
    finish(game.pk)
    stranger = django_user_model.objects.create_user("dave", password="pw-dave-123!")
    with pytest.raises(NotAllowed):
        series.end(made.pk, stranger)  # not at the table
    series.leave(made.pk, carol)
    with pytest.raises(NotAllowed):
        series.end(made.pk, carol)  # left
    st = series.end(made.pk, bob)  # not its creator, still seated
    assert st.series.ended and st.series.end_reason == Series.ENDED_BY_PLAYER
    assert st.series.people_at_end == [0, 1]
    book = st.book
    assert [(e.seat, e.amount) for e in book.events if e.kind == "return"] == [(0, 1), (1, 1)]
    assert book.house == 1 and book.total() == 0  # carol's ante: she left
    with pytest.raises(NotAllowed):
        series.ready(made.pk, alice)


def test_after_its_creator_left_the_others_can_still_end_it_and_get_their_antes_back(alice, bob):
    # Issue 23: once the creator had left, the last person's leave was the only way out,
    # and it gave the whole pot to the house.
    made = series.create_series(alice, ante=2, others=("open", "greedy"))
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)
    series.leave(made.pk, alice)
    st = series.end(made.pk, bob)
    assert st.series.ended and st.series.people_at_end == [1]
    assert [(e.seat, e.amount) for e in st.book.events if e.kind == "return"] == [(1, 2)]
    assert st.book.house == 4 and st.book.total() == 0
    assert st.book.standings[1].pot_chips == 0


def test_an_aborted_hand_starts_the_pause_and_the_timer_deals_the_next(alice, bob, staff):
    made = series.create_series(alice, ante=1, others=("open", "greedy"))
    tables.join_table(series.state(made).latest.pk, bob)
    game = series.state(made).latest
    before = timezone.now()
    aborts.abort_game(game.pk, staff, "a broken connection")
    made.refresh_from_db()
    assert made.next_at is not None and made.next_at > before
    assert len(series.go_on_if_due(made.pk).hands) == 1  # the pause is not over yet
    st = series.go_on_if_due(made.pk, now=made.next_at + timedelta(seconds=1))
    assert len(st.hands) == 2 and st.latest.status == Game.Status.PLAYING
    assert st.latest.dealer == game.dealer  # an aborted hand's dealer deals again
    assert st.book.pot == 6 and st.book.streak == 0


def test_a_first_hand_aborted_before_its_deal_ends_the_series_with_nothing_in_the_pot(alice, staff):
    made = series.create_series(alice, ante=5, others=("open", "open"))
    aborts.abort_game(series.state(made).latest.pk, staff, "nobody came")
    st = series.state(Series.objects.get(pk=made.pk))
    assert st.series.ended and st.series.end_reason == Series.ABORTED_UNDEALT
    assert st.book.pot == 0 and st.book.house == 0 and st.book.total() == 0
    assert len(series.go_on_if_due(made.pk, now=timezone.now() + timedelta(days=1)).hands) == 1


def test_the_next_hand_is_dealt_when_the_pause_ends_without_everyone_ready(alice, bob):
    made = series.create_series(alice, ante=1, others=("open", "greedy"))
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)
    st = series.ready(made.pk, alice)
    assert len(st.hands) == 1 and st.series.ready == [0]
    assert len(series.go_on_if_due(made.pk).hands) == 1
    later = timezone.now() + timedelta(minutes=5)
    assert len(series.go_on_if_due(made.pk, now=later).hands) == 2


def test_the_ledger_is_the_same_from_the_move_logs(alice):
    made = series.create_series(alice, ante=5, others=("greedy", "random"))
    for _ in range(4):
        st = series.state(Series.objects.get(pk=made.pk))
        finish(st.latest.pk)
        _ready_all(series.state(Series.objects.get(pk=made.pk)))
    st = series.state(Series.objects.get(pk=made.pk))
    replayed = []
    for result in st.hands:
        game = Game.objects.get(series_hand__series=made, series_hand__number=result.number)
        outcome = replay(game.record()).state.outcome
        replayed.append(
            HandResult(
                result.number, True, outcome is not None,
                outcome.winner if outcome else None,
                tuple(outcome.chips) if outcome else None, game.deal["dealer"],
            )
        )  # fmt: skip
    assert replayed == st.hands
    assert ledger(5, replayed) == st.book


def test_a_series_needs_a_known_ante(alice):
    with pytest.raises(ServiceError):
        series.create_series(alice, ante=3)


def test_seeded_series_deal_as_a_series_table_does_and_balance(alice):
    # manage.py seed_games --series-every: what the page benchmark and the query-count
    # tests put among a player's games, so it must be a series the site would have made.
    from games.ratings.models import Rating
    from games.series.models import Series
    from tests.history_support import seed_games

    seed_games("alice", 7, seed=11, rated=True, series_every=3)

    made = list(Series.objects.order_by("pk"))
    assert [s.hands.count() for s in made] == [3, 3, 1]
    for s in made:
        hands = series.hand_results(s.pk)
        for before, after in zip(hands, hands[1:], strict=False):
            assert after.dealer == before.winner  # the winner deals the next hand
        # The same seats every hand (issue 23: the person moved, so the pot went to a bot).
        seats = {
            tuple((seat.user_id, seat.bot_kind) for seat in hand.game.seats.order_by("index"))
            for hand in s.hands.select_related("game")
        }
        assert len(seats) == 1
        mine = next(i for i, (user, _) in enumerate(seats.pop()) if user == alice.pk)
        assert s.people_at_end == [mine]
        book = series.state(s).book
        assert book.total() == 0
        back = [(e.seat, e.amount) for e in book.events if e.kind == "return"]
        assert back in ([], [(mine, book.put_in[mine])])
    assert Rating.objects.filter(user=alice, games=7).exists()
    out = io.StringIO()
    try:  # every stored game replays to its stored result, its deal checked by its dealer
        call_command("replay", stored=True, stdout=out, stderr=io.StringIO())
    except SystemExit as e:
        assert e.code in (0, None), out.getvalue()
