"""Series pages (issue 9): the series' one URL, the screen between hands, its actions,
and the series record through download, upload and ``manage.py replay``."""

from __future__ import annotations

import io
import itertools
import json
import random
import secrets
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from games.fairplay import actions
from games.models import Game, Seat
from games.play import moves, server_moves, tables
from games.series import pages
from games.series import services as series
from games.series.models import Hand, Series
from tests.fast_games import finish
from tests.table.leaks import hidden_cards, leaks
from tests.test_fairplay_actions import fair_play_staff

pytestmark = pytest.mark.django_db


def test_a_new_table_can_be_a_series_with_an_ante(client, alice):
    client.force_login(alice)
    form = {"visibility": "private", "seat_2": "normal", "seat_3": "easy", "series": "on",
            "ante": "2", "rated": "casual"}  # fmt: skip
    response = client.post("/tables/new/", form)
    made = Series.objects.get()
    assert response.url == f"/series/{made.pk}/"
    assert made.ante == 2
    game = made.hands.get().game
    assert game.status == Game.Status.PLAYING and not game.rated and not game.public

    page = client.get(response.url).content.decode()
    assert 'id="series-panel"' in page and 'Pot: <span id="series-pot">6</span>' in page
    assert 'id="my-hand"' in page  # the hand's table itself


def test_between_hands_the_series_shows_the_result_pot_and_standings_and_goes_on(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    client.force_login(alice)
    first = finish(series.state(made).latest.pk)

    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "after hand 1" in page and "Next hand" in page and "Leave the series" in page
    assert "End the series" in page and "series-countdown" in page
    assert 'Pot: <span id="series-pot">3</span>' in page
    assert "has won 1 in a row" in page

    # The hand's own table links to the series too.
    table = client.get(f"/games/{first.pk}/").content.decode()
    assert 'id="series-panel"' in table and "To the series now" in table

    # Polled: nothing yet; then she is ready, the next hand is dealt and the poll says go.
    poll = client.get(f"/series/{made.pk}/waiting/?hands=1", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204
    client.post(f"/series/{made.pk}/next/")
    assert Hand.objects.filter(series=made).count() == 2
    poll = client.get(f"/series/{made.pk}/waiting/?hands=1", HTTP_HX_REQUEST="true")
    assert poll["HX-Redirect"] == f"/series/{made.pk}/"
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert 'id="my-hand"' in page and 'Pot: <span id="series-pot">6</span>' in page


def test_the_pause_ending_deals_the_next_hand_when_the_page_asks(client, alice, bob):
    made = series.create_series(alice, ante=1, others=("open", "greedy"))
    tables.join_table(series.state(made).latest.pk, bob)
    finish(series.state(made).latest.pk)
    Series.objects.filter(pk=made.pk).update(next_at=timezone.now() - timedelta(seconds=1))
    client.force_login(bob)
    client.get(f"/series/{made.pk}/")
    assert made.hands.count() == 2


def test_leaving_and_ending_from_the_screen_between_hands(client, alice, bob, carol):
    made = series.create_series(alice, ante=1, others=("open", "open"))
    game = series.state(made).latest
    tables.join_table(game.pk, bob)
    tables.join_table(game.pk, carol)
    finish(game.pk)

    client.force_login(carol)
    assert client.post(f"/series/{made.pk}/leave/").url == "/"
    client.force_login(alice)  # its creator leaves too
    assert client.post(f"/series/{made.pk}/leave/").url == "/"
    client.force_login(bob)
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "End the series" in page  # anyone still seated may end it
    client.post(f"/series/{made.pk}/end/")
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "has ended" in page and "Ended by a player at the table." in page
    assert "bob gets 1 back" in page
    assert "The house keeps the 1 that alice put in (left the series)" in page
    assert "The house keeps the 1 that carol put in (left the series)" in page


def _one_hand_of(alice, bob, carol):
    made = series.create_series(alice, ante=2, others=("open", "open"))
    game = series.state(made).latest
    tables.join_table(game.pk, bob)
    tables.join_table(game.pk, carol)
    finish(game.pk)  # one hand: nobody can have won the pot yet
    return made


def test_a_series_ended_right_after_an_account_was_closed_keeps_its_antes(
    client, alice, bob, carol
):
    """Bob's account was closed during the hand, and Alice ended the series right after
    it: Bob still counted as seated and got his antes back, which the house keeps from
    anyone who is no longer at the table (rules.md, Series)."""
    from tests.test_fairplay_actions import fair_play_staff

    made = _one_hand_of(alice, bob, carol)
    actions.close_account(fair_play_staff("warden"), bob, "Shared hands with carol.")

    client.force_login(alice)
    client.post(f"/series/{made.pk}/end/")

    st = series.state(Series.objects.get(pk=made.pk))
    assert st.series.people_at_end == [0, 2] and st.series.left == [1]
    assert [(e.seat, e.amount) for e in st.book.events if e.kind == "return"] == [(0, 2), (2, 2)]
    assert st.book.house == 2 and st.book.standings[1].pot_chips == -2
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "bob gets" not in page
    assert "The house keeps the 2 that bob put in (left the series)" in page


def test_a_series_ended_right_after_an_account_was_deleted_names_it_so(client, alice, bob, carol):
    """With Bob's account deleted during the hand, the page said "The house keeps the 2
    that Open seat put in (a bot's seat)"."""
    made = _one_hand_of(alice, bob, carol)
    bob.delete()

    client.force_login(alice)
    client.post(f"/series/{made.pk}/end/")

    st = series.state(Series.objects.get(pk=made.pk))
    assert st.series.people_at_end == [0, 2] and st.series.left == [1]
    assert st.book.house == 2
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "The house keeps the 2 that Deleted account put in (left the series)" in page
    assert "Open seat" not in page and "a bot&#x27;s seat" not in page
    assert '>Deleted account <span class="badge">left</span>' in page  # the standings


def test_ending_against_bots_gives_back_only_ones_own_antes(client, alice):
    # Issue 23: ante 5 against two bots, hands nobody won twice in a row, then End: the
    # page said the creator "gets 45 back" for the 15 she paid.
    made = series.create_series(alice, ante=5, others=("greedy", "random"))
    finish(series.state(made).latest.pk)  # one hand: nobody can have won twice yet
    client.force_login(alice)
    client.post(f"/series/{made.pk}/end/")
    page = client.get(f"/series/{made.pk}/").content.decode()
    assert "alice gets 5 back" in page and "gets 15 back" not in page
    assert page.count("put in (a bot's seat)") == 2
    book = series.state(Series.objects.get(pk=made.pk)).book
    assert book.standings[0].pot_chips == 0 and book.house == 10


def test_a_private_series_is_only_for_its_players(client, alice, bob):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"), public=False)
    client.force_login(bob)
    assert client.get(f"/series/{made.pk}/").status_code == 403
    assert client.get(f"/series/{made.pk}/record.json").status_code == 403


def test_the_series_record_round_trips_through_download_upload_and_replay(client, alice, bob):
    made = series.create_series(alice, ante=5, others=("open", "random"))
    tables.join_table(series.state(made).latest.pk, bob)
    for _ in range(3):
        finish(series.state(Series.objects.get(pk=made.pk)).latest.pk)
        series.ready(made.pk, alice)
        series.ready(made.pk, bob)
    finish(series.state(Series.objects.get(pk=made.pk)).latest.pk)
    series.leave(made.pk, bob)
    series.end(made.pk, alice)
    client.force_login(alice)

    # While a hand is played its record is not in the file; here all four are over.
    downloaded = json.loads(client.get(f"/series/{made.pk}/record.json").content)
    assert downloaded["format"] == "tongits-series/1"
    assert len(downloaded["hands"]) == 4 and downloaded["people_at_end"] == [0]
    assert all(h["format"] == "tongits-record/1" for h in downloaded["hands"])
    assert [h["dealer"] for h in downloaded["hands"][1:]] == [
        Game.objects.get(pk=h["id"]).winner_seat for h in downloaded["hands"][:-1]
    ]

    out = io.StringIO()
    path = _write(downloaded)
    call_command("replay", path, stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["ok"] and len(printed["hands"]) == 4
    assert all(line["finished"] for line in printed["hands"])
    book = series.state(Series.objects.get(pk=made.pk)).book
    assert printed["ledger"]["house"] == book.house
    assert [s["net"] for s in printed["ledger"]["standings"]] == [s.net for s in book.standings]
    assert sum(e["amount"] for e in printed["ledger"]["events"]) == 0

    upload = SimpleUploadedFile("s.json", json.dumps(downloaded).encode(), "application/json")
    response = client.post("/games/upload/", {"record": upload})
    assert response.status_code == 302
    copy = Series.objects.exclude(pk=made.pk).get()
    assert copy.imported and copy.hands.count() == 4
    again = json.loads(client.get(f"/series/{copy.pk}/record.json").content)
    for key in ("format", "ante", "dealer_rule", "ended", "people_at_end", "pot"):
        assert again[key] == downloaded[key], key
    strip = ("id", "players", "started", "seed", "commitment")
    assert [{k: v for k, v in h.items() if k not in strip} for h in again["hands"]] == [
        {k: v for k, v in h.items() if k not in strip} for h in downloaded["hands"]
    ]


def test_a_series_record_whose_dealer_breaks_the_rule_is_refused(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    for _ in range(10):  # until some hand was not won by its dealer
        game = finish(series.state(Series.objects.get(pk=made.pk)).latest.pk)
        series.ready(made.pk, alice)
        if game.winner_seat != game.dealer:
            break
    client.force_login(alice)
    data = json.loads(client.get(f"/series/{made.pk}/record.json").content)
    winners = {h["id"]: Game.objects.get(pk=h["id"]).winner_seat for h in data["hands"]}
    # A hand whose winner did not deal it, played twice: the second is dealt by the wrong seat.
    odd = next(h for h in data["hands"] if h["dealer"] != winners[h["id"]])
    data["hands"] = [odd, odd]
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("replay", _write(data), stdout=out)
    assert exit_.value.code == 2
    assert "not the winner" in json.loads(out.getvalue())["error"]


def _write(data) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    return f.name


def test_history_groups_a_series_hands_and_replays_link_hand_to_hand(client, alice):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    hands = []
    for _ in range(3):
        hands.append(finish(series.state(Series.objects.get(pk=made.pk)).latest.pk))
        series.ready(made.pk, alice)
    client.force_login(alice)

    mine = client.get("/games/mine/").content.decode()
    assert mine.count(f'<a href="/series/{made.pk}/">Series {made.pk}</a>') == 1
    assert "hand 1" in mine and "hand 3" in mine

    middle = client.get(f"/games/{hands[1].pk}/replay/").content.decode()
    assert f'href="/games/{hands[0].pk}/replay/" rel="prev"' in middle
    assert f'href="/games/{hands[2].pk}/replay/" rel="next"' in middle
    first = client.get(f"/games/{hands[0].pk}/replay/").content.decode()
    assert 'rel="prev"' not in first and "Hand 1 of" in first


# Deal seeds known to give alice (seat 0, played by the greedy bot while away) the pot with
# her second win in a row, in hand 2; each hand's bot moves come from its number.
POT_SEEDS_FROM = 1_000_003


def a_series_alice_takes_the_pot_of(alice, monkeypatch) -> tuple[Series, Game]:
    """Two hands, the second won by alice's seat for a pot; the series and its last game."""
    # Every table draws its secret seed from secrets.randbits: here from a fixed sequence.
    seeds = itertools.count(POT_SEEDS_FROM)
    monkeypatch.setattr(secrets, "randbits", lambda bits: next(seeds))
    made = series.create_series(alice, ante=2, others=("greedy", "greedy"))
    for number in (1, 2):
        if number > 1:
            series.ready(made.pk, alice)
        game = finish(series.state(Series.objects.get(pk=made.pk)).latest.pk, random.Random(number))
    return made, game


def test_profiles_count_the_pots_a_person_took(client, alice, monkeypatch):
    made, game = a_series_alice_takes_the_pot_of(alice, monkeypatch)
    book = series.state(Series.objects.get(pk=made.pk)).book
    assert book.last_taken is not None and book.last_taken.seat == 0
    client.force_login(alice)
    taken = [e for e in book.events if e.kind == "pot" and e.seat == 0]
    page = client.get("/players/alice/").content.decode()
    assert f"<dt>Series pots won</dt><dd>{len(taken)}" in page
    assert f"({sum(e.amount for e in taken)} chips)" in page
    assert game.is_over


@pytest.mark.parametrize("voided_hand", [1, 2])
def test_a_pot_taken_with_a_voided_win_is_not_in_the_profile(alice, monkeypatch, voided_hand):
    """Fair play's voided games count in no one's figures; the profile still counted the
    pots they took."""
    made, _game = a_series_alice_takes_the_pot_of(alice, monkeypatch)
    assert pages.pots_won(alice.pk)["pots_won"] == 1

    hand = made.hands.get(number=voided_hand)
    Game.objects.filter(pk=hand.game_id).update(voided_at=timezone.now())

    assert pages.pots_won(alice.pk) == {"pots_won": 0, "pot_chips_won": 0, "pots_held": 0}


@pytest.mark.parametrize("voided_hand", [1, 2])
def test_voiding_a_won_hand_makes_the_series_pots_again_as_if_it_was_not_won(
    alice, monkeypatch, voided_hand
):
    made, _game = a_series_alice_takes_the_pot_of(alice, monkeypatch)
    Game.objects.filter(pk=made.hands.get(number=voided_hand).game_id).update(
        voided_at=timezone.now()
    )
    book = series.state(Series.objects.get(pk=made.pk)).book
    # Hand `voided_hand` counts as aborted: no streak of two, so nobody took the pot, and
    # both hands' antes (ante 2, three seats) are still in it.
    assert not [e for e in book.events if e.kind == "pot"]
    assert book.pot == 2 * 3 * 2 and book.total() == 0
    assert book.standings[0].wins == 1


def test_a_pot_taken_beside_a_flagged_partner_waits_until_staff_clear_the_pair(
    alice, bob, monkeypatch
):
    from games.fairplay import review
    from games.fairplay.models import Pair

    made, _game = a_series_alice_takes_the_pot_of(alice, monkeypatch)
    # Bob held seat 1 (a bot's here: the pot is what matters), and fair play flagged them.
    Seat.objects.filter(game__series_hand__series=made, index=1).update(user=bob, bot_kind="")
    low, high = sorted((alice.pk, bob.pk))
    pair = Pair.objects.create(low_id=low, high_id=high, games=30, flagged_after=12)
    assert pages.pots_won(alice.pk) == {"pots_won": 0, "pot_chips_won": 0, "pots_held": 1}
    staff = fair_play_staff("warden")
    review.clear_pair(staff, pair, "Friends who play well; looked at ten replays.")
    taken = pages.pots_won(alice.pk)
    assert taken["pots_won"] == 1 and taken["pots_held"] == 0 and taken["pot_chips_won"] > 0


def test_during_a_hand_the_series_record_and_panel_show_nothing_of_it(client, alice, bob):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"))
    first = finish(series.state(made).latest.pk)
    series.ready(made.pk, alice)
    hand = series.state(Series.objects.get(pk=made.pk)).latest
    for _ in range(4):  # a few moves of the second hand, whoever's turn it is
        server_moves.play_due(hand.pk, now=timezone.now() + timedelta(days=1))
    hand.refresh_from_db()
    assert hand.status == Game.Status.PLAYING and hand.seq > 0
    state = moves.game_state(hand)
    pages = {
        "panel": f"/series/{made.pk}/panel/?game={hand.pk}",
        "series": f"/series/{made.pk}/",
    }
    record = f"/series/{made.pk}/record.json"

    for user, seat in ((alice, 0), (bob, None)):  # her seat, and a person who only watches
        client.force_login(user)
        for name, url in pages.items():
            response = client.get(url)
            assert response.status_code == 200, (name, response.status_code)
            text = response.content.decode()
            assert leaks(text, hidden_cards(state, seat), hand.seed) == [], (name, seat)
        # The file holds the first hand's cards, all of them: it must hold nothing of the
        # second (its id, deal, seed, commitment or antes).
        text = client.get(record).content.decode()
        downloaded = json.loads(text)
        assert [h["id"] for h in downloaded["hands"]] == [first.pk]
        assert [e["hand"] for e in downloaded["pot"]] == [1] * len(downloaded["pot"])
        assert hand.seed not in text and hand.commitment not in text
        assert json.dumps(hand.deal["stock"], separators=(",", ":")) not in text
