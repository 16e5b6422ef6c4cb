"""Helpers for the table's tests: logged-in sockets, and moves turned into the action
form's fields, as htmx's ws-send sends them."""

from __future__ import annotations

import json
import re
from typing import Any

from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engine import Move, seat_view
from games.engine.cards import codes_of
from games.models import Game
from games.play import moves
from tongits_site.asgi import application

# Long, so that a leaked seed cannot hide among the page's other digits.
SEED = 918273645546372819
SEQ = re.compile(r'data-seq="(\d+)"')


def session_headers(user) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost")]


def socket(game_id: int, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    # A browser always names the host it asked for; the origin check compares with it.
    if not any(name == b"host" for name, _ in headers):
        headers = [*headers, (b"host", b"localhost")]
    return WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)


def fields(move: Move, **extra: Any) -> dict[str, Any]:
    """The action form's fields for an engine move, as htmx's ws-send sends them."""
    data: dict[str, Any] = {"action": move.type, **extra}
    cards = codes_of(move.cards)
    if cards:
        data["cards"] = cards[0] if len(cards) == 1 else cards
    if move.type == "layoff":
        data["meld"] = str(move.meld)
    return data


def frame(data: dict[str, Any]) -> str:
    return json.dumps({**data, "HEADERS": {"HX-Request": "true"}})


def seq_of(html: str) -> int:
    seqs = {int(s) for s in SEQ.findall(html)}
    assert len(seqs) == 1, f"a frame's parts disagree on the seq: {seqs}"
    return seqs.pop()


def first_legal(game: Game) -> tuple[int, Move]:
    """The seat that must act, and its first legal move."""
    state = moves.game_state(game)
    seat = state.turn
    return seat, seat_view(state, seat).legal[0]


def play_to_the_end(game: Game, people: list) -> Game:
    """Each seat plays its first legal move until the game ends."""
    while not game.is_over:
        seat, move = first_legal(game)
        moves.submit_move(game.pk, people[seat], move.to_dict())
        game.refresh_from_db()
    return game
