"""Replays and records: step through a finished game, download it, upload one.

A replay shows everything (every hand, secret sets' cards, the seed), so it exists only
for a game that is over: ``games.access.check_can_replay`` decides who may see one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.access import refusals_explained, replayable_game, shown_seat_names
from games.analysis.context import coach_context
from games.engine.cards import cards_of
from games.engine.melds import is_set
from games.engine.record import Record, Replay, replay
from games.engine.scoring import hand_points
from games.engine.state import GameState, Outcome, Phase
from games.history.records import AlreadyUploaded, BadRecord, record_dict, verify_deal
from games.history.uploads import import_record
from games.history.views import render_page, wants_partial
from games.htmx import HtmxHttpRequest
from games.series import pages as series_pages
from games.series.record import MAX_HANDS
from games.table.pieces import Face, face, faces
from games.words import rule_messages
from games.words.narration import describe_end, distinct_names, narrate

# The largest record a table can produce is its longest series' (docs/record.md, "How
# large a record can be"): at most MAX_HANDS hands, each hand's record (with its names,
# seed and seats) under MAX_HAND_BYTES compact, and its pot events under 256 bytes.
MAX_HAND_BYTES = 10 * 1024
MAX_RECORD_BYTES = MAX_HANDS * (MAX_HAND_BYTES + 256) + 4 * 1024


# --- One step of a replay -----------------------------------------------------------------


@dataclass(frozen=True)
class MeldRow:
    index: int
    cards: list[Face]
    kind: str  # "set", "run" or "secret set"


@dataclass(frozen=True)
class SeatRow:
    index: int
    name: str
    hand: list[Face]
    points: int
    melds: list[MeldRow]
    opened: bool
    blocked: bool
    dealer: bool
    to_act: bool
    answer: str


@dataclass(frozen=True)
class PaymentRow:
    name: str
    base: int
    aces: int
    secret_sets: int
    secret_chips: int
    burned: int
    total: int


@dataclass(frozen=True)
class Control:
    key: str
    label: str
    symbol: str
    move: int | None
    shortcut: str
    # The whole name a screen reader says ("First move"): a phrase of its own, since
    # languages do not all build it from the button's word ("Unang galaw", not "Una na").
    spoken: str = ""


@dataclass(frozen=True)
class Step:
    number: int  # moves applied: 0 is the deal
    total: int
    seats: list[SeatRow]
    top: Face | None
    discards: int
    stock_left: int
    status: str  # whose turn, or how the game ended
    error: str  # the stored log breaks before this step (never, unless tampered with)
    payments: list[PaymentRow]
    net: list[tuple[str, int]]
    winner: str

    @property
    def controls(self) -> list[Control]:
        """First, previous, next, last: each with its step, or None where it cannot go."""
        n, t = self.number, self.total
        return [
            Control(
                "first",
                gettext("First"),
                "«",
                0 if n > 0 else None,
                "Home",
                gettext("First move"),
            ),
            Control(
                "previous",
                gettext("Previous"),
                "‹",
                n - 1 if n > 0 else None,
                "ArrowLeft",
                gettext("Previous move"),
            ),
            Control(
                "next",
                gettext("Next"),
                "›",
                n + 1 if n < t else None,
                "ArrowRight",
                gettext("Next move"),
            ),
            Control(
                "last", gettext("Last"), "»", t if n < t else None, "End", gettext("Last move")
            ),
        ]


_TO_ACT = {
    Phase.START: gettext_lazy("%(name)s to start the turn: draw, take the discard or call Draw"),
    Phase.PLAY: gettext_lazy("%(name)s to meld, lay off or discard"),
    Phase.ANSWER: gettext_lazy("%(name)s to answer the Draw call: fold or fight"),
}
KINDS = {
    "secret set": pgettext_lazy("meld kind", "secret set"),
    "set": pgettext_lazy("meld kind", "set"),
    "run": pgettext_lazy("meld kind", "run"),
}
# The answers as {% term %} words (it translates them).
_ANSWERS = {"fold": "folded", "fight": "fights", "auto": "folds (not opened)"}


def build_step(record: Record, number: int, names: list[str]) -> Step:
    """The whole table after ``number`` moves, as the engine's replay of the log has it."""
    result = replay(record, upto=number)
    state = result.state
    o = state.outcome
    return Step(
        number=len(result.applied), total=len(record.moves),
        seats=[_seat_row(state, s, names) for s in range(3)],
        top=face(state.discards[-1]) if state.discards else None,
        discards=len(state.discards), stock_left=state.stock_left,
        status=describe_end(o, names) if o else _to_act(state, names),
        error=_broken_log(result),
        payments=_payments(o, names) if o else [],
        net=list(zip(names, o.chips, strict=True)) if o else [],
        winner=names[o.winner] if o else "",
    )  # fmt: skip


def _to_act(state: GameState, names: list[str]) -> str:
    return str(_TO_ACT[state.phase]) % {"name": names[state.turn]}


def _broken_log(result: Replay) -> str:
    if result.ok:
        return ""
    return gettext("The stored log breaks at move %(n)s. %(error)s") % {
        "n": result.error_move + 1,
        "error": rule_messages.refused_move(result.error),
    }


def _seat_row(state: GameState, seat: int, names: list[str]) -> SeatRow:
    melds = [
        MeldRow(i, faces(cards_of(m.cards)), _kind(m.cards, m.secret))
        for i, m in enumerate(state.melds)
        if m.owner == seat
    ]
    calling = state.caller >= 0 and state.phase in (Phase.ANSWER, Phase.ENDED)
    return SeatRow(
        index=seat, name=names[seat], hand=faces(cards_of(state.hands[seat])),
        points=hand_points(state, seat), melds=melds, opened=state.has_opened(seat),
        blocked=state.is_blocked(seat), dealer=seat == state.dealer,
        to_act=state.outcome is None and state.turn == seat,
        answer=_ANSWERS.get(state.answers[seat], "") if calling else "",
    )  # fmt: skip


def _kind(cards: int, secret: bool) -> str:
    return str(KINDS["secret set" if secret else ("set" if is_set(cards) else "run")])


def _payments(o: Outcome, names: list[str]) -> list[PaymentRow]:
    return [
        PaymentRow(
            names[p.loser], p.base, p.aces, p.secret_sets, 3 * p.secret_sets, p.burned, p.total
        )
        for p in o.payments
    ]


def step_number(text: str | None, total: int) -> int:
    """``?move=17``: clamped to the game; the deal (0) when missing or not a number."""
    try:
        return min(max(int(text or 0), 0), total)
    except ValueError:
        return 0


# --- Views --------------------------------------------------------------------------------


@login_required
@refusals_explained
def replay_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = replayable_game(request.user, game_id, request.session)
    moves = list(game.moves.order_by("seq").values_list("payload", flat=True))
    record = game.record(moves)
    names = distinct_names(shown_seat_names(game))
    step = build_step(record, step_number(request.GET.get("move"), len(moves)), names)
    narration = narrate(record, names)
    context = {
        "game": game,
        "names": names,
        "step": step,
        "narration": narration,
        "current": narration.lines[step.number - 1].text if step.number else "",
        "replay_url": reverse("replay", args=[game.pk]),
        **coach_context(request.user, game, names, len(moves)),
        **series_pages.hand_links(game.pk),
    }
    if not wants_partial(request):  # the deal check sits outside the step partial
        context["fair"], context["fair_message"] = verify_deal(game)
    return render_page(request, "games/history/replay.html", "replay-step", context)


@login_required
@refusals_explained
def record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    game = replayable_game(request.user, game_id, request.session)
    response = JsonResponse(record_dict(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tongits-{game.pk}.json"'
    return response


class UploadForm(forms.Form):
    record = forms.FileField(
        label=gettext_lazy("Game record"),
        help_text=gettext_lazy(
            "A tongits-record/1 JSON file, such as one downloaded from a replay."
        ),
    )

    def clean_record(self):
        upload = self.cleaned_data["record"]
        if upload.size > MAX_RECORD_BYTES:
            raise forms.ValidationError(gettext("That file is too large to be a game record."))
        return upload


@login_required
def upload_record(request: HttpRequest) -> HttpResponse:
    """Replay an uploaded record whole; store it only if the engine accepts every move."""
    posted = request.method == "POST"
    form = UploadForm(request.POST, request.FILES) if posted else UploadForm()
    stored = None  # the copy of this record the person has already
    if posted and form.is_valid():
        try:
            game = import_record(form.cleaned_data["record"].read(), request.user)
        except AlreadyUploaded as e:
            form.add_error("record", str(e))
            stored = e.game
        except BadRecord as e:
            form.add_error("record", str(e))
        else:
            return redirect(f"{reverse('replay', args=[game.pk])}?move={game.seq}")
    status = 409 if stored else 400 if form.errors else 200
    context = {"form": form, "stored": stored}
    return render(request, "games/history/upload.html", context, status=status)
