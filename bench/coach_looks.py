"""The coach's rule for a move near a mark's line, in a model: how wide the band of losses is
in which two judgements with other seeds disagree, and what deals it costs:
``python -m bench.coach_looks [--reps N]``.

A move's paired loss is taken as the mean of deals each drawn from a normal law (spread 6
chips, as measured at the lines: docs/coach.md), its true loss ``delta`` standard errors (of
4,096 deals) over the line. The coach's looks are at 64, 128 … 4,096 deals: a move stops
quiet when the interval's upper end falls under the line, is marked when the lower end
clears it (from 512 deals on), is given up by the rule in force, and is judged on at most
4,096 deals (``games.analysis.coach.evaluate``). For each rule it prints the band's width
(the integral over the true loss of the chance that two judgements disagree, 2p(1 - p), in
standard errors at 4,096 deals: the changed marks at a line grow with it), where a move is
marked half the times it is judged, and the mean deals over the band (-3 to 10 standard
errors). Two rules judge a move on up to 8,192 and 16,384 deals, their band still in
standard errors of 4,096 deals; the last three ask a mark's lower end to clear the line by
a margin of 1 to 3 standard errors more (a margin moves the band, it does not narrow it:
what it changes is how many moves lie in it, which only games tell; docs/coach.md). Pure
model, no coach: it says which rule to try, the games say what it does.
"""

from __future__ import annotations

import argparse
import math
import random

SPREAD, LINE, Z, MOST = 6.0, 2.0, 2.24, 4096
LOOKS = (64, 128, 256, 512, 1024, 2048, 4096)


def judge(
    rng: random.Random,
    loss: float,
    spend: float,
    give_up: str,
    odds: float,
    since: int,
    most: int = MOST,
    margin: float = 0.0,
):
    """(marked, deals) of one judgement of a move whose true loss is ``loss``, judged on at
    most ``most`` deals (the looks double from 64)."""
    total, before = 0.0, 0
    se_most = SPREAD / math.sqrt(most)
    MOST = most  # noqa: N806 (the rule's own cap)
    for n in (n for n in LOOKS + (8192, 16384) if n <= most):
        total += rng.gauss(loss * (n - before), SPREAD * math.sqrt(n - before))
        before = n
        mean, se = total / n, SPREAD / math.sqrt(n)
        if n >= 512 and mean - (Z + margin) * (MOST / n) ** spend * se >= LINE:
            return True, n
        if mean + Z * se < LINE or n == MOST:
            return False, n
        if n >= since:
            if give_up == "old":  # the line would still be inside at 4,096 deals
                hopeless = abs(mean - LINE) < Z * se_most
            else:  # a luckier mean by ``odds`` predictive errors would not clear at 4,096
                hopeless = (
                    mean + odds * se_most * math.sqrt((MOST - n) / n)
                    < LINE + (Z + margin) * se_most
                )
            if hopeless:
                return False, n
    return False, most


RULES = (
    ("the coach before: z at every look, given up as before from 2,048", 0.0, "old", 0, 2048),
    ("never given up", 0.0, "old", 0, MOST),
    ("given up from 1,024 when 2 predictive errors luckier would not clear", 0.0, "odds", 2, 1024),
    ("and alpha spending, spend 0.25 (the coach now)", 0.25, "odds", 2, 1024),
    ("and alpha spending, spend 0.5", 0.5, "odds", 2, 1024),
    ("a mark decided on the last look alone (spend 5)", 5.0, "odds", 2, 1024),
    ("the coach now, judged on at most 8,192 deals", 0.25, "odds", 2, 1024, 8192),
    ("the coach now, judged on at most 16,384 deals", 0.25, "odds", 2, 1024, 16384),
    ("the coach now, a margin of 1 standard error", 0.25, "odds", 2, 1024, MOST, 1.0),
    ("the coach now, a margin of 2 standard errors", 0.25, "odds", 2, 1024, MOST, 2.0),
    ("the coach now, a margin of 3 standard errors", 0.25, "odds", 2, 1024, MOST, 3.0),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    args = parser.parse_args()
    se_most = SPREAD / math.sqrt(MOST)
    deltas = [d / 4 for d in range(-12, 41)]  # -3 to 10 standard errors, by a quarter
    for name, spend, give_up, odds, since, *most in RULES:
        rng = random.Random(1)
        width, deals, half = 0.0, 0.0, None
        for d in deltas:
            runs = [judge(rng, LINE + d * se_most, spend, give_up, odds, since, *most)
                    for _ in range(args.reps)]  # fmt: skip
            p = sum(m for m, _ in runs) / args.reps
            width += 2 * p * (1 - p) / 4
            deals += sum(n for _, n in runs) / args.reps / len(deltas)
            half = d if half is None and p >= 0.5 else half
        print(f"{name}: band {width:.2f} standard errors, marked half the times at "
              f"{half} over the line, {deals:.0f} deals a move")  # fmt: skip


if __name__ == "__main__":
    main()
