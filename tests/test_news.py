"""News that reaches you (issue 48): a challenge and a friend request reach every socket a
person has open, the table's included, as the page's news (templates/social/news.html),
on the real database and channel layer, and carry no card; a toast's forms answer in the
toast's place; a person in the middle of a game is offered Accept once it is over."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.models import Game
from games.play import tables
from games.social import services as social
from games.social.models import Challenge, Presence
from games.social.news import News
from tests.fast_games import finish
from tests.table.support import session_headers, socket
from tests.test_social import befriend, frame_with, lobby_socket, postgres_only

pytestmark = pytest.mark.django_db

SUITS = re.compile("[♠♥♦♣]")


async def table_socket(user, game_id: int):
    """A table's socket once it has joined its groups: its first frame, the whole board,
    comes after them (an accepted handshake alone does not mean it hears news yet)."""
    sock = socket(game_id, await database_sync_to_async(session_headers)(user))
    assert (await sock.connect())[0]
    assert "data-seq" in await sock.receive_from(timeout=15)
    return sock


def assert_no_card(frame: str) -> None:
    """Nothing of a game in a frame of news: no card, no board part."""
    assert frame.startswith('<div id="news-feed"'), frame[:80]
    assert not SUITS.search(frame) and 'class="card' not in frame and "data-card" not in frame
    assert "data-seq" not in frame and "my-hand" not in frame


def accept_button(frame: str, challenge_id: int) -> str:
    toast = frame.split(f'data-key="c{challenge_id}"', 1)[1].split("</li>", 1)[0]
    return toast.split('class="button toast-accept"', 1)[1].split(">", 1)[0]


def feed_of(frame: str) -> str:
    """The news in a frame (a lobby's frame holds its friends' box too)."""
    return frame[frame.index('<div id="news-feed"') :].split('\n<section id="lobby-friends"')[0]


@postgres_only  # three sockets write presence while the test writes: SQLite locks a table
@pytest.mark.django_db(transaction=True)
async def test_a_challenge_and_a_request_reach_the_table_lobby_and_any_page_with_no_card(
    alice, bob, carol, make_game
):
    await database_sync_to_async(befriend)(alice, bob)
    game = await database_sync_to_async(make_game)([bob, "greedy", "greedy"])
    at_table = await table_socket(bob, game.pk)
    on_lobby = await lobby_socket(bob)
    elsewhere = await lobby_socket(bob, "news")  # the leaderboard, say
    sockets = (at_table, on_lobby, elsewhere)

    made = await database_sync_to_async(social.challenge)(alice, bob.pk, ante=2, bot_kind="hard")
    for sock in sockets:
        feed = feed_of(await frame_with(sock, 'data-key="c'))
        assert f'data-key="c{made.pk}"' in feed and "1 waiting for your answer" in feed
        assert "challenges you to a series, ante 2" in feed
        assert_no_card(feed)

    await database_sync_to_async(social.request_friend)(carol, bob.pk)
    for sock in sockets:
        frame = await frame_with(sock, 'data-key="r')
        feed = feed_of(frame)
        assert "<strong>carol</strong> asks to be your friend" in feed
        assert "2 waiting for your answer" in feed
        assert_no_card(feed)
    assert_no_card(frame)  # the table's socket sends the news alone
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_person_playing_may_accept_once_their_game_is_over(alice, bob, make_game):
    await database_sync_to_async(befriend)(alice, bob)
    game = await database_sync_to_async(make_game)([bob, "greedy", "greedy"])
    at_table = await table_socket(bob, game.pk)
    made = await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")

    frame = await frame_with(at_table, 'data-key="c')
    assert "disabled" in accept_button(frame, made.pk)
    assert "You can accept once your game is over." in frame
    assert f'data-playing="{game.pk}"' in frame

    await database_sync_to_async(finish)(game.pk)  # its end comes over the table's socket
    frame = await frame_with(at_table, 'id="news-feed"')
    assert "disabled" not in accept_button(frame, made.pk)
    assert "once your game is over" not in frame and "data-playing" not in frame
    assert_no_card(frame)
    await at_table.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_challenger_at_a_table_is_shown_the_new_table(alice, bob, make_game):
    await database_sync_to_async(befriend)(alice, bob)
    game = await database_sync_to_async(make_game)([alice, "greedy", "greedy"])
    await database_sync_to_async(finish)(game.pk)  # on the result screen
    at_table = await table_socket(alice, game.pk)
    made = await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")

    new = await database_sync_to_async(social.accept_challenge)(bob, made.pk)

    frame = await frame_with(at_table, "data-go")
    assert f'data-go="{reverse("table", args=[new.pk])}"' in frame
    assert "data-playing" not in frame  # the new table is not in the way: the page goes
    assert_no_card(frame)
    await at_table.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_page_of_news_only_hears_nothing_else_and_counts_nobody_as_here(alice, bob, carol):
    await database_sync_to_async(befriend)(alice, bob)
    elsewhere = await lobby_socket(bob, "news")
    first = await elsewhere.receive_from()  # the news once more as it opens
    assert first.startswith('<div id="news-feed"') and 'data-key="' not in first

    await database_sync_to_async(tables.quick_play)(carol)  # the lobby's lists change
    alices = await lobby_socket(alice)  # a friend comes online
    assert await elsewhere.receive_nothing(timeout=1)
    sockets = await database_sync_to_async(
        lambda: Presence.objects.filter(user=bob).values_list("sockets", flat=True).first()
    )()
    assert not sockets
    await alices.disconnect()
    await elsewhere.disconnect()


# --- A toast's forms ----------------------------------------------------------------------


def htmx_post(client, name: str, *args):
    return client.post(reverse(name, args=args), HTTP_HX_REQUEST="true")


def test_a_toasts_answer_takes_its_place_and_leaves_no_message_for_later(client, alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    client.force_login(bob)

    answer = htmx_post(client, "decline_challenge", made.pk).content.decode()
    assert 'class="toast toast-answered"' in answer and "Challenge declined." in answer
    assert "Challenge declined." not in client.get(reverse("leaderboard")).content.decode()

    again = htmx_post(client, "decline_challenge", made.pk).content.decode()
    assert "is-error" in again and "That challenge is no longer there." in again


def test_a_toasts_accept_takes_the_person_to_the_new_table(client, alice, bob, carol):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    client.force_login(bob)

    response = htmx_post(client, "accept_challenge", made.pk)

    game = Challenge.objects.get(pk=made.pk).game
    assert response["HX-Redirect"] == reverse("table", args=[game.pk])
    assert game.status == Game.Status.PLAYING
    social.request_friend(carol, bob.pk)
    answer = htmx_post(client, "accept_friend", carol.pk).content.decode()
    assert "You are friends now." in answer and social.are_friends(bob.pk, carol.pk)


def test_the_news_says_what_waits_and_when_a_challenge_leaves(client, alice, bob, carol):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    social.request_friend(carol, bob.pk)
    client.force_login(bob)

    feed = client.get(reverse("news")).content.decode()

    expires = int((made.created_at + social.CHALLENGE_TTL).timestamp())
    assert f'data-key="c{made.pk}" data-expires="{expires}"' in feed
    assert "carol</strong> asks to be your friend" in feed and ">2<" in feed
    Challenge.objects.filter(pk=made.pk).update(created_at=made.created_at - social.CHALLENGE_TTL)
    assert f'data-key="c{made.pk}"' not in client.get(reverse("news")).content.decode()
    client.logout()
    assert client.get(reverse("news")).status_code == 302  # to log in


def test_the_news_on_a_page_is_in_filipino_too(client, alice, bob, carol):
    from tests.test_languages import untranslated

    befriend(alice, bob)
    social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    social.request_friend(carol, bob.pk)
    client.force_login(bob)

    names = frozenset({"alice", "bob", "carol", "2"})
    assert untranslated(client, reverse("leaderboard"), names) == set()


def test_the_news_of_a_person_for_whom_nothing_waits_costs_one_query(
    alice, bob, carol, django_assert_num_queries
):
    """Every page asks it: whether anything waits is one query, the lists only if so; what
    the lists would leave out (a blocked person's request) does not count as waiting."""
    with django_assert_num_queries(1):
        news = News(alice.pk)
        assert news.count == 0 and news.challenges == [] and news.requests == []
    social.request_friend(bob, alice.pk)
    social.block(alice, bob.pk)
    assert News(alice.pk).count == 0
    social.request_friend(carol, alice.pk)
    waiting = News(alice.pk)
    assert [r.from_user_id for r in waiting.requests] == [carol.pk] and waiting.count == 1


def test_a_pages_count_is_what_the_news_would_list(client, alice, bob, carol):
    """A page reads the count with its person's other facts in one written-out query
    (tongits_site/person_facts.py): it counts what the news' lists hold, no more, no less."""
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    client.force_login(bob)

    def counted() -> str:
        html = client.get(reverse("leaderboard")).content.decode()
        found = re.search(r'class="news-count-number" aria-hidden="true">(\d+)<', html)
        return found.group(1) if found else "0"

    assert counted() == "1" == str(News(bob.pk).count)
    old = made.created_at - social.CHALLENGE_TTL  # a live challenge's ten minutes are over
    Challenge.objects.filter(pk=made.pk).update(created_at=old)
    assert counted() == "0" == str(News(bob.pk).count)
    Challenge.objects.filter(pk=made.pk).update(turn_seconds=86400)  # a day's: still waits
    assert counted() == "1" == str(News(bob.pk).count)
    social.request_friend(carol, bob.pk)
    assert counted() == "2"
    social.block(bob, carol.pk)
    assert counted() == "1" == str(News(bob.pk).count)
