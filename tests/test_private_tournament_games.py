"""A private tournament's games are private (issue 46): they were dealt as public tables,
listed on the home page's Games to watch and watchable by a visitor while the
tournament's page refused them. Now they are watched, on the table's page and its socket,
and replayed after the end, by whoever may see the tournament: its entrants, its creator,
and whoever opened its invite link (in that browser); a visitor or a stranger without
the link is refused, and they are listed nowhere to watch."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.play import moves
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import session_headers, socket
from tests.test_tournaments import _end_game

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


@dataclass
class Arena:
    t: Tournament
    game: Game
    entrant: object  # entered, not at this game
    stranger: object  # logged in, without the link


def _arena() -> Arena:
    """Alice's private tournament: she, bob and carol at its game; dave entered after."""
    User = get_user_model()
    alice, bob, carol, dave, stranger = (
        User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave", "erin")
    )
    t = services.create(alice, name="Friends", starts_at=timezone.now())
    for person in (alice, bob, carol):
        services.join(t.pk, person, invite_token=t.invite_token)
    [game] = services.pair(t.pk)
    services.join(t.pk, dave, invite_token=t.invite_token)
    return Arena(t, game, dave, stranger)


def _invited(client: Client, t: Tournament) -> Client:
    """The browser opens the tournament's invite link."""
    page = client.get(reverse("tournament", args=[t.pk]) + f"?invite={t.invite_token}")
    assert page.status_code == 200
    return client


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _table(client: Client, game: Game):
    return client.get(reverse("table", args=[game.pk]))


def _headers(client: Client) -> list[tuple[bytes, bytes]]:
    return [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()), ORIGIN]


def test_a_private_tournaments_game_is_private_and_listed_nowhere_to_watch(db):
    arena = _arena()
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    public = services.create(staff, name="Open", starts_at=timezone.now(), public=True)
    for person in (arena.entrant, arena.stranger, staff):
        services.join(public.pk, person)
    [open_game] = services.pair(public.pk)

    home = Client().get(reverse("lobby")).content.decode()
    lobby = _logged_in(arena.stranger).get(reverse("lobby")).content.decode()

    assert not Game.objects.get(pk=arena.game.pk).public
    for page in (home, lobby):
        assert f'id="watch-{arena.game.pk}"' not in page
    assert f'id="watch-{open_game.pk}"' in home  # a public tournament's games are listed


def test_its_table_page_refuses_a_visitor_and_a_stranger_without_the_invite(db):
    arena = _arena()

    visitor = _table(Client(), arena.game)
    stranger = _table(_logged_in(arena.stranger), arena.game)

    assert visitor.status_code == 302 and visitor["Location"].startswith("/accounts/login/")
    assert stranger.status_code == 403


def test_its_table_page_shows_an_entrant_and_whoever_opened_the_invite_a_spectators_view(
    db,
):
    arena = _arena()
    watchers = {
        "entrant": _logged_in(arena.entrant),
        "invitee": _invited(_logged_in(arena.stranger), arena.t),
        "visitor with the link": _invited(Client(), arena.t),
    }
    state = moves.game_state(arena.game)
    for who, client in watchers.items():
        page = _table(client, arena.game)
        assert page.status_code == 200, who
        html = page.content.decode()
        assert "You are watching this table." in html, who
        assert leaks(html, hidden_cards(state, None), arena.game.seed) == [], who


def test_a_wrong_invite_opens_nothing(db):
    arena = _arena()
    client = Client()
    page = client.get(reverse("tournament", args=[arena.t.pk]) + "?invite=" + "x" * 32)
    assert page.status_code == 403
    assert _table(client, arena.game).status_code == 302


async def _close_code(game_id: int, headers) -> int | None:
    watcher = socket(game_id, headers)
    await watcher.connect()
    output = await watcher.receive_output(timeout=3)
    if output["type"] == "websocket.close":
        return output["code"]
    assert "You are watching this table." in output["text"]
    await watcher.disconnect()
    return None


async def test_its_socket_admits_the_entrant_and_the_invitee_and_closes_on_the_others():
    arena = await database_sync_to_async(_arena)()
    game_id = arena.game.pk
    entrant = await database_sync_to_async(session_headers)(arena.entrant)
    stranger = await database_sync_to_async(session_headers)(arena.stranger)
    invitee = _headers(
        await database_sync_to_async(lambda: _invited(_logged_in(arena.stranger), arena.t))()
    )
    visitor = _headers(await database_sync_to_async(lambda: _invited(Client(), arena.t))())

    assert await _close_code(game_id, [ORIGIN]) == 4401  # a visitor: log in
    assert await _close_code(game_id, stranger) == 4403
    assert await _close_code(game_id, entrant) is None
    assert await _close_code(game_id, invitee) is None
    assert await _close_code(game_id, visitor) is None


def test_once_over_it_is_replayed_by_the_entrant_and_the_invitee_not_a_stranger(db):
    arena = _arena()
    _end_game(arena.game.pk, away_at_end=False)
    replay = reverse("replay", args=[arena.game.pk])

    assert _logged_in(arena.entrant).get(replay).status_code == 200
    assert _logged_in(arena.stranger).get(replay).status_code == 403
    assert _invited(_logged_in(arena.stranger), arena.t).get(replay).status_code == 200


def test_the_way_back_from_its_table_opens_the_tournament_for_whoever_came_by_its_link(db):
    arena = _arena()
    client = _invited(_logged_in(arena.stranger), arena.t)
    back = reverse("tournament", args=[arena.t.pk])  # the table's way back: no invite in it

    page = client.get(back).content.decode()
    client.post(reverse("tournament_join", args=[arena.t.pk]), {"invite": arena.t.invite_token})

    assert f'name="invite" value="{arena.t.invite_token}"' in page  # its Join form joins
    assert arena.t.entries.filter(user=arena.stranger).exists()
