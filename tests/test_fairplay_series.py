"""Fair play and series pots (issue 49): every series has a pot, so the hands of every
series, casual and challenge series as much as rated ones, are scored, held and voided;
a pot taken beside a flagged partner is held on the series page as on the profile; voiding
a pair from the staff page makes the pots and the ratings again."""

from __future__ import annotations

import itertools
import random
import secrets

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.fairplay import review, scoring
from games.fairplay.models import Pair, ScoredGame
from games.models import Game
from games.play import tables
from games.ratings import core as ratings
from games.ratings.models import Rating
from games.series import pages
from games.series import services as series
from games.series.models import Series
from games.social import services as social
from tests.fast_games import finish
from tests.test_fairplay_actions import fair_play_staff, signed_in
from tests.test_languages import speaking
from tests.test_social import befriend

pytestmark = pytest.mark.django_db


def pair_row(one, other) -> Pair:
    low, high = sorted([one.pk, other.pk])
    return Pair.objects.get(low_id=low, high_id=high)


def casual_series(alice, bob, ante: int = 1, rated: bool = False) -> Series:
    """A casual (unrated, unless ``rated``) public series: Alice, Bob and a greedy bot."""
    made = series.create_series(alice, ante=ante, others=("open", "greedy"), rated=rated)
    first = series.state(made).latest
    assert first.rated == rated
    tables.join_table(first.pk, bob)
    return Series.objects.get(pk=made.pk)


def play_hand(made: Series, people, seed: int) -> Game:
    """Deal the series' next hand if the last is over, and play it to its end."""
    st = series.state(Series.objects.get(pk=made.pk))
    if st.latest.is_over:
        for person in people:
            series.ready(made.pk, person)
    game = series.state(Series.objects.get(pk=made.pk)).latest
    return finish(game.pk, random.Random(seed))


# --- 1. Every series with a pot is scored -----------------------------------------------------


def test_a_casual_series_hand_of_two_people_queues_its_scoring_and_a_casual_table_does_not(
    alice, bob, django_capture_on_commit_callbacks
):
    queued = DBTaskResult.objects.filter(task_path__endswith="score_finished_game")
    made = casual_series(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_hand(made, (alice, bob), seed=1)
    assert not hand.rated
    assert [r.args_kwargs["args"] for r in queued] == [[hand.pk]]
    assert scoring.score_game(hand.pk) == 1
    assert pair_row(alice, bob).games == 1

    # A casual table outside any series has nothing riding on it: not queued, not scored.
    series.end(made.pk, alice)
    table = tables.create_table(alice, others=("open", "easy"))
    tables.join_table(table.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.pk)
    assert queued.count() == 1
    assert scoring.score_game(table.pk) == 0


def test_a_challenge_series_between_friends_is_scored(alice, bob):
    befriend(alice, bob)
    made = social.challenge(alice, bob.pk, ante=2, bot_kind="easy")
    game = social.accept_challenge(bob, made.pk)
    assert not game.rated and not game.public
    finish(game.pk, random.Random(3))
    assert scoring.score_game(game.pk) == 1
    assert pair_row(alice, bob).games == 1


def test_the_command_scores_the_series_hands_not_scored_yet(alice, bob):
    from io import StringIO

    from django.core.management import call_command

    made = casual_series(alice, bob)
    hands = [play_hand(made, (alice, bob), seed=s) for s in (1, 2)]
    out = StringIO()
    call_command("fairplay_score", stdout=out)
    assert "Scored 2 games" in out.getvalue()
    assert set(ScoredGame.objects.values_list("game_id", flat=True)) == {h.pk for h in hands}
    pair = pair_row(alice, bob)
    assert pair.games == 2
    # The staff page offers to void them: casual series hands are the pair's games too.
    warden = fair_play_staff("warden")
    page = signed_in(warden).get(reverse("fairplay_pair", args=[pair.pk])).content.decode()
    assert "Void their 2 games" in page
    for hand in hands:
        assert reverse("replay", args=[hand.pk]) in page


# --- 2. A held pot is held on the series page too ---------------------------------------------


def a_pot_taken_by_a_person(alice, bob, monkeypatch, rated: bool = False):
    """A series of Alice (seat 0), Bob (seat 1) and a greedy bot whose hands are played
    until a person's seat takes the pot: the series, the pot's Event and the hands."""
    seeds = itertools.count(2_000_003)  # every table's secret seed, from a fixed sequence
    monkeypatch.setattr(secrets, "randbits", lambda bits: next(seeds))
    made = casual_series(alice, bob, ante=2, rated=rated)
    hands = []
    for number in range(1, 40):
        hands.append(play_hand(made, (alice, bob), seed=number))
        book = series.state(Series.objects.get(pk=made.pk)).book
        taken = [e for e in book.events if e.kind == "pot" and e.seat in (0, 1)]
        if taken:
            return Series.objects.get(pk=made.pk), taken[-1], hands
    raise AssertionError("no person took a pot in 39 hands")


def flag(one, other) -> Pair:
    low, high = sorted([one.pk, other.pk])
    return Pair.objects.create(low_id=low, high_id=high, games=30, flagged_after=12)


def chips(shown: str) -> int:
    """A signed figure as pages show it (a typographic minus) as a number."""
    return int(shown.replace("\u2212", "-"))


def standing(made: Series, user, seat: int):
    context = pages.context(series.state(Series.objects.get(pk=made.pk)), user)["series"]
    return context, context["rows"][seat]


def test_a_pot_won_beside_a_flagged_partner_is_held_on_the_series_page_until_cleared(
    client, alice, bob, monkeypatch
):
    made, taken, _hands = a_pot_taken_by_a_person(alice, bob, monkeypatch)
    taker = (alice, bob)[taken.seat]
    _, before = standing(made, alice, taken.seat)
    assert before.pots_won >= 1 and before.held == 0

    pair = flag(alice, bob)
    context, row = standing(made, alice, taken.seat)
    # Out of the pots won and the chips, shown apart as held; every chip still accounted.
    assert (row.pots_won, row.held) == (before.pots_won - 1, 1)
    assert chips(row.pot_chips) == chips(before.pot_chips) - taken.amount
    assert chips(row.net) == chips(before.net) - taken.amount
    assert context["held_chips"] == taken.amount
    book = series.state(made).book
    rows = context["rows"]
    assert (
        sum(chips(r.pot_chips) for r in rows) + context["held_chips"] + book.pot + book.house == 0
    )
    client.force_login(alice)
    page = client.get(reverse("series", args=[made.pk])).content.decode()
    assert "it is held for a fair play review" in page  # the pot of its last hand
    assert "+1 held" in page and f"waits for the staff's review ({taken.amount} chips)" in page
    fil = speaking(client, "fil").get(reverse("series", args=[made.pk])).content.decode()
    assert "+1 nakahinto" in fil and "naghihintay na suriin ng staff" in fil
    assert pages.pots_won(taker.pk)["pots_held"] == 1

    review.clear_pair(fair_play_staff("warden"), pair, "Friends; ten replays looked at.")
    _, after = standing(made, alice, taken.seat)
    assert (after.pots_won, after.held, after.pot_chips) == (
        before.pots_won, 0, before.pot_chips,
    )  # fmt: skip
    page = client.get(reverse("series", args=[made.pk])).content.decode()
    assert "+1 held" not in page and "waits for the staff" not in page
    assert pages.pots_won(taker.pk)["pots_held"] == 0


def test_the_series_record_says_a_held_pot_is_held_and_its_replay_counts_it_apart(
    client, alice, bob, monkeypatch
):
    import json

    from games.series.record import replay_series

    made, taken, _hands = a_pot_taken_by_a_person(alice, bob, monkeypatch)
    client.force_login(alice)

    def downloaded() -> dict:
        return json.loads(client.get(reverse("series_record", args=[made.pk])).content)

    def pots(data: dict) -> list[dict]:
        return [e for e in data["pot"] if e["kind"] == "pot"]

    before = downloaded()
    assert not [e for e in before["pot"] if "held" in e]
    won, _ = replay_series(before)
    pair = flag(alice, bob)
    data = downloaded()
    # The same events, the pot taken beside the flagged partner marked held.
    held = [e for e in pots(data) if e.get("held")]
    assert [(e["seat"], e["amount"]) for e in held] == [(taken.seat, taken.amount)]
    assert [{k: v for k, v in e.items() if k != "held"} for e in data["pot"]] == before["pot"]
    result, status = replay_series(data)
    assert status == 0
    row, was = result["ledger"]["standings"][taken.seat], won["ledger"]["standings"][taken.seat]
    assert (row["pots_won"], row["pots_held"]) == (was["pots_won"] - 1, 1)
    assert row["pot_chips"] == was["pot_chips"] - taken.amount
    assert row["net"] == was["net"] - taken.amount and result["ledger"]["held"] == taken.amount
    assert [e for e in result["ledger"]["events"] if e.get("held")] == held
    # Held marks only a pot taken, as true.
    wrong = json.loads(json.dumps(data))
    wrong["pot"][0]["held"] = True  # an ante
    assert replay_series(wrong) == (
        {"ok": False, "hand": None, "move": None, "error": "held can only be true, on a pot taken"},
        2,
    )
    # Cleared, it counts again and the record says nothing of it.
    review.clear_pair(fair_play_staff("warden"), pair, "Friends; ten replays looked at.")
    assert downloaded()["pot"] == before["pot"]


# --- 3. Voiding from the staff page makes pots and ratings again -----------------------------


def test_voiding_a_pair_from_the_staff_page_makes_their_series_pots_and_ratings_again(
    alice, bob, carol, monkeypatch
):
    apart = tables.create_table(alice, others=("open", "easy"), rated=True)
    tables.join_table(apart.pk, carol)
    apart = finish(apart.pk, random.Random(5))
    made, taken, hands = a_pot_taken_by_a_person(alice, bob, monkeypatch, rated=True)
    taker = (alice, bob)[taken.seat]
    assert pages.pots_won(taker.pk)["pots_won"] >= 1
    assert Rating.objects.get(user=bob).games == len(hands)
    pair = flag(alice, bob)

    warden = fair_play_staff("warden")
    response = signed_in(warden).post(
        reverse("fairplay_act"), {"action": "void", "pair": pair.pk, "reason": "Shared hands."}
    )
    assert response.status_code == 302

    voided = set(Game.objects.filter(voided_at__isnull=False).values_list("pk", flat=True))
    assert voided == {h.pk for h in hands}  # every hand of theirs, not Alice's game apart
    # Pots: every hand counts as aborted, so nobody took a pot and the antes are all in it.
    st = series.state(Series.objects.get(pk=made.pk))
    assert not [e for e in st.book.events if e.kind == "pot"]
    assert st.book.pot == 3 * made.ante * len(hands) and st.book.total() == 0
    for person in (alice, bob):
        assert pages.pots_won(person.pk) == {"pots_won": 0, "pot_chips_won": 0, "pots_held": 0}
    context = pages.context(st, alice)["series"]
    assert [(r.pots_won, r.held, chips(r.pot_chips)) for r in context["rows"]] == [
        (0, 0, -made.ante * len(hands))
    ] * 3
    # Ratings: Bob's every game is voided; Alice's rating is her one game apart, as a
    # recompute from nothing gives it.
    assert not Rating.objects.filter(user=bob, games__gt=0).exists()
    assert Rating.objects.get(user=alice).games == 1
    stored = {ratings._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    ratings.recompute()
    assert {ratings._key(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == stored
