"""Server logs are read by people too: a whole game logs no card and never the seed."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.cards import CODES
from games.models import Game, Seat
from games.play import clock, moves
from tests.table.support import SEED, first_legal

CARD_TOKEN = re.compile(rf"(?<![A-Za-z0-9])({'|'.join(CODES)})(?![A-Za-z0-9])")


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_with_a_timed_out_seat_logs_no_card_and_not_the_seed(
    caplog, client, alice, bob, carol, make_game
):
    game = make_game([alice, bob, carol], seed=SEED, turn_seconds=5)
    people = {0: alice, 1: bob, 2: carol}
    caplog.set_level(logging.DEBUG)
    client.force_login(alice)
    later = timezone.now()

    for turn in range(200):
        game.refresh_from_db()
        if game.is_over:
            break
        seat, move = first_legal(game)
        if turn == 3:  # one seat's clock runs out: the server plays for it and logs that
            later += timedelta(seconds=60)
            clock.run_due(later)
            continue
        if Seat.objects.get(game=game, index=seat).away:
            moves.mark_back(game.pk, people[seat])
        moves.submit_move(game.pk, people[seat], move.to_dict(), expected_seq=game.seq)
        client.get(f"/games/{game.pk}/")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert "dealt" in text and "ended" in text and "away" in text  # the game did log
    assert game.seed not in text
    assert CARD_TOKEN.findall(text) == []
