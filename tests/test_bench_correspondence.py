"""bench.correspondence in small: a few waiting games bulk-made, the figures it prints made
from them (the size, the due query, a move with its notifications)."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from bench import correspondence

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner")
def test_a_tiny_run_makes_waiting_games_and_measures_them(settings):
    settings.TONGITS_PUSH_SERVICES = ["127.0.0.1"]
    result = correspondence.run(games=40, n_people=12, n_moves=3, rounds=2)
    assert result["bytes_per_game"] > 0
    due = result["due_query"]
    for key in ("none_due", "fifty_due"):  # several rounds of round trips, and PostgreSQL's
        trip, db = due[key]["round_trip"], due[key]["in_postgres"]
        assert len(trip["rounds_p50_ms"]) == 2 and trip["p95_ms"] >= trip["p50_ms"] > 0
        assert db["p95_ms"] >= db["p50_ms"] > 0
    assert "due_at" in " ".join(due["plan"])
    assert len(result["load_after"]) == 3
    move = result["move"]
    assert move["people_moves"] == 3 and move["moves"] >= 3
    assert move["pushes"] + move["emails"] >= 1  # the next person was told


def test_the_templates_stop_at_a_persons_turn():
    for t in correspondence.templates(8, random.Random(1)):
        assert t["shape"][t["turn"]] == "p" and len(t["moves"]) >= 3
