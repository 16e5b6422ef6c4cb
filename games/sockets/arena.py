"""An arena's waiting table: the socket of a person who joined, before their first game.

After Join the person's page is the arena's table with no game yet
(games/tournaments/waiting.py), and its socket (``/ws/arena/<tournament>/``) listens on the
person's tables group. When the pairing deals their game it tells that group
(games/tournaments/services.py, ``arena.next`` naming the tournament), and this socket goes
on to the game exactly as a table's socket goes on to an arena's next game
(games/sockets/table.py, ``go_on``): it joins the game's group and sends its person's whole
board, led by the new game's number, and the page follows (static/js/table.js). A crowd's
start then costs no table page and no socket handshake: those were paid in the minute of
arrival, one person at a time.

Nothing of a game is sent before the pairing names it, and then only what the person's
own seat may see (``send_board``: ``spectators.table_for`` with this socket's user). A
socket that opens, or opens again, after its person was paired goes on at once; one whose
event was lost, at the next socket check (games/play/live/watch.py). Once at its game it
is a table's socket like any other.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.play import actions
from games.play.errors import ServiceError
from games.play.live import watch
from games.play.live.db import in_db_thread, on_arrival
from games.social.chat import live as chat
from games.sockets.guard import whole
from games.sockets.table import GameConsumer
from games.tournaments.waiting import first_games, their_game

NOT_DEALT = gettext_lazy("Your game has not been dealt yet: it comes to this table.")


class WaitingTableConsumer(GameConsumer):
    """A waiting table's socket; after its first game comes, a ``GameConsumer``."""

    async def connect(self) -> None:
        tournament_id: int = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.game_id = None  # type: ignore[assignment]
        await self.begin()
        if not self.user.is_authenticated:
            await self.close(code=4401)
            return
        # The person's group before the database is asked: a pairing that commits in
        # between is either found below or heard as its event.
        await self.chat.join()
        game_id, entered = await on_arrival(their_game)(self.user.pk, tournament_id)
        if not entered:  # not in its pool (never joined, paused, withdrew): the page says
            await self.leave()
            await self.close(code=4403)
            return
        self.waits = tournament_id
        await self.count_present()
        watch.add(self)  # its check heals a lost event (``_first_games_lost``)
        if game_id is not None:  # paired before this socket opened: a reconnect, a late page
            await self.go_on(game_id, after=None)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.game_id is not None:  # at its game now: a table's socket
            await super().receive(text_data=text_data, bytes_data=bytes_data)
            return
        try:
            data = actions.frame_data(text_data)
        except ServiceError as e:
            await self.send_message(e.message)
            return
        if chat.is_chat(data) and "chat_history" in data:
            await self.chat.start_empty()  # no talk before a game (the page asks at open)
            return
        await self.send_message(NOT_DEALT)

    async def arena_next(self, event: dict) -> None:
        if self.game_id is not None:  # at a game: its next game, as any table's socket
            await super().arena_next(event)
            return
        game_id = event.get("game")
        if whole(game_id) and event.get("tournament") == self.waits:
            await self.go_on(game_id, after=None)


async def _first_games_lost(sockets: list) -> None:
    """At each socket check: a waiting table's socket whose person's game is being played
    goes on to it (its event was lost: Redis restarted, say)."""
    waiting = [s for s in sockets if getattr(s, "waits", None) and s.game_id is None]
    if not waiting:
        return
    found = await in_db_thread(first_games)([(s.user.pk, s.waits) for s in waiting])
    for socket in waiting:
        game_id = found.get((socket.user.pk, socket.waits))
        if game_id is not None:
            await socket.go_on(game_id, after=None)


watch.also(_first_games_lost)
