"""Table views: PLACEHOLDER, being written (the table page, POST actions, play again)."""

from __future__ import annotations


def table(request, game_id):  # placeholder
    raise NotImplementedError


act = play_again = table
