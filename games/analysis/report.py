"""An analysis as the replay page shows it: marks per move, a summary per person, and the
graph of each person's expected result move by move (inline SVG, drawn here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext

from .coach import FINE_MARKS, MARK_NAMES, MARKS, say_better, say_why, thresholds
from .models import Analysis, MoveEvaluation

# The labels are 11 units high on a wide screen and 20 on a narrow one (static/css/coach.css),
# where the graph is drawn at half its size or less: room is kept for the larger.
WIDTH, HEIGHT, PAD_X, PAD_Y = 640, 232, 50, 20
AXIS_H = 24  # below the plot: the moves' numbers
LABEL_GAP = 22  # the least distance between two of the chips' labels
TICK_GAP = 44  # the least distance between two moves' numbers (three digits at 20 units)
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500)


@dataclass(frozen=True)
class Verdict:
    seq: int
    seat: int
    name: str
    mark: str  # "", mistake, blunder (inaccuracy: an analysis stored before 7 December 2026)
    mark_name: str
    loss: float
    played_chips: float
    best_chips: float
    better: str
    by_clock: bool = False  # the clock played it for a person who was away: not counted
    why: str = ""  # why the better move is better, from the seat's view ("Calling Draw: …")
    stake: float = 0.0  # the chips riding on the game there, which the mark weighs against
    # A close call (no mark: its interval straddles a mark's line) and the figures shown on
    # tap: the loss's interval, the deals it was measured in, and the line it straddles.
    close: bool = False
    low: float = 0.0
    high: float = 0.0
    worlds: int = 0
    line_name: str = ""
    line: float = 0.0

    @property
    def loss_count(self) -> int:
        """The whole number the words' plural follows ("1 chip", "1.5 chips"): a plural
        form is chosen by an integer."""
        return 1 if self.loss == 1 else 2


@dataclass(frozen=True)
class PersonSummary:
    seat: int
    name: str
    moves: int  # judged moves with a choice to make
    accuracy: int  # percent of those with no mark
    counts: dict[str, int]  # mark -> how many
    mean_loss: float  # expected chips lost per move, on average


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    seq: int
    mark: str
    label: str


@dataclass(frozen=True)
class Line:
    seat: int
    name: str
    path: str
    points: list[Point]


@dataclass(frozen=True)
class Graph:
    width: int
    height: int
    lines: list[Line]
    zero_y: float
    top_label: str
    bottom_label: str
    top_y: float
    bottom_y: float
    summary: str
    # The x-axis: (x, move number) for each number shown, and where the numbers stand.
    ticks: list[tuple[float, int]]
    axis_y: float
    # The top and bottom chips' labels are left out where they would overlap the 0's.
    show_top: bool
    show_bottom: bool


@dataclass(frozen=True)
class Report:
    verdicts: dict[int, Verdict]  # by move number
    marked: list[Verdict]
    people: list[PersonSummary]
    graph: Graph | None
    # (mark, its name, percent of the stake, chips at least), worst first.
    mark_names: list[tuple[str, str, int, float]] = field(default_factory=list)
    close: list[Verdict] = field(default_factory=list)  # close calls, with their figures
    # An analysis stored before 7 December 2026 may hold Inaccuracies: their column is shown.
    inaccuracies: bool = False


def build(analysis: Analysis, names: Sequence[str], total_moves: int) -> Report:
    rows = list(analysis.evaluations.order_by("seq"))
    # A person's move that the clock made while they were away is evaluated (the graph
    # follows the game) but neither marked nor counted in their summary: it is not theirs.
    by_clock = set(analysis.game.moves.filter(by_server=True).values_list("seq", flat=True))
    verdicts = {r.seq: _verdict(r, names, r.seq in by_clock) for r in rows}
    seats = sorted({r.seat for r in rows})
    theirs = [r for r in rows if r.seq not in by_clock]
    people = [_summary(seat, names[seat], [r for r in theirs if r.seat == seat]) for seat in seats]
    thresholds = [(m, MARK_NAMES[m], round(100 * share), floor) for m, share, floor in MARKS]
    marked = [v for v in verdicts.values() if v.mark]
    close = [v for v in verdicts.values() if v.close]
    graph = _graph(rows, names, total_moves, by_clock) if rows else None
    inaccuracies = any(r.mark == "inaccuracy" for r in rows)
    return Report(verdicts, marked, people, graph, thresholds, close, inaccuracies)


def _verdict(r: MoveEvaluation, names: Sequence[str], by_clock: bool = False) -> Verdict:
    mark = "" if by_clock else r.mark
    close = r.close and not by_clock
    line_name, line = _line(r) if close else ("", 0.0)
    return Verdict(
        r.seq, r.seat, names[r.seat], mark, MARK_NAMES.get(mark, ""), round(r.loss, 1),
        r.played_chips, r.best_chips, better_words(r, names), by_clock,
        say_why(r.why) if (mark or close) and r.why else "", round(r.stake, 1),
        close, round(r.loss_low, 2), round(r.loss_high, 2), r.worlds, line_name, line,
    )  # fmt: skip


def _line(r: MoveEvaluation) -> tuple[str, float]:
    """The worst mark whose line (chips lost) lies inside a close call's interval."""
    for name, chips in thresholds(r.stake, FINE_MARKS):  # an older close call's line too
        if r.loss_low < chips <= r.loss_high:
            return str(MARK_NAMES[name]), round(chips, 2)
    return "", 0.0


def better_words(r: MoveEvaluation, names: Sequence[str]) -> str:
    """The better move in the reader's language, from its stored steps; a verdict stored
    before the steps were kept has only its English words, shown as they are."""
    return say_better(r.better_steps, names) if r.better_steps else r.better


def _summary(seat: int, name: str, rows: list[MoveEvaluation]) -> PersonSummary:
    choices = [r for r in rows if r.choices > 1]
    counts = {m: sum(r.mark == m for r in rows) for m, _, _ in reversed(FINE_MARKS)}
    clean = sum(not r.mark for r in choices)
    accuracy = round(100 * clean / len(choices)) if choices else 100
    mean_loss = round(sum(r.loss for r in choices) / len(choices), 2) if choices else 0.0
    return PersonSummary(seat, name, len(choices), accuracy, counts, mean_loss)


def _graph(
    rows: list[MoveEvaluation], names: Sequence[str], total: int, by_clock: set[int]
) -> Graph:
    values = [r.played_chips for r in rows]
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    total = max(total, max(r.seq for r in rows), 1)

    def x(seq: int) -> float:
        return round(PAD_X + (seq - 1) * (WIDTH - PAD_X - 8) / max(total - 1, 1), 1)

    def y(value: float) -> float:
        return round(PAD_Y + (high - value) * (HEIGHT - 2 * PAD_Y - AXIS_H) / span, 1)

    lines = []
    for seat in sorted({r.seat for r in rows}):
        mine = [r for r in rows if r.seat == seat]
        points = [
            Point(
                x(r.seq),
                y(r.played_chips),
                r.seq,
                "" if r.seq in by_clock else r.mark,
                _point_label(names[seat], r, r.seq in by_clock),
            )  # fmt: skip
            for r in mine
        ]
        path = "M" + " L".join(f"{p.x},{p.y}" for p in points)
        lines.append(Line(seat, names[seat], path, points))
    words = "; ".join(
        gettext("%(name)s from %(first)s to %(last)s")
        % {
            "name": line.name,
            "first": _signed(_first(rows, line.seat)),
            "last": _signed(_last(rows, line.seat)),
        }
        for line in lines
    )
    summary = gettext(
        "Expected chips at the end, after each move, as the coach saw it: %(lines)s."
    ) % {"lines": words}
    zero = y(0.0)
    return Graph(
        WIDTH, HEIGHT, lines, zero, _signed(high), _signed(low), y(high), y(low), summary,
        ticks=[(x(n), n) for n in move_ticks(total)],
        axis_y=HEIGHT - 3,
        show_top=abs(y(high) - zero) >= LABEL_GAP,
        show_bottom=abs(y(low) - zero) >= LABEL_GAP,
    )  # fmt: skip


def move_ticks(total: int) -> list[int]:
    """The moves numbered on the x-axis of a game of ``total`` moves: the first, then every
    step of 1, 2, 5, 10… moves, the smallest step whose numbers stand at least TICK_GAP
    apart (so they never overlap)."""
    room = WIDTH - PAD_X - 8
    per_move = room / max(total - 1, 1)
    step = next((s for s in TICK_STEPS if s * per_move >= TICK_GAP), TICK_STEPS[-1])
    ticks = [1] + list(range(step, total + 1, step))
    if len(ticks) > 1 and (ticks[1] - 1) * per_move < TICK_GAP:
        ticks.pop(1)  # too near the first
    return ticks


def _point_label(name: str, r: MoveEvaluation, by_clock: bool = False) -> str:
    values = {"name": name, "seq": r.seq, "chips": _signed(r.played_chips)}
    if by_clock:
        return gettext("%(name)s, move %(seq)s: %(chips)s expected, played by the clock") % values
    if r.mark:
        values["mark"] = MARK_NAMES[r.mark]
        return gettext("%(name)s, move %(seq)s: %(chips)s expected, %(mark)s") % values
    if r.close:
        return gettext("%(name)s, move %(seq)s: %(chips)s expected, a close call") % values
    return gettext("%(name)s, move %(seq)s: %(chips)s expected") % values


def _first(rows: list[MoveEvaluation], seat: int) -> float:
    return next(r.played_chips for r in rows if r.seat == seat)


def _last(rows: list[MoveEvaluation], seat: int) -> float:
    return [r.played_chips for r in rows if r.seat == seat][-1]


def _signed(value: float) -> str:
    text = f"{abs(value):.1f}"
    return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else "0")
