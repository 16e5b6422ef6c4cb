"""The one writer of tournaments: create, join, pause, withdraw, pair, end.

Pairing runs under the tournament's row lock (one pairer a tournament at a time, in any
worker) and then the row locks of the people it would seat, taken in one ordered
statement, so that two tournaments pairing the same person at once cannot both seat
them: the second sees the first's game once the first commits. It is started by the
server clock's tick (``tick``, through ``games.play.hooks``) and after the commit of a
tournament game's last move (``game_finished``: one pairing queued for all the games that
end before it begins).

Size: ~590 lines, kept whole: every write of a tournament and the order of its locks
(the tournament's row, then its people's) are read together in one place."""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Case, Count, F, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import is_guest
from games import bots
from games.models import Game, Seat
from games.play import hooks, seating, telling
from games.play import tables as play_tables
from games.play.errors import NotAllowed, ServiceError
from games.play.live.db import afterwards
from games.ratings import core as ratings
from games.tournaments import end_rows, join_rows, pairing, standings
from games.tournaments.models import Entry, Tournament, TournamentGame
from games.words.text import encodable, lazy_message

log = logging.getLogger(__name__)

UNFINISHED = (Game.Status.WAITING, Game.Status.PLAYING)
MINUTES = (2, 5, 10, 15, 20, 30, 45, 60, 90, 120)
TURN_SECONDS = (10, 15, 20, 30, 45, 60)
NO_SUCH_TOURNAMENT = _("There is no such tournament.")
# The same name and start from the same person within this long is the same form sent
# twice: it gives the tournament the first made.
REPEATED = timedelta(seconds=30)
# The server clock looks at this many due tournaments a tick at most, so a tick stays
# short; the rest are looked at a quarter of a second later.
LOOKS_PER_TICK = 20
# A tournament whose waiting people could not be seated (at another table, or kept apart)
# is looked at again after this; one whose clock ended, until its last game is over.
RECHECK = timedelta(seconds=2)
# While people play, a look is owed at least this often: their game's end pairs them, and
# this heals an end whose pairing was lost (a worker that died in between).
HEAL = timedelta(seconds=30)
# A game's end pairs its people this long after it, with whoever ended meanwhile (a few
# tables a run in a crowd's round of ends); the clocks look again LOOK_AGAIN after one.
GATHER, LOOK_AGAIN = timedelta(seconds=0.25), timedelta(seconds=1)


# --- Making one ---------------------------------------------------------------------------


def create(
    user: AbstractBaseUser,
    *,
    name: str,
    starts_at: datetime,
    minutes: int = 30,
    variant: str = "",
    rated: bool = True,
    turn_seconds: int = 20,
    bot_kind: str = "normal",
    public: bool = False,
    schedule_key: str | None = None,
) -> Tournament:
    """A tournament. Staff may make a public one (listed for everyone); anyone else's is
    private, joined by its invite link."""
    name = " ".join((name or "").split())
    if not name or len(name) > 80:
        raise ServiceError(_("Give the tournament a name of at most 80 characters."))
    if minutes not in MINUTES:
        raise ServiceError(_("Choose a length from the list."))
    if turn_seconds not in TURN_SECONDS:
        raise ServiceError(_("Choose a turn clock from the list."))
    if variant not in Tournament.VARIANTS:
        raise ServiceError(_("Choose a variant from the list."))
    if bot_kind not in bots.LEVELS:
        raise ServiceError(_("There is no such bot level: choose Easy, Normal or Hard."))
    now = timezone.now()
    if starts_at < now - timedelta(minutes=1) or starts_at > now + timedelta(days=60):
        raise ServiceError(_("Choose a start from now to 60 days ahead."))
    if public and not (user is None or user.is_staff):
        raise NotAllowed(_("Only staff schedule public tournaments; yours is private."))
    if user is not None and is_guest(user):
        raise NotAllowed(_("Claim your account (a username and a password) to make tournaments."))
    with transaction.atomic():
        if user is not None:
            # The person's row lock, as making a table takes it: two forms sent at once
            # are counted one after the other, not both against the same count.
            _lock_people([user.pk])
            earlier = Tournament.objects.filter(
                created_by=user, name=name, starts_at=starts_at, finished_at__isnull=True,
                created_at__gte=now - REPEATED,
            ).first()  # fmt: skip
            if earlier is not None:
                return earlier  # the same form sent twice (a double click, a retry)
            if not user.is_staff:
                _check_can_make(user, now)
        return Tournament.objects.create(
            name=name, created_by=user, starts_at=starts_at, minutes=minutes,
            variant=variant, rated=rated, turn_seconds=turn_seconds, bot_kind=bot_kind,
            public=public, schedule_key=schedule_key,
        )  # fmt: skip


def _check_can_make(user: AbstractBaseUser, now: datetime) -> None:
    """Refuse a tournament beyond the person's limits: how many a day, and how many not yet
    over at once (staff's and the site's are not counted). Each is a page and a pool that
    the site keeps; nothing held a script from making hundreds."""
    theirs = Tournament.objects.filter(created_by=user)
    per_day = settings.TONGITS_TOURNAMENTS_PER_DAY
    if theirs.filter(created_at__gte=now - timedelta(days=1)).count() >= per_day:
        raise ServiceError(lazy_message(lambda: ngettext(
            "You have made %(count)d tournament in the last 24 hours, as many as a day "
            "allows: try again later.",
            "You have made %(count)d tournaments in the last 24 hours, as many as a day "
            "allows: try again later.",
            per_day,
        ) % {"count": per_day}))  # fmt: skip
    at_once = settings.TONGITS_OPEN_TOURNAMENTS_MAX
    if theirs.filter(finished_at__isnull=True).count() >= at_once:
        raise ServiceError(lazy_message(lambda: ngettext(
            "You have %(count)d tournament not over yet, as many as you may run at once: "
            "make another once it has ended.",
            "You have %(count)d tournaments not over yet, as many as you may run at once: "
            "make another once one has ended.",
            at_once,
        ) % {"count": at_once}))  # fmt: skip


def may_see(tournament: Tournament, user: AbstractBaseUser, token: str | None) -> bool:
    """A public tournament is anyone's to see; a private one its creator's, its entrants'
    and whoever has its invite link."""
    if tournament.public or _token_matches(token, tournament.invite_token):
        return True
    if not user.is_authenticated:
        return False
    if user.pk == tournament.created_by_id or user.is_staff:
        return True
    return tournament.entries.filter(user=user).exists()


def _token_matches(given: str | None, token: str) -> bool:
    # As bytes: compare_digest refuses non-ASCII text; text with no UTF-8 form is no token.
    if not given or not encodable(given):
        return False
    return secrets.compare_digest(given.encode(), token.encode())


# --- Entries ------------------------------------------------------------------------------


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotAllowed(NO_SUCH_TOURNAMENT) from None


def _changed(
    tournament_id: int, locked: Tournament | None = None, look_in: timedelta = timedelta()
) -> None:
    """What its page shows has changed: a new revision (the standings are computed again
    once per revision, ``standings.board``); and its pool may have: the server clock looks
    at it now (at its start, before it; ``look_in``: that long from now). ``locked``: its
    row, read under its lock in this transaction (an update with the database's
    expressions cost a crowd's Join a fifth of its CPU)."""
    now = timezone.now() + look_in
    if locked is not None:
        _next_rev(locked, now)
        locked.save(update_fields=["rev", "due_at"])
        return
    soonest = Greatest(Value(now), F("starts_at"))
    Tournament.objects.filter(pk=tournament_id).update(
        rev=F("rev") + 1,
        due_at=Case(When(due_at__gt=soonest, then=soonest), default=F("due_at")),
    )


def _next_rev(locked: Tournament, now: datetime) -> None:
    """The locked row's next revision, and its clock time brought to now (at its start,
    before it) if it was later."""
    soonest = max(now, locked.starts_at)
    locked.rev += 1
    if locked.due_at is not None and locked.due_at > soonest:
        locked.due_at = soonest


def join(tournament_id: int, user: AbstractBaseUser, *, invite_token: str | None = None) -> Entry:
    """Enter ``user`` (before it starts or while it runs), or bring them back after a
    pause or a withdrawal: they wait to be paired from now."""
    now = timezone.now()
    with transaction.atomic():
        # Written out (join_rows): a crowd's Joins paid for compiling the ORM's statements.
        t = join_rows.locked(tournament_id)
        if t is None:
            raise NotAllowed(NO_SUCH_TOURNAMENT)
        if not may_see(t, user, invite_token):
            raise NotAllowed(_("This tournament is private: you need its invite link to join."))
        if t.state(now) not in ("upcoming", "running"):
            raise NotAllowed(_("This tournament is over."))
        guest, entry = join_rows.person(t.pk, user.pk)
        if t.rated and guest:
            raise NotAllowed(
                _("Rated tournaments are for players with an account: claim yours to join.")
            )
        # No other join of this person to it can come between (the tournament's row is
        # locked): no savepoint for a get_or_create's race.
        if entry is None:
            entry = Entry(tournament=t, user=user, joined_at=now, waiting_since=now)
            entry.pk = join_rows.enter(t.pk, user.pk, now)
            entry._state.adding, entry._state.db = False, "default"
        elif entry.state != Entry.State.ACTIVE:
            entry.state, entry.waiting_since = Entry.State.ACTIVE, now
            join_rows.come_back(entry.pk, now)
        entry.tournament, entry.user = t, user  # as here: its page reads them without a query
        _next_rev(t, now)
        join_rows.changed(t)
    return entry


def _set_state(tournament_id: int, user: AbstractBaseUser, state: str) -> Entry:
    with transaction.atomic():
        t = _locked(tournament_id)
        entry = Entry.objects.filter(tournament_id=tournament_id, user=user).first()
        if entry is None:
            raise NotAllowed(_("You have not joined this tournament."))
        if t.state(timezone.now()) not in ("upcoming", "running"):  # a page left open
            raise NotAllowed(_("This tournament is over."))
        if state == Entry.State.PAUSED and entry.state == Entry.State.WITHDRAWN:
            raise NotAllowed(_("You withdrew from this tournament: join it again to play."))
        entry.state = state
        entry.save(update_fields=["state"])
        _changed(tournament_id, locked=t)
    return entry


def pause(tournament_id: int, user: AbstractBaseUser) -> Entry:
    """Leave the pool for now (a game under way is played out); ``join`` comes back."""
    return _set_state(tournament_id, user, Entry.State.PAUSED)


def withdraw(tournament_id: int, user: AbstractBaseUser) -> Entry:
    """Leave the tournament: no more games; the points so far stay in the standings."""
    return _set_state(tournament_id, user, Entry.State.WITHDRAWN)


# --- Pairing ------------------------------------------------------------------------------


def pool(t: Tournament) -> list[Entry]:
    """The entries waiting to be paired: in the pool, and not at a game of it (a closed
    account's entry stays, with its points, and is never paired again). Asked of the
    database (most of a crowd's pool is at a game), with their last games but their deals."""
    entries = t.entries.filter(state=Entry.State.ACTIVE, user__is_active=True)
    waiting = entries.filter(Q(game__isnull=True) | ~Q(game__status__in=UNFINISHED))
    heavy = (f"game__{f}" for f in standings.NOT_ON_THE_BOARD)  # the deal above all
    return list(waiting.select_related("game").defer(*heavy))


def pair(tournament_id: int, now: datetime | None = None) -> list[Game]:
    """Seat whoever waits in a running tournament (``games.tournaments.pairing``); the
    games made."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.state(now) != "running":
            return []
        waiting = pool(t)
        if not waiting:
            return []
        cpu = time.thread_time()
        users = _lock_people([e.user_id for e in waiting])
        busy = seating.playing(users)  # at another game, or in a series (the one check)
        waiting = [e for e in waiting if e.user_id not in busy]
        # Everyone's rating now, and the bots': the pairing's, and each game's record of
        # its seats' ratings at the deal (the tie-break counts opponents as they were).
        skills = ratings.skills_of(user_ids=[e.user_id for e in waiting], bot_kinds=[t.bot_kind])
        # A rated arena never seats together two accounts that share an address or a
        # device (fair play answers through play's hooks).
        veto = hooks.veto([e.user_id for e in waiting]) if t.rated else None
        tables = pairing.pair(_waiting(waiting, now, skills), now, veto=veto)
        made = _seat(t, [[users[u] for u in table.people] for table in tables], skills)
        if made:
            # Its row as read under its lock, moved on; the clocks look in a moment.
            t.rev += 1
            t.due_at = t.due_at and max(now + LOOK_AGAIN, t.starts_at)
            t.save(update_fields=["rev", "due_at"])
            _send_on(t.pk, waiting, tables, made)
        cpu = time.thread_time() - cpu
    if made:
        # The CPU figure is this thread's own (bench.live --arena reads it from the log).
        log.info(
            "Tournament %s: %s games made (%.1f ms CPU a game).",
            tournament_id, len(made), 1000 * cpu / len(made),
        )  # fmt: skip
    return made


def _send_on(tournament_id: int, waiting: list[Entry], tables, made: list[Game]) -> None:
    """After the commit, tell each seated person's table sockets of their new game: a
    socket still at the person's last game of this tournament goes on to the new one, and
    so does the waiting table's socket of this tournament (games/sockets/arena.py), where
    a person who joined waits for their first game. No page to load and no socket to open,
    at the start as between games (a crowd's start: 999 table pages and handshakes in the
    same seconds before)."""
    last = {e.user_id: e.game_id for e in waiting}
    for table, game in zip(tables, made, strict=True):
        for user_id in table.people:
            event = {"type": "arena.next", "tournament": tournament_id, "game": game.pk}
            if last.get(user_id) is not None:
                event["after"] = last[user_id]
            telling.notify_group(telling.person_tables_group(user_id), event)


def next_games(at: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """For each (person, game) of ``at``, the person's next game of the same tournament if
    it is being played (a table socket left at the game before it, whose event was lost,
    goes on to it: games/sockets/table.py). One query."""
    users = {user_id for user_id, _ in at}
    if not users:
        return {}
    rows = Seat.objects.filter(
        user_id__in=users, game_id__gte=min(g for _, g in at), game__tournament_game__isnull=False
    ).values_list("user_id", "game_id", "game__status", "game__tournament_game__tournament_id")
    games: dict[int, list[tuple[int, str, int]]] = {}
    for user_id, game_id, status, tournament_id in rows.order_by("game_id"):
        games.setdefault(user_id, []).append((game_id, status, tournament_id))
    found = {}
    for user_id, game_id in at:
        theirs = games.get(user_id, [])
        tournament = next((t for g, _, t in theirs if g == game_id), None)
        after = [(g, status) for g, status, t in theirs if t == tournament and g > game_id]
        if tournament is not None and after and after[0][1] == Game.Status.PLAYING:
            found[(user_id, game_id)] = after[0][0]
    return found


def _lock_people(user_ids: list[int]) -> dict[int, AbstractBaseUser]:
    # One statement, in the order of their ids: two pairers never wait on each other in a
    # circle. Their profiles come with them (their names and settings, for the games'
    # snapshots: ``play.seat_tables``), not locked.
    rows = get_user_model().objects.select_related("profile").select_for_update(of=("self",))
    return {u.pk: u for u in rows.filter(pk__in=user_ids).order_by("pk")}


def series_held(user_ids: list[int]) -> dict[int, int]:
    """Each of these people who holds a seat in a series that goes on, and its id: they
    are paired once they leave or end it (``games.play.seating``: between hands its next
    hand is dealt to them, and paired meanwhile they would lose its antes)."""
    return seating.series_held(user_ids)


def _waiting(entries: list[Entry], now: datetime, skills) -> list[pairing.Waiting]:
    last_games = [e.game_id for e in entries if e.game_id is not None]
    met: dict[int, set[int]] = {}
    for game_id, user_id in Game.objects.filter(pk__in=last_games).values_list(
        "pk", "seats__user_id"
    ):
        if user_id is not None:
            met.setdefault(game_id, set()).add(user_id)
    out = []
    for e in entries:
        since = e.waiting_since or now
        if e.game is not None and e.game.finished_at is not None:
            since = max(since, e.game.finished_at)
        others = frozenset(met.get(e.game_id, set()) - {e.user_id})
        out.append(pairing.Waiting(e.user_id, skills[("user", e.user_id)].value, since, others))
    return out


def _seat(t: Tournament, tables: list[list[AbstractBaseUser]], skills) -> list[Game]:
    """Deal every table of a pairing at once (a crowd's start is hundreds: a few
    statements for all, ``play.seat_tables``), and point each entry at its game."""
    for people in tables:
        random.shuffle(people)  # who sits where is no one's advantage; the seed draws the dealer
    # A private tournament's games are private: watched by whoever may see it (``watching``).
    # Its people were found free (``seating.playing``) under their locks, in this
    # transaction: not asked again.
    games = play_tables.seat_tables(
        tables, t.bot_kind, variants=t.variants, turn_seconds=t.turn_seconds, rated=t.rated,
        public=t.public, checked=True,
    )  # fmt: skip
    bot = skills[("bot", t.bot_kind)].value
    TournamentGame.objects.bulk_create(
        # Seats in order: the people as seated, then the bots (seat_tables' order).
        TournamentGame(
            tournament=t, game=game,
            ratings=[*(skills[("user", u.pk)].value for u in people), *[bot] * (3 - len(people))],
        )
        for game, people in zip(games, tables, strict=True)
    )  # fmt: skip
    # Each seated entry's game is its person's newest seat in this tournament: one
    # statement (a bulk update's CASE of a thousand entries took seconds to build).
    newest = Seat.objects.filter(
        game__tournament_game__tournament=t, user_id=OuterRef("user_id")
    ).order_by("-game_id")
    seated = [person.pk for people in tables for person in people]
    Entry.objects.filter(tournament=t, user_id__in=seated).update(
        game=Subquery(newest.values("game_id")[:1])
    )
    return games


# --- The clock and a game's end -----------------------------------------------------------


def tick(now: datetime) -> None:
    """On every server clock tick: look at the tournaments that fall due (``due_at``),
    found in one indexed query however many exist. A look pairs whoever can be paired,
    ends a tournament whose clock ended once its last game is over, and says when to look
    next."""
    due = Tournament.objects.filter(due_at__lte=now).order_by("due_at")
    for tournament_id in list(due.values_list("pk", flat=True)[:LOOKS_PER_TICK]):
        _look(tournament_id, now)


def _look(tournament_id: int, now: datetime) -> None:
    fields = ("pk", "starts_at", "minutes", "finished_at", "rev")
    t = Tournament.objects.filter(pk=tournament_id).only(*fields).first()
    if t is None:
        return
    state = t.state(now)
    if state == "finished":  # finished by staff's hand, say: never due again
        Tournament.objects.filter(pk=t.pk).update(due_at=None)
        return
    counts = _pool_counts(t) if state == "running" else None
    if counts is not None and _can_pair(counts, now) and pair(t.pk, now):
        return  # its revision moved on: the next tick looks again, at the pool left
    if state == "ending" and end_if_over(t.pk, now):
        return  # finished: due no more
    # Unless something changed since it was read (a join, a game's end: ``_changed``,
    # which makes it due now).
    Tournament.objects.filter(pk=t.pk, rev=t.rev, finished_at__isnull=True).update(
        due_at=_next_look(t, state, counts, now)
    )


def _next_look(t: Tournament, state: str, counts: tuple | None, now: datetime) -> datetime:
    """When a look is owed again, if nothing changes meanwhile (anything that changes its
    pool makes it due at once: ``_changed``)."""
    if state == "upcoming":
        return t.starts_at
    if counts is None:
        return now + RECHECK  # its last games' ends finish it; this heals an end missed
    waiting, since, active = counts
    when = t.ends_at
    if active > waiting:  # someone plays: their game's end pairs them; this heals one missed
        when = min(when, now + HEAL)
    if waiting:
        bots_due = (since or now) + pairing.BOT_WAIT
        # Waiting but not seated (at another table, or kept apart): asked again soon.
        when = min(when, bots_due if waiting < 3 and bots_due > now else now + RECHECK)
    return when


def _pool_counts(t: Tournament) -> tuple[int, datetime | None, int]:
    """How many wait in its pool, since when the longest, and how many are in it at all
    (waiting or at a game), in one query."""
    active = t.entries.filter(state=Entry.State.ACTIVE, user__is_active=True)
    waits = Q(game__isnull=True) | ~Q(game__status__in=UNFINISHED)
    found = active.aggregate(
        waiting=Count("pk", filter=waits),
        since=Min("waiting_since", filter=waits),
        active=Count("pk"),
    )
    return found["waiting"], found["since"], found["active"]


def _can_pair(counts: tuple, now: datetime) -> bool:
    """Cheap, and before any lock: do three wait, or one or two for ``BOT_WAIT``? Most
    looks find one or two people just come back from a game: they are no reason to take
    the tournament's lock (a game's end pairs its people itself, ``game_finished``)."""
    waiting, since, _active = counts
    if waiting >= 3:
        return True
    # (No wait recorded counts as waiting from now, as the pairing reads it.)
    return waiting > 0 and since is not None and now - since >= pairing.BOT_WAIT


def games_voided(game_ids: list[int]) -> None:
    """Fair play voided these games: the standings of their tournaments are made again
    without them, and a finished one's podium with them."""
    ids = Tournament.objects.filter(games__game_id__in=game_ids).values_list("pk", flat=True)
    _made_again(ids)


def account_closed(user_id: int) -> None:
    """Staff closed an account: it leaves the standings (``standings.standings``) of
    every tournament it entered, and the podium of each finished one it stood on, where
    the next moves up; its games' results stay for the others (docs/rules.md, Arenas)."""
    entered = Tournament.objects.filter(entries__user_id=user_id)
    entered.update(rev=F("rev") + 1)
    finished = entered.filter(finished_at__isnull=False).values_list("pk", "podium")
    _made_again(pk for pk, podium in finished if user_id in podium)


def _made_again(tournament_ids) -> None:
    """Each tournament's standings are made again: a new revision, and a finished one's
    podium."""
    for tournament_id in sorted(set(tournament_ids)):
        with transaction.atomic():
            t = Tournament.objects.select_for_update().get(pk=tournament_id)
            if t.finished_at is not None:
                t.podium = _podium(t)
            t.rev += 1
            t.save(update_fields=["podium", "rev"])


def _podium(t: Tournament) -> list[int]:
    """The people on the podium (user ids, first place first): ranked 1 to 3 with a game."""
    rows = standings.standings(t)
    return [entry.user_id for row, entry in rows if row.rank <= 3 and row.score.games]


def end_if_over(tournament_id: int, now: datetime | None = None) -> bool:
    """Mark a tournament whose clock ended finished once none of its games is still on
    (a game under way when the clock ended is played out and counts)."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.state(now) != "ending":
            return False
        if t.games.filter(game__status__in=UNFINISHED).exists():
            return False
        t.finished_at, t.due_at = now, None
        t.podium = _podium(t)
        t.rev += 1
        t.save(update_fields=["finished_at", "due_at", "podium", "rev"])
    log.info("Tournament %s finished.", tournament_id)
    return True


def game_finished(game_id: int, seats, outcome, now: datetime, rated: bool) -> None:
    """A game ended (in its last move's transaction): if it is a tournament's, keep which
    seats score as away (``standings.away_seats``), start its people's wait, and pair them
    after the commit."""
    found = end_rows.tournament_game(game_id)  # (written out: end_rows)
    if found is None:
        return
    pk, tournament_id = found
    end_rows.ended(
        pk, game_id, standings.away_seats(game_id, seats, end_rows.move_log(game_id)), now
    )
    transaction.on_commit(lambda: _pair_after_end(tournament_id), robust=True)


# Tournaments of this process with a pairing after a game's end queued and not yet begun.
_queued: set[int] = set()
_queued_lock = threading.Lock()


def _pair_after_end(tournament_id: int) -> None:
    """After a game's commit: pair the tournament's people, on this process's thread for
    work after a move (``afterwards``), not in the move's transaction nor on its thread, so
    neither the move nor the other tables' moves wait on the tournament's row while a
    pairing holds it.

    One queued pairing serves every game that ends before it begins: it reads the pool
    when it runs, after their commits. When a round of an arena's games ends together the
    pairings queue on that thread, and each would take the tournament's lock to seat a
    table or two; now the first to run seats them all, and the rest are not queued."""
    with _queued_lock:
        if tournament_id in _queued:
            return
        _queued.add(tournament_id)

    def after() -> None:
        with _queued_lock:
            _queued.discard(tournament_id)  # a game ending from now on queues another
        # The game's result changes the standings: a pairing that seats anyone moves the
        # revision on with its own.
        if not pair(tournament_id):
            _changed(tournament_id, look_in=LOOK_AGAIN)
            end_if_over(tournament_id)

    try:
        afterwards(after, GATHER.total_seconds())
    except BaseException:
        with _queued_lock:
            _queued.discard(tournament_id)
        raise
