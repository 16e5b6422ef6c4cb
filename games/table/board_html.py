"""The table's busiest parts, made in Python rather than through the template engine.

Every move changes these for every watcher: the opponents' panels (cards left, the turn,
the last turn in words), the status bar, the spoken summary and the felt's melds. Through
Django's templates each cost a tenth to a quarter of a millisecond, three seats a move,
which was a third of a worker's CPU at a busy table. Here each is one f-string, its fixed
words translated once per language (the msgids are the ones the templates used, so the
catalogue is the same).

This is the only markup of these parts: the template's partials call them (the
``board_part`` tag in games/table/cards.py), so the page and the socket send the
same HTML. ``BUILDERS`` is the one list of them; they live in ``board_felt`` (the felt,
the status bar, the panels), ``board_hand`` (the hand) and ``board_result`` (the result),
on what ``board_markup`` shares (escaping, the fixed words, the turn clock).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.table import board_felt
from games.table.board_felt import live, melds, moves_head, moves_tail, piles, seats, status
from games.table.board_hand import hand
from games.table.board_result import result

BUILDERS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "result": result,
    "status": status,
    "live": live,
    "seats": seats,
    "melds": melds,
    "hand": hand,
    "piles": piles,
    "moves-head": moves_head,
    "moves-tail": moves_tail,
}

# Each part as an empty place of its id (an arena's waiting table, before its first game:
# games/tournaments/waiting.py), for the first board's parts to take (hx-swap-oob).
EMPTY: dict[str, str] = {
    "result": '<section id="table-result" class="result" hidden></section>',
    "status": '<div id="table-status" class="turn-bar"></div>',
    "live": '<div id="table-live" class="visually-hidden" aria-live="polite"></div>',
    "seats": '<ul id="seats" class="seats" role="list"></ul>',
    "melds": '<div id="table-melds" class="felt-part"></div>',
    "hand": '<div id="my-hand" class="my-hand"></div>',
    "piles": '<div id="table-piles" class="felt-part"></div>',
    "moves-head": '<ol id="moves-head" class="move-lines"></ol>',
    "moves-tail": '<ol id="moves-tail" class="move-lines"></ol>',
}


def forget() -> None:
    """Drop the panels and melds made so far (tests, and a change of templates)."""
    board_felt.forget()
