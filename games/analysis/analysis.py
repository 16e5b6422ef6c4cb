"""Running the coach over a finished game, in the background, and keeping its verdicts.

Queued with Django's tasks framework (the ``django-tasks`` backport) on the database
backend (``django-tasks-db``), so the queue lives in the site's own database and
``manage.py db_worker`` runs it; a request only queues.

- At most one analysis of a game at a time: a partial unique constraint on the game among
  queued and running analyses (``Analysis.Meta``), so two people asking at once get one.
- At most one analysis a person asked for waiting or running at a time, whatever the game
  (another partial unique constraint). The single worker takes the queue in order, so a
  person who asked for fifteen games kept everyone else's coach waiting for ten minutes;
  now each person has at most one game in the queue, and whoever asks waits for at most
  one game of each person ahead of them. A second request is refused with a message, and
  the page shows the first one's progress. (A cap of two or more would need an order of
  our own in front of the library's first-come queue, for two games of one person queued
  before anyone else's would still make that person wait; one a person needs none.)
- A worker that dies mid-game loses nothing judged so far: each move's verdict is stored as
  it is made, the analysis beats (``beat_at``) with each, and a running analysis whose beat
  is older than ``STALE_AFTER`` is queued again (``recover_stale``, which every db_worker
  runs now and then, and the replay page's progress checks for its game), and so is a
  queued one whose task a worker took and then died before starting it. The next worker
  judges only the moves left; each move's seed comes from its place in the game, so the
  result is the same as if nothing had happened.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from games.access import check_can_replay, named_as_bot, seat_names
from games.engine import Move, apply, seat_view
from games.engine.record import Record
from games.engine.view import SeatView
from games.models import Game
from games.words.narration import distinct_names

from .coach import (
    DEAL_WORK,
    DEFAULT_BUDGET,
    Budget,
    Evaluation,
    better_steps,
    judge_game,
    say_better,
)
from .models import Analysis, MoveEvaluation

log = logging.getLogger(__name__)

# A running analysis that has not judged a move for this long lost its worker (a move
# takes well under a second; see bench.analysis).
STALE_AFTER = timedelta(seconds=60)


class AnalysisRefused(Exception):
    """Asked for an analysis that cannot be made now; the message says why."""


# --- Asking -------------------------------------------------------------------------------


def check_can_analyse(user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    """Whoever may see the replay may have it analysed (a player of the game, or anyone
    once it is public history), and only a game played to its end."""
    check_can_replay(user, game)  # raises PermissionDenied or Http404 with its reason
    if game.status != Game.Status.FINISHED:
        raise PermissionDenied(gettext("Only a game played to its end can be analysed."))


def current(game: Game) -> Analysis | None:
    """The analysis to show: one under way, else the latest finished, else the latest."""
    analyses = list(game.analyses.order_by("-created_at")[:5])
    for wanted in (Analysis.ACTIVE, (Analysis.Status.DONE,)):
        found = next((a for a in analyses if a.status in wanted), None)
        if found is not None:
            return found
    return analyses[0] if analyses else None


def under_way_for(user: AbstractBaseUser | AnonymousUser) -> Analysis | None:
    """The analysis ``user`` asked for that is waiting or running, if any (one at most)."""
    if not user.is_authenticated:
        return None
    mine = Analysis.objects.filter(requested_by=user, status__in=Analysis.ACTIVE)
    return mine.select_related("game").first()


def request_analysis(game: Game, user: AbstractBaseUser) -> Analysis:
    """Queue an analysis of ``game`` unless one is done or under way; return it. Raises
    ``AnalysisRefused`` while another analysis ``user`` asked for is still under way."""
    check_can_analyse(user, game)
    existing = current(game)
    if existing is not None and existing.status != Analysis.Status.FAILED:
        return existing  # costs the worker nothing more, so nobody's turn is taken
    same = _refuse_while_under_way(user, game)
    if same is not None:  # a second click that read before the first one's was stored
        return same
    try:
        analysis = _queue(game, user)
    except IntegrityError:
        # Someone else asked for this game at the same moment: theirs is the one. Or this
        # person asked for another game at the same moment: that one came first.
        theirs = Analysis.objects.filter(game=game, status__in=Analysis.ACTIVE).first()
        if theirs is not None:
            return theirs
        same = _refuse_while_under_way(user, game)
        analysis = same or _queue(game, user)  # the one in the way has ended: once more
    return analysis


def _queue(game: Game, user: AbstractBaseUser) -> Analysis:
    total = len(judged_moves(game))
    with transaction.atomic():
        analysis = Analysis.objects.create(
            game=game, requested_by=user, total=total, beat_at=timezone.now()
        )
        # In the same transaction: the analysis and its task are stored together.
        analysis.task_id = str(analyse_game.enqueue(analysis.pk).id)
        analysis.save(update_fields=["task_id"])
    log.info("Analysis %s of game %s queued (%s moves).", analysis.pk, game.pk, total)
    return analysis


def _refuse_while_under_way(user: AbstractBaseUser, game: Game) -> Analysis | None:
    """Refuse while another game's analysis asked by ``user`` is under way; this game's
    own (asked a moment ago from another click or tab) is returned."""
    waiting = under_way_for(user)
    if waiting is not None and waiting.game_id == game.pk:
        return waiting
    if waiting is not None:
        raise AnalysisRefused(
            gettext(
                "The coach is still on game %(game)s for you. It takes one game of each "
                "person at a time, so that nobody waits behind someone else's list: ask "
                "for this one when that one is done."
            )
            % {"game": waiting.game_id}
        )
    return None


def judged_seats(game: Game) -> set[int]:
    """The seats whose moves the coach judges: the people's. A bot's seat is not judged;
    nor is an uploaded record's seat the record names as a bot, for the record is all
    there is of who sat there (a downloaded record names a bot's seat "Normal bot 2")."""
    return {
        s.index
        for s in game.seats.all()
        if not s.is_bot and not (game.imported and named_as_bot(s.index, s.name))
    }


def judged_moves(game: Game) -> list[int]:
    """The numbers of the moves the coach judges: every move of each person (bots' moves
    are not judged; a person's move the clock made for them is)."""
    people = judged_seats(game)
    seats = game.moves.order_by("seq").values_list("seq", "seat")
    return [seq for seq, seat in seats if seat in people]


# --- Running ------------------------------------------------------------------------------


@task()
def analyse_game(analysis_id: int) -> int:
    """The background task: judge every move left of the analysis; return how many."""
    return run(analysis_id)


def site_budget() -> Budget:
    """The coach's budget, with any of its fields set by ``TONGITS_COACH_BUDGET``."""
    return replace(DEFAULT_BUDGET, **getattr(settings, "TONGITS_COACH_BUDGET", {}))


def run(analysis_id: int, *, budget: Budget | None = None, stop_after: int | None = None) -> int:
    """Judge the moves of the analysis not judged yet, storing each verdict as it is made.
    ``stop_after`` stops after that many moves, as a worker that dies would (tests)."""
    budget = budget or site_budget()
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().select_related("game").get(pk=analysis_id)
        if analysis.status not in Analysis.ACTIVE:
            return 0
        analysis.status = Analysis.Status.RUNNING
        analysis.started_at = analysis.started_at or timezone.now()
        analysis.beat_at = timezone.now()
        analysis.save(update_fields=["status", "started_at", "beat_at"])
    game = analysis.game
    try:
        judged = _judge_rest(analysis, game, budget, stop_after)
    except Exception as e:
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.FAILED, error=f"{type(e).__name__}: {e}"[:500],
            finished_at=timezone.now(),
        )  # fmt: skip
        log.exception("Analysis %s of game %s failed.", analysis.pk, game.pk)
        raise
    if stop_after is None or judged < stop_after:
        Analysis.objects.filter(pk=analysis.pk, status=Analysis.Status.RUNNING).update(
            status=Analysis.Status.DONE, finished_at=timezone.now(), beat_at=timezone.now()
        )
        log.info("Analysis %s of game %s done.", analysis.pk, game.pk)
    return judged


def _judge_rest(analysis: Analysis, game: Game, budget: Budget, stop_after: int | None) -> int:
    names = distinct_names(seat_names(game))
    people = judged_seats(game)
    rows = analysis.evaluations.values_list("seq", "plies", "worlds")
    stored = {seq: plies + DEAL_WORK * worlds for seq, plies, worlds in rows}
    done = set(stored)
    judged = 0
    # The game's work is shared by its moves in order (``judge_game``); the moves judged
    # before a worker died spent theirs (``Evaluation.work``), so the rest get the same.
    left = [(view, move, seq) for seq, view, move in moments(game.record(), people)
            if seq not in done]  # fmt: skip
    for found in judge_game(left, budget, spent=sum(stored.values())):
        view = next(v for v, _, seq in left if seq == found.seq)
        steps = better_steps(view, found.best, found.seq) if found.mark or found.close else []
        _store(analysis, found, steps, names)
        judged += 1
        Analysis.objects.filter(pk=analysis.pk).update(
            done=len(done) + judged, beat_at=timezone.now()
        )
        if stop_after is not None and judged >= stop_after:
            break
    return judged


def moments(record: Record, seats: set[int]) -> Iterator[tuple[int, SeatView, Move]]:
    """(move number, the view of the seat that made it just before, the move) for each
    move of ``seats``: the view is all the coach gets of that moment."""
    state = record.initial_state()
    for seq, raw in enumerate(record.moves, start=1):
        move = raw if isinstance(raw, Move) else Move.from_dict(raw)
        if move.seat in seats:
            yield seq, seat_view(state, move.seat), move
        state = apply(state, move)


def _store(analysis: Analysis, e: Evaluation, steps: list[dict], names: list[str]) -> None:
    # The steps are worded for each reader; the English words are kept beside them too
    # (the admin, and whatever reads the column as it was).
    with translation.override("en"):
        better = say_better(steps, names) if steps else ""
    try:
        with transaction.atomic():
            MoveEvaluation.objects.create(
                analysis=analysis, seq=e.seq, seat=e.seat, played=e.played.to_dict(),
                best=e.best.to_dict(), played_chips=e.played_chips, best_chips=e.best_chips,
                choices=e.choices, worlds=e.worlds, mark=e.mark, close=e.close,
                better=better, better_steps=steps, loss_low=e.loss_low,
                loss_high=e.loss_high, stake=e.stake, why=e.why if e.mark or e.close else {},
                plies=e.plies,
            )  # fmt: skip
    except IntegrityError:
        pass  # a worker taken for dead was only slow: it judged this move the same way


# --- Workers that died --------------------------------------------------------------------


def recover_stale(now: datetime | None = None, game: Game | None = None) -> int:
    """Queue again every analysis whose worker is gone (of ``game`` only, if given); return
    how many. Safe to run from several places at once.

    Gone: a running analysis that stopped beating, or a queued one whose task a worker
    took and did not start (it died between taking the task and marking the analysis
    running), or whose task is missing. Left queued, it would also keep its person from
    asking the coach about any other game."""
    now = now or timezone.now()
    cutoff = now - STALE_AFTER
    running = Analysis.objects.filter(status=Analysis.Status.RUNNING, beat_at__lt=cutoff)
    queued = Analysis.objects.filter(status=Analysis.Status.QUEUED, beat_at__lt=cutoff)
    if game is not None:
        running, queued = running.filter(game=game), queued.filter(game=game)
    recovered = 0
    for pk in [*running.values_list("pk", flat=True), *_lost_queued(queued, cutoff)]:
        with transaction.atomic():
            analysis = (
                Analysis.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, status__in=Analysis.ACTIVE, beat_at__lt=cutoff)
                .first()
            )
            if analysis is None or not _lost(analysis, cutoff):
                continue  # finished, put back, or started by a worker meanwhile
            # Its old task stays marked running in the queue forever otherwise.
            if analysis.task_id:
                DBTaskResult.objects.filter(pk=analysis.task_id, status="RUNNING").update(
                    status="FAILED", finished_at=now
                )
            analysis.status = Analysis.Status.QUEUED
            analysis.beat_at = now
            analysis.task_id = str(analyse_game.enqueue(analysis.pk).id)
            analysis.save(update_fields=["status", "beat_at", "task_id"])
        log.warning("Analysis %s of game %s lost its worker: queued again.", pk, analysis.game_id)
        recovered += 1
    return recovered


def _lost_queued(queued, cutoff: datetime) -> list[int]:
    """The analyses of ``queued`` that are lost (``_lost``), read in two queries."""
    task_of = dict(queued.values_list("pk", "task_id"))
    tasks = DBTaskResult.objects.filter(pk__in=[t for t in task_of.values() if t])
    found = {str(t.pk): t for t in tasks}
    return [pk for pk, task_id in task_of.items() if _task_left(found.get(task_id or ""), cutoff)]


def _lost(analysis: Analysis, cutoff: datetime) -> bool:
    if analysis.status == Analysis.Status.RUNNING:
        return analysis.beat_at < cutoff
    task = DBTaskResult.objects.filter(pk=analysis.task_id).first() if analysis.task_id else None
    return _task_left(task, cutoff)


def _task_left(task: DBTaskResult | None, cutoff: datetime) -> bool:
    """A queued analysis's task is gone, or a worker took it (or it ended) before
    ``cutoff`` and the analysis never started; a task still waiting its turn is not."""
    if task is None:
        return True
    return task.status != "READY" and (task.started_at or task.enqueued_at) < cutoff
