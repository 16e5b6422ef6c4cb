"""An arena's scoring, pure: a person's points from their tournament games in order.

Adapted to three seats from the arenas people know (written out in How to play):

- a win scores ``WIN`` points, a win by Tongits ``TONGITS``;
- second place by chips (a loser with more chips than the other loser; equal chips are an
  equal second) scores ``SECOND``;
- third place scores nothing, and so does any game its person played away, won or not:
  the server was playing for them when it ended (lost on time while away), or it played
  more than half of their turns (``served_most``), whenever they came back;
- a streak: after two wins in a row, each game's points are doubled until a game that is
  not a win (an away game is never a win).

Ties in points are broken by performance: the mean rating of the opponents a person met
(bots' levels included), higher first; then by fewer games, then by name.
Bots score nothing: they are no entry and appear in no standings.

No Django, no clock: ``tests/test_tournament_scoring.py`` checks it with hypothesis.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIN = 2
TONGITS = 3
SECOND = 1
STREAK_AFTER = 2  # wins in a row before points double
STREAK_FACTOR = 2


@dataclass(frozen=True)
class Result:
    """One person's place in one finished game."""

    place: int  # 1 won, 2 second by chips, 3 last
    tongits: bool = False  # won by Tongits
    away: bool = False  # the server played for them at its end, or most of their turns
    opponents: tuple[float, ...] = ()  # the opponents' ratings, for performance

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.away


def place_of(seat: int, winner: int, chips: Sequence[int]) -> int:
    """A seat's place (1 best) in a finished game: the winner first, then by chips; two
    losers with equal chips are both second."""
    if seat == winner:
        return 1
    other = next(s for s in range(3) if s not in (seat, winner))
    return 3 if chips[other] > chips[seat] else 2


def served_most(log: Iterable[tuple[int, bool]]) -> frozenset[int]:
    """The seats more than half of whose turns the server played, from a game's move log
    in order: (each move's seat, whether the server made it). A turn is a seat's moves in
    a row (a Draw call's answer is one); the server played it if it made any of its moves
    (the clock ran out mid-turn and it finished the turn). Bots' seats are in it too: the
    caller asks only about people's."""
    turns: Counter[int] = Counter()
    served: Counter[int] = Counter()
    last, counted = None, False
    for seat, by_server in log:
        if seat != last:
            turns[seat] += 1
            last, counted = seat, False
        if by_server and not counted:
            served[seat] += 1
            counted = True
    return frozenset(seat for seat, n in turns.items() if 2 * served[seat] > n)


def base_points(result: Result) -> int:
    """What a game is worth before the streak."""
    if result.away:
        return 0
    if result.place == 1:
        return TONGITS if result.tongits else WIN
    return SECOND if result.place == 2 else 0


@dataclass(frozen=True)
class Score:
    points: int
    games: int
    wins: int
    streak: int  # wins in a row at the end
    performance: float  # mean opponent rating; 0 without games
    marks: tuple[int, ...]  # each game's points, in order (what the page shows)

    @property
    def on_fire(self) -> bool:
        return self.streak >= STREAK_AFTER


def score(results: Iterable[Result]) -> Score:
    """A person's score from their games in the order they were played."""
    points = games = wins = streak = 0
    met: list[float] = []
    marks: list[int] = []
    for result in results:
        mark = base_points(result)
        if streak >= STREAK_AFTER:
            mark *= STREAK_FACTOR
        streak = streak + 1 if result.won else 0
        wins += result.won
        games += 1
        points += mark
        marks.append(mark)
        met.extend(result.opponents)
    performance = sum(met) / len(met) if met else 0.0
    return Score(points, games, wins, streak, performance, tuple(marks))


@dataclass(frozen=True)
class Standing:
    rank: int
    key: object  # the entry's id, or anything the caller keys people by
    name: str
    score: Score


def standings(people: Iterable[tuple[object, str, Sequence[Result]]]) -> list[Standing]:
    """Everyone's standing: by points, then performance, then fewer games, then name.
    People equal in all of points and performance share a rank."""
    scored = [(key, name, score(results)) for key, name, results in people]
    scored.sort(key=lambda t: (-t[2].points, -t[2].performance, t[2].games, t[1], str(t[0])))
    out: list[Standing] = []
    for i, (key, name, s) in enumerate(scored):
        if out and (out[-1].score.points, out[-1].score.performance) == (s.points, s.performance):
            rank = out[-1].rank
        else:
            rank = i + 1
        out.append(Standing(rank, key, name, s))
    return out
