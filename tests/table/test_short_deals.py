"""The deals the browser tests play whole games on at four sizes (tests/table/busy.py
SHORT_SEEDS) still end soon, with a draw, a take and a Draw call for the person: the bots'
moves follow from the seed, so a change to the bots or the table's helpers could make those
games long (and the browser test slow) without this noticing first. Engine only."""

from __future__ import annotations

from tests.table.busy import SHORT_SEEDS, taps_alone


def test_each_short_deal_ends_in_a_few_turns_with_a_draw_a_take_and_a_draw_call():
    for seed in SHORT_SEEDS:
        game = taps_alone(seed)
        assert game is not None, seed
        assert game["all"] <= 20 and game["draw"] and game["take"] and game["fold"], game
