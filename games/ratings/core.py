"""Rating finished games with openskill's Plackett-Luce model.

One pure step (``rate``: the priors and a game's result in, the new ratings out) is used
both live, in the transaction that stores a game's last move (``rate_finished``), and by
``manage.py recompute_ratings`` (``recompute``), which replays every rated game in the
order the live updates applied them: so the two give the same numbers.

That order is the order of the change rows' ids, not of the games' ``finished_at``. A game's
finish is stamped when its last move is stored, before it waits for its players' rating
rows; a game stamped later can take those rows first (another game held a bot level's
row). The ids come from the table's sequence as the rows are inserted, which is after the
rows are locked: of two games sharing a player, the one rated first has the smaller ids.
(A sequence is used rather than a clock read after the lock: the workers' clocks may
differ, a sequence hands out one number once. Django's identity column caches one value
at a time, so ids follow the order they were taken in across connections.)

Two categories, rated apart: live games and correspondence games (a turn of an hour or
more, ``games.models.is_correspondence``). A person and a bot level have a rating in each
they played; a game moves only its own category's, and the rebuild replays each category
on its own.

Who is rated: a registered person, or a bot level (every bot of one kind is one player).
Guests, an uploaded record's seats and open seats are not; a game is rated only if its
table was rated, it was not uploaded, and at least one rated seat is a person's.

A person stays rated after their account is deleted (``Rating.person``): their seats are
empty then, and ``recompute`` reads who sat there from the seat's change row, which the
live update wrote. Otherwise every game they played would be rated again as if they had
never sat, and a bot level that played only them would lose its rating.

Size: ~460 lines, kept whole: the live step and the rebuild share who is rated, the rows'
keys and the order, and the rebuild is right only while the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Min, Q
from openskill.models import PlackettLuce

from accounts.models import Profile
from games.models import CORRESPONDENCE_SECONDS as CORRESPONDENCE_FROM
from games.models import Game, Seat, is_correspondence
from games.ratings import live_rows
from games.ratings.models import CATEGORIES, CORRESPONDENCE, LIVE, Rating, RatingChange

MODEL = PlackettLuce()
SCALE = 40  # the shown number is mu × 40: a new player shows 1000
PROVISIONAL_GAMES = 10  # shown with a "?" until this many rated games

Key = tuple[str, int | str]  # ("user", id) or ("bot", kind)


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> str:
        return shown(self.mu, self.games)

    @property
    def value(self) -> int:
        return round(self.mu * SCALE)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill(MODEL.mu, MODEL.sigma, 0)
_NEW_ROW = (NEW.mu, NEW.sigma)  # a new player's row's (mu, sigma), as ``_new_row`` makes it


def category_of(turn_seconds: int | None) -> str:
    """The category a table's games are rated in."""
    return CORRESPONDENCE if is_correspondence(turn_seconds) else LIVE


def shown(mu: float, games: int) -> str:
    """The rating as people read it: "1012", or "1012?" while provisional."""
    return f"{round(mu * SCALE)}{'?' if games < PROVISIONAL_GAMES else ''}"


def ranks(winner: int, chips: Sequence[int]) -> list[int]:
    """Each seat's place (1 best): the winner first, the others by net chips, equal chips
    an equal place."""

    def better(a: int, b: int) -> bool:  # seat a finished ahead of seat b
        if a == winner or b == winner:
            return a == winner and b != winner
        return chips[a] > chips[b]

    return [1 + sum(better(other, s) for other in range(3)) for s in range(3)]


def rate(
    priors: dict[Key, Skill], keys: Sequence[Key | None], winner: int, chips: Sequence[int]
) -> dict[Key, Skill]:
    """The new skill of each rated player of one game. ``keys[s]`` is seat s's player (None:
    not rated). A player in two seats (two bots of one level) gets both seats' changes."""
    seats = [s for s in range(3) if keys[s] is not None]
    if len(seats) < 2:
        return {}
    place = ranks(winner, chips)
    teams = [[MODEL.rating(priors[keys[s]].mu, priors[keys[s]].sigma)] for s in seats]
    after = MODEL.rate(teams, ranks=[place[s] for s in seats])
    new: dict[Key, Skill] = {}
    for s, (rated,) in zip(seats, after, strict=True):
        key = keys[s]
        prior = priors[key]
        had = new.get(key, Skill(prior.mu, prior.sigma, prior.games + 1))
        new[key] = Skill(
            had.mu + (rated.mu - prior.mu), had.sigma * (rated.sigma / prior.sigma), had.games
        )
    return new


# --- Who is rated ---------------------------------------------------------------------------


def _guest_ids(user_ids: Iterable[int]) -> set[int]:
    """People who play as guests (``Profile.is_guest``) are not rated."""
    ids = set(user_ids)
    if not ids:
        return set()
    return set(
        Profile.objects.filter(user_id__in=ids, is_guest=True).values_list("user_id", flat=True)
    )


def _claimed(user_ids: Iterable[int]) -> dict[int, datetime]:
    """When each of these people, once a guest, claimed the account: a game of theirs
    that finished before was a guest's, rated for the others only."""
    ids = set(user_ids)
    if not ids:
        return {}
    rows = Profile.objects.filter(user_id__in=ids, claimed_at__isnull=False)
    return dict(rows.values_list("user_id", "claimed_at"))


def seat_keys(seats: Sequence, guests: set[int]) -> list[Key | None]:
    """Each seat's rated player, or None. ``seats`` have index, user_id and bot_kind."""
    keys: list[Key | None] = [None, None, None]
    for seat in seats:
        if seat.bot_kind:
            keys[seat.index] = ("bot", seat.bot_kind)
        elif seat.user_id is not None and seat.user_id not in guests:
            keys[seat.index] = ("user", seat.user_id)
    return keys


def _counts(keys: Sequence[Key | None]) -> bool:
    """A game is rated only with a rated person in it and someone to be ranked against."""
    return any(k and k[0] == "user" for k in keys) and sum(k is not None for k in keys) >= 2


def will_be_rated(rated: bool, seats: Sequence, guests: set[int]) -> bool:
    """Whether a table's result will move ratings, as pages should say it: the table was
    made rated and its seats hold a rated person and someone to rank her against. An open
    seat counts as a person with an account, who may yet sit there; a guest never counts,
    so a guest's table against bots is not rated, whatever it was made as."""
    if not rated:
        return False
    keys = seat_keys(seats, guests)
    for seat in seats:
        if seat.user_id is None and not seat.bot_kind:
            keys[seat.index] = ("user", 0)
    return _counts(keys)


def guest_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these people are guests (never rated): one query."""
    return _guest_ids(u for u in user_ids if u)


# --- Live: the game's last move ---------------------------------------------------------------


def rate_finished(
    game_id: int,
    seats: Sequence,
    winner: int,
    chips: Sequence[int],
    at: datetime,
    *,
    rated: bool | None = None,
    turn_seconds: int | None = None,
) -> bool:
    """Rate the game that just finished, in the caller's transaction (which holds the
    game's row lock). ``rated``: whether its table was rated and played here (not
    uploaded), and ``turn_seconds`` its turn (its category), if the caller has that row in
    hand; read from it otherwise. Idempotent: a game already rated is left alone. True if
    rated."""
    if rated is None or turn_seconds is None:
        flags = Game.objects.filter(pk=game_id).values_list("rated", "imported", "turn_seconds")
        flags = flags.first()
        rated = flags is not None and flags[0] and not flags[1] if rated is None else rated
        turn_seconds = flags[2] if flags is not None else turn_seconds
    if not rated:
        return False
    category = category_of(turn_seconds)
    # Written out (live_rows): the ORM's statements, compiled at every game's end, were
    # most of the rating's time.
    keys = seat_keys(seats, live_rows.guests(s.user_id for s in seats if s.user_id))
    if not _counts(keys):
        return False
    # No savepoint: an error here fails the caller's whole transaction anyway.
    with transaction.atomic(savepoint=False):
        if live_rows.rated_already(game_id):
            return False
        # Made if new, then locked, in one order (as ``_locked_rows``).
        rows = live_rows.locked_rows({k for k in keys if k is not None}, category, _NEW_ROW)
        priors = {k: Skill(mu, sigma, games) for k, (_pk, mu, sigma, games) in rows.items()}
        new = rate(priors, keys, winner, chips)
        changes = [
            (s, rows[keys[s]][0], (priors[keys[s]].mu, priors[keys[s]].sigma),
             (new[keys[s]].mu, new[keys[s]].sigma, new[keys[s]].games))
            for s in range(3)
            if keys[s] is not None
        ]  # fmt: skip
        live_rows.save(game_id, at, changes)
    return True


def _change(game_id: int, seat: int, row: Rating, prior: Skill, new: Skill, at) -> RatingChange:
    return RatingChange(
        game_id=game_id, seat=seat, rating=row, mu_before=prior.mu, sigma_before=prior.sigma,
        mu=new.mu, sigma=new.sigma, games=new.games, at=at,
    )  # fmt: skip


def _where(keys: Iterable[Key], category: str) -> Q:
    users = [k[1] for k in keys if k[0] == "user"]
    bots = [k[1] for k in keys if k[0] == "bot"]
    return Q(category=category) & (Q(person__in=users) | Q(bot_kind__in=bots))


def _key(row: Rating) -> Key:
    return ("bot", row.bot_kind) if row.bot_kind else ("user", row.person)


def _locked_rows(keys: set[Key], category: str) -> dict[Key, Rating]:
    """The players' rating rows, made if new, locked until the transaction ends (bot
    levels are shared by many tables).

    Both steps take the rows in one order, the same in every transaction: bot levels by
    name, then people by id. Inserting a row that another transaction has inserted and not
    yet committed waits for it, so two games inserting their new rows in different orders
    (a set's order, which differs with its contents and between processes) could each
    hold a row the other waits for."""
    order = sorted(keys)  # ("bot", kind) before ("user", id)
    Rating.objects.bulk_create(
        [_new_row(k, category=category) for k in order], ignore_conflicts=True
    )  # a row another game made meanwhile is kept
    # People by their unique person: ignore_conflicts covers it as well as the bots'
    # constraint. PostgreSQL locks the rows in the ORDER BY's order; bot levels' names are
    # lowercase ASCII words, which every collation sorts as Python does.
    rows = (
        Rating.objects.select_for_update()
        .filter(_where(keys, category))
        .order_by(F("person").asc(nulls_first=True), "bot_kind")
    )
    return {_key(r): r for r in rows}


def _new_row(key: Key, account: bool = True, *, category: str = LIVE) -> Rating:
    """A new player's row in ``category``; ``account``: the person's account still exists
    (a rebuild makes a deleted person's row again, without it)."""
    if key[0] == "bot":
        return Rating(bot_kind=key[1], mu=NEW.mu, sigma=NEW.sigma, category=category)
    user_id = key[1] if account else None
    return Rating(user_id=user_id, person=key[1], mu=NEW.mu, sigma=NEW.sigma, category=category)


# --- Rebuilding every rating ------------------------------------------------------------------


def rated_games(category: str | None = None):
    """The games that move ratings (of ``category``, or all), in the order they finished:
    not those staff voided (fair play), which ``recompute`` leaves out once they are."""
    games = Game.objects.filter(
        status=Game.Status.FINISHED, rated=True, imported=False, voided_at__isnull=True
    )
    if category is not None:
        cut = Q(turn_seconds__gte=CORRESPONDENCE_FROM)
        games = games.filter(cut if category == CORRESPONDENCE else ~cut)
    return games.order_by("finished_at", "pk")


def _replay_order(games: list[tuple], applied: dict[int, int]) -> list[tuple]:
    """``games`` (pk first, finished_at last, in the order they finished) in the order the
    live updates applied them: by ``applied`` (a game's first change id). A game that has
    no change rows (never rated live) goes where it finished among them: each one goes
    before the first rated game, in the live order, that finished after it."""
    live = sorted((g for g in games if g[0] in applied), key=lambda g: applied[g[0]])
    never = iter(g for g in games if g[0] not in applied)
    ordered: list[tuple] = []
    waiting = next(never, None)
    for game in live:
        while waiting is not None and (waiting[-1], waiting[0]) < (game[-1], game[0]):
            ordered.append(waiting)
            waiting = next(never, None)
        ordered.append(game)
    if waiting is not None:
        ordered += [waiting, *never]
    return ordered


def _lock_out_live_updates() -> None:
    """Make every live update wait until this transaction ends, so that no game is rated
    from the rows being rebuilt, nor left out of them. Each live update writes a rating row
    before anything else of the ratings (``_locked_rows`` inserts, then locks rows), and
    EXCLUSIVE conflicts with both while pages may still read the ratings. SQLite lets one
    writer in at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(Rating._meta.db_table)
            cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")


@transaction.atomic
def recompute() -> int:
    """Every rating again from the stored games, each category on its own, in the order
    the live updates applied them; the number of games rated. Live updates wait
    meanwhile, then apply on top."""
    # The lock comes before the games are read: a game that finishes meanwhile is either
    # committed (and read here) or waits and is rated after the rebuilt ratings.
    _lock_out_live_updates()
    applied = dict(
        RatingChange.objects.values("game_id")
        .annotate(first=Min("pk"))
        .values_list("game_id", "first")
    )
    rebuilt = [(c, *_replay(c, applied)) for c in CATEGORIES]
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    rated = 0
    for category, skills, changes, count in rebuilt:
        rated += count
        living = _accounts({k[1] for k in skills if k[0] == "user"})
        made = {k: _new_row(k, k[0] == "bot" or k[1] in living, category=category) for k in skills}
        for key, row in made.items():
            row.mu, row.sigma, row.games = skills[key].mu, skills[key].sigma, skills[key].games
        Rating.objects.bulk_create(made.values())
        # In replay order: the new ids keep the order for the next recompute.
        RatingChange.objects.bulk_create(
            _change(pk, s, made[key], prior, new, at) for pk, s, key, prior, new, at in changes
        )
    return rated


def _replay(category: str, applied: dict[int, int]) -> tuple[dict, list, int]:
    """One category's games rated again in order: the skills, the change rows' facts and
    how many games were rated."""
    games = _replay_order(
        list(rated_games(category).values_list("pk", "winner_seat", "chips", "finished_at")),
        applied,
    )
    seats = _seats_of([g[0] for g in games])
    people = {s.user_id for ss in seats.values() for s in ss if s.user_id}
    guests, claimed = _guest_ids(people), _claimed(people)
    gone = _deleted_people(seats)
    skills: dict[Key, Skill] = {}
    changes: list[tuple[int, int, Key, Skill, Skill, datetime]] = []
    rated = 0
    for pk, winner, chips, at in games:
        table = seats.get(pk, [])
        then = {s.user_id for s in table if s.user_id in claimed and at and at < claimed[s.user_id]}
        keys = seat_keys(table, guests | then if then else guests)
        for seat in table:
            if (pk, seat.index) in gone:
                keys[seat.index] = ("user", gone[pk, seat.index])
        if not _counts(keys):
            continue
        priors = {k: skills.get(k, NEW) for k in keys if k is not None}
        new = rate(priors, keys, winner, chips)
        skills.update(new)
        changes += [
            (pk, s, keys[s], priors[keys[s]], new[keys[s]], at) for s in range(3) if keys[s]
        ]
        rated += 1
    return skills, changes, rated


def _seats_of(game_ids: list[int]) -> dict[int, list[Seat]]:
    seats: dict[int, list[Seat]] = {}
    rows = Seat.objects.filter(game_id__in=game_ids).only("game_id", "index", "user_id", "bot_kind")
    for seat in rows:
        seats.setdefault(seat.game_id, []).append(seat)
    return seats


def _deleted_people(seats: dict[int, list[Seat]]) -> dict[tuple[int, int], int]:
    """(game, seat) → the person who sat there, for the seats emptied by the deletion of
    a rated person's account: read from the seat's change row (its rating's ``person``).
    A rated game's seats are all held, so an empty one was a person's. One query."""
    empty = {g for g, table in seats.items() for s in table if s.user_id is None and not s.bot_kind}
    if not empty:
        return {}
    rows = RatingChange.objects.filter(game_id__in=empty, rating__person__isnull=False)
    return {
        (game, seat): person
        for game, seat, person in rows.values_list("game_id", "seat", "rating__person")
    }


def _accounts(ids: set[int]) -> set[int]:
    """Which of these people still have an account."""
    return set(get_user_model().objects.filter(pk__in=ids).values_list("pk", flat=True))


# --- Reading ----------------------------------------------------------------------------------


def skills_of(
    user_ids: Iterable[int] = (), bot_kinds: Iterable[str] = (), category: str = LIVE
) -> dict[Key, Skill]:
    """The ratings of these people and bot levels in ``category``, in one query; a player
    never rated shows as new."""
    keys = {("user", u) for u in user_ids if u} | {("bot", b) for b in bot_kinds if b}
    found = {k: NEW for k in keys}
    if keys:
        for row in Rating.objects.filter(_where(keys, category)).only(
            "person", "bot_kind", "mu", "sigma", "games"
        ):
            found[_key(row)] = Skill(row.mu, row.sigma, row.games)
    return found


def skill_of_seat(skills: dict[Key, Skill], seat) -> Skill | None:
    """A seat's skill from ``skills_of``; None for a seat nobody rated holds."""
    if seat.bot_kind:
        return skills.get(("bot", seat.bot_kind))
    if seat.user_id is not None:
        return skills.get(("user", seat.user_id))
    return None


def history(
    user_id: int, last: int = 100, category: str = LIVE
) -> list[tuple[datetime, float, float, int]]:
    """The person's rating in ``category`` (at, mu, sigma, games) after each of their last
    ``last`` rated games, oldest first."""
    # In the order they were applied (see the module's docstring), not by ``at``: the last
    # is the rating as it stands.
    rows = (
        RatingChange.objects.filter(rating__person=user_id, rating__category=category)
        .order_by("-pk")
        .values_list("at", "mu", "sigma", "games")[:last]
    )
    return list(reversed(rows))
