"""Everything a game in play sends, to everyone who may look, holds nothing hidden.

One scripted game (a secret set in it) is played move by move through the action form's
htmx POST, and after every move each onlooker's pages, partials and socket frames are
collected: the three seated people, a watcher without an account, a logged-in person with
no seat and a staff member with no seat (the admin's pages included), plus every log
line of the game. Each text is checked against what that onlooker may not see at that
moment (tests/table/leaks.py): another seat's hand, the stock, a secret set, the seed.
"""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.engine import Move
from games.models import Game
from games.play import dealing, moves
from tests.table import story
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import SEED, fields, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)

NO_SESSION = [(b"origin", b"http://localhost")]
SEATED = ("alice", "bob", "carol")


def pages_for(client: Client, game: Game, staff: bool) -> dict[str, str]:
    """Every page and partial about the game this onlooker can ask for in play."""
    urls = {
        "table": reverse("table", args=[game.pk]),
        "lobby": reverse("lobby"),
        "replay": reverse("replay", args=[game.pk]),
        "record": reverse("record_json", args=[game.pk]),
        "coach": reverse("analysis", args=[game.pk]),
    }
    if staff:
        urls["admin list"] = reverse("admin:games_game_changelist")
        urls["admin game"] = reverse("admin:games_game_change", args=[game.pk])
        urls["admin history"] = reverse("admin:games_game_history", args=[game.pk])
        urls["dashboard"] = reverse("staff_dashboard")
    shown = {}
    for name, url in urls.items():
        response = client.get(url, HTTP_HX_REQUEST="true" if name == "coach" else None)
        assert response.status_code < 500, (name, response.status_code)
        shown[name] = response.content.decode()
    # The home page's picture of a table shows made-up cards: only its list of games counts.
    lobby = shown["lobby"]
    shown["lobby"] = lobby[lobby.find('<section aria-labelledby="to-watch-title"') :]
    shown["lobby"] = shown["lobby"][: shown["lobby"].find("</section>")]
    assert "Games to watch" in shown["lobby"]
    return shown


def assert_hidden(text: str, game: Game, seat: int | None, what: str) -> None:
    state = moves.game_state(game)
    found = leaks(text, hidden_cards(state, seat), game.seed)
    assert not found, f"{what} (seat {seat}, seq {game.seq}) showed {found}"


async def drain(ws) -> list[str]:
    got = []
    while not await ws.receive_nothing(timeout=0.15):
        got.append(await ws.receive_from(timeout=1))
    return got


async def test_no_onlooker_is_sent_a_hidden_card_or_the_seed_in_any_page_frame_or_log(
    alice, bob, carol, caplog
):
    User = get_user_model()
    dave = await database_sync_to_async(User.objects.create_user)("dave", password="pw-d-1!")
    staff = await database_sync_to_async(User.objects.create_superuser)("staff", password="pw-s")
    people = [alice, bob, carol]

    def set_up() -> Game:
        game = Game.objects.create(created_by=alice, public=True)
        for index, user in enumerate(people):
            game.seats.create(index=index, user=user)
        dealing.start_game(game, seed=SEED)
        return story.deal_as_scripted(game)

    game = await database_sync_to_async(set_up)()
    caplog.set_level(logging.DEBUG)
    # Onlookers: (name, seat or None, Client, socket headers).
    onlookers = []
    for name, user, seat in [*zip(SEATED, people, range(3), strict=True), ("dave", dave, None)]:
        headers = await database_sync_to_async(session_headers)(user)
        client = Client()
        await database_sync_to_async(client.force_login)(user)
        onlookers.append((name, seat, client, headers))
    staff_client = Client()
    await database_sync_to_async(staff_client.force_login)(staff)
    staff_headers = await database_sync_to_async(session_headers)(staff)
    onlookers.append(("staff", None, staff_client, staff_headers))
    onlookers.append(("anonymous", None, Client(), NO_SESSION))

    sockets = {}
    for name, _, _, headers in onlookers:
        ws = socket(game.pk, headers)
        connected, _ = await ws.connect()
        assert connected, name
        sockets[name] = ws

    async def look(game: Game, partial: tuple[int, str] | None = None) -> int:
        checked = 0
        if partial is not None:
            seat, text = partial
            await database_sync_to_async(assert_hidden)(text, game, seat, "act's partial")
        for name, seat, client, _ in onlookers:
            frames = await drain(sockets[name])
            assert frames, f"{name} was sent no frame at seq {game.seq}"
            for text in frames:
                await database_sync_to_async(assert_hidden)(text, game, seat, f"{name}'s frame")
            shown = await database_sync_to_async(pages_for)(client, game, name == "staff")
            for page, text in shown.items():
                await database_sync_to_async(assert_hidden)(text, game, seat, f"{name}'s {page}")
            checked += len(frames) + len(shown)
        return checked

    checked = await look(game)
    for payload in story.MOVES[:-1]:  # the last move ends the game, revealing all
        seat = payload["seat"]
        client = onlookers[seat][2]
        data = fields(Move.from_dict(payload), seq=str(game.seq))

        def act(data=data, client=client) -> str:
            response = client.post(reverse("act", args=[game.pk]), data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200
            return response.content.decode()

        partial = await database_sync_to_async(act)()
        await database_sync_to_async(game.refresh_from_db)()
        assert game.seq == story.MOVES.index(payload) + 1, partial[-300:]
        checked += await look(game, (seat, partial))

    for ws in sockets.values():
        await ws.disconnect()
    assert not game.is_over and checked > 400
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "dealt" in logged
    await database_sync_to_async(assert_hidden)(logged, game, None, "the log")
