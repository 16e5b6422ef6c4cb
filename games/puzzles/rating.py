"""The puzzle rating's one step, pure: a person and a puzzle meet as two players of
openskill's Plackett-Luce model (as games' ratings use it, ``games.ratings.core``); the
one who "wins" is the person if they found the move, the puzzle if not. Both move.
The number shown is mu × 40, as for games' ratings (a new person and puzzle show 1000)."""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SCALE = 40


def rate(
    person: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """((mu, sigma) of the person, (mu, sigma) of the puzzle) after one answer."""
    teams = [[MODEL.rating(*person)], [MODEL.rating(*puzzle)]]
    (p,), (q,) = MODEL.rate(teams, ranks=[1, 2] if solved else [2, 1])
    return (p.mu, p.sigma), (q.mu, q.sigma)


def shown(mu: float) -> int:
    return round(mu * SCALE)
