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

No Django, no clock: the caller passes ``now`` and the waiting people; the database side
(``games.tournaments.services``) does the locking.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def pair(waiting: Sequence[Waiting], now: datetime, bot_wait: timedelta = BOT_WAIT) -> list[Table]:
    """The tables to make now from the people ``waiting`` (each key once)."""
    people = list({w.key: w for w in waiting}.values())
    # The last to come are left over: the others have waited longer.
    people.sort(key=lambda w: (w.since, w.key))
    full = len(people) - len(people) % 3
    seated, left = people[:full], people[full:]
    tables = _full_tables(seated)
    if left and now - left[0].since >= bot_wait:
        # The longest waiter of those left has waited long enough: bots fill their table.
        tables.append(Table(tuple(w.key for w in left), 3 - len(left)))
    return tables


def _full_tables(people: list[Waiting]) -> list[Table]:
    pool = sorted(people, key=lambda w: (w.rating, w.key))
    tables = []
    while pool:
        first, near = pool[0], pool[1:WINDOW]
        best = min(
            combinations(near, 2),
            key=lambda two: (repeats((first, *two)), max(w.rating for w in two) - first.rating),
        )
        group = (first, *best)
        tables.append(Table(tuple(w.key for w in group), 0))
        # The group came from the first WINDOW: the rest of the pool is left as it is (a
        # crowd's pairing is hundreds of tables: no comparing everyone with every group).
        taken = {w.key for w in group}
        pool = [w for w in pool[:WINDOW] if w.key not in taken] + pool[WINDOW:]
    return tables
