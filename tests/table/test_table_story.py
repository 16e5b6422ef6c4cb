"""What the table tells about the game so far (issue 8): the move list and each seat's last
turn, told from each seat's own side; why a seat is blocked (R5); the whole discard pile;
the result with every seat's melds and what earned each payment term (R10). None of it
names a card that the seat may not see: the card Bob draws (Q♥) and Alice's secret set.

The deal is fixed by hand, so the story is known:

    Alice (dealer)  7S 8S 9S  5H 5D 5C 5S  AC 2C 3C  AD AS  KC
    Bob             TS 6C 2D 3H 4S 9C 9D JH QS KD 8C 7D
    Carol           6H 6D 2H 3S 4C 8D 8H JC QC KH TH TC
    stock           QH AH …

    1-3  Alice melds 7S 8S 9S, lays 5s as a secret set, discards KC
    4-6  Bob draws (QH), lays off TS on Alice's run (R5: Alice is blocked), discards 6C
    7-8  Carol takes 6C with 6H 6D, discards KH
    9-11 Alice draws (AH), melds AC 2C 3C, melds AD AS AH: Tongits (R3)
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game
from games.play import moves
from games.play.live import snapshots
from tests.table.leaks import hidden_cards, leaks
from tests.table.story import BLOCKED, MOVES, deal_as_scripted, play
from tests.table.support import SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(alice, bob, carol):
    return [alice, bob, carol]


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-123!")


@pytest.fixture
def scripted(make_game, people) -> Game:
    """The three people at the deal above (Alice deals)."""
    return deal_as_scripted(make_game(people, seed=SEED))


def page(client, user, game: Game) -> str:
    client.force_login(user)
    return client.get(reverse("table", args=[game.pk])).content.decode()


BLOCK_TAGS = re.compile(
    r"<(/?(li|p|div|h\d|ul|ol|section|details|summary)\b|span class=\"(card|chip)\b)[^>]*>"
)


def text(fragment: str) -> str:
    """What a person reads: the explanations of terms, and tags, dropped; a space where a
    block or a card begins; entities and spaces made plain."""
    fragment = re.sub(r'<span class="term-tip".*?</span>', "", fragment, flags=re.S)
    fragment = re.sub(r"<[^>]+>", "", BLOCK_TAGS.sub(" ", fragment))
    return " ".join(html.unescape(fragment).split()).replace(" ,", ",")


def move_lines(page_html: str) -> list[str]:
    return [text(li) for li in re.findall(r'<li class="move-line[^"]*"[^>]*>.*?</li>', page_html)]


def panel_of(page_html: str, name: str) -> str:
    panels = re.findall(
        r'<li class="seat-panel.*?</li>\s*(?=<li class="seat-panel|</ul>)', page_html, re.S
    )
    return text(next(p for p in panels if f'<h2 class="seat-name">{name}' in p))


def test_each_seat_reads_every_turn_from_its_own_side(client, scripted, people):
    play(scripted, people, BLOCKED)

    assert move_lines(page(client, people[0], scripted)) == [
        "You melded 7♠ 8♠ 9♠, laid a secret set and discarded K♣",
        "bob drew, laid off 10♠ on your run and discarded 6♣",
        "carol took 6♣ and melded 6♣ 6♦ 6♥, then discarded K♥",
    ]
    assert move_lines(page(client, people[1], scripted)) == [
        "alice melded 7♠ 8♠ 9♠, laid a secret set and discarded K♣",
        "You drew, laid off 10♠ on alice's run and discarded 6♣",
        "carol took 6♣ and melded 6♣ 6♦ 6♥, then discarded K♥",
    ]


def test_each_opponents_panel_says_what_it_did_last(client, scripted, people):
    play(scripted, people, BLOCKED)

    shown = page(client, people[2], scripted)

    assert "melded 7♠ 8♠ 9♠, laid a secret set and discarded K♣" in panel_of(shown, "alice")
    assert "drew, laid off 10♠ on alice's run and discarded 6♣" in panel_of(shown, "bob")
    # The dealer's badge is among the badges, not in the name, which a phone cuts short.
    assert '<h2 class="seat-name">alice</h2>' in shown
    assert panel_of(shown, "alice").startswith("alice 5 cards dealer opened")
    assert "You took 6♣ and melded 6♣ 6♦ 6♥, then discarded K♥" in text(shown)  # in the hand


def test_a_blocked_seat_is_told_who_blocked_it_and_so_are_the_others(client, scripted, people):
    # R5: Bob laid off on Alice's run, so Alice may not call Draw on her next turn.
    play(scripted, people, BLOCKED)

    assert "bob laid off on your meld: you may not call Draw this turn." in text(
        page(client, people[0], scripted)
    )
    assert "bob laid off on their meld: no Draw call this turn." in panel_of(
        page(client, people[2], scripted), "alice"
    )
    assert 'value="call"' not in page(client, people[0], scripted)


def test_the_discard_pile_opens_to_every_card_in_it_the_top_last(client, scripted, people):
    play(scripted, people, BLOCKED)  # K♣, then 6♣ (taken by Carol), then K♥

    shown = page(client, people[1], scripted)

    pile = re.search(r'<details class="discard-pile" id="discard-pile">.*?</details>', shown, re.S)
    assert pile, "no discard pile to open"
    assert re.findall(r'data-card="(\w\w)"', pile.group()) == ["KC", "KH"]
    assert "See the whole discard pile (2)" in text(pile.group())


def test_no_page_names_a_card_its_seat_may_not_see_at_any_move(client, scripted, people, dave):
    # The card Bob draws (Q♥) is Bob's alone; the secret set's cards are nobody's to read
    # until the end; Alice's own draw (A♥) is hers until she melds it.
    for upto in range(len(MOVES)):
        game = play(scripted, people, upto)
        state = moves.game_state(game)
        for seat, user in [*enumerate(people), (None, dave)]:
            shown = page(client, user, game)
            assert leaks(shown, hidden_cards(state, seat), game.seed) == [], (seat, upto)


def test_nobody_is_told_which_card_was_drawn_not_even_the_drawer(client, scripted, people):
    play(scripted, people, 6)  # Bob has drawn Q♥ and moved on

    for user in people:
        lines = move_lines(page(client, user, scripted))
        assert not any("Q♥" in line for line in lines), lines


def test_the_result_puts_the_winner_first_with_every_melds_and_what_each_term_is_for(
    client, scripted, people
):
    # R10: Tongits pays a base of 3; four aces in Alice's melds +4; one secret set +3;
    # Bob never opened (a lay-off does not open, R6): burned, +1.
    game = play(scripted, people, len(MOVES))
    assert game.status == Game.Status.FINISHED

    shown = page(client, people[1], game)
    result = re.search(r'<section id="table-result".*?</section>', shown, re.S).group()
    rows = re.findall(
        r'<li class="result-row.*?</li>\s*(?=<li class="result-row|</ul>)', result, re.S
    )

    assert "is-winner" in rows[0] and "alice" in text(rows[0])
    winner_melds = re.search(r'class="result-melds".*?</div>', rows[0], re.S).group()
    assert re.findall(r'data-card="(\w\w)"', winner_melds) == [
        "7S", "8S", "9S", "TS", "5C", "5D", "5H", "5S", "AC", "2C", "3C", "AD", "AH", "AS",
    ]  # fmt: skip
    said = text(result)
    assert "bob pays alice 11 chips" in said and "carol pays alice 10 chips" in said
    assert "base 3: a win by Tongits" in said
    assert "aces +4: A♣ A♦ A♥ A♠" in said
    assert "secret sets +3: four 5s laid as a secret set" in said
    assert "burned +1: bob never opened" in said
    assert said.count("burned +1") == 1  # Carol opened when she took the discard


def test_a_socket_frame_after_a_move_sends_the_newest_turns_not_the_whole_list(scripted, people):
    from games.table import rendering

    table = rendering.load_table(play(scripted, people, 3).pk, people[1])
    before = rendering.socket_parts(table)
    table = rendering.load_table(play(scripted, people, 4).pk, people[1])
    after = rendering.socket_parts(table)

    changed = {name for name in after if after[name][1] != before[name][1]}
    assert "moves-tail" in changed and "moves-head" not in changed
    assert "bob drew" not in text(after["moves-tail"][0])  # Bob's own board says "You"
    assert "You drew" in text(after["moves-tail"][0])


def test_the_journal_grown_move_by_move_equals_one_told_from_a_replay(
    scripted, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # each move keeps its snapshot
        game = play(scripted, people, len(MOVES))
    grown = snapshots.cached(game.pk).position.journal

    snapshots.forget()
    replayed = snapshots.fresh(game.pk).position.journal

    assert grown == replayed and len(grown) == len(MOVES)
    drawn = [e for e in grown if e.type == "draw"]
    secret = next(e for e in grown if e.type == "secret")
    assert [e.cards for e in drawn] == [0, 0] and secret.cards == 0  # never a hidden card


def test_the_result_offers_the_coachs_review_of_the_game_beside_play_again(
    client, scripted, people
):
    game = play(scripted, people, len(MOVES))

    result = re.search(
        r'<section id="table-result".*?</section>', page(client, people[0], game), re.S
    )
    actions = re.search(r'<div class="result-actions">.*?</div>', result.group(), re.S).group()
    assert "Play again" in actions
    assert (
        f'href="{reverse("replay", args=[game.pk])}"' in actions and "Review this game" in actions
    )


def test_after_a_draw_the_result_says_who_called_it_and_how_each_seat_answered():
    # R7: each other seat folds or fights; one that has not opened is folded for, unlogged.
    from games.table.story import how_it_ended
    from games.words.narration import Entry

    names = ["ann", "ben", "cat"]
    fought = [Entry(0, "draw"), Entry(1, "call"), Entry(2, "fold"), Entry(0, "fight")]
    assert how_it_ended(fought, "fought_draw", names) == "ben called Draw. cat folded. ann fought."
    unfought = [Entry(2, "call"), Entry(0, "fold")]
    assert how_it_ended(unfought, "draw", names) == (
        "cat called Draw. ann folded. ben folded, not having opened."
    )
    assert how_it_ended(fought, "tongits", names) == ""  # the headline says it whole
