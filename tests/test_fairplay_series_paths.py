"""Held pots on random series paths (issue 49): whatever people, bots, staff and the
pause's timer do to a series (tests/series_paths.py), once fair play flags a pair a pot
taken at a hand the two shared never counts, on the series page or the profile, and every
chip stays accounted for; clearing the pair counts it again, voiding the pair's games makes
the pots again from the other hands, and the books still balance."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.fairplay import actions, review
from games.fairplay.models import Pair
from games.models import Game, Seat
from games.play import moves
from games.play.live import snapshots
from games.series import ledger, pages
from games.series import services as series
from games.series.models import Series
from games.table import rendering
from tests import series_paths as sp
from tests.test_fairplay_actions import fair_play_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return fair_play_staff("staff")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("dave", password="pw-dave-123!")


def people_paths() -> st.SearchStrategy[sp.Path]:
    """Series paths with a person in seat 1 beside the creator, every open seat taken, and
    hands played and pauses run out often enough that pots are taken (a pot needs two wins
    in a row)."""
    kinds = st.sampled_from(
        (sp.PLAY, sp.TIMEOUT) * 10 + (sp.READY, sp.ABORT, sp.LEAVE, sp.END, sp.CLOSE, sp.DELETE)
    )
    return st.builds(
        sp.Path,
        ante=st.sampled_from(Series.ANTES),
        others=st.tuples(st.just("open"), st.sampled_from(("open", "open", *sp.BOT_SEATS))),
        fill=st.just(True),
        actions=st.lists(st.tuples(kinds, st.integers(0, 2)), min_size=12, max_size=30).map(tuple),
        close=st.one_of(st.none(), st.integers(0, 2)),
    )


def seated(made: Series) -> dict[int, dict[int, int]]:
    """Hand number -> seat -> account, counted apart from fair play and the pages."""
    rows = Seat.objects.filter(game__series_hand__series=made, user__isnull=False)
    out: dict[int, dict[int, int]] = {}
    for number, index, user in rows.values_list("game__series_hand__number", "index", "user"):
        out.setdefault(number, {})[index] = user
    return out


def check_held(made: Series, flagged: frozenset[int] | None) -> None:
    """A pot counts (page and profile) unless its taker sat at that hand with its flagged
    partner; then it is held, and every chip is still somewhere."""
    st = series.state(Series.objects.get(pk=made.pk))
    book = st.book
    at = seated(made)
    pots = [e for e in book.events if e.kind == "pot"]

    def waits(e: ledger.Event) -> bool:
        hand = at.get(e.hand, {})
        taker = hand.get(e.seat)
        return flagged is not None and taker in flagged and set(hand.values()) >= flagged

    held = {(e.hand, e.seat) for e in pots if waits(e)}
    if held:
        event("a pot held")
    count = ledger.counted(book, {(n, s) for _, n, s in pages.held_seats({made.pk})})
    assert count.total(book) == 0 == book.total()
    assert sum(count.held_pots) == len(held)
    context = pages.context(st, AnonymousUser())["series"]
    for row, raw in zip(context["rows"], book.standings, strict=True):
        mine = [e for e in pots if e.seat == row.seat]
        assert row.held == sum(1 for e in mine if (e.hand, e.seat) in held)
        assert row.pots_won == raw.pots_won - row.held  # a held pot is never won on the page
    assert context["held_chips"] == sum(e.amount for e in pots if (e.hand, e.seat) in held)
    # The profile: only this series here, so its figures are this ledger's.
    for account in {u for hand in at.values() for u in hand.values()}:
        mine = [e for e in pots if at.get(e.hand, {}).get(e.seat) == account]
        counted_pots = [e for e in mine if (e.hand, e.seat) not in held]
        assert pages.pots_won(account) == {
            "pots_won": len(counted_pots),
            "pot_chips_won": sum(e.amount for e in counted_pots),
            "pots_held": len(mine) - len(counted_pots),
        }


# 100 paths a run (about 15 s); deeper: TONGITS_HELD_PATHS=2000.
@settings(
    max_examples=int(os.environ.get("TONGITS_HELD_PATHS", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=people_paths(),
    which=st.sampled_from([(0, 1), (0, 2), (1, 2)]),
)
def test_held_pots_never_count_and_clearing_or_voiding_keeps_every_chip(
    path, which, alice, bob, carol, outsider, staff
):
    moves.forget_cached_states()
    snapshots.forget()
    rendering.forget_boards()
    with transaction.atomic():
        people = [alice, bob, carol, outsider]
        made = sp.play_path(path, people, staff)
        alive = [p for p in people[:3] if type(p).objects.filter(pk=p.pk).exists()]
        one, other = people[which[0]], people[which[1]]
        check_held(made, None)  # nobody flagged: every pot counts
        if one not in alive or other not in alive:
            transaction.set_rollback(True)
            return
        low, high = sorted([one.pk, other.pk])
        pair = Pair.objects.create(low_id=low, high_id=high, games=30, flagged_after=12)
        check_held(made, frozenset((low, high)))
        # Staff clear the pair (in a savepoint, undone), or void its games.
        with transaction.atomic():
            review.clear_pair(staff, pair, "looked at the replays")
            check_held(made, None)
            transaction.set_rollback(True)
        done = actions.void_pair(staff, pair, "shared hands")
        theirs = set(
            Game.objects.filter(series_hand__series=made, status=Game.Status.FINISHED)
            .filter(seats__user_id=low)
            .filter(seats__user_id=high)
            .values_list("pk", flat=True)
        )
        assert set(done.games) == theirs
        if theirs:
            event("hands voided")
        # Every hand they shared is void: no pot of theirs is left to hold, and the
        # pots made again from the other hands balance.
        check_held(made, frozenset((low, high)))
        book = series.state(Series.objects.get(pk=made.pk)).book
        voided = set(made.hands.filter(game__pk__in=theirs).values_list("number", flat=True))
        assert not [e for e in book.events if e.kind == "pot" and e.hand in voided]
        still = {(n, seat) for _, n, seat in pages.held_seats({made.pk})}
        assert sum(ledger.counted(book, still).held_pots) == 0
        transaction.set_rollback(True)
