"""Scoring a finished game's pairs of accounts into their kept evidence.

The games fair play counts (``counted_games``) are the ones something rides on: rated
games (the ratings) and every hand of a series (its pot), casual or challenge series as
much as rated ones; uploaded games never. ``score_game`` runs in the background task
(``tasks.py``) after such a game ends, and may be run again for the same game:
``ScoredGame`` makes each game count once. A game is scored only once it has finished, so
nothing here ever reads a hand of a game in play.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.engine import Move
from games.history.stats import counted_seats, own
from games.models import Game, Seat

from .detector import ODDS, PairScore, feed_log_ratios
from .features import GameFeatures, feeds_between, game_features
from .models import Pair, PairGame, ScoredGame

log = logging.getLogger(__name__)

# The moments a staff member is sent to: fitted discards the discarder's view gave at most
# this chance, the rarest first, a few a game.
MOMENT_CHANCE = 0.25
MOMENTS = 3
# A player's edge (mean chips a game elsewhere) is drawn towards 0 as if it had this many
# more games at 0: a few lucky games are no edge.
EDGE_PRIOR = 20
# The odds ratio whose log-likelihood ratio orders a pair's games on the staff page.
WEIGHT_ODDS = ODDS.index(3.0)


def stakes(via: str = "") -> Q:
    """What rides on a game fair play counts: its rating, or a series' pot; ``via`` the
    path to the game from the rows filtered (``"game__"`` from a seat)."""
    return Q(**{f"{via}rated": True}) | Q(**{f"{via}series_hand__isnull": False})


def counted_games() -> QuerySet[Game]:
    """The finished games fair play scores and staff may void: rated ones and every hand
    of a series (each has a pot), played here (not uploaded)."""
    return Game.objects.filter(stakes(), status=Game.Status.FINISHED, imported=False)


def score_game(game_id: int) -> int:
    """Add a finished counted game (rated, or a series' hand) to the evidence of each pair
    of accounts at it; how many pairs it added to (0 for a game already scored, casual
    outside a series, unfinished or uploaded). The game's row is not locked: a finished
    game's deal and log never change."""
    with transaction.atomic():
        game = counted_games().filter(pk=game_id).first()
        if game is None:
            return 0
        if not _claim(game):
            return 0
        seats = list(game.seats.all())
        users = {s.index: s.user_id for s in seats if s.user_id}
        if len(set(users.values())) < 2:
            return 0
        record = game.record()
        moves = [Move.from_dict(m) for m in record.moves]
        features = game_features(record.initial_state(), moves)
        edges = _edges(game, seats)
        pairs = [
            sorted([(a, users[a]), (b, users[b])], key=lambda seat_user: seat_user[1])
            for a, b in ((0, 1), (0, 2), (1, 2))
            if a in users and b in users and users[a] != users[b]
        ]
        # Pairs' rows are locked in one order (by their users' ids) by every worker, so two
        # workers scoring games of the same people never wait for each other in a circle.
        pairs.sort(key=lambda pair: (pair[0][1], pair[1][1]))
        by_index = {s.index: s for s in seats}
        for first, second in pairs:
            third = 3 - first[0] - second[0]
            pair_edges = list(edges)
            pair_edges[third] = _edge(game, by_index[third], (first[1], second[1]))
            _add(game, features, first, second, tuple(pair_edges))
        added = len(pairs)
    log.info("Fair play scored game %s: %s pairs.", game_id, added)
    return added


def _claim(game: Game) -> bool:
    try:
        with transaction.atomic():
            ScoredGame.objects.create(game=game)
    except IntegrityError:
        return False
    return True


def _pair(low: int, high: int) -> Pair:
    try:
        with transaction.atomic():
            Pair.objects.get_or_create(low_id=low, high_id=high)
    except IntegrityError:
        pass  # made at the same moment by another worker
    return Pair.objects.select_for_update().get(low_id=low, high_id=high)


def _edges(game: Game, seats: list) -> tuple[float, float, float]:
    """Each seat's mean chips a game in its other counted games (rated, or a series'
    hand) finished before this one (a person's own, a bot level's together), drawn towards
    0 by EDGE_PRIOR games: the chip signals' baseline. Voided games do not count
    (``counted_seats``)."""
    out = [0.0, 0.0, 0.0]
    for seat in seats:
        out[seat.index] = _edge(game, seat)
    return out[0], out[1], out[2]


def _edge(game: Game, seat, apart: tuple[int, int] | None = None) -> float:
    """One seat's edge (``_edges``); with ``apart`` (a pair's two accounts) only from the
    games at which the two did not sit together: the third seat's results apart from the
    pair, against which its results with the pair together are set (issue 49). Its games
    with the pair are left out, or a pair taking chips from it would lower its own
    baseline and hide itself."""
    if seat.user_id:
        others = counted_seats().filter(user_id=seat.user_id)
    elif seat.bot_kind:
        others = counted_seats().filter(bot_kind=seat.bot_kind, user__isnull=True)
    else:
        return 0.0
    others = others.filter(stakes("game__"), game__finished_at__lt=game.finished_at)
    if apart is not None:
        together = Seat.objects.filter(user_id=apart[0], game__seats__user_id=apart[1])
        others = others.exclude(game_id__in=together.values("game_id"))
    row = others.aggregate(total=Coalesce(Sum(own("chips")), 0), n=Count("id"))
    return row["total"] / (row["n"] + EDGE_PRIOR)


def _add(game: Game, features: GameFeatures, first: tuple, second: tuple, edges: tuple):
    """Add the game to the pair of (seat, user) ``first`` and ``second``, lower user first."""
    (seat_a, user_a), (seat_b, user_b) = first, second
    pair = _pair(user_a, user_b)
    score = _kept(pair)
    score.add_game(features, seat_a, seat_b, edges)
    pair.logs, pair.games, pair.feeds = score.logs, score.games, score.feeds
    pair.fits, pair.expected, pair.score, pair.peak = (
        score.fits, score.expected, score.score, score.peak,
    )  # fmt: skip
    pair.signals = {
        "layoffs": score.layoffs, "answers": score.answers, "calls": score.calls,
        "chips": score.chips, "opens": score.opens,
    }  # fmt: skip
    pair.parts = score.parts()
    if score.flagged_at is not None and pair.flagged_after is None:
        pair.flagged_after, pair.flagged_at = score.flagged_at, timezone.now()
    pair.evidence = _evidence(pair.evidence, features, (seat_a, user_a), (seat_b, user_b))
    pair.save()
    feeds = feeds_between(features, seat_a, seat_b)
    weights = [feed_log_ratios(f.chance, f.fits)[WEIGHT_ODDS] for f in feeds]
    rare = sorted(
        (f for f in feeds if f.fits and f.chance <= MOMENT_CHANCE), key=lambda f: f.chance
    )
    PairGame.objects.create(
        pair=pair, game=game, weight=sum(weights), feeds=len(feeds),
        fits=sum(f.fits for f in feeds), expected=sum(f.chance for f in feeds),
        moments=[[f.ply + 1, round(f.chance, 3)] for f in rare[:MOMENTS]],
    )  # fmt: skip


def _kept(pair: Pair) -> PairScore:
    """The pair's score as kept; a row from before the present shape starts afresh."""
    score = PairScore()
    signals = pair.signals or {}
    if len(pair.logs or []) != len(score.logs) or not signals:
        return score
    score.logs = list(pair.logs)
    score.layoffs, score.answers, score.calls, score.chips = (
        list(signals["layoffs"]), list(signals["answers"]), list(signals["calls"]),
        list(signals["chips"]),
    )  # fmt: skip
    if "opens" in signals:  # kept since the open signal (issue 49); before it, none counted
        score.opens = list(signals["opens"])
    score.games, score.feeds, score.fits, score.expected = (
        pair.games, pair.feeds, pair.fits, pair.expected,
    )  # fmt: skip
    score.peak, score.flagged_at = pair.peak, pair.flagged_after
    return score


EVIDENCE_KEYS = ("layoffs", "withheld", "folds", "folds_that_would_win", "fights", "paid")


def _evidence(old: dict, features: GameFeatures, a: tuple[int, int], b: tuple[int, int]) -> dict:
    """Counts per direction (``"low>high"`` and ``"high>low"``) and the third seat's chips."""
    out = {key: dict(value) for key, value in (old or {}).items() if isinstance(value, dict)}
    third_chips = int(old.get("third_chips", 0)) if old else 0
    for (seat, user), (other, partner) in ((a, b), (b, a)):
        key = f"{user}>{partner}"
        row = out.setdefault(key, dict.fromkeys(EVIDENCE_KEYS, 0))
        counts = features.counts.get((seat, other))
        if counts is not None:
            for name in EVIDENCE_KEYS[:-1]:
                row[name] = row.get(name, 0) + getattr(counts, name)
        row["paid"] = row.get("paid", 0) + features.paid.get((seat, other), 0)
    third = 3 - a[0] - b[0]
    out["third_chips"] = third_chips + features.chips[third]
    return out
