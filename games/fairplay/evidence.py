"""Each signal's part of a pair's score, in words a moderator can judge.

The counts come from the pair's kept sums (``Pair.signals``, the layout of
``detector.PairScore``); the words say what each seat did towards its partner against
what it did towards the third seat in the same games, so that a person can weigh it
("withheld 14 of 14 lay-offs on ben's melds, 1 of 12 on the third seat's").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.utils.translation import gettext

from .detector import ANSWER_SHAPE, BETS, CALL_SHAPE, COUNTED, LAYOFF_SHAPE, SIGNALS
from .features import TAKE_SHED
from .models import Pair


@dataclass(frozen=True)
class Line:
    signal: str
    part: float  # the signal's log e-value, in nats
    words: list[str]
    counted: bool = True  # in the score that flags (``detector.COUNTED``), else only shown


def lines(pair: Pair, low: str, high: str) -> list[Line]:
    """One line per signal: the counted ones, the heaviest first, then those only shown."""
    signals, parts = pair.signals or {}, pair.parts or {}
    if not signals:
        return []
    names = ((low, high), (high, low))
    said = {
        "feed": [_feed(pair)],
        "layoff": [_layoffs(signals["layoffs"], r, *names[r], pair.games) for r in (0, 1)],
        "answer": [_answers(signals["answers"], r, *names[r]) for r in (0, 1)],
        "call": [_calls(signals["calls"], r, *names[r]) for r in (0, 1)],
        **_chips(signals.get("chips"), low, high, pair.games),
        "open": [_opens(signals.get("opens"), r, names[r][0], pair.games) for r in (0, 1)],
    }
    out = [Line(s, float(parts.get(s, 0.0)), said[s], s in COUNTED) for s in SIGNALS]
    return sorted(out, key=lambda line: (not line.counted, -line.part))


def _feed(pair: Pair) -> str:
    return gettext(
        "%(fits)s of the %(feeds)s discards between them fitted the next hand; their "
        "own views made %(expected).1f expected."
    ) % {"fits": pair.fits, "feeds": pair.feeds, "expected": pair.expected}


def _layoffs(counts: list[int], role: int, me: str, partner: str, games: int) -> str:
    # (free, threat, towards, (n, made)) summed over the situations.
    table = np.asarray(counts).reshape(LAYOFF_SHAPE)[role].sum(axis=(0, 1))
    (n_p, made_p), (n_t, made_t) = table.tolist()
    return gettext(
        "%(me)s withheld %(held_p)s of %(n_p)s lay-offs it could make on %(partner)s's melds, "
        "and %(held_t)s of %(n_t)s on the third seat's, in %(games)s games together."
    ) % {
        "me": me, "partner": partner, "held_p": n_p - made_p, "n_p": n_p,
        "held_t": n_t - made_t, "n_t": n_t, "games": games,
    }  # fmt: skip


def _answers(counts: list[int], role: int, me: str, partner: str) -> str:
    # (favourable, towards, (n, fought)).
    table = np.asarray(counts).reshape(ANSWER_SHAPE)[role]
    (n_p, fought_p), (n_t, fought_t) = table.sum(axis=0).tolist()
    good_p, good_t = int(table[1, 0, 0]), int(table[1, 1, 0])
    return gettext(
        "%(me)s fought %(fought_p)s of %(partner)s's %(n_p)s Draw calls (%(good_p)s when its "
        "hand looked good), and %(fought_t)s of the third seat's %(n_t)s (%(good_t)s)."
    ) % {
        "me": me, "partner": partner, "fought_p": fought_p, "n_p": n_p, "good_p": good_p,
        "fought_t": fought_t, "n_t": n_t, "good_t": good_t,
    }  # fmt: skip


def _calls(counts: list[int], role: int, me: str, partner: str) -> str:
    # (value, called, (chances, partner higher)).
    table = np.asarray(counts).reshape(CALL_SHAPE)[role].sum(axis=0)
    (n_wait, p_wait), (n_call, p_call) = table.tolist()
    return gettext(
        "%(me)s called Draw in %(called_p)s of %(n_p)s chances while %(partner)s held more "
        "points a card than the third seat, and in %(called_t)s of %(n_t)s while the third "
        "seat did."
    ) % {
        "me": me, "partner": partner, "called_p": p_call, "n_p": p_call + p_wait,
        "called_t": n_call - p_call, "n_t": (n_call - p_call) + (n_wait - p_wait),
    }  # fmt: skip


def _opens(counts: list[int] | None, role: int, me: str, games: int) -> str:
    n, passed = (counts or [0, 0, 0, 0])[2 * role : 2 * role + 2]
    return gettext(
        "%(me)s passed up %(passed)s of %(n)s chances to take the discard into a meld that "
        "would shed %(shed)s points or more, in %(games)s games together (honest players "
        "pass up a few of them; one who passes up nearly all never opens and loses to both "
        "others)."
    ) % {"me": me, "passed": passed, "n": n, "shed": TAKE_SHED, "games": games}


def _chips(kept: list[float] | None, low: str, high: str, games: int) -> dict[str, list[str]]:
    if not kept:
        return {"flow": [], "third": []}
    flow, third = kept[3 * len(BETS)], kept[3 * len(BETS) + 1]
    return {
        "flow": [
            gettext(
                "%(high)s took %(flow).1f chips more from %(low)s than their results "
                "elsewhere say, over %(games)s games together (a negative figure: the other "
                "way)."
            )
            % {"high": high, "low": low, "flow": flow, "games": games}
        ],
        "third": [
            gettext(
                "The third seat ended %(third).1f chips from what its results apart from "
                "the pair and theirs elsewhere say, over %(games)s games together (below 0: "
                "it lost more with them)."
            )
            % {"third": third, "games": games}
        ],
    }
