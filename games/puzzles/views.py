"""The puzzle pages: the next puzzle near your level, a puzzle (answered by a form post,
which works without JavaScript), its JSON, and streak mode (puzzles one after another until
a miss; the run is kept in the session, the best one on the person's puzzle rating)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from . import pages, rating, services
from .models import Puzzle

SEEN, STREAK, STREAK_ON = "puzzles_seen", "puzzles_streak", "puzzles_streak_on"
LAST = "puzzles_last"
KEEP_SEEN = 200


def start(request: HttpRequest) -> HttpResponse:
    """/puzzles/: a puzzle near your level; ?streak=1 starts a streak, ?streak=0 ends it."""
    mode = request.GET.get("streak")
    if mode in ("0", "1"):
        request.session[STREAK_ON] = mode == "1"
        request.session[STREAK] = 0
    puzzle = services.next_puzzle(request.user, request.session.get(SEEN, []))
    if puzzle is None:
        return render(request, "games/puzzles/none.html", _mine(request), status=200)
    seen = [*request.session.get(SEEN, []), puzzle.pk][-KEEP_SEEN:]
    request.session[SEEN] = seen
    return redirect("puzzle", puzzle.pk)


def _mine(request: HttpRequest) -> dict:
    mine = services.rating_of(request.user)
    return {
        "mine": mine,
        "my_rating": rating.shown(mine.mu) if mine is not None else None,
        "streak_on": request.session.get(STREAK_ON, False),
        "streak": request.session.get(STREAK, 0),
    }


def puzzle(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    found = get_object_or_404(Puzzle, pk=puzzle_id)
    context = {
        "puzzle": found,
        "theme": pages.theme_label(found),
        "position": pages.position(found),
        "choices": pages.choices(found),
        **_mine(request),
    }
    if request.method != "POST":
        return render(request, "games/puzzles/puzzle.html", context)
    try:
        index = int(request.POST.get("move", ""))
        result = services.answer(request.user, found, index)
    except (ValueError, IndexError):
        context["error"] = _("Choose one of the moves below.")
        return render(request, "games/puzzles/puzzle.html", context, status=400)
    streak_on = request.session.get(STREAK_ON, False)
    streak = request.session.get(STREAK, 0)
    counted = request.session.get(LAST) == found.pk  # the same answer posted again
    request.session[LAST] = found.pk
    if streak_on and not counted:
        streak = streak + 1 if result.solved else streak
        services.record_streak(request.user, streak)
        request.session[STREAK] = streak if result.solved else 0
    context.update({
        "result": result, "chosen": index, "right": _right_indexes(found),
        "words": pages.answer_words(found), "streak": streak, "streak_over": streak_on
        and not result.solved, **{k: v for k, v in _mine(request).items() if k != "streak"},
    })  # fmt: skip
    return render(request, "games/puzzles/puzzle.html", context)


def _right_indexes(puzzle: Puzzle) -> list[int]:
    return [i for i, m in enumerate(puzzle.view["legal"]) if services.is_right(puzzle, m)]


def puzzle_json(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    found = get_object_or_404(Puzzle, pk=puzzle_id)
    return JsonResponse(pages.puzzle_json(found), json_dumps_params={"ensure_ascii": False})
