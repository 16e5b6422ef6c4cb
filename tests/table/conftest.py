"""Fixtures for the table: a seeded game of three people."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.table.support import SEED


@pytest.fixture
def three_people(alice, bob, carol, make_game) -> Game:
    return make_game([alice, bob, carol], seed=SEED)
