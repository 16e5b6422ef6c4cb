"""Puzzles from real games (issue 51): mined from finished games whose people allowed it,
twice judged by the coach, shown as the seat's own view only, answered with a rating per
person and per puzzle (openskill) that moves with every first answer, and made idempotently
by ``manage.py make_puzzles`` in the background."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from accounts.models import Profile
from games.analysis.coach import evaluate
from games.engine import Move, apply
from games.engine.cards import code, label, short
from games.models import Game
from games.puzzles import mining, services, shipped
from games.puzzles.models import Attempt, MinedGame, Puzzle, PuzzleRating
from games.puzzles.positions import cards_in_view, view_dict, view_of
from tests.history_support import finish

pytestmark = pytest.mark.django_db

# The coach's budget for tests: its behaviour, not its precision (as tests/test_analysis.py).
QUICK = {
    "first_worlds": 4, "worlds": 16, "finalists": 2, "max_worlds": 32, "mark_worlds": 16,
    "finalist_worlds": 32, "give_up_worlds": 32,
}  # fmt: skip
SEED = 7  # a deal whose game gives a puzzle with the quick budget


@pytest.fixture(autouse=True)
def a_quick_coach(settings):
    settings.TONGITS_COACH_BUDGET = QUICK


def mined_game(make_game, alice, bob, seed: int = SEED) -> Game:
    game = finish(make_game([alice, "easy", bob], seed=seed))
    Puzzle.objects.filter(game__isnull=True).delete()  # only this game's puzzles, below
    services.mine_game(game.pk)
    return game


def state_before(game: Game, seq: int):
    record = game.record()
    state = record.initial_state()
    for raw in record.moves[: seq - 1]:
        state = apply(state, raw if isinstance(raw, Move) else Move.from_dict(raw))
    return state


def test_a_finished_game_is_mined_into_puzzles_the_coach_judged_twice(make_game, alice, bob):
    game = mined_game(make_game, alice, bob)
    puzzles = list(Puzzle.objects.filter(game=game))
    assert puzzles, "the deal gives puzzles"
    assert MinedGame.objects.get(game=game).puzzles == len(puzzles)
    for p in puzzles:
        assert p.key == f"game/{game.pk}/{p.seq}"
        state = state_before(game, p.seq)
        view = view_of(p.view)
        assert p.view == view_dict(view)  # the stored view made again, exactly
        assert p.answer != p.played and p.mark
        # The coach's two judgements, again from the stored view alone: the same best move,
        # its loss's interval clear of the mark's line (no close call).
        budget = mining.puzzle_budget(services.site_budget())
        for salt in (mining.FIRST_SALT, mining.RECHECK_SALT):
            e = evaluate(view, Move.from_dict(p.played), p.seq, budget, salt)
            assert e.best == Move.from_dict(p.answer) and e.mark and not e.close
        assert state.turn == p.view["seat"] or state.phase.name == "ANSWER"
        assert p.theme in {"draw", "fold", "take", "discard", "layoff", "meld"}


def test_a_game_whose_person_did_not_allow_it_makes_no_puzzle(make_game, alice, bob):
    Profile.objects.update_or_create(user=bob, defaults={"puzzles_allowed": False})
    game = mined_game(make_game, alice, bob)
    assert not Puzzle.objects.filter(game=game).exists()
    assert MinedGame.objects.filter(game=game).exists()  # asked once, not asked again


def test_new_accounts_let_their_games_become_puzzles_and_may_say_no(client, alice):
    assert Profile.for_user(alice).puzzles_allowed
    client.force_login(alice)
    page = client.get(reverse("settings")).content.decode()
    assert "Let my games become puzzles" in page
    client.post(reverse("settings"), {"display_name": "", "puzzles_allowed": ""})
    assert not Profile.for_user(alice).puzzles_allowed


def test_the_puzzle_page_and_its_json_send_nothing_outside_the_seats_view(
    make_game, client, alice, bob, carol
):
    game = mined_game(make_game, alice, bob)
    client.force_login(carol)
    for p in Puzzle.objects.filter(game=game):
        state = state_before(game, p.seq)
        me = p.view["seat"]
        hidden = set(state.stock[state.stock_pos :]) | {
            c for s in range(3) if s != me for c in range(52) if state.hands[s] >> c & 1
        }
        hidden |= {c for m in state.melds if m.secret for c in range(52) if m.cards >> c & 1}
        hidden -= {c for c in range(52) if state.hands[me] >> c & 1}
        assert hidden
        page = client.get(reverse("puzzle", args=[p.pk])).content.decode()
        sent = client.get(reverse("puzzle_json", args=[p.pk])).content.decode()
        shown = cards_in_view(p.view)
        assert set(re.findall(r'data-card="(\w\w)"', page)) <= shown
        assert set(re.findall(r'"([2-9TJQKA][CDHS])"', sent)) <= shown
        for card in hidden:
            assert code(card) not in shown
            assert f'"{code(card)}"' not in page and f'"{code(card)}"' not in sent
            assert label(card) not in page and short(card) not in page
            assert short(card) not in sent
        # Nor the game's commitment (its seed, "7" here, is too short to look for), its
        # number in a link, or its people's names.
        for secret in (game.commitment, alice.username, bob.username, f"/games/{game.pk}/"):
            assert secret and secret not in page and secret not in sent
        # Before an answer: neither the answer nor the move played nor the why.
        assert "Better:" not in page and "is-right" not in page
        assert "answer" not in json.loads(sent) and "played" not in json.loads(sent)


@pytest.mark.django_db(transaction=True)
def test_make_puzzles_mines_each_game_once_in_the_background(make_game, alice, bob):
    game = finish(make_game([alice, "easy", bob], seed=SEED))
    out = io.StringIO()
    call_command("make_puzzles", stdout=out)
    assert "1 games queued" in out.getvalue()
    tasks = DBTaskResult.objects.filter(task_path="games.puzzles.tasks.mine_game")
    assert tasks.count() == 1
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip
    made = set(Puzzle.objects.filter(game=game).values_list("key", flat=True))
    assert made and MinedGame.objects.get(game=game).puzzles == len(made)

    again = io.StringIO()
    call_command("make_puzzles", stdout=again)
    assert "0 games queued" in again.getvalue()
    # Mining the same game again, by a worker that missed the first, changes nothing.
    MinedGame.objects.filter(game=game).delete()
    call_command("make_puzzles", "--here", stdout=io.StringIO())
    assert set(Puzzle.objects.filter(game=game).values_list("key", flat=True)) == made
    assert Puzzle.objects.filter(game=game).count() == len(made)


@pytest.fixture(autouse=True)
def shipped_puzzles(db):
    """The shipped puzzles (the migration loads them; a test that flushed the database
    took them away)."""
    shipped.load(Puzzle)


def answer(client, puzzle: Puzzle, right: bool) -> str:
    legal = puzzle.view["legal"]
    index = next(i for i, m in enumerate(legal) if services.is_right(puzzle, m) == right)
    return client.post(reverse("puzzle", args=[puzzle.pk]), {"move": index}).content.decode()


def test_a_solve_and_a_fail_move_the_person_and_the_puzzle(client, alice):
    client.force_login(alice)
    first, second = Puzzle.objects.order_by("pk")[:2]
    assert first and second  # the shipped puzzles are there from the migration

    page = answer(client, first, right=True)
    mine = PuzzleRating.objects.get(user=alice)
    first_after = Puzzle.objects.get(pk=first.pk)
    assert "Right!" in page and "Better:" in page
    assert mine.mu > first.mu and mine.solved == 1
    assert first_after.mu < first.mu and first_after.tries == first_after.solves == 1

    up = mine.mu
    page = answer(client, second, right=False)
    mine.refresh_from_db()
    second_after = Puzzle.objects.get(pk=second.pk)
    assert "Not this time." in page
    assert mine.mu < up and mine.failed == 1
    assert second_after.mu > second.mu and second_after.solves == 0

    # A second try of the same puzzle is not rated again.
    answer(client, second, right=True)
    assert PuzzleRating.objects.get(user=alice).mu == mine.mu
    assert Attempt.objects.filter(user=alice).count() == 2


def test_a_move_the_position_does_not_have_is_refused_and_changes_nothing(client, alice):
    client.force_login(alice)
    puzzle = Puzzle.objects.order_by("pk").first()
    for bad in ("", "x", "-1", str(len(puzzle.view["legal"]))):
        response = client.post(reverse("puzzle", args=[puzzle.pk]), {"move": bad})
        assert response.status_code == 400
        assert "Choose one of the moves below." in response.content.decode()
    assert not Attempt.objects.exists() and not PuzzleRating.objects.filter(user=alice).exists()


def test_the_next_puzzle_is_near_the_persons_rating(alice):
    PuzzleRating.objects.create(user=alice, mu=40.0)
    Puzzle.objects.filter(pk__in=Puzzle.objects.order_by("pk").values("pk")[:3]).update(mu=40.0)
    near = set(Puzzle.objects.filter(mu=40.0).values_list("pk", flat=True))
    assert len(near) == 3
    services_near = services.NEAR
    try:
        services.NEAR = 3
        assert services.next_puzzle(alice, []).pk in near
    finally:
        services.NEAR = services_near


def test_streak_mode_counts_solves_until_a_miss(client, alice):
    client.force_login(alice)
    client.get(reverse("puzzles") + "?streak=1")
    for _ in range(2):
        shown = client.get(reverse("puzzles"))
        puzzle = Puzzle.objects.get(pk=int(shown["Location"].strip("/").split("/")[-1]))
        page = answer(client, puzzle, right=True)
    assert re.search(r'id="puzzle-streak">2<', page)
    puzzle = Puzzle.objects.get(pk=int(client.get(reverse("puzzles"))["Location"].split("/")[-2]))
    page = answer(client, puzzle, right=False)
    assert "Your streak ends at 2 puzzles." in page
    assert PuzzleRating.objects.get(user=alice).best_streak == 2


def test_nothing_is_left_in_english_on_a_puzzle_page_in_filipino(client):
    from tests.test_languages import untranslated

    puzzle = Puzzle.objects.order_by("pk").first()
    left = untranslated(client, reverse("puzzle", args=[puzzle.pk]))
    # Card names ("K♣", "Meld J♥ Q♥ K♥" reads "Mag-meld …") and the rating's number.
    assert {t for t in left if not re.fullmatch(r"(10|[2-9JQKA])[♣♦♥♠]", t)} == set()


def test_a_puzzles_theme_comes_from_the_two_moves_types():
    from games.engine import new_game, seat_view
    from games.puzzles.positions import theme

    view = seat_view(new_game(3), new_game(3).turn)
    me = view.seat
    pairs = {
        ("call", "draw"): "draw",
        ("fold", "fight"): "fold",
        ("take", "draw"): "take",
        ("discard", "discard"): "discard",
        ("meld", "discard"): "meld",
    }
    for (best, played), expected in pairs.items():
        a, b = Move(best, me, 1 if best == "discard" else 0), Move(played, me, 2)
        assert theme(view, a, b) == expected


def test_the_second_judgement_stops_early_only_to_reject():
    """``evaluate(..., want=best)`` (a puzzle's second judgement) gives the very verdict it
    gives without, when the move wanted wins; when it does not, it names another best."""
    from dataclasses import replace

    from games.analysis.coach import DEFAULT_BUDGET

    budget = replace(DEFAULT_BUDGET, **QUICK)
    judged = 0
    for view, move, seq in mining.bot_game(1000):
        if len(view.legal) < 3:
            continue
        full = evaluate(view, move, seq, budget, mining.RECHECK_SALT)
        assert evaluate(view, move, seq, budget, mining.RECHECK_SALT, want=full.best) == full
        other = next(m for m in view.legal if m not in (full.best, move))
        cut = evaluate(view, move, seq, budget, mining.RECHECK_SALT, want=other)
        assert cut.best != other and cut.worlds <= full.worlds
        judged += 1
        if judged == 4:
            break
    assert judged == 4
