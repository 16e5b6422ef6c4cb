"""bench.correspondence in small: a few waiting games bulk-made, the figures it prints made
from them (the size, the due query, a move with its notifications)."""

from __future__ import annotations

import random

import pytest

from bench import correspondence

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tiny_run_makes_waiting_games_and_measures_them(settings):
    settings.TONGITS_PUSH_SERVICES = ["127.0.0.1"]
    result = correspondence.run(games=40, n_people=12, n_moves=3)
    assert result["bytes_per_game"] > 0
    assert result["due_query"]["none_due_p50_ms"] >= 0
    assert "due_at" in " ".join(result["due_query"]["plan"])
    move = result["move"]
    assert move["people_moves"] == 3 and move["moves"] >= 3
    assert move["pushes"] + move["emails"] >= 1  # the next person was told


def test_the_templates_stop_at_a_persons_turn():
    for t in correspondence.templates(8, random.Random(1)):
        assert t["shape"][t["turn"]] == "p" and len(t["moves"]) >= 3
