"""Fixtures for table talk: people, tables of each kind, and friends."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.social import services
from tests.table.support import SEED


@pytest.fixture
def all_friends(alice, bob, carol, dave):
    """Alice, Bob, Carol and Dave are all friends of one another, through the friends app
    (requests sent and accepted), as a barkada is."""
    people = [alice, bob, carol, dave]
    for i, one in enumerate(people):
        for other in people[i + 1 :]:
            services.request_friend(one, other.pk)
            services.accept_friend(other, one.pk)


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


@pytest.fixture
def rated_table(alice, bob, carol, make_game):
    """Public and rated, like Quick play."""
    return make_game([alice, bob, carol], seed=SEED, public=True, rated=True)


@pytest.fixture
def barkada_table(alice, bob, carol, make_game):
    """Private and unrated: free text if they are all friends."""
    return make_game([alice, bob, carol], seed=SEED, public=False, rated=False)
