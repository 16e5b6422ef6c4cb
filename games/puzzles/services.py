"""Puzzles on the site: mining a finished game, choosing a person's next puzzle, and an
answer (which moves both ratings once per person and puzzle).

Mined: a finished game that was played here (not uploaded), not voided, not a daily deal's
(its deal is everyone's that day), and whose every person allowed it (their profile's
"Let my games become puzzles"). Every seat's moves with a choice are judged (a bot's seat
too: its view is no one's secret once the game is over, and names no one). A game is
mined once (``MinedGame``); each puzzle's key is its game and move number, so mining the
same game twice, or two workers at once, makes each puzzle once.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F, Func, Q

from accounts.models import Profile
from games.analysis.analysis import moments, site_budget
from games.analysis.coach import Budget, Evaluation
from games.analysis.models import Analysis, MoveEvaluation
from games.engine import Move
from games.models import Game

from . import mining, rating
from .models import Attempt, MinedGame, Puzzle, PuzzleRating

log = logging.getLogger(__name__)
NEAR = 12  # a person's next puzzle is drawn from this many nearest their rating


# --- Mining -------------------------------------------------------------------------------


def minable() -> Q:
    """The finished games that may become puzzles (every person's consent is asked apart,
    ``allowed``)."""
    return Q(status=Game.Status.FINISHED, imported=False, voided_at__isnull=True, daily=False)


def allowed(game: Game) -> bool:
    """Whether every person who sat in ``game`` lets their games become puzzles."""
    people = [s.user_id for s in game.seats.all() if not s.is_bot and s.user_id]
    if not people:
        return True
    refused = Profile.objects.filter(user_id__in=people, puzzles_allowed=False)
    return not refused.exists()


def mine_game(game_id: int, budget: Budget | None = None) -> int:
    """Mine one finished game once; return how many puzzles it made (0 when it was mined
    before, is not minable, or its people did not allow it)."""
    game = Game.objects.filter(minable(), pk=game_id).first()
    if game is None or MinedGame.objects.filter(game_id=game_id).exists():
        return 0
    made, budget = 0, budget or site_budget()
    if allowed(game):
        judged = _stored_verdicts(game)
        for seq, view, move in moments(game.record(), {0, 1, 2}):
            if len(view.legal) < 2 or Puzzle.objects.filter(key=f"game/{game.pk}/{seq}").exists():
                continue
            found = mining.judge(view, move, seq, budget, first=judged.get(seq))
            if found is not None:
                made += store(found, f"game/{game.pk}/{seq}", game)
    try:
        MinedGame.objects.create(game=game, puzzles=made)
    except IntegrityError:
        pass  # another worker mined it at the same time: its puzzles are the same ones
    log.info("Game %s mined: %s puzzles.", game_id, made)
    return made


def _stored_verdicts(game: Game) -> dict[int, Evaluation]:
    """The coach's verdicts of the game's done analysis (judged with ``FIRST_SALT``), so
    the first judgement is not made twice."""
    done = Analysis.objects.filter(game=game, status=Analysis.Status.DONE).last()
    if done is None:
        return {}
    found = {}
    for e in MoveEvaluation.objects.filter(analysis=done):
        found[e.seq] = Evaluation(
            seq=e.seq, seat=e.seat, played=Move.from_dict(e.played), best=Move.from_dict(e.best),
            played_chips=e.played_chips, best_chips=e.best_chips, choices=e.choices,
            worlds=e.worlds, loss_low=e.loss_low, loss_high=e.loss_high, stake=e.stake,
            mark=e.mark, close=e.close, why=e.why,
        )  # fmt: skip
    return found


def store(found: mining.Found, key: str, game: Game | None = None) -> int:
    """Keep ``found`` as a puzzle under ``key``; 1 if made now, 0 if it was there."""
    _, made = Puzzle.objects.get_or_create(key=key, defaults=row(found, game))
    return int(made)


def row(found: mining.Found, game: Game | None = None) -> dict[str, Any]:
    return {
        "game": game, "seq": found.seq, "view": found.view, "played": found.played,
        "answer": found.answer, "also": found.also, "line": found.line, "theme": found.theme,
        "why": found.why, "mark": found.mark, "figures": found.figures,
    }  # fmt: skip


def games_to_mine(limit: int | None = None) -> list[int]:
    """The finished games not mined yet, oldest first."""
    ids = (
        Game.objects.filter(minable())
        .exclude(pk__in=MinedGame.objects.values("game_id"))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return list(ids[:limit] if limit else ids)


# --- Solving ------------------------------------------------------------------------------


class Distance(Func):
    function = "ABS"


def rating_of(user: AbstractBaseUser | AnonymousUser) -> PuzzleRating | None:
    if not user.is_authenticated:
        return None
    return PuzzleRating.objects.filter(user=user).first() or PuzzleRating(user=user)


def next_puzzle(
    user: AbstractBaseUser | AnonymousUser, seen: list[int], rng: random.Random | None = None
) -> Puzzle | None:
    """A puzzle near ``user``'s rating that they have not tried (nor seen, ``seen``: this
    visit's), one of the ``NEAR`` nearest at random; None when none is left."""
    mine = rating_of(user)
    mu = mine.mu if mine is not None else rating.MODEL.mu
    puzzles = Puzzle.objects.exclude(pk__in=seen)
    if user.is_authenticated:
        puzzles = puzzles.exclude(attempts__user=user)
    near = list(
        puzzles.annotate(distance=Distance(F("mu") - mu))
        .order_by("distance", "pk")
        .values_list("pk", flat=True)[:NEAR]
    )
    if not near:
        return None
    return Puzzle.objects.get(pk=(rng or random).choice(near))


@dataclass(frozen=True)
class Answer:
    solved: bool
    rated: bool  # the person's first try of this puzzle, and they are logged in
    before: int | None = None  # the person's rating shown, before and after
    after: int | None = None


def is_right(puzzle: Puzzle, move: dict[str, Any]) -> bool:
    chosen = Move.from_dict(move)
    return any(chosen == Move.from_dict(m) for m in [puzzle.answer, *puzzle.also])


def answer(user: AbstractBaseUser | AnonymousUser, puzzle: Puzzle, index: int) -> Answer:
    """Answer ``puzzle`` with its ``index``th legal move. Raises IndexError for a move the
    position does not have (nothing is changed)."""
    legal = puzzle.view["legal"]
    if not 0 <= index < len(legal):
        raise IndexError(index)
    move = legal[index]
    solved = is_right(puzzle, move)
    if not user.is_authenticated:
        return Answer(solved, rated=False)
    with transaction.atomic():
        mine, _ = PuzzleRating.objects.select_for_update().get_or_create(user=user)
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        if Attempt.objects.filter(user=user, puzzle=locked).exists():
            return Answer(solved, rated=False, before=rating.shown(mine.mu))
        (mu, sigma), (pmu, psigma) = rating.rate(
            (mine.mu, mine.sigma), (locked.mu, locked.sigma), solved
        )
        Attempt.objects.create(
            user=user, puzzle=locked, move=move, solved=solved, rating_before=mine.mu,
            rating_after=mu,
        )  # fmt: skip
        before = rating.shown(mine.mu)
        mine.mu, mine.sigma = mu, sigma
        mine.solved += int(solved)
        mine.failed += int(not solved)
        mine.save()
        Puzzle.objects.filter(pk=locked.pk).update(
            mu=pmu, sigma=psigma, tries=F("tries") + 1, solves=F("solves") + int(solved)
        )
    return Answer(solved, rated=True, before=before, after=rating.shown(mu))


def record_streak(user: AbstractBaseUser | AnonymousUser, streak: int) -> None:
    """Keep a person's best streak."""
    if user.is_authenticated and streak:
        mine, _ = PuzzleRating.objects.get_or_create(user=user)
        PuzzleRating.objects.filter(pk=mine.pk, best_streak__lt=streak).update(best_streak=streak)
