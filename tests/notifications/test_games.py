"""What games tell: "your turn" at a table that waits (for the correspondence tables),
after whose discard; a game's end to the people who were not at the table (and to everyone
at a table that waits); and that no notice, push or email ever holds a hidden card: every
card of every hand and of the stock, and the seed, are looked for in each one sent."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.utils import timezone

from games import bots
from games.engine import seat_view
from games.engine.cards import short
from games.models import Game, Seat
from games.notifications import delivery, events
from games.notifications.models import Notice
from games.play import moves, server_moves
from tests.fast_games import finish, prepare_last_move
from tests.notifications.support import run_worker
from tests.table.leaks import hidden_cards, leaks

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


def test_a_live_tables_end_is_told_only_to_the_person_who_was_away(
    make_game, alice, bob, subscribe, endpoint
):
    phones = {alice.pk: subscribe(alice, "/alice"), bob.pk: subscribe(bob, "/bob")}
    game = make_game([alice, "easy", bob], seed=5)
    last = prepare_last_move(game.pk).pk and Game.objects.get(pk=game.pk).turn_seat
    # The person who does not make the last move is at the table (not away) at the end.
    here = bob if last == 0 else alice
    Seat.objects.filter(game=game, user=here).update(away=False)

    server_moves.play_due(game.pk, now=timezone.now())
    run_worker()

    game.refresh_from_db()
    away = alice if here is bob else bob
    [got] = endpoint.received
    assert got.path == f"/{away.username}"
    chips = game.chips[0 if away is alice else 2]
    message = phones[away.pk].read(got)
    assert message["title"].startswith(f"Your game at Table {game.pk} ended: you ")
    assert f" {abs(chips)} chip" in message["title"] or chips == 0
    assert message["url"] == f"/games/{game.pk}/"


def test_a_live_tables_end_is_never_emailed(make_game, alice, bob, vapid):
    finish(make_game([alice, "easy", bob], seed=5).pk)  # both away, neither with push

    run_worker()

    assert mail.outbox == []
    assert set(Notice.objects.values_list("why", flat=True)) == {"nowhere"}


def test_a_waiting_tables_end_is_told_to_everyone(make_game, alice, bob, vapid):
    game = make_game([alice, "easy", bob], seed=5, turn_seconds=DAY)
    finish(game.pk)
    Seat.objects.update(away=False)  # as if they had played every move themselves

    run_worker()

    assert sorted(e.to[0] for e in mail.outbox) == ["alice@example.com", "bob@example.com"]


def test_no_notice_at_all_for_a_game_of_bots_and_no_your_turn_at_a_live_table(
    make_game, alice, vapid
):
    finish(make_game(["easy", "easy", "normal"], seed=3).pk)
    live = make_game([alice, "easy", "easy"], seed=3)

    events.announce_turn.call(live.pk)
    run_worker()

    assert not Notice.objects.exists()


def play_to_a_persons_turn_after_a_discard(game: Game, people: dict) -> Game:
    """The seats play (people through the services, as from their page) until a person is
    to move just after someone discarded."""
    rng = random.Random(game.pk)
    while True:
        game.refresh_from_db()
        state = moves.game_state(game)
        last = game.moves.order_by("-seq").first()
        seat = game.seats.get(index=state.turn)
        if seat.user_id and last is not None and last.payload["type"] == "discard":
            return game
        move = bots.choose("greedy", seat_view(state, state.turn), rng)
        if seat.user_id:
            moves.submit_move(game.pk, people[seat.user_id], move.to_dict())
        else:
            server_moves.play_due(game.pk, now=timezone.now() + timedelta(days=2))


def test_your_turn_at_a_waiting_table_names_the_discard_that_made_it(
    make_game, alice, bob, subscribe, endpoint
):
    phones = {alice.pk: subscribe(alice, "/alice"), bob.pk: subscribe(bob, "/bob")}
    game = make_game([alice, "easy", bob], seed=9, turn_seconds=DAY)
    game = play_to_a_persons_turn_after_a_discard(game, {alice.pk: alice, bob.pk: bob})
    last = game.moves.order_by("-seq").first()
    to_move = game.seats.get(index=game.turn_seat)

    events.your_turn(game.pk)  # as the correspondence tables will, after each move
    run_worker()

    [got] = endpoint.received
    message = phones[to_move.user_id].read(got)
    who = game.seats.get(index=last.seat).shown_name
    card = short(_card(last.payload["card"]))
    assert message["title"] == f"Your turn at Table {game.pk}"
    assert message["body"] == f"{who} discarded {card}"
    assert message["tag"] == f"table-{game.pk}"


def test_a_your_turn_played_before_it_went_out_is_not_sent(
    make_game, alice, bob, subscribe, endpoint
):
    subscribe(alice, "/alice"), subscribe(bob, "/bob")
    game = make_game([alice, "easy", bob], seed=9, turn_seconds=DAY)
    game = play_to_a_persons_turn_after_a_discard(game, {alice.pk: alice, bob.pk: bob})
    events.your_turn(game.pk)
    events.announce_turn.call(game.pk)  # the worker's half, twice: still one notice
    to_move = game.seats.get(index=game.turn_seat).user
    state = moves.game_state(game)
    move = bots.choose("greedy", seat_view(state, state.turn), random.Random(1))
    moves.submit_move(game.pk, to_move, move.to_dict())  # played from the page meanwhile

    run_worker()

    assert endpoint.received == []
    assert Notice.objects.get().why == "stale"


def _card(code: str) -> int:
    from games.engine.cards import parse_card

    return parse_card(code)


UNSUBSCRIBE = re.compile(r"/notifications/unsubscribe/[^/\s>]+/")


class Sent:
    """Everything told so far, each text read once: pushes as the phone decrypts them,
    emails (subject, body, headers), and the notices' stored facts."""

    def __init__(self, endpoint, phones) -> None:
        self.endpoint, self.phones = endpoint, phones
        self.pushes = self.emails = self.notices = 0

    def new(self) -> list[str]:
        pushes = self.endpoint.received[self.pushes :]
        emails = mail.outbox[self.emails :]
        notices = list(Notice.objects.order_by("pk")[self.notices :])
        self.pushes += len(pushes)
        self.emails += len(emails)
        self.notices += len(notices)
        texts = [str(self.phones[r.path].read(r)) for r in pushes]
        texts += [str(n.facts) for n in notices]
        for e in emails:
            # The link's signed token is random-looking text, read apart below.
            for token in UNSUBSCRIBE.findall(e.body):
                assert set(signing.loads(token.split("/")[-2], salt=mail_salt())) == {"u", "k"}
            texts.append(UNSUBSCRIBE.sub("/…/", f"{e.subject}\n{e.body}\n{e.extra_headers}"))
        return texts


def mail_salt() -> str:
    from games.notifications.mail import SALT

    return SALT


# Seeds as long as real ones (128 bits): a short one would be found in any number.
@pytest.mark.parametrize("seed", [2**127 + 21, 2**127 + 22, 2**127 + 23])
def test_no_push_email_or_stored_notice_ever_holds_a_hidden_card_or_the_seed(
    make_game, alice, bob, subscribe, endpoint, seed
):
    # alice has push, bob email only: both ways are read at every person's turn of a
    # waiting table played to its end, each against the cards hidden at that moment.
    sent = Sent(endpoint, {"/alice": subscribe(alice, "/alice")})
    game = make_game([alice, "easy", bob], seed=seed, turn_seconds=DAY)
    people = {alice.pk: alice, bob.pk: bob}
    found, rng = [], random.Random(seed)
    while game.status == Game.Status.PLAYING:
        state = moves.game_state(game)
        seat = game.seats.get(index=state.turn)
        events.announce_turn.call(game.pk)
        for notice in Notice.objects.filter(status="queued"):
            delivery.deliver_now(notice.pk, timezone.now())
        hidden = hidden_cards(state, None)  # every hand and the stock
        found += [leak for text in sent.new() for leak in leaks(text, hidden, game.seed)]
        move = bots.choose("greedy", seat_view(state, state.turn), rng)
        if seat.user_id:
            moves.submit_move(game.pk, people[seat.user_id], move.to_dict())
        else:
            server_moves.play_due(game.pk, now=timezone.now() + timedelta(days=2))
        game.refresh_from_db()
    run_worker()  # the game's end, to both

    assert found == []
    assert Notice.objects.filter(kind="your_turn", status="sent").count() >= 4
    ended = sent.new()
    assert len([t for t in ended if "ended" in t]) == 2
    assert not [leak for t in ended for leak in leaks(t, set(range(52)), game.seed)]
