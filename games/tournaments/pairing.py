"""Who plays whom in an arena, pure: from the people waiting, tables of three.

- Three at a time, as soon as possible: whenever three or more wait, everyone who can make
  a full table is seated, so after a pairing fewer than three people wait. Those left
  over (one or two) are the ones who came last.
- Near rating preferred: people are taken in order of rating and each table is filled from
  the nearest few.
- Not the same two people again in a row: among those near in rating, a table that seats
  two people who were together at their last game is avoided when another choice exists
  (it is a preference: with only the same three waiting, they play again rather than wait).
- Bots fill the seats of one or two people who have waited ``BOT_WAIT`` or longer; bots
  score nothing (they are no entry).
- Never two who must sit apart: ``veto`` (a rated arena's: fair play's accounts that share
  an address or a device, ``games.play.hooks.veto``) refuses a group, which is never
  made; whoever is left without a table waits, and gets bots like anyone left over.

No Django, no clock: the caller passes ``now`` and the waiting people; the database side
(``games.tournaments.services``) does the locking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations

BOT_WAIT = timedelta(seconds=20)
WINDOW = 6  # how many of the nearest in rating a table is chosen from


@dataclass(frozen=True)
class Waiting:
    key: int  # the entry
    rating: float
    since: datetime
    last_met: frozenset[int] = field(default_factory=frozenset)  # keys met at the last game


@dataclass(frozen=True)
class Table:
    people: tuple[int, ...]  # one to three keys
    bots: int  # seats for bots: 3 - len(people)


def repeats(group: Sequence[Waiting]) -> int:
    """Pairs in ``group`` who were together at the last game of either of them."""
    return sum(a.key in b.last_met or b.key in a.last_met for a, b in combinations(group, 2))


Veto = Callable[[Sequence[int]], bool]


def _never(group: Sequence[int]) -> bool:
    return False


def pair(
    waiting: Sequence[Waiting],
    now: datetime,
    bot_wait: timedelta = BOT_WAIT,
    veto: Veto | None = None,
) -> list[Table]:
    """The tables to make now from the people ``waiting`` (each key once); no table
    seats a group that ``veto`` refuses."""
    veto = veto or _never
    people = list({w.key: w for w in waiting}.values())
    # The last to come are left over: the others have waited longer.
    people.sort(key=lambda w: (w.since, w.key))
    full = len(people) - len(people) % 3
    seated, left = people[:full], people[full:]
    tables, unplaced = _full_tables(seated, veto)
    if unplaced:  # some could not sit together: they and those left over try again
        more, unplaced = _full_tables([*unplaced, *left], veto)
        tables, left = tables + more, unplaced
    left = sorted(left, key=lambda w: (w.since, w.key))
    if left and now - left[0].since >= bot_wait:
        # The longest waiter of those left has waited long enough: bots fill their table.
        tables += _bot_tables(left, veto)
    return tables


def _full_tables(people: list[Waiting], veto: Veto) -> tuple[list[Table], list[Waiting]]:
    pool = sorted(people, key=lambda w: (w.rating, w.key))
    tables, unplaced = [], []
    while len(pool) >= 3:
        first = pool[0]
        allowed = _allowed(first, pool[1:WINDOW], veto)  # the nearest,
        if not allowed:
            allowed = _allowed(first, pool[1:], veto)  # else anyone (rare: a veto refused)
        if not allowed:
            unplaced.append(first)
            pool = pool[1:]
            continue
        best = min(
            allowed,
            key=lambda two: (repeats((first, *two)), max(w.rating for w in two) - first.rating),
        )
        group = (first, *best)
        tables.append(Table(tuple(w.key for w in group), 0))
        # The group came from the first WINDOW (but where a veto sent it further): the rest
        # of the pool is left as it is (a crowd's pairing is hundreds of tables: no
        # comparing everyone with every group).
        taken = {w.key for w in group}
        near = [w for w in pool[:WINDOW] if w.key not in taken]
        far = pool[WINDOW:]
        if len(near) + 3 > min(len(pool), WINDOW):  # someone was taken from far
            far = [w for w in far if w.key not in taken]
        pool = near + far
    return tables, unplaced + pool


def _allowed(first: Waiting, near: list[Waiting], veto: Veto) -> list[tuple[Waiting, ...]]:
    """The pairs of ``near`` that may sit with ``first``."""
    return [two for two in combinations(near, 2) if not veto(tuple(w.key for w in (first, *two)))]


def _bot_tables(left: list[Waiting], veto: Veto) -> list[Table]:
    """Tables of one or two of ``left`` with bots, in their order, two together only when
    ``veto`` allows (without a veto, up to two people: one table)."""
    tables: list[list[int]] = []
    for w in left:
        place = next((t for t in tables if len(t) < 2 and not veto((*t, w.key))), None)
        if place is None:
            tables.append([w.key])
        else:
            place.append(w.key)
    return [Table(tuple(t), 3 - len(t)) for t in tables]
