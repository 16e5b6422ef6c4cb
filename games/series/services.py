"""The one place that changes series: make one, be ready for the next hand, leave, end
(a staff abort of a hand reaches series through ``hooks``).

Each writes under the series row's lock. A hand is dealt through ``games.play.dealing`` like
any game; the dealer comes in as the deal's input (the last hand's winner), never chosen
inside the engine.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.play import dealing, tables, telling
from games.play.errors import NotAllowed, ServiceError
from games.series.ledger import HandResult, Ledger, ledger, next_dealer
from games.series.models import Hand, Series

GAME_FIELDS = ("status", "winner_seat", "chips", "dealer", "voided_at")


def create_series(
    user: AbstractBaseUser,
    *,
    ante: int,
    others: tuple[str, str] = ("open", "open"),
    public: bool = True,
    rated: bool = False,
    variants: list[str] | None = None,
    turn_seconds: int | None = None,
    bot_kind: str | None = None,
    form_key: str = "",
) -> Series:
    """A series table: its first hand is a new table like any other (dealt when full).
    A person who leaves is replaced by a bot of ``bot_kind``: by default the level of the
    table's bots, or Normal at a table of people only. ``form_key`` as for
    ``create_table``: the same form again gives the series it made."""
    if bot_kind is None:
        bot_kind = next((o for o in others if o != "open"), "normal")
    if ante not in Series.ANTES:
        raise ServiceError(_("Choose an ante of 1, 2 or 5 chips."))
    with transaction.atomic():
        game = tables.create_table(
            user, public=public, others=others, variants=variants,
            turn_seconds=turn_seconds, rated=rated, form_key=form_key,
        )  # fmt: skip
        if game.repeated:
            first = Hand.objects.filter(game=game).select_related("series").first()
            if first is None:
                raise ServiceError(_("That form was sent already: its table is in your games."))
            return first.series
        series = Series.objects.create(created_by=user, ante=ante, bot_kind=bot_kind)
        Hand.objects.create(series=series, game=game, number=1)
    return series


# --- Reading ------------------------------------------------------------------------------


def result_of(number: int, row: dict) -> HandResult:
    """A hand's result for the ledger. A hand fair play voided counts as one aborted: no
    winner and no chips, its antes stay in the pot and every streak is broken, so voiding a
    pair's games makes the pots again as if those hands had not been won."""
    over = row["status"] in (Game.Status.FINISHED, Game.Status.ABORTED)
    finished = row["status"] == Game.Status.FINISHED and not row.get("voided_at")
    return HandResult(
        number=number,
        dealt=row["dealer"] is not None,
        over=over,
        winner=row["winner_seat"] if finished else None,
        chips=tuple(row["chips"]) if finished and row["chips"] else None,
        dealer=row["dealer"],
    )


def hand_results(series_id: int) -> list[HandResult]:
    """The series' hands in order, from their games' stored results: one query."""
    rows = (
        Hand.objects.filter(series_id=series_id)
        .order_by("number")
        .values("number", *(f"game__{f}" for f in GAME_FIELDS))
    )
    return [result_of(r["number"], {f: r[f"game__{f}"] for f in GAME_FIELDS}) for r in rows]


@dataclass(frozen=True)
class State:
    series: Series
    latest: Game  # the newest hand's game
    seats: list[Seat]  # the newest hand's seats
    hands: list[HandResult]
    book: Ledger

    @property
    def between(self) -> bool:
        """The newest hand is over and the series goes on: the pause between hands."""
        return self.latest.is_over and not self.series.ended and not self.series.imported

    def people(self) -> list[int]:
        """Seats still held by people (not left)."""
        return [s.index for s in self.seats if s.user_id and s.index not in self.series.left]

    def seat_of(self, user: AbstractBaseUser) -> Seat | None:
        if not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)


def state(series: Series) -> State:
    """The series now: its newest hand and its ledger (four queries)."""
    hand = series.hands.select_related("game").order_by("-number").first()
    seats = list(hand.game.seats.select_related("user__profile").order_by("index"))
    hands = hand_results(series.pk)
    book = ledger(series.ante, hands, series.ended, series.people_at_end)
    return State(series, hand.game, seats, hands, book)


# --- Between hands ------------------------------------------------------------------------


def _locked(series_id: int) -> State:
    try:
        series = Series.objects.select_for_update().get(pk=series_id)
    except Series.DoesNotExist:
        raise NotAllowed(_("There is no such series.")) from None
    return state(series)


def _between(st: State, user: AbstractBaseUser) -> Seat:
    seat = st.seat_of(user)
    if seat is None or seat.index in st.series.left:
        raise NotAllowed(_("You are not playing in this series."))
    if st.series.ended or st.series.imported:
        raise NotAllowed(_("This series has ended."))
    if not st.latest.is_over:
        raise NotAllowed(_("Finish this hand first."))
    return seat


def ready(series_id: int, user: AbstractBaseUser, now: datetime | None = None) -> State:
    """The person is ready for the next hand: dealt when every person still seated is, or
    when the pause is over."""
    with transaction.atomic():
        st = _locked(series_id)
        seat = _between(st, user)
        if seat.index not in st.series.ready:
            st.series.ready = sorted([*st.series.ready, seat.index])
            st.series.save(update_fields=["ready"])
        return _go_on(st, now or timezone.now())


def leave(series_id: int, user: AbstractBaseUser, now: datetime | None = None) -> State:
    """The person leaves between hands: a bot of the series' level takes the seat for
    the rest of it, and what they put in the pot stays there."""
    with transaction.atomic():
        st = _locked(series_id)
        seat = _between(st, user)
        st.series.left = sorted([*st.series.left, seat.index])
        st.series.ready = [s for s in st.series.ready if s != seat.index]
        st.series.save(update_fields=["left", "ready"])
        return _go_on(state(st.series), now or timezone.now())


def end(series_id: int, user: AbstractBaseUser) -> State:
    """Any person still seated ends the series between hands (not only its creator, who
    may have left): each person's own antes in the pot go back to them (``ledger``)."""
    with transaction.atomic():
        st = _locked(series_id)
        _between(st, user)
        _end(st, Series.ENDED_BY_PLAYER)
        return state(st.series)


def go_on_if_due(series_id: int, now: datetime | None = None) -> State:
    """The next hand if the pause is over (asked by the series page and its countdown)."""
    with transaction.atomic():
        st = _locked(series_id)
        if not st.between:
            return st
        return _go_on(st, now or timezone.now())


def _go_on(st: State, now: datetime) -> State:
    st = _gone_leave(st)
    people = st.people()
    if not people:
        _end(st, Series.NOBODY_LEFT)
        return state(st.series)
    if st.hands[-1].number >= Series.MAX_HANDS:  # bounds its record (docs/record.md)
        _end(st, Series.ALL_HANDS_PLAYED)
        return state(st.series)
    due = st.series.next_at is not None and now >= st.series.next_at
    if due or set(people) <= set(st.series.ready):
        _deal_next(st)
        return state(st.series)
    return st


def _gone_leave(st: State) -> State:
    """A seat whose account was deleted (no person, no bot) or closed (it cannot log in)
    is left as a person leaves: the series' bot takes it from the next hand, and a series
    left to such seats alone ends."""
    gone = [
        s.index
        for s in st.seats
        if s.index not in st.series.left
        and (not s.user_id and not s.bot_kind or s.user_id and not s.user.is_active)
    ]
    if not gone:
        return st
    series = st.series
    series.left = sorted([*series.left, *gone])
    series.ready = [i for i in series.ready if i not in gone]
    series.save(update_fields=["left", "ready"])
    return state(series)


def _end(st: State, reason: str) -> None:
    """``reason``: one of ``Series.END_REASONS``' keys, stored in English and put into the
    reader's words where it is shown (``Series.end_reason_shown``). A seat whose account
    was closed or deleted since the last hand has left first: it is no person still
    seated, and its antes go to the house (rules.md, Series)."""
    st = _gone_leave(st)
    series = st.series
    series.ended_at, series.end_reason = timezone.now(), reason
    series.ready, series.next_at, series.people_at_end = [], None, st.people()
    series.save(update_fields=["ended_at", "end_reason", "ready", "next_at", "people_at_end"])


def _deal_next(st: State) -> Game:
    """The next hand: the same seats (a leaver's taken by the bot), the last winner deals."""
    series, latest = st.series, st.latest
    seed = str(secrets.randbits(128))
    game = Game.objects.create(
        created_by=series.created_by, public=latest.public, variants=list(latest.variants),
        turn_seconds=latest.turn_seconds, rated=latest.rated, seed=seed,
        commitment=Game.commit_to(seed),
    )  # fmt: skip
    for seat in st.seats:
        gone = seat.index in series.left
        Seat.objects.create(
            game=game, index=seat.index, user=None if gone else seat.user,
            bot_kind=series.bot_kind if gone else seat.bot_kind,
        )  # fmt: skip
    number = st.hands[-1].number + 1
    Hand.objects.create(series=series, game=game, number=number)
    # Checked again for each hand: people may have come to share an address or a device
    # since the last (fair play's notice at a rated table, before the deal).
    dealing._note_shared(game, list(game.seats.all()))
    dealing.start_game(game, dealer=next_dealer(st.hands))
    series.ready, series.next_at = [], None
    series.save(update_fields=["ready", "next_at"])
    # The finished hand's table shows the way on (its "next game"), to its watchers too.
    Game.objects.filter(pk=latest.pk).update(next_game=game)
    telling._changed(latest)
    return game
