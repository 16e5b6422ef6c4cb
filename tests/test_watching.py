"""Watching (issue 24), as on lichess: anyone, without an account, may watch a public table
and any game of bots only; Quick play makes a table anyone may watch unless its player
ticks private; the lobby and the home page list games to watch. A watcher is sent no
hidden card, in the page or in any socket frame, before the game ends."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.engine import seat_view
from games.models import Game, Move
from games.play import moves as play_moves
from games.play import server_moves, tables
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import fields, first_legal, frame, socket

pytestmark = pytest.mark.django_db(transaction=True)

NO_SESSION = [(b"origin", b"http://localhost")]


def play(game: Game, people: list, moves: int) -> Game:
    for _ in range(moves):
        seat, move = first_legal(game)
        play_moves.submit_move(game.pk, people[seat], move.to_dict())
        game.refresh_from_db()
    return game


def watched(client: Client, game: Game) -> str:
    response = client.get(reverse("table", args=[game.pk]))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def assert_nothing_hidden(text: str, game: Game) -> None:
    game.refresh_from_db()
    state = play_moves.game_state(game)
    assert leaks(text, hidden_cards(state, None), game.seed) == []


def test_anyone_without_an_account_watches_a_public_table_and_sees_no_hidden_card(
    client, alice, bob, carol, make_game
):
    people = [alice, bob, carol]
    game = play(make_game(people, seed=918273645546372819), people, moves=5)

    html = watched(client, game)

    assert "You are watching this table." in html
    assert 'name="action"' not in html  # nothing to act with
    assert_nothing_hidden(html, game)


def test_a_game_of_bots_only_may_be_watched_even_when_private(client, make_game):
    # A seed long enough that finding it in the page means it leaked (not "11 cards").
    game = make_game(["greedy", "easy", "normal"], seed=736251849302817465, public=False)
    for _ in range(5):
        server_moves.play_due(game.pk)

    html = watched(client, game)

    assert "You are watching this table." in html
    assert_nothing_hidden(html, game)


def test_a_private_table_with_a_person_is_hers_alone(client, alice, bob):
    game = tables.quick_play(alice, public=False)

    anonymous = client.get(reverse("table", args=[game.pk]))
    client.force_login(bob)
    other = client.get(reverse("table", args=[game.pk]))

    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert other.status_code == 403


def test_quick_play_is_watchable_unless_its_player_ticks_private(client, alice):
    client.force_login(alice)

    client.post(reverse("quick_play"), {"level": "easy"})
    Game.objects.update(status=Game.Status.FINISHED)  # played out: one game at a time
    client.post(reverse("quick_play"), {"level": "easy", "private": "on"})
    lobby = client.get(reverse("lobby")).content.decode()

    assert list(Game.objects.order_by("pk").values_list("public", flat=True)) == [True, False]
    assert 'name="private"' in lobby and "Private: nobody may watch" in lobby


def test_the_home_page_and_the_lobby_list_the_games_anyone_may_watch(
    client, alice, bob, carol, make_game
):
    public = tables.quick_play(alice)
    private = tables.quick_play(carol, public=False)
    bots = make_game(["greedy", "greedy", "easy"], seed=5, public=False)
    waiting = tables.create_table(bob, others=("open", "easy"))

    home = client.get(reverse("lobby")).content.decode()
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()

    for page in (home, lobby):
        assert "Games to watch" in page
        assert f'id="watch-{public.pk}"' in page and f'id="watch-{bots.pk}"' in page
        assert f'id="watch-{private.pk}"' not in page and f'id="watch-{waiting.pk}"' not in page
    assert watched(Client(), public) and watched(Client(), bots)


def test_a_person_who_hides_their_presence_is_left_off_the_list_of_games_to_watch(
    client, alice, bob, carol
):
    """Hiding one's presence hid it from friends, while the public list of games to
    watch still told everyone that the person was playing, and where."""
    from games.social import presence

    presence.set_hidden(bob.pk, True)
    shown, hidden = tables.quick_play(alice), tables.quick_play(bob)

    home = client.get(reverse("lobby")).content.decode()
    client.force_login(carol)
    lobby = client.get(reverse("lobby")).content.decode()
    friends = client.get(reverse("friends")).content.decode()

    for page in (home, lobby):
        assert f'id="watch-{shown.pk}"' in page and f'id="watch-{hidden.pk}"' not in page
    assert "Your games then leave the list of games to watch too" in friends
    assert watched(Client(), hidden)  # a public table: anyone with its link may watch


async def test_a_watcher_without_an_account_is_sent_each_move_and_never_a_hidden_card(
    alice, bob, carol, make_game
):
    people = [alice, bob, carol]
    game = await database_sync_to_async(make_game)(people, seed=918273645546372819)
    watcher = socket(game.pk, NO_SESSION)
    connected, _ = await watcher.connect()
    assert connected
    frames = [await watcher.receive_from(timeout=3)]

    for _ in range(6):
        game = await database_sync_to_async(play)(game, people, 1)
        frames.append(await watcher.receive_from(timeout=3))
        await database_sync_to_async(assert_nothing_hidden)(frames[-1], game)
    await database_sync_to_async(assert_nothing_hidden)("".join(frames), game)

    # Acting is not for watchers: a clear message, and no move made.
    moves = await database_sync_to_async(Move.objects.filter(game=game).count)()
    state = await database_sync_to_async(play_moves.game_state)(game)
    move = seat_view(state, state.turn).legal[0]
    await watcher.send_to(text_data=frame(fields(move, seq=str(game.seq))))
    told = await watcher.receive_from(timeout=3)
    assert "You are watching this table: log in and take a seat to play." in told
    assert await database_sync_to_async(Move.objects.filter(game=game).count)() == moves
    await watcher.disconnect()


async def test_a_watcher_sees_the_hands_once_the_game_is_over(alice, bob, carol, make_game):
    people = [alice, bob, carol]
    game = await database_sync_to_async(make_game)(people, seed=918273645546372819)
    watcher = socket(game.pk, NO_SESSION)
    await watcher.connect()
    await watcher.receive_from(timeout=3)

    while not game.is_over:
        game = await database_sync_to_async(play)(game, people, 1)
    last = ""
    while "table-result" not in last:
        last = await watcher.receive_from(timeout=3)

    assert "table-result" in last
    await watcher.disconnect()
