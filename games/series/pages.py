"""What pages show of a series: the panel beside a hand's table (pot, streak, standings),
the screen between hands and the series' end. A fixed number of queries each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse
from django.utils import timezone

from games.charts import signed
from games.series import services
from games.series.models import Hand, Series


@dataclass(frozen=True)
class Row:
    seat: int
    name: str
    wins: int
    hand_chips: str
    pot_chips: str
    net: str
    pots_won: int
    is_you: bool
    left: bool
    ready: bool


def context_for_game(game_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """The series panel for a hand's table page; empty for a game of no series."""
    hand = Hand.objects.filter(game_id=game_id).select_related("series").first()
    if hand is None:
        return {}
    return context(services.state(hand.series), user, shown_hand=hand.number)


def context(st: services.State, user: AbstractBaseUser, shown_hand: int | None = None):
    book, series = st.book, st.series
    names = [s.name for s in st.seats]
    mine = st.seat_of(user)
    rows = [
        Row(
            seat=s.seat,
            name=names[s.seat],
            wins=s.wins,
            hand_chips=signed(s.hand_chips),
            pot_chips=signed(s.pot_chips),
            net=signed(s.net),
            pots_won=s.pots_won,
            is_you=mine is not None and mine.index == s.seat,
            left=s.seat in series.left,
            ready=s.seat in series.ready,
        )  # fmt: skip
        for s in book.standings
    ]
    streak = ""
    if book.last_taken is not None and st.latest.is_over:
        taken = book.last_taken
        streak = f"{names[taken.seat]} won 2 in a row and took the pot of {taken.amount}."
    elif book.streak_seat is not None and book.streak:
        streak = f"{names[book.streak_seat]} has won {book.streak} in a row."
    seconds = 0
    if series.next_at is not None:
        seconds = max(0, int((series.next_at - timezone.now()).total_seconds()))
    last = st.latest
    result = None
    if last.is_over and last.chips:
        result = {
            "winner": names[last.winner_seat],
            "chips": [(names[i], signed(c)) for i, c in enumerate(last.chips)],
            "end": last.end,
        }
    playing = mine is not None and mine.index not in series.left
    return {
        "series": {
            "pk": series.pk,
            "url": reverse("series", args=[series.pk]),
            "ante": series.ante,
            "pot": book.pot,
            "streak": streak,
            "rows": rows,
            "hands": len(st.hands),
            "shown_hand": shown_hand or len(st.hands),
            "current_game": last.pk,
            "between": st.between,
            "ended": series.ended,
            "end_reason": series.end_reason,
            "returns": [(names[e.seat], e.amount) for e in book.events if e.kind == "return"],
            "house": book.house,
            "seconds_left": seconds,
            "result": result,
            "replay_url": reverse("replay", args=[last.pk]) if last.is_over else "",
            "record_url": reverse("series_record", args=[series.pk]),
            "playing": playing,
            "is_ready": playing and mine.index in series.ready,
            "is_creator": user.is_authenticated and series.created_by_id == user.pk,
        }
    }


def may_watch(st: services.State, user: AbstractBaseUser) -> bool:
    """A public series anyone logged in may watch; a private one, the people of its hands
    (and whoever uploaded it)."""
    if st.latest.public or st.series.created_by_id == user.pk:
        return True
    return Hand.objects.filter(series=st.series, game__seats__user=user).exists()


def series_of(series_id: int) -> Series | None:
    return Series.objects.filter(pk=series_id).first()
