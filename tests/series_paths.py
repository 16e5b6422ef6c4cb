"""Random series, played for real: a hypothesis strategy of what people, bots, staff and
the pause's timer do to a series table, and ``play_path`` that does it through the series
services on the database and returns the Series. Property tests check the pot's books
over these paths (tests/test_series_paths.py); they can be reused for anything a series
must keep on every path (its record's download, upload and replay: tests/series_round_trip.py,
at a moment midway and at the end).

Each hand that is played goes to its end at once (``tests.fast_games.finish_quickly``):
the server's own bot moves, the last through ``server_moves.play_due``, so a hand ends in the
same transaction as a live one (the series' pause, ratings).

Staff may also close a seat's person's account (fair play's Close) or delete it, at any
moment: during a hand, between hands, after the end. From then on that person does
nothing (a closed account cannot log in; a deleted one is gone); ``play_path`` notes
which seats went so, and whether the series had ended then (``Gone``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from hypothesis import strategies as st

from games.fairplay import actions
from games.models import Game
from games.play import aborts, tables
from games.play.errors import ServiceError
from games.series import services as series
from games.series.models import Series
from tests.fast_games import finish_quickly

# What can happen to a series; the actions of a seat's person name the seat (a seat with
# no person is tried by someone not at the table, who must be refused).
PLAY = "play"  # the hand being played goes to its end
ABORT = "abort"  # staff abort the hand being played (or waiting for people)
READY = "ready"  # the seat's person clicks Next hand
LEAVE = "leave"  # the seat's person leaves the series
END = "end"  # the seat's person ends the series
TIMEOUT = "timeout"  # the page asks for the next hand once the pause is over
CLOSE = "close"  # staff close the seat's person's account (fair play)
DELETE = "delete"  # staff delete the seat's person's account
ACTIONS = (PLAY, ABORT, READY, LEAVE, END, TIMEOUT, CLOSE, DELETE)
# Bots cheap to play out (the Hard and search bots think in another process).
BOT_SEATS = ("random", "greedy", "easy")


@dataclass(frozen=True)
class Path:
    """One random series: its table, what happens in order, and who ends it at the end."""

    ante: int
    others: tuple[str, str]  # seats 1 and 2: "open" (a person sits there) or a bot kind
    fill: bool  # whether every open seat is taken (else the first hand waits)
    actions: tuple[tuple[str, int], ...]  # (action, seat)
    close: int | None  # at the end, this seat's person ends the series (if still there)
    # After this many actions (at most all of them) ``play_path``'s ``midway`` looks at the
    # series: a moment at random, between hands or during one.
    midway_at: int = 0


def _action() -> st.SearchStrategy[tuple[str, int]]:
    # Hands played and pauses run out more often than anything else: a path of a few
    # actions then holds a few hands, where the pot can be taken, carried or returned.
    kinds = st.sampled_from(
        (PLAY, TIMEOUT, PLAY, READY, TIMEOUT, LEAVE, END, ABORT, PLAY, TIMEOUT, CLOSE, DELETE)
    )
    return st.tuples(kinds, st.integers(0, 2))


def paths(max_actions: int = 8) -> st.SearchStrategy[Path]:
    """Series paths: an ante of 1, 2 or 5; people and bots at the table; up to
    ``max_actions`` actions; and maybe a seat whose person ends it at the end."""
    return st.builds(
        Path,
        ante=st.sampled_from(Series.ANTES),
        others=st.tuples(*[st.sampled_from(("open", *BOT_SEATS))] * 2),
        fill=st.sampled_from((True, True, True, False)),
        actions=st.lists(_action(), max_size=max_actions).map(tuple),
        close=st.one_of(st.none(), st.integers(0, 2)),
        midway_at=st.integers(0, max_actions),
    )


@dataclass(frozen=True)
class Gone:
    """A seat whose person's account staff closed or deleted: which, and whether the
    series had already ended then."""

    seat: int
    deleted: bool
    after_the_end: bool


def play_path(
    path: Path,
    people: Sequence[AbstractBaseUser],
    staff: AbstractBaseUser,
    midway: Callable[[Series], object] | None = None,
    gone: list[Gone] | None = None,
) -> Series:
    """Make the series of ``path`` (``people[0]`` makes it, the next ones sit in its open
    seats, and ``people[3]`` is at no seat) and do each action; an action the services
    refuse changes nothing and the path goes on. ``midway``, if given, is called with the
    series after ``path.midway_at`` actions; ``gone``, if given, gets the seats whose
    accounts were closed or deleted (``staff`` needs fair play's Close permission).
    Returns the Series, fresh from the database. A deleted account is deleted by its id:
    the caller's ``people`` keep theirs, for the next example once this one is rolled
    back."""
    creator, outsider = people[0], people[3]
    made = series.create_series(creator, ante=path.ante, others=path.others, rated=False)
    first = made.hands.get().game
    joining = [p for p, o in zip(people[1:3], path.others, strict=True) if o == "open"]
    for person in joining if path.fill else joining[:-1]:
        tables.join_table(first.pk, person)
    at = {s.index: s.user for s in first.seats.select_related("user") if s.user_id}

    def who(seat: int) -> AbstractBaseUser:
        return at.get(seat, outsider)

    noted = [] if gone is None else gone
    at_moment = min(path.midway_at, len(path.actions))
    for done, (action, seat) in enumerate(path.actions):
        if midway is not None and done == at_moment:
            midway(made)
        if action in (CLOSE, DELETE):
            if seat in at:  # a person sits there: from now on they do nothing
                went = _take_away(made.pk, at.pop(seat), action == DELETE, staff)
                noted.append(Gone(seat, action == DELETE, went))
            continue
        _do(made.pk, action, who(seat), staff)
    if midway is not None and at_moment == len(path.actions):
        midway(made)
    if path.close is not None:
        _do(made.pk, PLAY, who(path.close), staff)
        _do(made.pk, END, who(path.close), staff)
    return Series.objects.get(pk=made.pk)


def _take_away(series_id: int, person: AbstractBaseUser, delete: bool, staff) -> bool:
    """Close or delete the person's account; whether the series had ended by then."""
    ended = Series.objects.filter(pk=series_id, ended_at__isnull=False).exists()
    if delete:
        get_user_model().objects.filter(pk=person.pk).delete()
    else:
        actions.close_account(staff, person, "a random path's close")
    return ended


def _do(series_id: int, action: str, person: AbstractBaseUser, staff: AbstractBaseUser) -> None:
    try:
        if action in (PLAY, ABORT):
            # The newest hand's game, in one query (the series' state takes four).
            latest = (
                Game.objects.filter(series_hand__series_id=series_id)
                .order_by("-series_hand__number")
                .values("pk", "status")
                .first()
            )
            if action == PLAY and latest["status"] == Game.Status.PLAYING:
                finish_quickly(latest["pk"])
            elif action == ABORT and latest["status"] in (Game.Status.WAITING, Game.Status.PLAYING):
                aborts.abort_game(latest["pk"], staff, "a random path's abort")
        elif action == READY:
            series.ready(series_id, person)
        elif action == LEAVE:
            series.leave(series_id, person)
        elif action == END:
            series.end(series_id, person)
        elif action == TIMEOUT:
            due = Series.objects.filter(pk=series_id).values_list("next_at", flat=True).get()
            series.go_on_if_due(series_id, now=(due or timezone.now()) + timedelta(seconds=1))
    except ServiceError:
        pass  # refused: a clear message to that person, and nothing changed
