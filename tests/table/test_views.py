"""The table page, its POST fallback for actions, and play again."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.engine import Phase, seat_view
from games.engine.cards import CODES, by_rank, cards_of, codes_of
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.play import aborts, after_game, moves, tables
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import SEED, fields, first_legal, play_to_the_end, seq_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


def page(client, user, game: Game):
    client.force_login(user)
    return client.get(reverse("table", args=[game.pk]))


def test_a_player_sees_their_own_hand_and_the_commitment_but_not_the_seed(
    client, alice, three_people
):
    html = page(client, alice, three_people).content.decode()

    state = moves.game_state(three_people)
    assert 'ws-connect="/ws/game/' in html and "js/table.js" in html
    assert html.count('name="cards"') == state.hands[0].bit_count()
    assert three_people.commitment in html
    assert leaks(html, hidden_cards(state, 0), three_people.seed) == []


def test_no_page_shows_a_seat_anything_hidden_at_any_point_of_a_game(
    client, alice, bob, carol, three_people
):
    people = [alice, bob, carol]
    game = three_people
    while not game.is_over:
        state = moves.game_state(game)
        for seat, user in enumerate(people):
            html = page(client, user, game).content.decode()
            assert leaks(html, hidden_cards(state, seat), game.seed) == [], (seat, game.seq)
        seat, move = first_legal(game)
        moves.submit_move(game.pk, people[seat], move.to_dict())
        game.refresh_from_db()


def test_the_table_pages_context_holds_no_game_object_only_what_the_seat_may_see(
    client, alice, three_people
):
    """The page's template context (the board's, and what the view adds for the people
    menu, the chat drawer and the ratings line from the snapshot) holds flags, names and
    faces: never the snapshot, its position, a state, a seat view or the Game, which
    hold every hand."""
    from games.engine import SeatView
    from games.engine.state import GameState
    from games.play.live.snapshots import Position, Snapshot

    response = page(client, alice, three_people)
    forbidden = (Snapshot, Position, GameState, SeatView, Game)

    def found(value, depth=0):
        if isinstance(value, forbidden):
            return True
        if depth < 3 and isinstance(value, dict):
            return any(found(v, depth + 1) for v in value.values())
        if depth < 3 and isinstance(value, list | tuple):
            return any(found(v, depth + 1) for v in value)
        return False

    names = {"table_people", "chat_table", "table_rated", "seat_ratings", "tournament"}
    for context in response.context:
        for name, value in context.flatten().items():
            assert not found(value), name
            names.discard(name)
    assert not names, names  # each was looked at
    assert response.context["chat_table"] == {"public": True, "seated": True}
    assert sorted(n for _, n in response.context["table_people"]) == ["alice", "bob", "carol"]


def test_an_away_seats_turn_clock_counts_down_as_anyones(client, alice, bob, carol, three_people):
    """The server plays an away seat's turn when its clock runs out, not at a bot's pace:
    the table shows that clock, not a bot "thinking"."""
    game = three_people
    Seat.objects.filter(game=game, index=game.turn_seat).update(away=True)
    watcher = [alice, bob, carol][(game.turn_seat + 1) % 3]
    html = page(client, watcher, game).content.decode()
    assert 'badge warn">away' in html
    assert f'data-deadline="{game.due_at.isoformat()}"' in html
    assert "clock thinking" not in html


def test_a_spectator_on_a_public_table_sees_the_table_but_no_hand(client, dave, three_people):
    response = page(client, dave, three_people)

    html = response.content.decode()
    assert response.status_code == 200
    assert "You are watching this table." in html and 'name="cards"' not in html
    state = moves.game_state(three_people)
    assert leaks(html, hidden_cards(state, None), three_people.seed) == []


def test_a_private_table_is_forbidden_to_a_non_member(client, alice, bob, carol, dave, make_game):
    game = make_game([alice, bob, carol], seed=SEED, public=False)

    assert page(client, dave, game).status_code == 403


def test_a_private_table_asks_an_anonymous_visitor_to_log_in(client, alice, bob, carol, make_game):
    # A public table or a game of bots anyone may watch (tests/test_watching.py).
    private = make_game([alice, bob, carol], seed=SEED, public=False)
    response = client.get(reverse("table", args=[private.pk]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_table_that_does_not_exist_is_not_found(client, alice):
    client.force_login(alice)

    assert client.get(reverse("table", args=[424242])).status_code == 404


def test_a_waiting_table_shows_who_is_missing_and_the_invite_link_to_its_players(
    client, alice, dave
):
    game = tables.create_table(alice, public=True, others=("open", "greedy"))

    html = page(client, alice, game).content.decode()
    spectator = page(client, dave, game).content.decode()

    # Said once on the screen (the bar), and once for a screen reader (its live region).
    assert html.count("Waiting for 1 more player to sit down.") == 2
    assert html.count('class="visually-hidden" aria-live') == 1
    assert "Open seat" in html and "Greedy bot 3" in html
    assert f"http://testserver/invite/{game.invite_token}/" in html
    assert game.invite_token not in spectator


def test_posting_a_legal_action_makes_the_move_and_redirects_to_the_table(
    client, alice, bob, carol, three_people
):
    people = [alice, bob, carol]
    seat, move = first_legal(three_people)
    client.force_login(people[seat])

    response = client.post(reverse("act", args=[three_people.pk]), fields(move, seq="0"))

    assert response.status_code == 302 and response["Location"] == f"/games/{three_people.pk}/"
    assert MoveRow.objects.filter(game=three_people).count() == 1


def test_posting_an_illegal_action_changes_nothing_and_says_why(
    client, alice, bob, carol, three_people
):
    dealer = [alice, bob, carol][three_people.dealer]
    client.force_login(dealer)

    response = client.post(reverse("act", args=[three_people.pk]), {"action": "draw"}, follow=True)

    assert "Draw only at the start of a turn" in response.content.decode()
    assert MoveRow.objects.filter(game=three_people).count() == 0


def test_an_htmx_post_gets_the_board_back_with_the_message(client, alice, bob, carol, three_people):
    dealer = [alice, bob, carol][three_people.dealer]
    client.force_login(dealer)
    url = reverse("act", args=[three_people.pk])

    html = client.post(url, {"action": "meld"}, headers={"HX-Request": "true"}).content.decode()

    assert seq_of(html) == 0 and 'hx-swap-oob="true"' in html
    assert "Choose the cards to meld first." in html and 'role="alert"' in html
    assert "<html" not in html
    state = moves.game_state(three_people)
    assert leaks(html, hidden_cards(state, three_people.dealer), three_people.seed) == []


def test_the_hand_is_by_suit_then_rank_and_css_can_reorder_it_by_rank(client, alice, three_people):
    html = page(client, alice, three_people).content.decode()

    shown = re.findall(r'<li style="--by-rank: (\d+)"><label [^>]*data-card="(\w\w)"', html)
    hand = cards_of(moves.game_state(three_people).hands[0])
    assert [code for _, code in shown] == [CODES[c] for c in hand]
    by_rank_order = sorted(shown, key=lambda item: int(item[0]))
    assert [code for _, code in by_rank_order] == [CODES[c] for c in by_rank(hand)]


def test_a_repeated_post_of_the_same_form_is_applied_once(client, alice, bob, carol, three_people):
    people = [alice, bob, carol]
    seat, move = first_legal(three_people)
    client.force_login(people[seat])
    data = fields(move, seq="0", client_move_id="a1b2c3")

    client.post(reverse("act", args=[three_people.pk]), data)
    client.post(reverse("act", args=[three_people.pk]), data)

    assert MoveRow.objects.filter(game=three_people).count() == 1


def test_the_result_shows_every_hand_the_payments_and_the_revealed_seed(
    client, alice, bob, carol, three_people
):
    game = play_to_the_end(three_people, [alice, bob, carol])

    html = page(client, bob, game).content.decode()

    assert "Payments" in html and "base " in html and "Play again" in html
    assert game.seed in html and game.commitment in html
    state = moves.game_state(game)
    for seat in range(3):
        for card in codes_of(state.hands[seat]):
            assert f'data-card="{card}"' in html
        assert f"{state.outcome.points[seat]} point" in html


def test_play_again_after_a_game_with_two_bots_deals_a_new_one(client, alice, make_game):
    game = make_game([alice, "greedy", "random"], seed=SEED, public=False)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client.force_login(alice)

    response = client.post(reverse("play_again", args=[game.pk]))

    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/games/{new.pk}/"
    assert new.status == Game.Status.PLAYING and not new.public
    assert [s.bot_kind for s in new.seats.order_by("index")] == ["", "greedy", "random"]


def test_play_again_with_people_opens_a_waiting_table_with_the_same_bots(
    client, alice, bob, make_game
):
    game = make_game([alice, bob, "greedy"], seed=SEED)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client.force_login(bob)

    response = client.post(reverse("play_again", args=[game.pk]), headers={"HX-Request": "true"})

    new = Game.objects.exclude(pk=game.pk).get()
    assert response["HX-Redirect"] == f"/games/{new.pk}/"
    assert new.status == Game.Status.WAITING
    seats = [(s.user_id, s.bot_kind) for s in new.seats.order_by("index")]
    assert seats == [(bob.pk, ""), (None, "greedy"), (None, "")]


def test_play_again_is_only_for_the_players_of_a_finished_game(client, alice, dave, three_people):
    client.force_login(dave)
    assert client.post(reverse("play_again", args=[three_people.pk])).status_code == 403

    client.force_login(alice)
    client.post(reverse("play_again", args=[three_people.pk]))
    assert Game.objects.count() == 1


def test_the_other_players_get_a_button_to_join_the_next_game_and_then_a_link_to_it(
    client, alice, bob, carol, make_game
):
    game = play_to_the_end(
        make_game([alice, bob, carol], seed=SEED, public=False), [alice, bob, carol]
    )
    following = after_game.play_again(game.pk, alice)
    again = reverse("play_again", args=[game.pk])

    html = page(client, bob, game).content.decode()
    assert "Join the next game" in html and f'action="{again}"' in html
    assert following.invite_token not in html  # the button needs no invite link

    response = client.post(again, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == f"/games/{following.pk}/"
    html = page(client, bob, game).content.decode()
    assert "Go to the next game" in html and f'href="/games/{following.pk}/"' in html
    assert "Join the next game" not in html and "Play again" not in html


def test_a_player_left_out_of_a_dealt_next_game_is_told_so(client, alice, bob, carol, make_game):
    game = play_to_the_end(make_game([alice, bob, carol], seed=SEED), [alice, bob, carol])
    following = after_game.play_again(game.pk, alice)
    for user in (bob, get_user_model().objects.create_user("erin", "e@example.com", "pw")):
        tables.join_table(following.pk, user)
    assert not following.seats.filter(user=carol).exists()

    html = page(client, carol, game).content.decode()

    assert "The next game was dealt without you." in html and "Join the next game" not in html
    response = client.post(reverse("play_again", args=[game.pk]))
    assert response["Location"] == f"/games/{game.pk}/"


def test_a_spectator_of_a_public_table_may_watch_its_next_game(
    client, alice, bob, carol, dave, make_game
):
    game = play_to_the_end(make_game([alice, bob, carol], seed=SEED), [alice, bob, carol])
    html = page(client, dave, game).content.decode()
    assert "Play again" not in html and "next game" not in html
    following = after_game.play_again(game.pk, alice)

    html = page(client, dave, game).content.decode()

    assert "Watch the next game" in html and f'href="/games/{following.pk}/"' in html
    assert "Join the next game" not in html


def play_until(game: Game, people: list, wanted) -> int:
    """Play first legal moves until ``wanted(view)`` holds for the seat that must act."""
    while not game.is_over:
        seat, move = first_legal(game)
        if wanted(seat_view(moves.game_state(game), seat)):
            return seat
        moves.submit_move(game.pk, people[seat], move.to_dict())
        game.refresh_from_db()
    raise AssertionError("the game ended first")


def test_a_seat_that_may_lay_off_can_pick_a_face_up_meld_with_a_radio(
    client, alice, bob, carol, three_people
):
    people = [alice, bob, carol]
    seat = play_until(three_people, people, lambda v: any(m.type == "layoff" for m in v.legal))

    html = page(client, people[seat], three_people).content.decode()

    assert 'type="radio" name="meld"' in html and 'form="my-hand"' in html
    assert 'name="action" value="layoff"' in html
    assert ">Lay off</button>" in html and ">Discard</button>" in html
    assert ">Draw</button>" not in html
    # The hint under the buttons says how, not the button's label again (R5).
    assert '<p class="hint">To lay off, choose cards and a meld on the table.</p>' in html


def test_a_seat_that_may_take_the_discard_is_told_how(client, alice, bob, carol, three_people):
    people = [alice, bob, carol]
    seat = play_until(three_people, people, lambda v: any(m.type == "take" for m in v.legal))

    html = page(client, people[seat], three_people).content.decode()

    assert ">Take discard</button>" in html
    assert '<p class="hint">Tap the discard to take it with the cards it melds with.</p>' in html
    # The ways to take it, for a tap on the pile: each of the seat's own cards only (R3).
    takes = re.search(r'id="act-take" data-takes="([^"]*)"', html).group(1)
    view = seat_view(moves.game_state(three_people), seat)
    own = {CODES[c] for c in view.hand}
    assert takes and {c for way in takes.split("|") for c in way.split()} <= own


def test_a_draw_call_names_the_caller_and_asks_the_answering_seat_to_fold_or_fight(
    client, alice, bob, carol, three_people
):
    people = [alice, bob, carol]
    answering = play_until(three_people, people, lambda v: v.phase is Phase.ANSWER)
    caller = moves.game_state(three_people).caller

    mine = page(client, people[answering], three_people).content.decode()
    theirs = page(client, people[caller], three_people).content.decode()

    assert f"{people[caller].username} called Draw. Fold or fight?" in mine
    assert ">Fold</button>" in mine and ">Fight</button>" in mine
    assert f"You called Draw. Waiting for {people[answering].username} to fold or fight." in theirs
    assert ">Fold</button>" not in theirs


def test_an_aborted_game_says_so_and_reveals_its_seed(client, alice, bob, carol, three_people):
    aborts.abort_game(three_people.pk, alice, "The server room flooded.")
    three_people.refresh_from_db()

    html = page(client, bob, three_people).content.decode()

    assert "This game was called off: nobody wins or pays." in html
    assert three_people.seed in html
    assert 'name="action"' not in html


def test_a_quick_play_table_is_not_marked_private(client, alice):
    game = tables.quick_play(alice)
    client.force_login(alice)

    html = client.get(reverse("table", args=[game.pk])).content.decode()

    assert 'class="badge">private<' not in html


def test_a_private_table_for_people_is_marked_private(client, alice):
    game = tables.create_table(alice, public=False, others=("open", "greedy"))
    client.force_login(alice)

    html = client.get(reverse("table", args=[game.pk])).content.decode()

    badge = html.split('class="badge private-badge">', 1)[1].split("</span></span>", 1)[0]
    assert badge.endswith('<span class="badge-word">private')  # a lock beside it, on a phone alone


def test_a_private_tables_waiting_page_offers_its_invite_link_to_copy(client, alice):
    game = tables.create_table(alice, public=False, others=("open", "greedy"))
    client.force_login(alice)

    html = client.get(reverse("table", args=[game.pk])).content.decode()

    path = reverse("invite", args=[game.invite_token])
    assert f"http://testserver{path}" in html
    assert f'class="button button-secondary copy-link" data-copy="{path}">Copy link<' in html


def test_a_seats_page_and_its_boards_are_never_stored_by_a_browser_or_a_proxy(
    client, alice, make_game
):
    game = make_game([alice, "greedy", "greedy"])
    client.force_login(alice)

    page = client.get(reverse("table", args=[game.pk]))
    board = client.post(
        reverse("act", args=[game.pk]), {"action": "draw"}, headers={"HX-Request": "true"}
    )

    for response in (page, board):
        assert "no-store" in response["Cache-Control"]
        assert "private" in response["Cache-Control"]


def test_every_form_of_a_table_page_carries_one_token_and_it_is_accepted(alice, three_people):
    """The page makes its CSRF token once (tongits_site/csrf_once.py), not once a form:
    the htmx headers and every form carry the same token, and a form posts with it."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get(reverse("table", args=[three_people.pk])).content.decode()

    in_forms = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    in_headers = re.findall(r'"X-CSRFToken": "([^"]+)"', html)
    assert len(in_forms) >= 3 and len(in_headers) == 1
    assert set(in_forms) == set(in_headers)
    token = in_headers[0]
    switched = client.post(
        reverse("set_language"), {"language": "fil", "next": "/", "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302
    refused = Client(enforce_csrf_checks=True)
    refused.force_login(alice)
    assert (
        refused.post(reverse("set_language"), {"language": "fil", "next": "/"}).status_code == 403
    )
