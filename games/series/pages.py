"""What pages show of a series: the panel beside a hand's table (pot, streak, standings),
the screen between hands and the series' end. A fixed number of queries each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from games.history.charts import signed
from games.models import OPEN_SEAT, Seat
from games.series import hooks as series_hooks
from games.series import ledger, services
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
    held: int  # pots taken but held for a fair play review, not in pots_won nor the chips
    is_you: bool
    left: bool
    ready: bool


def context_for_game(game_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """The series panel for a hand's table page; empty for a game of no series."""
    hand = Hand.objects.filter(game_id=game_id).select_related("series").first()
    if hand is None:
        return {}
    return context(services.state(hand.series), user, shown_hand=hand.number)


def seat_name(seat: Seat, dealt: bool) -> str:
    """A seat as the series' pages name it: ``shown_name``, but an open seat of a hand
    that was dealt is a person's whose account was deleted since (a dealt hand's seats are
    all held), and is called so, not an open seat. An uploaded series says "Open seat"
    for such a seat (its record's player), and is read the same way."""
    if dealt and seat.is_open and seat.name == OPEN_SEAT:
        return gettext("Deleted account")
    return seat.shown_name


def context(st: services.State, user: AbstractBaseUser, shown_hand: int | None = None):
    book, series = st.book, st.series
    dealt = st.latest.dealer is not None
    names = [seat_name(s, dealt) for s in st.seats]
    mine = st.seat_of(user)
    held = {(n, seat) for s, n, seat in held_seats({series.pk})}
    count = ledger.counted(book, held)
    rows = [
        Row(
            seat=s.seat,
            name=names[s.seat],
            wins=s.wins,
            hand_chips=signed(s.hand_chips),
            pot_chips=signed(s.pot_chips),
            net=signed(s.net),
            pots_won=s.pots_won,
            held=count.held_pots[s.seat],
            is_you=mine is not None and mine.index == s.seat,
            left=s.seat in series.left,
            ready=s.seat in series.ready,
        )  # fmt: skip
        for s in count.standings
    ]
    streak = ""
    if book.last_taken is not None and st.latest.is_over:
        taken = book.last_taken
        words = gettext("%(name)s won 2 in a row and took the pot of %(amount)s.")
        if (taken.hand, taken.seat) in held:
            words = gettext(
                "%(name)s won 2 in a row and took the pot of %(amount)s: it is held for a "
                "fair play review."
            )
        streak = words % {"name": names[taken.seat], "amount": taken.amount}
    elif book.streak_seat is not None and book.streak:
        streak = gettext("%(name)s has won %(n)s in a row.") % {
            "name": names[book.streak_seat],
            "n": book.streak,
        }
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
            "held_chips": sum(count.held_chips),
            "hands": len(st.hands),
            "shown_hand": shown_hand or len(st.hands),
            "current_game": last.pk,
            "between": st.between,
            "ended": series.ended,
            "end_reason": series.end_reason_shown,
            "returns": [(names[e.seat], e.amount) for e in book.events if e.kind == "return"],
            "house": book.house,
            "kept": _kept_by_house(st, names),
            "seconds_left": seconds,
            "result": result,
            "replay_url": reverse("replay", args=[last.pk]) if last.is_over else "",
            "record_url": reverse("series_record", args=[series.pk]),
            "playing": playing,
            "is_ready": playing and mine.index in series.ready,
        }
    }


def _kept_by_house(st: services.State, names: list[str]) -> list[tuple[str, int, bool]]:
    """At the end, the seats whose antes in the pot nobody won went to the house: (name,
    amount, whether its person left), so the page says whose chips the house keeps. A
    person whose account was deleted left with it (a series that ended before such seats
    were marked left holds them as seats of nobody: never a bot's)."""
    if not st.series.ended:
        return []
    people = set(st.series.people_at_end)
    return [
        (names[seat], amount, seat in st.series.left or not st.seats[seat].bot_kind)
        for seat, amount in enumerate(st.book.put_in)
        if amount and seat not in people
    ]


def url_of_hand(game_id: int) -> str:
    """The series' URL if the game is one of its hands, else "": one query."""
    series_id = Hand.objects.filter(game_id=game_id).values_list("series_id", flat=True).first()
    return reverse("series", args=[series_id]) if series_id is not None else ""


def may_watch(st: services.State, user: AbstractBaseUser) -> bool:
    """A public series anyone logged in may watch; a private one, the people of its hands
    (and whoever uploaded it)."""
    if st.latest.public or st.series.created_by_id == user.pk:
        return True
    return Hand.objects.filter(series=st.series, game__seats__user=user).exists()


def series_of(series_id: int) -> Series | None:
    return Series.objects.filter(pk=series_id).first()


# --- History: a series' hands grouped, prev/next hand links, pots won ------------------------


@dataclass(frozen=True)
class HandInfo:
    series_id: int
    number: int
    url: str


def mark_hands(rows: list) -> list:
    """Tell each history row's game which series hand it is (``game.series_info``), in one
    query, so a list of games groups a series' hands under it."""
    ids = [row.game.pk for row in rows]
    found = {
        game_id: HandInfo(series_id, number, reverse("series", args=[series_id]))
        for game_id, series_id, number in Hand.objects.filter(game_id__in=ids).values_list(
            "game_id", "series_id", "number"
        )
    }
    for row in rows:
        row.game.series_info = found.get(row.game.pk)
    return rows


def hand_links(game_id: int) -> dict[str, Any]:
    """A hand's replay links to its series and to the hands before and after it."""
    hand = Hand.objects.filter(game_id=game_id).first()
    if hand is None:
        return {}
    near = dict(
        Hand.objects.filter(
            series_id=hand.series_id, number__in=(hand.number - 1, hand.number + 1)
        ).values_list("number", "game_id")
    )
    prev_id, next_id = near.get(hand.number - 1), near.get(hand.number + 1)
    return {
        "series_hand": {
            "number": hand.number,
            "url": reverse("series", args=[hand.series_id]),
            "prev": reverse("replay", args=[prev_id]) if prev_id else "",
            "next": reverse("replay", args=[next_id]) if next_id else "",
        }
    }


def pots_won(user_id: int) -> dict[str, int]:
    """How many pots the person took, and the chips in them: five queries at most, whatever
    the number of series (each series' ledger is derived from its hands, as always). A pot
    taken by a win fair play voided is in no one's figures (the ledger counts a voided hand
    as aborted); one taken while fair play holds the person and another player at that
    hand for review waits (``pots_held``) until staff clear the pair (``held_seats``), as
    on the series' page."""
    mine = {
        (s, n): index
        for s, n, index in Seat.objects.filter(
            user_id=user_id, game__series_hand__isnull=False
        ).values_list("game__series_hand__series_id", "game__series_hand__number", "index")
    }
    ids = {s for s, _ in mine}
    if not ids:
        return {"pots_won": 0, "pot_chips_won": 0, "pots_held": 0}
    rows = (
        Hand.objects.filter(series_id__in=ids)
        .order_by("series_id", "number")
        .values("series_id", "number", *(f"game__{f}" for f in services.GAME_FIELDS))
    )  # fmt: skip
    hands: dict[int, list] = {}
    for r in rows:
        result = services.result_of(r["number"], {f: r[f"game__{f}"] for f in services.GAME_FIELDS})
        hands.setdefault(r["series_id"], []).append(result)
    waiting = held_seats(ids)
    pots = chips = on_hold = 0
    for series in Series.objects.filter(pk__in=ids).only("ante", "ended_at", "people_at_end"):
        book = services.ledger(
            series.ante, hands.get(series.pk, []), series.ended, series.people_at_end
        )
        for e in book.events:
            if e.kind != "pot" or mine.get((series.pk, e.hand)) != e.seat:
                continue
            if (series.pk, e.hand, e.seat) in waiting:
                on_hold += 1
                continue
            pots, chips = pots + 1, chips + e.amount
    return {"pots_won": pots, "pot_chips_won": chips, "pots_held": on_hold}


def held_seats(series_ids: set[int]) -> set[tuple[int, int, int]]:
    """The seats (series, hand number, seat) whose account sat at that hand with another
    account fair play holds it with for review (flagged, not cleared): a pot such a seat
    takes there waits. Two queries (one when fewer than two accounts sat)."""
    seats = list(
        Seat.objects.filter(
            game__series_hand__series_id__in=series_ids, user_id__isnull=False
        ).values_list(
            "game__series_hand__series_id", "game__series_hand__number", "index", "user_id"
        )
    )
    users = {u for _s, _n, _i, u in seats}
    pairs = series_hooks.held(users) if len(users) > 1 else set()
    if not pairs:
        return set()
    at: dict[tuple[int, int], dict[int, int]] = {}
    for s, n, index, u in seats:
        at.setdefault((s, n), {})[index] = u
    return {
        (s, n, index)
        for (s, n), hand in at.items()
        for index, u in hand.items()
        if any(frozenset((u, v)) in pairs for j, v in hand.items() if j != index)
    }
