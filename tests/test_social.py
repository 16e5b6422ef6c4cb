"""Friends (issue 27): requests, blocks, presence pushed over the lobby socket, challenges
and the rematch, on the real database and channel layer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.play import after_game, clock, errors, tables
from games.series.models import Hand
from games.social import pages as social_pages
from games.social import presence
from games.social import services as social
from games.social.models import Challenge, Friendship, Presence, RequestSent

pytestmark = pytest.mark.django_db
# Sockets count presence only on PostgreSQL (tests/conftest.py says why).
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="sockets write presence beside the test"
)


def befriend(a, b) -> None:
    social.request_friend(a, b.pk)
    social.accept_friend(b, a.pk)


def post(client, name: str, *args, **data):
    return client.post(reverse(name, args=args), data)


def page(client, name: str = "friends", *args) -> str:
    return client.get(reverse(name, args=args)).content.decode()


# --- Friends --------------------------------------------------------------------------------


def test_a_request_accepted_makes_two_friends_who_list_each_other(client, alice, bob):
    client.force_login(alice)
    post(client, "add_friend", username="BOB")
    assert "Your friend request to bob" in page(client)

    client.force_login(bob)
    html = page(client)
    assert "Friend requests" in html and reverse("accept_friend", args=[alice.pk]) in html
    post(client, "accept_friend", alice.pk)

    assert social.are_friends(alice.pk, bob.pk)
    assert 'id="friend-' + str(alice.pk) + '"' in page(client)
    client.force_login(alice)
    assert 'id="friend-' + str(bob.pk) + '"' in page(client)


def test_friend_requests_are_limited_per_hour_with_a_message(client, alice, settings):
    """Nothing held one account from asking every player on the site, or a script from
    doing so: each request is a notice on someone's lobby."""
    settings.TONGITS_FRIEND_REQUESTS_PER_HOUR = 3
    people = [get_user_model().objects.create_user(f"p{i}") for i in range(5)]
    for person in people[:3]:
        social.request_friend(alice, person.pk)

    client.force_login(alice)
    post(client, "add_friend", username="p3")

    assert "asked many people to be friends in the last hour" in page(client)
    assert not Friendship.objects.filter(to_user=people[3]).exists()
    RequestSent.objects.update(at=timezone.now() - timedelta(hours=2))
    assert social.request_friend(alice, people[4].pk).message == "Friend request sent."


def test_a_request_taken_back_still_counts_against_the_hour(alice, bob, settings):
    """Taking a request back (or its being declined) deleted the row the limit counted:
    ask, take back, ask again, without end, each a notice on someone's lobby."""
    settings.TONGITS_FRIEND_REQUESTS_PER_HOUR = 2
    for _ in range(2):
        social.request_friend(alice, bob.pk)
        social.remove_friend(alice, bob.pk)

    with pytest.raises(errors.ServiceError, match="many people"):
        social.request_friend(alice, bob.pk)


def test_two_people_asking_each_other_are_friends_with_one_row(alice, bob):
    social.request_friend(alice, bob.pk)
    done = social.request_friend(bob, alice.pk)

    assert str(done.message) == "You are friends now."
    assert Friendship.objects.count() == 1 and social.are_friends(alice.pk, bob.pk)


def test_a_request_from_a_profile_and_from_a_table(client, alice, bob, carol, make_game):
    client.force_login(alice)
    profile = page(client, "player", "bob")
    assert f'id="add-friend-{bob.pk}"' in profile
    post(client, "request_friend", bob.pk, next="/players/bob/")
    assert "Friend request sent" in page(client, "player", "bob")

    game = make_game([alice, "greedy", carol])
    table = page(client, "table", game.pk)
    menu = table.split('id="menu-sheet"', 1)[1].split("</details>", 1)[0]
    assert "carol" in menu and f'id="add-friend-{carol.pk}"' in menu


def test_the_table_menu_asks_how_the_viewer_stands_with_everyone_seated_at_once(
    client, alice, bob, carol, make_game
):
    """relations() answers as relation() does, person by person, in one query; the
    table's menu shows each seated person's box from it, a friend's with their presence."""
    dave = get_user_model().objects.create_user("dave")
    erin = get_user_model().objects.create_user("erin")
    social.request_friend(alice, bob.pk)  # asked
    social.request_friend(carol, alice.pk)  # asks you
    social.request_friend(alice, dave.pk)
    social.accept_friend(dave, alice.pk)  # friends
    social.block(alice, erin.pk)  # blocked
    everyone = [alice.pk, bob.pk, carol.pk, dave.pk, erin.pk]
    with CaptureQueriesContext(connection) as queries:
        found = social_pages.relations(alice.pk, everyone)
    assert len(queries.captured_queries) == 1
    assert found == {pk: social.relation(alice.pk, pk) for pk in everyone}
    assert found == {
        alice.pk: "self", bob.pk: "asked", carol.pk: "asks_you", dave.pk: "friends",
        erin.pk: "blocked",
    }  # fmt: skip

    client.force_login(alice)
    game = make_game([alice, dave, carol])
    menu = page(client, "table", game.pk).split('id="menu-sheet"', 1)[1]
    menu = menu.split("</details>", 1)[0]
    assert "dave" in menu and f"#friend-{dave.pk}" in menu  # a friend: challenge them
    assert "carol" in menu and "Accept their friend request" in menu


def test_decline_and_remove(alice, bob):
    social.request_friend(alice, bob.pk)
    social.decline_friend(bob, alice.pk)
    assert not Friendship.objects.exists()

    befriend(alice, bob)
    social.remove_friend(bob, alice.pk)
    assert not social.are_friends(alice.pk, bob.pk) and not Friendship.objects.exists()


def test_bad_requests_say_why_and_change_nothing(client, alice, bob):
    client.force_login(alice)
    for name, args, data, said in [
        ("add_friend", (), {"username": "nobody"}, "There is no player by that name."),
        ("request_friend", (alice.pk,), {}, "You cannot be your own friend."),
        ("request_friend", (99999,), {}, "There is no such player."),
        ("accept_friend", (bob.pk,), {}, "That friend request is no longer there."),
        ("remove_friend", (bob.pk,), {}, "You are not friends with this player."),
        ("challenge", (bob.pk,), {"what": "hand"}, "You can challenge only your friends."),
        ("accept_challenge", (12345,), {}, "That challenge is no longer there."),
    ]:
        response = client.post(reverse(name, args=args), data, follow=True)
        assert said in response.content.decode(), name
    assert not Friendship.objects.exists() and not Challenge.objects.exists()
    assert client.get(reverse("request_friend", args=[bob.pk])).status_code == 405


def test_a_challenge_with_a_bad_ante_or_level_is_refused(alice, bob):
    befriend(alice, bob)
    with pytest.raises(errors.ServiceError, match="ante of 1, 2 or 5"):
        social.challenge(alice, bob.pk, ante=3, bot_kind="normal")
    with pytest.raises(errors.ServiceError, match="bot level"):
        social.challenge(alice, bob.pk, ante=None, bot_kind="search")
    assert not Challenge.objects.exists()


# --- Blocking -------------------------------------------------------------------------------


def test_blocking_ends_the_friendship_and_hides_their_requests_and_they_are_not_told(
    client, alice, bob
):
    befriend(alice, bob)
    social.block(bob, alice.pk)
    assert not social.are_friends(alice.pk, bob.pk)

    # Alice asks again: to her it looks sent, as any request does.
    done = social.request_friend(alice, bob.pk)
    assert str(done.message) == "Friend request sent."
    assert social.relation(alice.pk, bob.pk) == "asked"
    assert list(social.requests_for(bob.pk)) == []
    client.force_login(bob)
    html = page(client)
    assert "Friend requests" not in html and "Blocked" in html
    client.force_login(alice)
    profile = page(client, "player", "bob")
    assert "Friend request sent" in profile and "Unblock" not in profile
    assert "blocked" not in profile.lower()


def test_a_blocked_persons_challenge_never_arrives(alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    social.block(bob, alice.pk)

    assert list(social.challenges_for(bob.pk)) == []
    with pytest.raises(errors.ServiceError):
        social.accept_challenge(bob, made.pk)
    # To her it went as when a friendship ends: the challenge with it.
    assert list(social.challenges_sent(alice.pk)) == []


def test_a_challenge_from_someone_blocked_does_not_come_back_with_the_unblock(alice, bob):
    """It stayed pending, unseen: unblocked within its ten minutes, it came back and
    seated two people who were no longer friends."""
    befriend(alice, bob)
    made = social.challenge(bob, alice.pk, ante=None, bot_kind="easy")
    social.block(alice, bob.pk)
    social.unblock(alice, bob.pk)

    assert not social.are_friends(alice.pk, bob.pk)
    assert list(social.challenges_for(alice.pk)) == []
    with pytest.raises(errors.ServiceError, match="no longer there"):
        social.accept_challenge(alice, made.pk)
    assert not Game.objects.exists()


# --- Challenges -----------------------------------------------------------------------------


def test_three_clicks_from_the_friends_list_to_a_dealt_hand(client, alice, bob):
    befriend(alice, bob)
    client.force_login(alice)
    html = page(client)
    # 1: open the friend's Challenge; 2: send it (one hand, a Normal bot by default).
    assert f'id="challenge-open-{bob.pk}"' in html and f'id="challenge-send-{bob.pk}"' in html
    post(client, "challenge", bob.pk, what="hand", bots="normal")

    other = Client()
    other.force_login(bob)
    challenge = Challenge.objects.get()
    assert f'id="accept-challenge-{challenge.pk}"' in page(other, "lobby")
    # 3: bob accepts (from the badge's page, the lobby or Friends): a dealt hand.
    response = post(other, "accept_challenge", challenge.pk)

    game = Game.objects.get(pk=Challenge.objects.get().game_id)
    assert response.status_code == 302 and response.url == reverse("table", args=[game.pk])
    seats = list(game.seats.all())
    assert game.status == Game.Status.PLAYING and not game.public
    assert [s.user_id for s in seats[:2]] == [alice.pk, bob.pk] and seats[2].bot_kind == "normal"


def counts(html: str) -> list[str]:
    """The counts a page shows of what waits for the person's answer."""
    parts = html.split('<span class="news-count">')[1:]
    return [part.split("</span></span>", 1)[0] for part in parts]


def test_the_menu_and_friends_count_challenges_and_requests_on_every_page(
    client, alice, bob, carol, make_game
):
    befriend(alice, bob)
    social.challenge(alice, bob.pk, ante=2, bot_kind="hard")
    social.request_friend(carol, bob.pk)
    game = make_game([bob, "greedy", "greedy"])
    client.force_login(bob)
    for name, args in [
        ("lobby", ()), ("how_to_play", ()), ("leaderboard", ()), ("friends", ()),
        ("table", (game.pk,)),
    ]:  # fmt: skip
        shown = counts(page(client, name, *args))
        # The Menu button, Friends, the news' own (which the socket's replaces), and at a
        # table its own Menu.
        assert len(shown) == (4 if name == "table" else 3), name
        assert all("2 waiting for your answer" in c and c.endswith('">2') for c in shown), name


def test_a_series_challenge_deals_the_first_hand_of_a_series_with_its_ante(alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=5, bot_kind="easy")
    game = social.accept_challenge(bob, made.pk)

    hand = Hand.objects.get(game=game)
    assert hand.number == 1 and hand.series.ante == 5 and hand.series.bot_kind == "easy"
    assert game.status == Game.Status.PLAYING


def test_a_challenger_who_cannot_open_a_table_now_is_named_to_the_one_accepting(
    alice, bob, settings
):
    """The table is the challenger's, so their limits apply; the refusal used to say
    "You already sit at ..." to the person accepting, who sat nowhere."""
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    settings.TONGITS_OPEN_TABLES_MAX = 1
    tables.create_table(alice, public=False, others=("open", "open"))
    with pytest.raises(errors.ServiceError) as refused:
        social.accept_challenge(bob, made.pk)
    assert str(refused.value.message).startswith("alice cannot open another table just now")
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING and made.game is None
    settings.TONGITS_OPEN_TABLES_MAX = 10
    assert social.accept_challenge(bob, made.pk).status == Game.Status.PLAYING


def test_a_challenge_can_be_declined_or_taken_back_and_expires(alice, bob):
    befriend(alice, bob)
    assert not social.any_challenge_pending(bob.pk)
    first = social.challenge(alice, bob.pk, ante=None, bot_kind="normal")
    assert social.any_challenge_pending(bob.pk) and not social.any_challenge_pending(alice.pk)
    social.decline_challenge(bob, first.pk)
    assert not social.any_challenge_pending(bob.pk)
    second = social.challenge(alice, bob.pk, ante=None, bot_kind="normal")
    social.cancel_challenge(alice, second.pk)
    assert not social.any_challenge_pending(bob.pk)
    third = social.challenge(alice, bob.pk, ante=None, bot_kind="normal")
    Challenge.objects.filter(pk=third.pk).update(
        created_at=timezone.now() - social.CHALLENGE_TTL - timedelta(seconds=1)
    )

    assert list(social.challenges_for(bob.pk)) == []
    with pytest.raises(errors.ServiceError):
        social.accept_challenge(bob, third.pk)
    assert Game.objects.count() == 0


# --- Presence ------------------------------------------------------------------------------


def test_presence_is_online_playing_away_or_offline_and_hidden_on_request(alice, bob):
    befriend(alice, bob)
    assert presence.connected(alice.pk).kind == "online"
    assert presence.set_away(alice.pk, True).kind == "away"
    game = tables.quick_play(alice)  # public, so friends may watch it
    assert presence.recheck(alice.pk) == presence.Status("playing", game.pk, True)
    Game.objects.filter(pk=game.pk).update(public=False)
    assert presence.recheck(alice.pk) == presence.Status("playing", None, False)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert presence.recheck(alice.pk).kind == "away"  # the game over, her page still hidden
    presence.set_away(alice.pk, False)
    assert presence.connected(alice.pk).kind == "online"  # a second page, not hidden
    presence.disconnected(alice.pk)
    assert presence.set_hidden(alice.pk, True).kind == "offline"
    presence.set_hidden(alice.pk, False)
    assert presence.disconnected(alice.pk).kind == "offline"
    assert presence.disconnected(alice.pk).kind == "offline"  # never below none
    assert Presence.objects.get(user=alice).sockets == 0


def test_friends_page_and_lobby_show_a_friends_presence(client, alice, bob):
    befriend(alice, bob)
    game = tables.quick_play(bob)
    presence.connected(bob.pk)
    client.force_login(alice)

    for name in ("friends", "lobby"):
        html = page(client, name)
        span = html.split(f'id="presence-{bob.pk}"', 1)[1].split("</span></span>", 1)[0]
        assert "Playing" in html and reverse("table", args=[game.pk]) in span, name
    assert f'id="presence-{bob.pk}"' in page(client, "player", "bob")


def logged_in_headers(user) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    client.get(reverse("lobby"))  # the CSRF cookie, as the page sets it
    cookies = "; ".join(f"{k}={m.value}" for k, m in client.cookies.items())
    return [
        (b"cookie", cookies.encode()),
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
    ]


async def lobby_socket(user, page: str = "") -> WebsocketCommunicator:
    from tongits_site.asgi import application

    headers = await database_sync_to_async(logged_in_headers)(user)
    path = "/ws/lobby/" + (f"?page={page}" if page else "")
    sock = WebsocketCommunicator(application, path, headers=headers)
    assert (await sock.connect())[0]
    return sock


async def frame_with(sock: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    """The next frame holding ``needle`` (a lobby socket also sends its lists)."""
    while True:
        frame = await sock.receive_from(timeout=timeout)
        if needle in frame:
            return frame


@postgres_only
@pytest.mark.django_db(transaction=True)
async def test_a_friend_coming_and_going_is_pushed_over_the_lobby_socket(alice, bob, carol):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    carols = await lobby_socket(carol)  # no friend of alice's: hears nothing of her

    alices = await lobby_socket(alice)
    frame = await frame_with(bobs, f'id="presence-{alice.pk}"')
    assert "presence-online" in frame and 'hx-swap-oob="true"' in frame

    await alices.send_to(text_data='{"away": true}')
    assert "presence-away" in await frame_with(bobs, f'id="presence-{alice.pk}"')
    await alices.send_to(text_data="not json")  # ignored
    await alices.disconnect()
    assert "presence-offline" in await frame_with(bobs, f'id="presence-{alice.pk}"')
    assert await carols.receive_nothing(timeout=0.5)
    await bobs.disconnect()
    await carols.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_challenge_arrives_live_and_its_acceptance_sends_the_challenger_to_the_table(
    alice, bob
):
    await database_sync_to_async(befriend)(alice, bob)
    alices = await lobby_socket(alice, "friends")
    bobs = await lobby_socket(bob)

    made = await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")
    frame = await frame_with(bobs, "accept-challenge")
    assert f'id="accept-challenge-{made.pk}"' in frame and "1 waiting for your answer" in frame
    assert 'name="csrfmiddlewaretoken"' in frame  # so its Accept posts

    game = await database_sync_to_async(social.accept_challenge)(bob, made.pk)
    frame = await frame_with(alices, "data-go")
    assert f'data-go="{reverse("table", args=[game.pk])}"' in frame
    await alices.disconnect()
    await bobs.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_blocked_persons_challenge_never_reaches_the_socket(alice, bob):
    await database_sync_to_async(befriend)(alice, bob)
    await database_sync_to_async(social.block)(bob, alice.pk)
    bobs = await lobby_socket(bob)
    while not await bobs.receive_nothing(timeout=0.3):
        await bobs.receive_from()

    await database_sync_to_async(social.request_friend)(alice, bob.pk)

    assert await bobs.receive_nothing(timeout=1)
    await bobs.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_block_made_with_the_socket_open_takes_the_challenge_away_at_once(alice, bob):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    made = await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")
    assert f'id="accept-challenge-{made.pk}"' in await frame_with(bobs, "accept-challenge")

    await database_sync_to_async(social.block)(bob, alice.pk)
    frame = await frame_with(bobs, "news-feed")  # his parts again, at once
    assert "accept-challenge" not in frame and "alice" not in frame.lower()
    while not await bobs.receive_nothing(timeout=0.3):
        await bobs.receive_from()

    # Whatever she does next never reaches him (and she is not told: her challenge went
    # with the friendship, as when a friend is removed).
    with pytest.raises(errors.ServiceError, match="no longer there"):
        await database_sync_to_async(social.cancel_challenge)(alice, made.pk)
    await database_sync_to_async(social.request_friend)(alice, bob.pk)
    with pytest.raises(errors.NotAllowed):
        await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")
    assert await bobs.receive_nothing(timeout=1)
    await bobs.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_friends_pages_socket_is_not_sent_the_lobbys_lists(alice, bob, carol):
    friends_page = await lobby_socket(alice, "friends")
    lobby = await lobby_socket(bob)
    await database_sync_to_async(tables.quick_play)(carol)  # a table changes

    assert 'id="lobby-lists"' in await frame_with(lobby, 'id="lobby-lists"')
    while not await friends_page.receive_nothing(timeout=0.3):
        assert 'id="lobby-lists"' not in await friends_page.receive_from()
    await friends_page.disconnect()
    await lobby.disconnect()


# --- Rematch --------------------------------------------------------------------------------


def finished(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def test_a_rematch_is_dealt_when_everyone_accepts(client, make_game, alice, bob, carol):
    game = finished(make_game([alice, bob, carol], seed=1))
    client.force_login(alice)
    response = post(client, "rematch", game.pk)
    following = Game.objects.get(pk=game.pk).next_game

    assert response.url == reverse("table", args=[following.pk])
    assert following.status == Game.Status.WAITING and not following.public
    assert following.due_at is not None
    after_game.play_again(game.pk, bob)
    after_game.play_again(game.pk, carol)
    following.refresh_from_db()
    assert following.status == Game.Status.PLAYING
    assert [s.user_id for s in following.seats.all()] == [alice.pk, bob.pk, carol.pk]


def test_bots_take_the_seats_of_those_who_do_not_answer_by_the_server_clock(
    make_game, alice, bob, carol
):
    game = finished(make_game([alice, bob, "hard"], seed=1))
    following = after_game.play_again(game.pk, alice, rematch=True)
    assert following.status == Game.Status.WAITING

    assert clock.run_due(timezone.now() + timedelta(seconds=29)) == 0
    clock.run_due(timezone.now() + timedelta(seconds=31))

    following.refresh_from_db()
    assert following.status == Game.Status.PLAYING
    assert [s.user_id or s.bot_kind for s in following.seats.all()] == [alice.pk, "hard", "hard"]


def test_the_result_screen_offers_a_rematch_and_then_its_acceptance(client, make_game, alice, bob):
    from tests.fast_games import finish

    game = make_game([alice, bob, "greedy"], seed=3)
    finish(game.pk)
    client.force_login(bob)
    assert f'action="{reverse("rematch", args=[game.pk])}"' in page(client, "table", game.pk)

    after_game.play_again(game.pk, alice, rematch=True)
    assert "Accept the rematch" in page(client, "table", game.pk)


def test_no_presence_event_carries_more_than_where_a_person_is(alice):
    event = presence.Status("playing", 5, True).event(alice.pk)
    assert set(event) == {"type", "user", "kind", "game", "watchable"}


def test_the_friends_page_and_its_parts_say_nothing_in_english_in_filipino(client, alice, bob):
    from tests.test_languages import untranslated

    befriend(alice, bob)
    social.challenge(bob, alice.pk, ante=1, bot_kind="normal")
    social.request_friend(alice, get_user_model().objects.create_user("dave").pk)
    presence.connected(bob.pk)
    client.force_login(alice)

    names = frozenset({"alice", "bob", "dave", "1"})
    assert untranslated(client, reverse("friends"), names) == set()
    assert untranslated(client, reverse("lobby"), names) == set()


@pytest.mark.parametrize("language", ["en", "fil"])
@pytest.mark.parametrize(
    "status",
    [
        presence.Status("online"),
        presence.Status("away"),
        presence.Status("offline"),
        presence.Status("playing", 7, True),
        presence.Status("playing", None, False),
    ],
)
def test_the_sockets_presence_markup_is_the_pages(language, status):
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.social.pages import FriendLine, presence_html

    with translation.override(language):
        page = render_to_string(
            "social/parts.html#presence", {"f": FriendLine(3, "", "", status), "oob": True}
        )
        assert presence_html(3, status) == page.strip()


@postgres_only  # SQLite counts with the ORM (games/social/presence.py): more queries
def test_a_person_with_no_friend_costs_a_socket_two_queries(alice, django_assert_num_queries):
    """The table's sockets count everyone: for a person nobody sees, only the count is
    kept (an arrival's upsert that says whether they have a friend; a leaving's UPDATE,
    and whether they have a friend), not the status."""
    with django_assert_num_queries(1):
        presence.connected(alice.pk)  # the row is made at the first socket
    with django_assert_num_queries(1):
        presence.connected(alice.pk)
    with django_assert_num_queries(1):
        presence.recheck(alice.pk)  # their game ended
    with django_assert_num_queries(2):
        presence.disconnected(alice.pk)
    assert Presence.objects.get(user=alice).sockets == 1
