"""Fixtures for table talk: people, tables of each kind, and friends."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.social.chat import rules
from tests.table.support import SEED


@pytest.fixture
def all_friends(monkeypatch):
    """Everyone counts as everyone's friend: the answer the friends app will give for a
    barkada. Only the friends question changes; the database, the channel layer and the
    rest of the rule are the real ones."""
    monkeypatch.setattr(rules, "seats_are_friends", lambda user_ids: True)


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
