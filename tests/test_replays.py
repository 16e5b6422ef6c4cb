"""Replays: every step of a finished game, as the engine replays its log, for the right
people only; narration that reads like a score."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine.cards import CODES, cards_of
from games.engine.record import load_record, replay
from games.engine.scoring import DRAW_END, FOUGHT_DRAW, STOCK, TONGITS
from games.engine.state import Outcome
from games.history.uploads import import_record
from games.models import Game, Move
from games.play import aborts, tables
from games.words.narration import describe_end, distinct_names, narrate
from tests.history_support import (
    SEED,
    cards_in,
    finish,
    hand_codes,
    play_some,
    scripted_record,
    shown_cards,
)

pytestmark = pytest.mark.django_db


def url(game: Game, move: int | None = None) -> str:
    base = reverse("replay", args=[game.pk])
    return base if move is None else f"{base}?move={move}"


@pytest.fixture
def finished(make_game, alice, bob) -> Game:
    return finish(make_game([alice, "greedy", bob], seed=SEED))


@pytest.fixture
def scripted(alice) -> Game:
    return import_record(scripted_record(), alice)


# --- Narration ----------------------------------------------------------------------------


def test_narration_reads_each_move_of_a_game_like_a_score():
    record = load_record(scripted_record())

    narration = narrate(record, ["Alice", "Bea", "Carl"])

    assert [line.text for line in narration.lines] == [
        "Alice melds 5♠ 6♠ 7♠",
        "Alice discards K♥",
        "Bea takes K♥ with K♦ K♠",
        "Bea discards 2♣",
        "Carl draws",
        "Carl lays off 8♠ on Alice's run: Alice blocked",
        "Carl discards 3♣",
        "Alice draws",
        "Alice lays a secret set",
        "Alice discards 2♥",
        "Bea calls Draw",
        "Alice fights",
    ]
    assert [line.seq for line in narration.lines] == list(range(1, 13))
    assert narration.end == "Bea wins the fought Draw"


@pytest.mark.parametrize(
    ("end", "sentence"),
    [
        (TONGITS, "Alice wins by Tongits"),
        (DRAW_END, "Alice wins the Draw call: nobody fights"),
        (FOUGHT_DRAW, "Alice wins the fought Draw"),
        (STOCK, "Alice wins when the stock runs out"),
    ],
)
def test_narration_says_how_the_game_ended(end, sentence):
    outcome = Outcome(0, end, (0, 5, 9), (False, False, False), (2, -1, -1), ())

    assert describe_end(outcome, ["Alice", "Bea", "Carl"]) == sentence


def test_narration_tells_two_bots_of_one_kind_apart_by_seat():
    assert distinct_names(["alice", "Greedy bot", "Greedy bot"]) == [
        "alice", "Greedy bot 2", "Greedy bot 3",
    ]  # fmt: skip


def test_narration_stops_quietly_at_a_move_the_engine_refuses():
    moves = scripted_record()["moves"][:3] + [{"seat": 2, "type": "fight"}]

    narration = narrate(load_record(scripted_record(moves)), ["Alice", "Bea", "Carl"])

    assert len(narration.lines) == 3
    assert narration.end == ""


# --- The replay page ----------------------------------------------------------------------


def test_a_finished_game_replays_from_the_deal_with_step_controls(client, alice, finished):
    client.force_login(alice)

    html = client.get(url(finished)).content.decode()

    assert "The deal" in html
    assert 'aria-current="step"' in html
    assert (
        f'type="range" id="replay-move" name="move" min="0" max="{finished.seq}" value="0"' in html
    )
    assert f'href="{url(finished, 1)}"' in html  # next
    assert f'href="{url(finished, finished.seq)}"' in html  # last
    assert 'data-step="first" aria-disabled="true"' in html
    assert "/static/js/replay.js" in html
    assert "<script>" not in html  # no inline script


def test_each_step_shows_every_hand_as_the_engine_replays_the_log_up_to_it(client, alice, finished):
    client.force_login(alice)
    record = finished.record()
    names = ["alice", "Greedy bot 2", "bob"]

    for step in (0, 1, 7, finished.seq // 2, finished.seq):
        html = client.get(url(finished, step)).content.decode()
        state = replay(record, upto=step).state
        for seat, name in enumerate(names):
            expected = [CODES[c] for c in cards_of(state.hands[seat])]
            assert cards_in(html, f"{name}'s hand") == expected, (step, name)
        assert f"Stock: <strong>{state.stock_left}</strong>" in html


def test_every_card_carries_its_code_and_an_accessible_name(client, alice, scripted):
    client.force_login(alice)

    html = client.get(url(scripted, 3)).content.decode()

    assert 'data-card="TD" role="img" aria-label="10 of diamonds"' in html
    assert 'data-card="KH" role="img" aria-label="king of hearts"' in html  # Bea's take


def test_the_move_list_links_each_move_to_its_step_and_marks_the_current_one(
    client, alice, scripted
):
    client.force_login(alice)

    html = client.get(url(scripted, 6)).content.decode()

    assert (
        f'<a id="move-6" href="{url(scripted, 6)}" hx-get="{url(scripted, 6)}" '
        'class="by-seat-2" aria-current="step"><span class="move-no">6</span> '
        "Carl lays off 8♠ on Alice&#x27;s run: Alice blocked</a>"
    ) in html
    assert "Move 6: Carl lays off 8♠ on Alice&#x27;s run: Alice blocked" in html
    assert "Bea wins the fought Draw" in html


def test_the_last_step_shows_the_payments_term_by_term_and_the_secret_sets_cards(
    client, alice, scripted
):
    client.force_login(alice)

    html = client.get(url(scripted, 12)).content.decode()

    assert "What each loser pays Bea" in html
    # Alice: base 3 (a fought Draw), 3 aces held by Bea, no secret set, not burned.
    assert (
        '<tr><th scope="row">Alice</th><td class="num">3</td><td class="num">3</td>'
        '<td class="num">0 × 3 = 0</td><td class="num">0</td><td class="num"><strong>6</strong>'
    ) in html
    assert '<td class="num">1</td><td class="num"><strong>7</strong>' in html  # Carl, burned
    assert (
        "Net chips: Alice <strong>−6</strong>, Bea <strong>+13</strong>, Carl <strong>−7</strong>"
        in html
    )
    # The game is over: Alice's secret set shows its cards.
    assert 'aria-label="Secret set"' in html
    assert {"4C", "4D", "4H", "4S"} <= shown_cards(html)


def test_the_end_of_a_replay_reveals_the_seed_its_commitment_and_the_verdict(
    client, alice, finished
):
    client.force_login(alice)

    html = client.get(url(finished, finished.seq)).content.decode()

    assert finished.seed in html
    assert finished.commitment in html
    assert "sha256(seed) == commitment" in html
    assert f"python manage.py verify_deal {finished.pk}" in html
    assert "Verified:" in html


def test_an_htmx_step_gets_only_the_step_partial(client, alice, finished):
    client.force_login(alice)

    response = client.get(url(finished, 5), headers={"HX-Request": "true"})
    html = response.content.decode()

    assert html.lstrip().startswith('<div id="replay-step"')
    assert "<html" not in html
    assert 'aria-current="step"' in html
    assert "HX-Request" in response["Vary"]


def test_a_history_restore_gets_the_whole_page(client, alice, finished):
    client.force_login(alice)

    html = client.get(
        url(finished, 5), headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    ).content.decode()

    assert "<html" in html


def test_an_out_of_range_step_is_clamped_to_the_game(client, alice, finished):
    client.force_login(alice)

    html = client.get(url(finished, 9999)).content.decode()

    assert f'value="{finished.seq}" aria-valuetext="Move {finished.seq} of {finished.seq}"' in html
    assert "Move 0 of" in client.get(url(finished) + "?move=x").content.decode()


# --- Who may replay -----------------------------------------------------------------------


def test_a_game_in_play_has_no_replay_for_its_players(client, make_game, alice, bob):
    game = play_some(make_game([alice, "greedy", bob], seed=SEED), 6)
    client.force_login(alice)

    response = client.get(url(game, 3))
    html = response.content.decode()

    assert response.status_code == 403
    assert "still being played" in html
    assert game.seed not in html
    assert shown_cards(html) == set()


def test_a_game_in_play_has_no_replay_for_staff_either(client, make_game, alice, bob, carol):
    game = play_some(make_game([alice, "greedy", bob], seed=SEED), 6)
    carol.is_staff = carol.is_superuser = True
    carol.save()
    client.force_login(carol)

    for target in (url(game), url(game, 2), reverse("record_json", args=[game.pk])):
        response = client.get(target)
        html = response.content.decode()
        assert response.status_code == 403, target
        assert game.seed not in html
        assert not shown_cards(html) & hand_codes(game)


def test_a_game_still_waiting_for_players_has_no_replay(client, alice):
    game = tables.create_table(alice, others=("open", "greedy"))
    client.force_login(alice)

    assert client.get(url(game)).status_code == 403


def test_a_public_finished_game_replays_for_anyone_signed_in(client, carol, finished):
    client.force_login(carol)

    assert client.get(url(finished)).status_code == 200


def test_a_replay_asks_an_anonymous_visitor_to_log_in(client, finished):
    response = client.get(url(finished))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_private_finished_game_refuses_those_who_did_not_play_it(
    client, make_game, alice, bob, carol
):
    game = finish(make_game([alice, "greedy", bob], seed=SEED, public=False))
    client.force_login(carol)

    response = client.get(url(game))

    assert response.status_code == 403
    assert "only its players" in response.content.decode()
    assert game.seed not in response.content.decode()


def test_a_private_finished_game_replays_for_its_players_and_staff(
    client, make_game, alice, bob, carol
):
    game = finish(make_game([alice, "greedy", bob], seed=SEED, public=False))
    carol.is_staff = True
    carol.save()

    for person in (alice, bob, carol):
        client.force_login(person)
        assert client.get(url(game)).status_code == 200, person


def test_an_uploaded_record_replays_only_for_the_person_who_uploaded_it(
    client, scripted, alice, bob
):
    client.force_login(bob)
    assert client.get(url(scripted)).status_code == 403

    client.force_login(alice)
    assert client.get(url(scripted)).status_code == 200


def test_an_unknown_game_is_not_found(client, alice):
    client.force_login(alice)

    assert client.get(reverse("replay", args=[99999])).status_code == 404


def test_a_game_aborted_after_the_deal_replays_its_moves_and_says_who_aborted_it(
    client, make_game, alice, bob, carol
):
    game = play_some(make_game([alice, "greedy", bob], seed=SEED), 5)
    aborts.abort_game(game.pk, carol, "The server lost a worker.")
    client.force_login(alice)

    html = client.get(url(game, 5)).content.decode()

    assert "Aborted by carol: The server lost a worker." in html
    assert "Move 5:" in html
    assert "What each loser pays" not in html


def test_a_game_aborted_before_the_deal_has_nothing_to_replay(client, alice, carol):
    game = tables.create_table(alice, others=("open", "open"))
    aborts.abort_game(game.pk, carol, "Nobody came.")
    client.force_login(alice)

    response = client.get(url(game))

    assert response.status_code == 404
    assert "before the cards were dealt" in response.content.decode()


def test_a_replay_of_a_tampered_log_says_where_it_breaks_instead_of_failing(
    client, alice, finished
):
    Move.objects.filter(game=finished, seq=4).update(payload={"seat": 0, "type": "fight"})
    client.force_login(alice)

    response = client.get(url(finished, finished.seq))
    html = response.content.decode()

    assert response.status_code == 200
    assert "The stored log breaks at move 4. " in html
    assert 'id="move-3"' in html and 'id="move-4"' not in html
