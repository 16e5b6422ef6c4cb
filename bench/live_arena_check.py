"""After an arena run (bench/live_arena_run.py): are its pairing and its standings right
when the people were spread over workers that share no memory (issue 52)?

- Pairing, from the database: every game of the tournament seats three different people
  (or bots), and nobody sat at two of its games at once (a game runs from its start to its
  finish; one unfinished runs on).
- Standings, as the workers show them: each person's own row on the tournament's page
  (rank, points, games), asked of every worker directly rather than through the proxy,
  against the standings computed afresh from the database by the site's own
  ``standings.standings``. A worker may show a board up to ``TONGITS_STANDINGS_SECONDS``
  old, and up to ``_shown_while_computing()`` (3 s) while it computes the next
  (games/tournaments/standings.py), so the pages are asked that long after the
  tournament's revision was read, and the comparison counts only when the revision had
  not moved by the time they had all come back; otherwise it is tried again.
"""

from __future__ import annotations

import asyncio
import html
import re
from datetime import datetime
from typing import Any

YOUR_ROW = re.compile(r'<tr data-entry="(\d+)" class="standings-you">(.*?)</tr>', re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")
# People whose rows are asked of each worker: enough to see a worker's board, few enough
# that a crowd's check is not a second crowd.
CHECKED = 150
TRIES = 8


def pairing_faults(tournament_id: int) -> list[str]:
    """What is wrong with the tournament's pairing, from its games in the database."""
    from django.utils import timezone

    from games.tournaments.models import TournamentGame

    faults: list[str] = []
    spans: dict[int, list[tuple[datetime, datetime, int]]] = {}
    now = timezone.now()
    rows = TournamentGame.objects.filter(tournament_id=tournament_id).select_related("game")
    for tg in rows.prefetch_related("game__seats"):
        game = tg.game
        seats = list(game.seats.all())
        people = [s.user_id for s in seats if s.user_id]
        if len(seats) != 3 or len(set(people)) != len(people):
            faults.append(f"game {game.pk} seats {[(s.user_id, s.bot_kind) for s in seats]}")
        begun = game.started_at or game.created_at
        for user in people:
            spans.setdefault(user, []).append((begun, game.finished_at or now, game.pk))
    for user, games in spans.items():
        games.sort()
        for (_, ended, first), (begun, _, then) in zip(games, games[1:], strict=False):
            if begun < ended:
                faults.append(f"person {user} at games {first} and {then} at once")
    return faults


def expected(tournament_id: int) -> tuple[int, dict[int, tuple[int, int, int]]]:
    """The tournament's revision, and each entry's (rank, points, games) computed now."""
    from games.tournaments import standings
    from games.tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    rows = standings.standings(t)
    return t.rev, {e.pk: (row.rank, row.score.points, row.score.games) for row, e in rows}


def revision(tournament_id: int) -> int:
    from games.tournaments.models import Tournament

    return Tournament.objects.values_list("rev", flat=True).get(pk=tournament_id)


def shown_row(body: str) -> tuple[int, tuple[int, int, int]] | None:
    """(entry id, (rank, points, games)) of the watcher's own row on the page, or None."""
    found = YOUR_ROW.search(body)
    if found is None:
        return None
    cells = [html.unescape(TAG.sub("", c)).strip() for c in CELL.findall(found.group(2))]
    try:
        return int(found.group(1)), (int(cells[0]), int(cells[2]), int(cells[3]))
    except (IndexError, ValueError):
        return None


async def standings_faults(bench, persons: list) -> dict[str, Any]:
    """Each checked person's row as every live worker shows it, against the database."""
    from django.conf import settings

    from games.tournaments import standings

    # A worker shows a board up to TONGITS_STANDINGS_SECONDS old, and while another of
    # its threads computes the next one, a board up to _shown_while_computing() old (3 s):
    # the rows are asked for once both have passed since the revision was read.
    kept = max(settings.TONGITS_STANDINGS_SECONDS, standings._shown_while_computing())
    wait = kept + 0.3
    page = f"/tournaments/{bench.tournament_id}/"
    step = max(1, len(persons) // CHECKED)
    checked = persons[::step][:CHECKED]
    workers = [w for w in bench.workers.items if w.alive]
    slots = asyncio.Semaphore(16)

    async def row(person, worker):
        async with slots:
            status, _headers, body = await person.browser.request(worker.port, "GET", page)
        return worker.index, status, shown_row(body)

    for attempt in range(1, TRIES + 1):
        before = await bench.orm(revision, bench.tournament_id)
        await asyncio.sleep(wait)
        seen = await asyncio.gather(*(row(p, w) for p in checked for w in workers))
        after, want = await bench.orm(expected, bench.tournament_id)
        if after != before:
            continue  # a game ended meanwhile: the boards may differ for a second
        wrong = []
        for index, status, shown in seen:
            if shown is None or want.get(shown[0]) != shown[1]:
                got = shown and (shown[1], want.get(shown[0]))
                wrong.append(f"worker {index}: {status} {got}")
        played = sorted((v, k) for k, v in want.items() if v[2])[:5]
        return {
            "standings_leaders": played,  # the first five who played: (rank, points, games), entry
            "standings_rev": after,
            "standings_rows_checked": len(seen),
            "standings_workers": len(workers),
            "standings_wrong": len(wrong),
            "standings_wrong_first": wrong[:5],
            "standings_tries": attempt,
        }
    return {"standings_rows_checked": 0, "standings_wrong": None, "standings_tries": TRIES}


def clock_turns(tournament_id: int, boards: dict[tuple[int, int], float]) -> dict[str, Any]:
    """The turns the server's clock played for a person (a move by the server at a seat a
    person holds), and of those the ones made before that person's first board of the game
    had come (``boards``: (game, user) -> Unix time; none came at all counts too)."""
    from django.db.models import F

    from games.models import Move
    from games.tournaments.models import TournamentGame

    games = TournamentGame.objects.filter(tournament_id=tournament_id).values("game_id")
    played = Move.objects.filter(
        game_id__in=games, by_server=True, game__seats__index=F("seat"),
        game__seats__user__isnull=False,
    ).values_list("game_id", "game__seats__user_id", "created_at")  # fmt: skip
    early = [
        (game, user)
        for game, user, at in played
        if (game, user) not in boards or at.timestamp() < boards[(game, user)]
    ]
    return {"clock_turns_for_people": len(played), "clock_turns_before_board": len(early),
            "clock_turns_before_board_first": early[:5]}  # fmt: skip


async def after_run(bench, persons: list) -> dict[str, Any]:
    """The checks, while the workers still run; ``arena_ok`` is the pairing and the
    standings held and no turn played for a person before their board came."""
    faults = await bench.orm(pairing_faults, bench.tournament_id)
    shown = await standings_faults(bench, persons)
    boards = {(game, p.user_id): at for p in persons for game, at in p.boards.items()}
    clock = await bench.orm(clock_turns, bench.tournament_id, boards)
    ok = not faults and shown["standings_wrong"] == 0 and not clock["clock_turns_before_board"]
    return {"pairing_faults": len(faults), "pairing_faults_first": faults[:5], **shown,
            **clock, "arena_ok": ok}  # fmt: skip
