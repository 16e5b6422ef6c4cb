"""A sequential test per pair of accounts whose false-positive rate is bounded by design.

Each discard of one seat of a pair to the other is a coin with a known chance of "fits"
(``features.feed_chance``, allowing for ``NULL_ODDS``) if the seats play honestly. Against
it we weigh the alternative that the pair feeds: the odds of a fit multiplied by ``k``. The
product of the likelihood ratios over a pair's discards, averaged over a few ``k`` (a
mixture, so that both heavy and light feeding are caught without knowing which), is a test
martingale under honesty: its expected value stays 1, so by Ville's inequality the chance
that it ever reaches ``1 / alpha``, over any number of games checked in any order after each
game, is at most ``alpha``. A pair is flagged when it does. Evidence accumulates over shared
games and is kept as a few sums (one log-product per ``k``), so adding a game is cheap and
the order the games arrive in does not change the score.

The bound holds as far as the chances are right; they ignore what a seat could read from
the others' earlier takes and discards, which is why ``bench/fairplay.py`` measures the
honest rate on a mixed population of bots instead of trusting the bound.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from scipy.special import logsumexp

from .features import Feed

# Honest hands are not a uniform draw: players keep pairs and neighbours, so a card fits
# the next hand somewhat more often than the uniform chance says (bench/fairplay.py measures
# it by the receiving seat's style: up to about 1.26 times the odds, for a careless greedy
# that keeps every neighbour). The null hypothesis is therefore "the odds of a fit are at
# most NULL_ODDS times the uniform odds", with a margin over the most enriched style.
NULL_ODDS = 1.4
# The odds ratios of the alternative (on top of NULL_ODDS), weighed equally.
ODDS = (1.5, 2.0, 3.0, 5.0, 8.0)
LOG_ODDS = tuple(math.log(k) for k in ODDS)
# The per-pair false-positive bound: 1 in 10,000 (the target is 1 in 1,000 honest pairs).
ALPHA = 1e-4
THRESHOLD = math.log(1 / ALPHA)
# A chance is kept inside this margin so one impossible-looking fit cannot decide alone.
EDGE = 1e-3


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


@dataclass
class PairScore:
    """A pair's evidence so far: one log-product per odds ratio, and plain counts."""

    logs: list[float] = field(default_factory=lambda: [0.0] * len(ODDS))
    games: int = 0
    feeds: int = 0
    fits: int = 0
    expected: float = 0.0
    peak: float = 0.0  # the highest score reached (the flag stays once it is crossed)
    flagged_at: int | None = None  # games when it was first crossed

    def add_game(self, feeds: Iterable[Feed]) -> None:
        for feed in feeds:
            for i, value in enumerate(feed_log_ratios(feed.chance, feed.fits)):
                self.logs[i] += value
            self.feeds += 1
            self.fits += feed.fits
            self.expected += feed.chance
        self.games += 1
        score = self.score
        if score > self.peak:
            self.peak = score
        if self.flagged_at is None and score >= THRESHOLD:
            self.flagged_at = self.games

    @property
    def score(self) -> float:
        """log of the mixture's likelihood ratio: evidence of feeding, in nats."""
        return float(logsumexp(self.logs) - math.log(len(self.logs)))

    @property
    def flagged(self) -> bool:
        return self.flagged_at is not None


def flags(score: float) -> bool:
    return score >= THRESHOLD
