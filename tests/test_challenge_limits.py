"""Issue 46: challenges are held to a few an hour a person, whatever tabs and workers they
come from, and the same challenge sent again while it waits is not news to the friend.

Nothing limited them: a script sent 60 in 1.8 seconds, 62 frames to the friend's lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from games.play.errors import ServiceError
from games.social import services as social
from games.social.models import Challenge
from tests.test_social import befriend, lobby_socket
from tests.threads import race

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a race of row locks needs PostgreSQL"
)


def friends_of(person, count: int) -> list:
    people = [get_user_model().objects.create_user(f"friend{i}") for i in range(count)]
    for other in people:
        befriend(person, other)
    return people


@pytest.mark.django_db
def test_challenges_are_limited_per_hour_with_a_message_in_both_languages(alice, bob, settings):
    settings.TONGITS_CHALLENGES_PER_HOUR = 3
    befriend(alice, bob)
    for level in ("easy", "normal", "hard"):  # each one new: it replaces the last
        social.challenge(alice, bob.pk, ante=None, bot_kind=level)

    client = Client()
    client.force_login(alice)
    client.post(reverse("challenge", args=[bob.pk]), {"what": "1", "bots": "easy"})
    page = client.get(reverse("friends")).content.decode()
    assert "You have challenged your friends many times in the last hour" in page
    assert Challenge.objects.filter(from_user=alice).count() == 3
    with pytest.raises(ServiceError) as refused:
        social.challenge(alice, bob.pk, ante=2, bot_kind="easy")
    with override("fil"):
        assert "Marami ka nang hinamon" in str(refused.value.message)

    # An hour on, she may challenge again.
    Challenge.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert social.challenge(alice, bob.pk, ante=2, bot_kind="easy").ante == 2


@pytest.mark.django_db
def test_the_same_challenge_sent_again_while_it_waits_is_the_same_challenge(alice, bob):
    befriend(alice, bob)
    first = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    again = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")

    assert again.pk == first.pk
    assert list(Challenge.objects.values_list("status", flat=True)) == ["pending"]
    # Other terms are a new challenge, which replaces the one waiting.
    other = social.challenge(alice, bob.pk, ante=1, bot_kind="easy")
    assert other.pk != first.pk
    assert sorted(Challenge.objects.values_list("status", flat=True)) == ["cancelled", "pending"]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_challenges_raced_from_many_tabs_store_no_more_than_the_limit(alice, settings):
    settings.TONGITS_CHALLENGES_PER_HOUR = 4
    friends = friends_of(alice, 5)
    levels = ("easy", "normal", "hard")
    calls = [
        lambda f=friend, level=level: social.challenge(alice, f.pk, ante=None, bot_kind=level)
        for friend in friends
        for level in levels
    ]

    outcomes = race(*calls)

    assert Challenge.objects.filter(from_user=alice).count() == 4
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == len(calls) - 4, outcomes


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_challenge_raced_from_many_tabs_is_made_once(alice, bob):
    befriend(alice, bob)

    outcomes = race(
        *(lambda: social.challenge(alice, bob.pk, ante=None, bot_kind="easy") for _ in range(10))
    )

    assert Challenge.objects.count() == 1
    assert {o.pk for o in outcomes} == {Challenge.objects.get().pk}


@pytest.mark.django_db(transaction=True)
async def test_a_challenge_sent_again_while_it_waits_is_one_frame_on_the_friends_lobby(alice, bob):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    while not await bobs.receive_nothing(timeout=0.3):  # his lists, as the socket opens
        await bobs.receive_from()

    for _ in range(5):
        await database_sync_to_async(social.challenge)(alice, bob.pk, ante=None, bot_kind="easy")

    assert "accept-challenge" in await bobs.receive_from(timeout=5)
    assert await bobs.receive_nothing(timeout=1)
    await bobs.disconnect()
