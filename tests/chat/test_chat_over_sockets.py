"""Table talk over the table's socket, on the real database and channel layer: presets
reach every seat and its bubble; free text only at a private, unrated table of friends
(a crafted frame elsewhere is refused and changes nothing); watchers' talk never reaches a
player before the end; limits, mutes, reports and silences; and a move still goes
through between messages. Every frame is scanned for cards."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.play import moves
from games.social import services as social
from games.social.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import (
    fields,
    first_legal,
    play_to_the_end,
    session_headers,
    socket,
)

pytestmark = pytest.mark.django_db(transaction=True)

CARD_MARKUP = re.compile(r'data-card=|class="[^"]*\bcard\b')


def say(data: dict) -> str:
    return json.dumps({**data, "HEADERS": {"HX-Request": "true"}})


class Table:
    """Connected sockets and every frame each one was sent."""

    def __init__(self, sockets) -> None:
        self.sockets = sockets
        self.frames: list[list[str]] = [[] for _ in sockets]

    async def receive(self, i: int) -> str:
        text = await self.sockets[i].receive_from(timeout=3)
        self.frames[i].append(text)
        return text

    async def silent(self, i: int) -> bool:
        return await self.sockets[i].receive_nothing(timeout=0.2)

    async def close(self) -> None:
        for s in self.sockets:
            await s.disconnect()


async def connect(game, users) -> Table:
    """Sockets for ``users`` (None: a visitor without an account), past their first
    board and, for each, the talk so far."""
    sockets = []
    for user in users:
        headers = (
            await database_sync_to_async(session_headers)(user)
            if user is not None
            else [(b"origin", b"http://localhost")]
        )
        sockets.append(socket(game.pk, headers))
    table = Table(sockets)
    for i, s in enumerate(sockets):
        connected, _ = await s.connect()
        assert connected
        board = await table.receive(i)
        assert "data-seq" in board
        await s.send_to(text_data=say({"chat_history": "1"}))  # as static/js/chat.js does
        log = await table.receive(i)
        assert log.startswith('<ol id="chat-log"'), log[:80]
    return table


def chat_frames(frames: list[str]) -> list[str]:
    return [f for f in frames if "chat-" in f and "data-seq" not in f]


@database_sync_to_async
def messages(game) -> list[ChatMessage]:
    return list(ChatMessage.objects.filter(game=game))


async def test_a_preset_reaches_every_seat_with_its_bubble_and_no_card(
    rated_table, alice, bob, carol
):
    table = await connect(rated_table, [alice, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
    note = await table.receive(0)  # the sender's note is cleared first
    assert 'id="chat-note"' in note
    for i in range(3):
        text = await table.receive(i)
        assert 'id="chat-log" hx-swap-oob="beforeend"' in text
        assert "Nice one!" in text and ">alice<" in text
        seat = (await messages(rated_table))[0].seat
        assert f'id="chat-bubble-{seat}"' in text
        # Anyone else's line can be muted or reported; one's own cannot.
        assert ("chat_report" in text) == (i != 0)
    stored = await messages(rated_table)
    assert [(m.kind, m.body, m.room) for m in stored] == [("preset", "p:nice", "players")]
    # An emote too, with a name for screen readers.
    await table.sockets[1].send_to(text_data=say({"chat_preset": "e:happy"}))
    await table.receive(1)
    text = await table.receive(2)
    assert "\N{GRINNING FACE}" in text and 'aria-label="Happy"' in text
    for frames in table.frames:
        for text in chat_frames(frames):
            assert not CARD_MARKUP.search(text), text
    await table.close()


async def test_a_crafted_free_text_frame_at_a_rated_table_is_refused_and_changes_nothing(
    rated_table, alice, bob, carol, all_friends
):
    table = await connect(rated_table, [alice, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_text": "I hold the 7 of hearts"}))
    refusal = await table.receive(0)
    assert 'id="chat-note"' in refusal
    assert "Only the phrases and emotes can be sent at this table" in refusal
    assert await table.silent(1) and await table.silent(2)
    assert await messages(rated_table) == []
    # An unknown preset is refused the same way.
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:hold 7H"}))
    assert "There is no such phrase or emote." in await table.receive(0)
    assert await table.silent(1)
    await table.close()


async def test_free_text_is_refused_at_a_private_table_until_its_people_are_friends(
    barkada_table, alice, bob, carol
):
    table = await connect(barkada_table, [alice, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_text": "kain tayo"}))
    assert "Only the phrases and emotes" in await table.receive(0)
    assert await table.silent(1)
    assert await messages(barkada_table) == []
    await table.close()


async def test_friends_at_a_private_unrated_table_talk_freely_through_the_word_filter(
    barkada_table, alice, bob, carol, all_friends
):
    table = await connect(barkada_table, [alice, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_text": "  gago ka   talaga <b>hi</b> "}))
    await table.receive(0)  # the note, cleared
    for i in range(3):
        text = await table.receive(i)
        assert "**** ka talaga &lt;b&gt;hi&lt;/b&gt;" in text
        assert "gago" not in text
    [stored] = await messages(barkada_table)
    assert (stored.kind, stored.body, stored.shown) == (
        "text",
        "gago ka talaga <b>hi</b>",
        "**** ka talaga <b>hi</b>",
    )
    # Too long: refused with the limit, nothing stored.
    await table.sockets[1].send_to(text_data=say({"chat_text": "x" * 201}))
    assert "at most 200 characters" in await table.receive(1)
    await table.sockets[1].send_to(text_data=say({"chat_text": "   "}))
    assert "Write a message first." in await table.receive(1)
    assert await table.silent(0)
    assert len(await messages(barkada_table)) == 1
    await table.close()


async def test_a_watchers_talk_reaches_no_player_before_the_end(
    rated_table, alice, bob, carol, dave
):
    game = rated_table
    table = await connect(game, [alice, bob, carol, dave, None])
    await table.sockets[3].send_to(text_data=say({"chat_preset": "p:hurry"}))
    await table.receive(3)  # dave's note
    for watcher in (3, 4):
        text = await table.receive(watcher)
        assert "Hurry up!" in text and "(watching)" in text
        assert "chat-bubble" not in text  # a watcher has no seat to speak over
    for player in range(3):
        assert await table.silent(player)
    # A visitor without an account reads, but cannot speak.
    await table.sockets[4].send_to(text_data=say({"chat_preset": "p:nice"}))
    assert "Log in to chat." in await table.receive(4)
    # The players' talk reaches the watchers.
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:luck"}))
    await table.receive(0)
    for i in range(5):
        assert "Good luck!" in await table.receive(i)

    # Play to the end: every seat is sent each board; then the watchers' talk is open.
    people = [alice, bob, carol]
    await database_sync_to_async(play_to_the_end)(game, people)
    for i in range(5):
        while True:
            text = await table.sockets[i].receive_from(timeout=3)
            table.frames[i].append(text)
            if "Play again" in text or "table-result" in text and "Payments" in text:
                break
    await table.sockets[3].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(3)
    for i in range(4):
        text = await table.receive(i)
        assert "Good game" in text and "(watching)" in text
    # Before the end no player's socket was sent a word of the watchers'.
    for player in range(3):
        before = "".join(table.frames[player][:-1])
        assert "Hurry up!" not in before and "(watching)" not in before
    # And a player who connects now is sent the whole talk, both rooms.
    late = await connect(game, [bob])
    assert "Hurry up!" in late.frames[0][1] and "Good luck!" in late.frames[0][1]
    await late.close()
    await table.close()


async def test_a_player_connecting_mid_game_gets_the_players_talk_only(
    rated_table, alice, bob, dave
):
    table = await connect(rated_table, [alice, dave])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
    await table.receive(0)  # the note
    assert "Nice one!" in await table.receive(0)
    await table.sockets[1].send_to(text_data=say({"chat_preset": "p:oops"}))
    while "Oops!" not in await table.receive(1):
        pass
    await table.close()
    later = await connect(rated_table, [bob, dave])
    assert "Nice one!" in later.frames[0][1] and "Oops!" not in later.frames[0][1]
    assert "Nice one!" in later.frames[1][1] and "Oops!" in later.frames[1][1]
    await later.close()


async def test_a_socket_may_send_a_few_messages_in_ten_seconds(rated_table, alice, bob, settings):
    settings.TONGITS_CHAT_PER_10_SECONDS = 3
    table = await connect(rated_table, [alice, bob])
    for _ in range(3):
        await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
        await table.receive(0)
        await table.receive(0)
        await table.receive(1)
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
    assert "too fast" in await table.receive(0)
    assert await table.silent(1)
    assert len(await messages(rated_table)) == 3
    await table.close()


async def test_a_new_socket_starts_no_new_count_of_messages(rated_table, alice, settings):
    """The count was the socket's: reconnecting (or a second tab) sent three times as many."""
    settings.TONGITS_CHAT_PER_10_SECONDS = 3
    for _round in range(2):
        table = await connect(rated_table, [alice])
        for _ in range(3):
            await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
            answer = await table.receive(0)
            if "too fast" not in answer:
                await table.receive(0)  # the message itself
        await table.close()
    assert len(await messages(rated_table)) == 3


async def test_a_muted_person_is_not_shown_and_a_report_reaches_staff(
    rated_table, alice, bob, carol
):
    table = await connect(rated_table, [alice, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:hurry"}))
    await table.receive(0)
    for i in range(3):
        await table.receive(i)
    [said] = await messages(rated_table)

    await table.sockets[1].send_to(text_data=say({"chat_mute": str(said.pk)}))
    note = await table.receive(1)
    assert "You will not see what alice says." in note and "chat_unmute" in note
    assert f'data-muted="{alice.pk}"' in note  # chat.js hides her lines shown before
    await table.sockets[2].send_to(text_data=say({"chat_report": str(said.pk)}))
    assert "Reported" in await table.receive(2)

    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(0)
    await table.receive(0)
    assert "Good game" in await table.receive(2)
    assert await table.silent(1)  # muted: bob is not sent it

    mutes = await database_sync_to_async(list)(
        ChatMute.objects.values_list("user__username", "muted__username")
    )
    assert mutes == [("bob", "alice")]
    reports = await database_sync_to_async(list)(
        ChatReport.objects.values_list("reporter__username", "message_id")
    )
    assert reports == [("carol", said.pk)]
    # One cannot mute oneself, nor report what is not at this table.
    await table.sockets[0].send_to(text_data=say({"chat_mute": str(said.pk)}))
    assert "You cannot mute yourself." in await table.receive(0)
    await table.sockets[0].send_to(text_data=say({"chat_report": "999999"}))
    assert "There is no such message at this table." in await table.receive(0)

    # Unmuted, bob sees alice again.
    await table.sockets[1].send_to(text_data=say({"chat_unmute": str(alice.pk)}))
    assert "Unmuted" in await table.receive(1)
    await table.close()


async def test_a_block_made_during_the_game_silences_the_blocked_at_once(
    rated_table, alice, bob, carol
):
    """Issue 27: blocking stops their chat to you on the sockets already open (the block
    is made on another page: a profile), not only at the next connect."""
    table = await connect(rated_table, [alice, bob, carol])
    await table.sockets[1].send_to(text_data=say({"chat_preset": "p:hurry"}))
    await table.receive(1)
    for i in range(3):
        assert "Hurry up!" in await table.receive(i)

    await database_sync_to_async(social.block)(alice, bob.pk)
    log = await table.receive(0)  # the talk so far again, without bob's lines
    assert log.startswith('<ol id="chat-log"') and ">bob<" not in log
    assert await table.silent(1) and await table.silent(2)  # nobody else is told

    await table.sockets[1].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(1)  # bob's note: to him it looks sent
    assert "Good game" in await table.receive(1)
    assert "Good game" in await table.receive(2)
    assert await table.silent(0)  # alice is not sent it
    await table.sockets[2].send_to(text_data=say({"chat_preset": "p:nice"}))
    await table.receive(2)
    assert "Nice one!" in await table.receive(0)  # and still hears carol
    await table.close()


async def test_an_unblock_lets_their_talk_through_again_on_the_sockets_open(
    rated_table, alice, bob, carol
):
    """The block reached the open sockets; the unblock did not, and everything the
    unblocked person said was dropped until the page connected again."""
    table = await connect(rated_table, [alice, bob, carol])
    await database_sync_to_async(social.block)(alice, bob.pk)
    assert (await table.receive(0)).startswith('<ol id="chat-log"')

    await database_sync_to_async(social.unblock)(alice, bob.pk)
    assert (await table.receive(0)).startswith('<ol id="chat-log"')  # the talk so far again
    await table.sockets[1].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(1)  # bob's note

    assert "Good game" in await table.receive(1)
    assert "Good game" in await table.receive(2)
    assert "Good game" in await table.receive(0)
    await table.close()


async def test_a_name_as_long_as_a_username_may_be_says_its_message(rated_table, alice, bob):
    """A 120-letter username (sign-up takes up to 150) overflowed the name's column:
    PostgreSQL refused the message, and the socket closed."""
    await database_sync_to_async(
        type(alice).objects.filter(pk=alice.pk).update
    )(username="m" * 150)  # fmt: skip
    table = await connect(rated_table, [alice, bob])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(0)  # her note

    assert "Good game" in await table.receive(0) and "Good game" in await table.receive(1)
    assert [m.name for m in await messages(rated_table)] == ["m" * 150]
    await table.close()


async def test_a_silenced_account_cannot_chat_until_its_time_is_up(rated_table, alice, bob):
    await database_sync_to_async(ChatSilence.objects.create)(
        user=alice, until=timezone.now() + timedelta(hours=1), reason="spam"
    )
    table = await connect(rated_table, [alice, bob])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
    assert "Staff have silenced your chat until" in await table.receive(0)
    assert await table.silent(1)
    assert await messages(rated_table) == []
    await table.close()


async def test_moves_go_through_between_messages_and_no_frame_holds_a_hidden_card(
    rated_table, alice, bob, carol
):
    game = rated_table
    people = [alice, bob, carol]
    table = await connect(game, people)
    for turn in range(3):
        seat, move = await database_sync_to_async(first_legal)(game)
        await table.sockets[seat].send_to(text_data=say({"chat_preset": "p:hurry"}))
        await table.sockets[seat].send_to(
            text_data=say(fields(move, seq=str(game.seq), client_move_id=str(uuid.uuid4())))
        )
        for i in range(3):
            want = 3 if i == seat else 2  # the mover: a note, the message, the board
            got = [await table.receive(i) for _ in range(want)]
            assert sum("data-seq" in text for text in got) == 1
        await database_sync_to_async(game.refresh_from_db)()
        assert game.seq == turn + 1
    state = await database_sync_to_async(moves.game_state)(game)
    for i in range(3):
        for text in chat_frames(table.frames[i]):
            assert not leaks(text, hidden_cards(state, i), game.seed)
            assert not CARD_MARKUP.search(text)
    await table.close()
