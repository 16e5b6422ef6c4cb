"""What a move changed, for the other processes of the site: made from the new snapshot by
the process that made the move, sent with its event, and used by another process to move
its own snapshot on by that move without a query (``snapshots``).

A snapshot made from news is kept, and the game's next move is checked against its
position (``moves.game_state``), so news is used only when it is the log's next move
beyond doubt; otherwise the socket that heard it loads the game from the database, and
nothing is raised (games/sockets/table.py). The channel layer carries only this site's
messages (games/play/live/layer.py); the checks here keep out the rest: an old release's
news, an event come late or out of order, a game of the same number elsewhere.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import datetime
from typing import Any

from games.engine import Move, apply
from games.models import Game
from games.play.live import snapshots
from games.play.live.snapshots import SeatRow, Snapshot

log = logging.getLogger(__name__)

DEAL_CHARS = 16  # of the deal's commitment, which names it in the news
SAY_EVERY = 60.0  # seconds between two warnings of news left unused


def move_news(snap: Snapshot) -> dict[str, Any]:
    """What a process that holds the snapshot one move older needs to make this one
    without a query: the move as logged and the row's new summary. It travels only
    between the site's own processes (the channel layer), never to a browser; it holds
    no card that the log does not (a drawn card is not in the log: each process draws it
    from its own copy of the stock), and the seed only once the game is over. ``deal``
    names the deal (the start of its public commitment): another game with the same id,
    another site's, has another."""
    seat, payload = snap.position.last_move
    return {
        "deal": snap.commitment[:DEAL_CHARS],
        "seq": snap.seq,
        "move": [seat, payload],
        "status": snap.status,
        "seed": snap.seed,
        "due_at": snap.due_at.isoformat() if snap.due_at else None,
        "seats": [[r.index, r.user_id, r.bot_kind, r.away, r.name, r.suggest] for r in snap.seats],
    }


def clock_news(commitment: str, seq: int, due_at: datetime) -> dict[str, Any]:
    """A turn's clock started again at the same move (a person's first board came after
    their turn began: games/play/first_board.py): the row's new due time, no move."""
    return {"deal": commitment[:DEAL_CHARS], "seq": seq, "due_at": due_at.isoformat()}


def apply_news(game_id: int, rev: int, news: Any) -> Snapshot | None:
    """This process's snapshot of the game moved on by one move's news, if it held the
    one just before and the news fits it (else None: the socket loads the game).

    The position made here is kept, and the next move of the game is checked against it
    (``moves.game_state``), so news is used only if it is the log's next move: of this
    deal, at the next seq, legal in the position the log gives, its summary of the types
    a row holds and the game over exactly when the move ends it. Anything else, however
    it came (malformed, an old release's, another site's), is left unused: the database
    is read instead, and nothing is raised."""
    before = snapshots.cached(game_id)
    if before is not None and before.rev >= rev:
        return before
    if type(news) is not dict or before is None or before.position is None:
        return None
    try:
        snap = _moved_on(before, rev, news)
    except (KeyError, TypeError, ValueError) as e:  # InvalidMoveError, IllegalMoveError too
        _unfit(game_id, type(e).__name__)  # its kind only: an engine error may name a card
        return None
    if snap is None:
        return None
    snapshots.remember_position((game_id, snap.commitment), snap.position)
    snapshots.remember(snap)
    return snap


def _moved_on(before: Snapshot, rev: int, news: dict[str, Any]) -> Snapshot | None:
    seq = news["seq"]
    if news["deal"] != before.commitment[:DEAL_CHARS] or type(seq) is not int:
        _unfit(before.pk, "another deal")
        return None
    if "move" not in news:  # a turn's clock started again (``clock_news``)
        if before.rev != rev - 1 or before.seq != seq:
            return None
        return dataclasses.replace(before, rev=rev, due_at=datetime.fromisoformat(news["due_at"]))
    if before.rev != rev - 1 or before.seq != seq - 1:
        return None  # a move this process has not seen the one before of: it loads
    seat, payload = news["move"]
    move = Move.from_dict(payload)
    if move.seat != seat:
        raise ValueError("the move's seat")
    state = apply(before.position.state, move)
    status, seed, due_at = news["status"], news["seed"], news["due_at"]
    ends = Game.Status.FINISHED if state.outcome is not None else before.status
    if status != ends or type(seed) is not str or (seed and state.outcome is None):
        raise ValueError("the game's status")
    seats = tuple(_seat_row(row) for row in news["seats"])
    if [s.index for s in seats] != [s.index for s in before.seats]:
        raise ValueError("the seats")
    return dataclasses.replace(
        before, rev=rev, seq=seq, status=status, seed=seed,
        due_at=datetime.fromisoformat(due_at) if due_at is not None else None,
        seats=seats, position=before.position.after(move, state, payload),
    )  # fmt: skip


def _seat_row(row: Any) -> SeatRow:
    index, user_id, bot_kind, away, name, suggest = row
    typed = (
        type(index) is int and (user_id is None or type(user_id) is int)
        and type(bot_kind) is str and type(away) is bool and type(name) is str
        and type(suggest) is bool
    )  # fmt: skip
    if not typed:
        raise TypeError("a seat")
    return SeatRow(index, user_id, bot_kind, away, name, suggest)


_said_at = -SAY_EVERY


def _unfit(game_id: int, why: str) -> None:
    """Say (once a minute at most) that news was left unused for ``why``."""
    global _said_at
    now = time.monotonic()
    if now - _said_at >= SAY_EVERY:
        _said_at = now
        log.warning("News of game %s did not fit its position (%s): loaded instead.", game_id, why)
