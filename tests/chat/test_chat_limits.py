"""Issue 46: a person's chat limit and mutes hold whatever tabs and workers they use.

The limit was counted, then the message stored: ten sockets of one person sending at once
all counted the same few messages, and stored ten. A mute was kept by the socket that made
it: the person's other tabs went on showing the muted person's talk."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.social.chat import services as chat
from games.social.chat.models import ChatMessage
from tests.chat.test_chat_over_sockets import connect, say
from tests.threads import race

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a race of row locks needs PostgreSQL"
)


@postgres_only
def test_ten_sends_at_once_from_one_person_store_no_more_than_the_limit(
    rated_table, alice, bob, carol, make_game, settings
):
    """As ten tabs (at two tables, on several workers) would: each a thread of its own."""
    settings.TONGITS_CHAT_PER_10_SECONDS = 4
    other_table = make_game(["greedy"] * 3, seed=11, public=True)  # watched, as a friend's
    tables = [rated_table.pk, other_table.pk] * 5

    outcomes = race(*(lambda g=g: chat.say(g, alice, preset="p:nice") for g in tables))

    stored = ChatMessage.objects.filter(user=alice).count()
    refused = [o for o in outcomes if isinstance(o, chat.ChatRefused)]
    assert stored == 4, outcomes
    assert len(refused) == 6 and all(str(o.message) == str(chat.TOO_FAST) for o in refused)


def test_the_limit_is_the_persons_across_tables(
    rated_table, alice, bob, carol, make_game, settings
):
    """One person at two tables (a game and a friend's, watched) is one person talking."""
    settings.TONGITS_CHAT_PER_10_SECONDS = 3
    other_table = make_game(["greedy"] * 3, seed=11, public=True)  # watched, as a friend's
    for game in (rated_table, other_table, rated_table):
        chat.say(game.pk, alice, preset="p:gg")

    with pytest.raises(chat.ChatRefused, match="too fast"):
        chat.say(other_table.pk, alice, preset="p:gg")
    chat.say(other_table.pk, bob, preset="p:gg")  # bob's count is his own
    assert ChatMessage.objects.count() == 4


async def test_a_mute_holds_on_every_tab_of_the_person_and_after_a_reload(
    rated_table, alice, bob, carol
):
    # bob has two tabs at the table: he mutes alice in the first.
    table = await connect(rated_table, [alice, bob, bob, carol])
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:hurry"}))
    await table.receive(0)  # her note
    for i in range(4):
        assert "Hurry up!" in await table.receive(i)
    [said] = await database_sync_to_async(list)(ChatMessage.objects.all())

    await table.sockets[1].send_to(text_data=say({"chat_mute": str(said.pk)}))
    assert "You will not see what alice says." in await table.receive(1)
    # His other tab hears of it: the talk so far comes again, without her line.
    log = await table.receive(2)
    assert log.startswith('<ol id="chat-log"') and ">alice<" not in log

    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:gg"}))
    await table.receive(0)  # her note
    assert "Good game" in await table.receive(0)
    assert "Good game" in await table.receive(3)  # carol still hears her
    assert await table.silent(1) and await table.silent(2)  # neither of bob's tabs

    # A tab opened after (a reload) starts muted too.
    later = await connect(rated_table, [bob])
    assert ">alice<" not in later.frames[0][1]
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:nice"}))
    await table.receive(0)
    assert "Nice one!" in await table.receive(0)
    assert await later.silent(0)

    # Unmuted in one tab, she is heard in every tab again.
    await table.sockets[2].send_to(text_data=say({"chat_unmute": str(alice.pk)}))
    assert "Unmuted" in await table.receive(2)
    assert ">alice<" in await table.receive(1)  # the talk so far, with her lines
    assert ">alice<" in await later.receive(0)
    await table.sockets[0].send_to(text_data=say({"chat_preset": "p:thanks"}))
    await table.receive(0)
    for tab in (1, 2):
        assert "Thanks!" in await table.receive(tab)
    assert "Thanks!" in await later.receive(0)
    await later.close()
    await table.close()
