"""One sequential score per pair of accounts, from several signals, with a stated
false-positive bound.

Each signal is an *e-process* for "this pair plays honestly": a running figure that an
honest pair, whatever its style, can push up to ``x`` with chance at most ``1 / x``, over
any number of games checked after each one (Ville's inequality). The pair's score is the
log of the mean of its counted signals' e-processes (``COUNTED``), which is an e-process too
(a mean of them is, however they depend on each other); a pair is flagged when it reaches
ln(1 / ALPHA), so an honest pair is flagged with chance at most ``ALPHA``, ever. Every
signal is worked out from each seat's own view (``features``), and kept as a few sums and
counts, so adding a game is cheap and the order of the games does not change the score.

- **feed**: discards to the partner that fit its hand (R3), against the chance the
  discarder's own view gave. A product of likelihood ratios (odds ``k`` times the null's),
  mixed over ``k`` separately for greedy's own throw, its second choice and any other, so
  that feeding only with a second-best card, or only when it costs a lot, weighs as much.
- **layoff**: lay-offs made on the partner's melds against those on the third's (R5: a
  lay-off blocks the owner's Draw call), in the same situations from the seat's view.
- **answer**: fights and folds to the partner's Draw calls against those to the third's,
  by whether the seat's view made the fight look good (R7).
- **call**: Draw calls not made while the partner held the higher points a card, against
  calls made (a seat that cannot see the hands cannot choose by them).

The last three compare a seat's conduct towards its partner with its conduct towards the
third in the same situation: a style (a hoarder, a player who always folds) treats both
alike, a pair does not. They are *universal-inference* e-values (Wasserman, Ramdas and
Balakrishnan, 2020): a mixture likelihood over the alternative divided by the null's
maximum likelihood, the null being "the odds towards the partner are within a tolerance of
the odds towards the third", each situation with its own unknown rate.

The chip signals (**flow**, **third**) bet on each game's chips against the players'
results elsewhere (below). **open** counts the takes of the discard into a meld that would
shed points which a seat passed up (R3, R6): a seat that passes up nearly all of them never
opens and loses every hand it can, to both others alike (a quiet chip dump). It is tested
against a fixed rate, and is shown to staff but not counted in the score: it judges a
seat's own play, not its conduct towards the partner against the third, so it rises in
every pair such a seat sits in, and an honest beginner who only ever draws from the stock
passes up every take too (``bench.fairplay_takes``' ``stock-only``).

The bounds hold as far as the nulls do: the chance of a fit ignores what a seat could read
from the others' earlier play, and the situations are coarse; which is why the honest rate
is measured (``bench/fairplay.py``), on styles chosen to strain them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .features import GameFeatures

# Honest hands are not a uniform draw: players keep pairs and neighbours, so a card fits
# the next hand somewhat more often than the uniform chance says (bench/fairplay.py
# measures it per style of the receiving seat). The null hypothesis is therefore "the odds
# of a fit are at most NULL_ODDS times the uniform odds", with a margin over the most
# enriched style measured.
NULL_ODDS = 1.5
# The odds ratios of the alternative (on top of NULL_ODDS).
ODDS = (1.5, 2.0, 3.0, 5.0, 8.0)
LOG_ODDS = tuple(math.log(k) for k in ODDS)
# Discards are kept apart by their rank among the discarder's choices (greedy's throw,
# its second choice, any other) and by whether the discarder's view gave the card at
# least BAND of fitting: a pair may feed only with second-best cards, or only cards that
# fit often anyway, and its evidence should not drown in the rest.
RANKS = 3
BAND = 0.3
CELLS = RANKS * 2
# The feeding alternatives, weighed equally: the odds k times the null's in every cell, or
# in one rank's cells only, or in one band's only (the other cells honest).
GROUPS = (
    tuple(range(CELLS)),
    *(tuple(c for c in range(CELLS) if c // 2 == r) for r in range(RANKS)),
    *(tuple(c for c in range(CELLS) if c % 2 == b) for b in range(2)),
)
# The per-pair false-positive bound: 1 in 10,000 (the target is 1 in 1,000 honest pairs).
ALPHA = 1e-4
THRESHOLD = math.log(1 / ALPHA)
# A chance is kept inside this margin so one impossible-looking fit cannot decide alone.
EDGE = 1e-3
SIGNALS = ("feed", "layoff", "answer", "call", "flow", "third", "open")
# The signals the score (and so the flag) rests on: those of a pair's conduct towards each
# other. The rest are evidence shown to staff, not counted (issue 49: open).
COUNTED = ("feed", "layoff", "answer", "call", "flow", "third")

# Tolerances of the comparisons (odds ratio towards the partner over towards the third):
# honest seats are let differ up to these before the evidence counts.
LAYOFF_LOW = 0.5  # one-sided: a pair withholds lay-offs from the partner
ANSWER_RANGE = (1 / 3, 3.0)  # two-sided: folding to the partner, or fighting it
CALL_HIGH = 2.0  # one-sided: calls withheld while the partner would pay most
# Counts kept per signal: role (the pair's lower user's seat 0, the other 1), situation,
# towards (partner 0, third 1), and (chances, made).
LAYOFF_SHAPE = (2, 2, 2, 2, 2)  # role, free, threat, towards, (n, made)
ANSWER_SHAPE = (2, 2, 2, 2)  # role, favourable, towards, (n, fought)
CALL_SHAPE = (2, 5, 2, 2)  # role, value, (withheld 0, called 1), (n, partner higher)
# The chip signals bet on each game's chips against what the three players' results
# elsewhere (their *edges*, mean chips a game) lead one to expect: ``flow``, the chips
# between the two (either way: a chip dump), ``third``, the third seat's (a pair that plays
# as one takes them from it); the third seat's edge is its results apart from the pair (its
# games without the two together: ``scoring._edge``), so a pair cannot lower it. A bet of
# ``b`` stakes that share of the running figure; no seat's chips in one game differ from
# expected by more than CHIP_BOUND (R10 at its worst).
BETS = (0.05, 0.1, 0.2, 0.4)
CHIP_BOUND = 60.0
# The open signal: each seat's takes passed up (``features.TakeChance``) against the null
# "it passes up at most OPEN_NULL of them", with the alternatives OPEN_ALT; counts per
# role, (chances, passed up). Honest styles pass up 1 to 19%, random legal moves 51%
# (bench.fairplay_takes).
OPEN_NULL = 0.75
OPEN_ALT = (0.8, 0.85, 0.9, 0.95, 0.99)
OPEN_SHAPE = (2, 2)


def feed_log_ratios(chance: float, fits: bool) -> tuple[float, ...]:
    """log LR of one discard under each alternative k: odds(p') = k odds(p)."""
    p = min(max(chance, EDGE), 1 - EDGE)
    odds = NULL_ODDS * p / (1 - p)
    p = odds / (1 + odds)
    out = []
    for log_k, k in zip(LOG_ODDS, ODDS, strict=True):
        denominator = math.log1p(p * (k - 1))  # 1 - p + k p
        out.append((log_k if fits else 0.0) - denominator)
    return tuple(out)


def _zeros(shape: tuple[int, ...]) -> list[int]:
    return [0] * math.prod(shape)


@dataclass
class PairScore:
    """A pair's evidence so far, as sums and counts (JSON-friendly lists)."""

    logs: list[float] = field(default_factory=lambda: [0.0] * (CELLS * len(ODDS)))
    layoffs: list[int] = field(default_factory=lambda: _zeros(LAYOFF_SHAPE))
    answers: list[int] = field(default_factory=lambda: _zeros(ANSWER_SHAPE))
    calls: list[int] = field(default_factory=lambda: _zeros(CALL_SHAPE))
    opens: list[int] = field(default_factory=lambda: _zeros(OPEN_SHAPE))
    # log wealth per bet: flow towards the second seat, towards the first, the third's loss;
    # then the sums of the flow and of the third's chips against expected (for the words)
    chips: list[float] = field(default_factory=lambda: [0.0] * (3 * len(BETS) + 2))
    games: int = 0
    feeds: int = 0
    fits: int = 0
    expected: float = 0.0
    peak: float = 0.0  # the highest score reached (the flag stays once it is crossed)
    flagged_at: int | None = None  # games when it was first crossed

    def add_game(self, features: GameFeatures, a: int, b: int, edges: tuple | None = None) -> None:
        """Add one game in which the pair sat at seats ``a`` (role 0) and ``b`` (role 1);
        ``edges`` are the mean chips a game of the players at seats 0, 1, 2 from their
        other games (without them the chip signals learn nothing from this game)."""
        roles = {a: 0, b: 1}
        if edges is not None:
            self._bet(features.chips, a, b, edges)
        for feed in features.feeds:
            if {feed.seat, feed.nxt} != {a, b}:
                continue
            cell = min(feed.rank, RANKS - 1) * 2 + (feed.chance >= BAND)
            base = cell * len(ODDS)
            for i, value in enumerate(feed_log_ratios(feed.chance, feed.fits)):
                self.logs[base + i] += value
            self.feeds += 1
            self.fits += feed.fits
            self.expected += feed.chance
        self._count(features, roles)
        self.games += 1
        score = self.score
        self.peak = max(self.peak, score)
        if self.flagged_at is None and score >= THRESHOLD:
            self.flagged_at = self.games

    def _count(self, features: GameFeatures, roles: dict[int, int]) -> None:
        for x in features.layoffs:
            if x.seat in roles:
                at = _index(LAYOFF_SHAPE, roles[x.seat], x.free, x.threat, x.owner not in roles)
                self.layoffs[at] += 1
                self.layoffs[at + 1] += x.made
        for x in features.answers:
            if x.seat in roles:
                at = _index(ANSWER_SHAPE, roles[x.seat], x.favourable, x.caller not in roles)
                self.answers[at] += 1
                self.answers[at + 1] += x.fought
        for x in features.calls:
            if x.seat in roles and x.higher >= 0:
                at = _index(CALL_SHAPE, roles[x.seat], x.value, x.called)
                self.calls[at] += 1
                self.calls[at + 1] += x.higher in roles
        for x in features.takes:
            if x.seat in roles:
                self.opens[2 * roles[x.seat]] += 1
                self.opens[2 * roles[x.seat] + 1] += not x.taken

    def _bet(self, chips: tuple[int, ...], a: int, b: int, edges: tuple) -> None:
        c = 3 - a - b
        mean = sum(edges) / 3
        expected = [e - mean for e in edges]  # each seat's edge over the table's
        flow = _clip(chips[b] - chips[a] - (expected[b] - expected[a]))
        third = _clip(chips[c] - expected[c])
        n = len(BETS)
        for i, bet in enumerate(BETS):
            self.chips[i] += math.log1p(bet * flow / CHIP_BOUND)
            self.chips[n + i] += math.log1p(-bet * flow / CHIP_BOUND)
            self.chips[2 * n + i] += math.log1p(-bet * third / CHIP_BOUND)
        self.chips[3 * n] += flow
        self.chips[3 * n + 1] += third

    def parts(self) -> dict[str, float]:
        """Each signal's log e-value (its evidence, in nats)."""
        n = len(BETS)
        return {
            "feed": _feed_log_e(self.logs),
            "layoff": _tables_log_e(self.layoffs, LAYOFF_SHAPE, (LAYOFF_LOW, math.inf), "low"),
            "answer": _tables_log_e(self.answers, ANSWER_SHAPE, ANSWER_RANGE, "both"),
            "call": _tables_log_e(self.calls, CALL_SHAPE, (0.0, CALL_HIGH), "high"),
            "flow": _log_mean_exp(self.chips[: 2 * n]),
            "third": _log_mean_exp(self.chips[2 * n : 3 * n]),
            "open": open_log_e(self.opens),
        }

    @property
    def score(self) -> float:
        """log of the mean of the counted signals' e-values (``COUNTED``): the pair's
        evidence, in nats."""
        parts = self.parts()
        return _log_mean_exp([parts[s] for s in COUNTED])

    @property
    def flagged(self) -> bool:
        return self.flagged_at is not None


def _clip(value: float) -> float:
    return min(max(value, -CHIP_BOUND), CHIP_BOUND)


def _index(shape: tuple[int, ...], *at: int) -> int:
    """The flat place of the counts' first entry (n) for the leading indices ``at``."""
    flat = 0
    for size, i in zip(shape, (*at, 0), strict=True):
        flat = flat * size + int(i)
    return flat


def open_log_e(opens: list[int]) -> float:
    """The mean over the pair's two seats of each one's e-value for "passes up at most
    OPEN_NULL of its takes": a mixture over OPEN_ALT of the likelihood ratio against the
    null's edge (for a seat passing up at most OPEN_NULL, each factor's mean is at most 1)."""
    per_seat = []
    for role in range(OPEN_SHAPE[0]):
        n, passed = opens[2 * role], opens[2 * role + 1]
        per_seat.append(_log_mean_exp([_open_log_ratio(p, n, passed) for p in OPEN_ALT]))
    return _log_mean_exp(per_seat)


def _open_log_ratio(p: float, n: int, passed: int) -> float:
    return passed * math.log(p / OPEN_NULL) + (n - passed) * math.log((1 - p) / (1 - OPEN_NULL))


def _feed_log_e(logs: list[float]) -> float:
    sums = np.asarray(logs).reshape(CELLS, len(ODDS))
    return _log_mean_exp([sums[list(group)].sum(axis=0) for group in GROUPS])


# --- Comparing two rates: towards the partner (1) and towards the third (2) ---------------

_GRID = np.linspace(0.02, 0.98, 25)
_LOG_P, _LOG_Q = np.log(_GRID), np.log1p(-_GRID)
_ODDS_GRID = _GRID / (1 - _GRID)
_RATIO = _ODDS_GRID[:, None] / _ODDS_GRID[None, :]  # odds of p1 over odds of p2


def _tables_log_e(counts: list[int], shape: tuple[int, ...], null: tuple, side: str) -> float:
    """The product over situations of each 2x2 table's e-value: the counts run situation
    by situation as (n, made) towards the partner, then towards the third."""
    total = 0.0
    for at in range(0, len(counts), 4):
        n1, x1, n2, x2 = counts[at : at + 4]
        if n1 and n2:
            total += table_log_e(n1, x1, n2, x2, null, side)
    return total


def _log_mean_exp(values) -> float:
    values = np.asarray(values, dtype=float).ravel()
    top = values.max()
    return float(top + np.log(np.exp(values - top).mean()))


@lru_cache(maxsize=1 << 16)
def table_log_e(n1: int, x1: int, n2: int, x2: int, null: tuple, side: str) -> float:
    """log e-value of ``x1`` of ``n1`` against ``x2`` of ``n2`` for "the odds ratio of rate 1
    over rate 2 lies in ``null``": a uniform mixture over the grid's alternatives (rate 1's
    odds below the null's range for side "low", above for "high", either for "both")
    divided by the null's maximum likelihood."""
    low, high = null
    outside = np.zeros_like(_RATIO, dtype=bool)
    if side in ("low", "both"):
        outside |= _RATIO < low
    if side in ("high", "both"):
        outside |= _RATIO > high
    ll1 = x1 * _LOG_P + (n1 - x1) * _LOG_Q
    ll2 = x2 * _LOG_P + (n2 - x2) * _LOG_Q
    numerator = _log_mean_exp((ll1[:, None] + ll2[None, :])[outside])
    return numerator - _null_max(n1, x1, n2, x2, low, high)


def _null_max(n1: int, x1: int, n2: int, x2: int, low: float, high: float) -> float:
    """The largest log likelihood of the two binomials with their odds ratio in
    [low, high]: the free maximum when its ratio lies there, else on the nearer edge."""
    ratio = _odds_ratio(n1, x1, n2, x2)
    if low <= ratio <= high:
        return _ll(n1, x1, x1 / n1) + _ll(n2, x2, x2 / n2)
    psi = low if ratio < low else high
    f1 = _fitted(n1, n2, x1 + x2, psi)
    return _ll(n1, x1, f1 / n1) + _ll(n2, x2, (x1 + x2 - f1) / n2)


def _odds_ratio(n1: int, x1: int, n2: int, x2: int) -> float:
    a, b, c, d = x1, n1 - x1, x2, n2 - x2
    if a * d == b * c:
        return 1.0
    if b * c == 0:
        return math.inf
    return a * d / (b * c)


def _fitted(n1: int, n2: int, m: int, psi: float) -> float:
    """Group 1's fitted count when the odds ratio is held at ``psi`` and the fitted counts
    keep the observed total ``m`` (the likelihood equations of a logistic model with a
    fixed log odds ratio): the root in range of a quadratic."""
    lo, hi = max(0, m - n2), min(n1, m)
    # f (n2 - m + f) = psi (m - f) (n1 - f)  =>  (1 - psi) f^2 + b f - psi m n1 = 0
    a = 1 - psi
    b = n2 - m + psi * (m + n1)
    c = -psi * m * n1
    if abs(a) < 1e-12:
        f = -c / b if b else lo
    else:
        disc = math.sqrt(max(b * b - 4 * a * c, 0.0))
        roots = ((-b + disc) / (2 * a), (-b - disc) / (2 * a))
        f = next((r for r in roots if lo - 1e-9 <= r <= hi + 1e-9), roots[0])
    return min(max(f, lo), hi)


def _ll(n: int, x: int, p: float) -> float:
    out = 0.0
    if x:
        out += x * math.log(p) if p > 0 else -math.inf
    if n - x:
        out += (n - x) * math.log1p(-p) if p < 1 else -math.inf
    return out


def flags(score: float) -> bool:
    return score >= THRESHOLD
