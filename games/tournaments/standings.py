"""A tournament's standings, derived from its games' results (never stored): each
entry's finished games in the order they were dealt, scored by ``scoring``, each game's
opponents counted at their ratings when it was dealt. ``board`` keeps them for the page,
computed once a change (the tournament's ``rev``) in each worker for all its watchers."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from accounts.models import display_name_for
from games.models import Game, Move, Seat
from games.ratings import core as ratings
from games.tournaments import scoring
from games.tournaments.models import Entry, Tournament, TournamentGame

# What the board (the standings and the games' list) never reads of a game: the deal above
# all (every hand and the stock, as JSON), which the record reads once a game is over.
NOT_ON_THE_BOARD = ("deal", "seed", "bot_models", "shared", "variants", "abort_reason", "burned")


def games_of(t: Tournament, *, for_board: bool = False) -> list[TournamentGame]:
    """Its games, oldest first, with their seats (and their people). ``for_board``: what
    the standings and the games' list read, no more (a board is computed every few
    seconds in each worker while a crowd plays: the games' deals and the seats' accounts
    were most of the rows it read, and made most of its objects)."""
    if for_board:
        seats = Prefetch("game__seats", queryset=Seat.objects.all())
        games = t.games.select_related("game").defer(*(f"game__{f}" for f in NOT_ON_THE_BOARD))
    else:
        seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
        games = t.games.select_related("game")
    return sorted(games.prefetch_related(seats), key=lambda tg: tg.game_id)


def ratings_at_deal(tgs: list[TournamentGame]) -> dict[int, list[float]]:
    """Each game's seats' ratings (seat order) when it was dealt, by game id. A game dealt
    before these were kept has its seats' current ratings instead."""
    out = {tg.game_id: [float(r) for r in tg.ratings] for tg in tgs if len(tg.ratings) == 3}
    older = [tg for tg in tgs if tg.game_id not in out]
    if older:
        seats = [s for tg in older for s in tg.game.seats.all()]
        skills = ratings.skills_of(
            user_ids={s.user_id for s in seats if s.user_id},
            bot_kinds={s.bot_kind for s in seats if s.bot_kind},
        )
        for tg in older:
            by_index = sorted(tg.game.seats.all(), key=lambda s: s.index)
            out[tg.game_id] = [
                float(skill.value) if (skill := ratings.skill_of_seat(skills, s)) else 0.0
                for s in by_index
            ]
    return out


def away_seats(game_id: int, seats, log=None) -> list[int]:
    """The people's seats of a game that has just ended that score as away (``scoring``):
    the server was playing for them at its last move, or it played more than half of
    their turns, as the move log says (it marks each move the server made; ``log``: each
    move's (seat, by_server), if read already). Read once, at the end, and kept in
    ``TournamentGame.away``."""
    if log is None:
        moves = Move.objects.filter(game_id=game_id).order_by("seq")
        log = moves.values_list("seat", "by_server")
    served = scoring.served_most(log)
    return [s.index for s in seats if not s.bot_kind and (s.away or s.index in served)]


def results(t: Tournament, tgs: list[TournamentGame] | None = None) -> dict[int, list]:
    """Each person's (user id) results, in the order their games were dealt."""
    tgs = games_of(t) if tgs is None else tgs
    at_deal = ratings_at_deal(tgs)
    out: dict[int, list[scoring.Result]] = {}
    for tg in tgs:
        game = tg.game
        if game.status != Game.Status.FINISHED or game.winner_seat is None:
            continue  # aborted games and games under way count for nobody
        if game.voided_at is not None:
            continue  # voided by fair play: in no one's figures (docs/fair-play.md)
        table = list(game.seats.all())
        for seat in table:
            if seat.user_id is None:
                continue  # bots score nothing
            place = scoring.place_of(seat.index, game.winner_seat, game.chips)
            met = tuple(
                at_deal[game.pk][other.index] for other in table if other.index != seat.index
            )
            out.setdefault(seat.user_id, []).append(
                scoring.Result(
                    place=place, tongits=place == 1 and game.end == "tongits",
                    away=seat.index in tg.away, opponents=met,
                )
            )  # fmt: skip
    return out


def standings(
    t: Tournament, tgs: list[TournamentGame] | None = None
) -> list[tuple[scoring.Standing, Entry]]:
    """Everyone who entered, best first, with their entry; but a closed account (staff
    closed it: it cannot log in), which leaves the standings and the podium while its
    games' results stand for the others (docs/rules.md, Arenas)."""
    # The names shown come from the profiles: one query for all, not one an entrant.
    active = t.entries.filter(user__is_active=True).select_related("user__profile")
    entries = {e.pk: e for e in active}
    found = results(t, tgs)
    table = scoring.standings(
        (e.pk, display_name_for(e.user), found.get(e.user_id, [])) for e in entries.values()
    )
    return [(row, entries[row.key]) for row in table]


# --- The page's standings, computed once per change ------------------------------------------


@dataclass
class Board:
    """What every watcher of a tournament's page is shown alike: the standings and the
    games, as of the tournament's revision ``rev``; and its HTML, by language, rendered
    the first time a watcher reading that language asks."""

    rev: int
    made: float  # time.monotonic()
    rows: list[tuple[scoring.Standing, Entry]]
    games: list[Game]  # newest first
    html: dict[str, str] = field(default_factory=dict)
    # Digests of parts of it, made once a board (games/tournaments/views.py _shown).
    digests: dict[str, Any] = field(default_factory=dict)
    # Each entrant's row, by their user id (the arena bar's own rank and points).
    at_user: dict[int, int] = field(default_factory=dict)

    def row_of(self, user_id: int | None) -> scoring.Standing | None:
        """The standing of this person's entry, if they have one on this board."""
        at = self.at_user.get(user_id) if user_id is not None else None
        return self.rows[at][0] if at is not None else None

    def podium(self) -> list[scoring.Standing]:
        return [row for row, _e in self.rows if row.rank <= 3 and row.score.games]


# This worker's boards, by tournament id. Each watcher's refresh used to compute the
# standings itself (every game of the tournament and its seats, twice a second per
# watcher); now a change is computed once, by the first refresh that finds it.
_boards: dict[tuple, Board] = {}
BOARDS_KEPT = 20
_computing: dict[int, threading.Lock] = {}
_guard = threading.Lock()


def board(t: Tournament, seconds: float | None = None) -> Board:
    """The tournament's board at its revision ``t.rev``, computed once a change in this
    worker. A board computed less than ``TONGITS_STANDINGS_SECONDS`` ago (``seconds``, if
    given) is still shown: in a crowd games end several times a second, and their changes
    are shown together."""
    # Its creation time too: a database made again (tests) numbers tournaments from 1 again.
    key = (t.pk, t.created_at)
    held = _boards.get(key)
    if held is not None and _fresh(held, t, seconds):
        return held
    with _guard:
        lock = _computing.setdefault(t.pk, threading.Lock())
    # One thread computes. The others that come meanwhile show the board there is, a
    # moment old, rather than wait: a crowd's refreshes waiting here held their database
    # connections, and the pages behind them found none. The first board is waited for,
    # and so is one made long ago (nobody asked for a while: everyone was at a table),
    # which would show the standings of minutes before.
    recent = held is not None and time.monotonic() - held.made < _shown_while_computing()
    if recent and t.finished_at is None:
        if not lock.acquire(blocking=False):
            return held
    else:
        lock.acquire()
    try:
        held = _boards.get(key)
        if held is not None and _fresh(held, t):
            return held
        tgs = games_of(t, for_board=True)
        rows = standings(t, tgs)
        if not tgs and t.finished_at is None and t.state(timezone.now()) == "upcoming":
            # Before the start everyone stands at 0, equal: the list is of entrants, in the
            # order they joined. A crowd joining then adds rows at its end, below what its
            # watchers are shown, rather than anywhere among them (by name).
            rows.sort(key=lambda row: row[1].pk)
        made = Board(t.rev, time.monotonic(), rows, [tg.game for tg in reversed(tgs)])
        made.at_user = {e.user_id: i for i, (_row, e) in enumerate(rows)}
        _seat_people(tgs, rows)
        _boards[key] = made
        while len(_boards) > BOARDS_KEPT:  # the one made longest ago goes
            _boards.pop(min(_boards, key=lambda k: _boards[k].made), None)
        return made
    finally:
        lock.release()


def _seat_people(tgs: list[TournamentGame], rows: list[tuple[scoring.Standing, Entry]]) -> None:
    """Each seat of the board's games gets its person from their entry (read with their
    profile for the standings): the games' list names them with no query. A seat whose
    person has no row (a closed account) reads theirs when it is named, as any seat."""
    people = {e.user_id: e.user for _row, e in rows}
    cache = Seat.user.field
    for tg in tgs:
        for seat in tg.game.seats.all():
            if seat.user_id in people:
                cache.set_cached_value(seat, people[seat.user_id])


def _shown_while_computing() -> float:
    """How old a board may be and still be shown while its next is computed: a few
    rounds of changes shown together."""
    return max(2.0, 3 * settings.TONGITS_STANDINGS_SECONDS)


def forget(tournament_id: int) -> None:
    """Drop this worker's board of the tournament: the person who has just joined, paused
    or withdrawn sees their own change on the page they are sent back to (in this worker;
    another worker's board shows it within ``TONGITS_STANDINGS_SECONDS``, and the live part
    within a refresh after)."""
    for key in [k for k in _boards if k[0] == tournament_id]:
        _boards.pop(key, None)


def _fresh(held: Board, t: Tournament, seconds: float | None = None) -> bool:
    if held.rev >= t.rev:
        return True
    if t.finished_at is not None:
        return False  # the podium is shown at once
    kept = settings.TONGITS_STANDINGS_SECONDS if seconds is None else seconds
    return time.monotonic() - held.made < kept
