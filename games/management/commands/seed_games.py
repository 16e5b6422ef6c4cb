"""``manage.py seed_games --user NAME --games 1000 [--seed S] [--rated] [--series-every N]``:
finished games for a player.

Each game is dealt from a seed as ``dealing.start_game`` deals (the seed, its commitment
and the deal are stored), played out in the engine by bots in all three seats, the user's
seat by the greedy bot, and stored in bulk with its result: a realistic history for
trying out or timing the history, profile and replay pages. ``replay --stored`` passes
on what it makes, since every row comes from the engine.

``--rated`` makes the games rated and rebuilds the ratings from them at the end (as
``recompute_ratings`` does); ``--series-every N`` makes every Nth game the first hand of a
series of three, whose later hands are dealt by the winner of the hand before, at the same
seats (the user's and the same bots), as a series table deals them.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from games import bots
from games.engine import GameState, Move, apply, seat_view
from games.engine.cards import CODES, mask_of
from games.engine.deal import deal_from_seed
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.ratings import core as ratings
from games.series.models import Hand, Series

BATCH = 250
OPPONENTS = ("greedy", "random")
SERIES_HANDS = 3


@dataclass
class Played:
    seed: int
    kinds: list[str]  # "" for the user's seat
    moves: list[Move]
    state: GameState
    dealer: int | None = None  # given (a series' later hand), else drawn from the seed
    hand: int = 0  # its number in a series, 0: not in one


class Command(BaseCommand):
    help = "Make finished games of USER against bots, played by the engine, quickly."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="username; created if missing")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, help="for the same games every time")
        parser.add_argument("--days", type=int, default=60, help="spread games over this")
        parser.add_argument("--password", help="for a new user (else it cannot log in)")
        parser.add_argument("--rated", action="store_true", help="rated games, ratings rebuilt")
        parser.add_argument(
            "--series-every", type=int, default=0, metavar="N",
            help="every Nth game starts a series of three hands (0: none)",
        )  # fmt: skip

    def handle(self, *args, user: str, games: int, seed: int | None, days: int, **opts):
        every = opts.get("series_every") or 0
        if games < 0 or days < 1 or every < 0 or 0 < every < SERIES_HANDS:
            raise CommandError(
                f"--games must be 0 or more, --days 1 or more, --series-every 0 or {SERIES_HANDS} "
                "or more"
            )
        player = _user(user, opts.get("password"))
        rated = bool(opts.get("rated"))
        rng = random.Random(secrets.randbits(64) if seed is None else seed)
        starts = _start_times(rng, games, days)
        played: Played | None = None
        series: list[list[Game]] = []
        for first in range(0, games, BATCH):
            batch = []
            for index in range(first, min(first + BATCH, games)):
                hand = index % every + 1 if every else 0
                hand = hand if hand <= SERIES_HANDS else 0
                # A series' later hand is dealt by the winner of the hand before.
                later = played is not None and hand > 1
                dealer = played.state.outcome.winner if later else None
                # A series keeps its seats: the user and the same bots, hand after hand.
                played = _play(rng, dealer, hand, played.kinds if later else None)
                batch.append(played)
            stored = _store(player, batch, starts[first : first + BATCH], rng, rated)
            for p, game in zip(batch, stored, strict=True):
                if p.hand == 1:
                    series.append([])
                if p.hand:
                    series[-1].append(game)
            self.stderr.write(f"\rseeded {first + len(batch)}/{games} games", ending="")
        self.stderr.write("")
        _store_series(player, series)
        if rated:
            ratings.recompute()
        self.stdout.write(f"{games} finished games for {player.get_username()}")


def _user(name: str, password: str | None) -> AbstractBaseUser:
    user, created = get_user_model().objects.get_or_create(username=name)
    if created:
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save()
    return user


def _start_times(rng: random.Random, games: int, days: int) -> list[datetime]:
    # Oldest first, so game ids grow with time as they do on the site; an hour of slack
    # keeps the last game's moves in the past.
    now = timezone.now() - timedelta(hours=1)
    span = days * 86400 - 3600
    ages = sorted((rng.uniform(0, span) for _ in range(games)), reverse=True)
    return [now - timedelta(seconds=age) for age in ages]


def _play(
    rng: random.Random, dealer: int | None = None, hand: int = 0, kinds: list[str] | None = None
) -> Played:
    """One game played out by bots: ``kinds`` gives the seats ("" the user's), else drawn."""
    seed = rng.getrandbits(128)
    if kinds is None:
        kinds = [rng.choice(OPPONENTS) for _ in range(3)]
        kinds[rng.randrange(3)] = ""
    first, hands, stock = deal_from_seed(seed, dealer)
    state = GameState.new(first, [mask_of(h) for h in hands], tuple(stock), frozenset())
    moves = []
    while state.outcome is None:
        kind = kinds[state.turn] or "greedy"
        move = bots.choose(kind, seat_view(state, state.turn), rng)
        state = apply(state, move)
        moves.append(move)
    return Played(seed, kinds, moves, state, dealer, hand)


@contextmanager
def _given_times() -> Iterator[None]:
    """auto_now_add would stamp every row with now, but seeded games happened in the past."""
    fields = [Game._meta.get_field("created_at"), MoveRow._meta.get_field("created_at")]
    for field in fields:
        field.auto_now_add = False
    try:
        yield
    finally:
        for field in fields:
            field.auto_now_add = True


def _store(
    user: AbstractBaseUser,
    batch: list[Played],
    starts: list[datetime],
    rng: random.Random,
    rated: bool = False,
) -> list[Game]:
    paces = [[timedelta(seconds=rng.uniform(2, 12)) for _ in p.moves] for p in batch]
    games = [
        _game_row(user, p, start, sum(pace, timedelta()), rated)
        for p, start, pace in zip(batch, starts, paces, strict=True)
    ]
    with transaction.atomic(), _given_times():
        Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(game=g, index=i, user=user if not kind else None, bot_kind=kind)
            for g, p in zip(games, batch, strict=True)
            for i, kind in enumerate(p.kinds)
        )
        MoveRow.objects.bulk_create(
            move_row
            for g, p, pace in zip(games, batch, paces, strict=True)
            for move_row in _move_rows(g, p, pace)
        )
    return games


def _store_series(user: AbstractBaseUser, groups: list[list[Game]]) -> None:
    """Each group of hands as a series its player ended after its last hand, still seated
    (so a pot nobody won gives back the player's own antes; the bots' go to the house)."""
    with transaction.atomic():
        for hands in groups:
            mine = next(s.index for s in hands[0].seats.all() if s.user_id == user.pk)
            series = Series.objects.create(
                created_by=user, ante=1, ended_at=hands[-1].finished_at,
                end_reason=Series.ENDED_BY_PLAYER, people_at_end=[mine],
            )  # fmt: skip
            Hand.objects.bulk_create(
                Hand(series=series, game=game, number=n) for n, game in enumerate(hands, 1)
            )


def _game_row(
    user: AbstractBaseUser, p: Played, start: datetime, length: timedelta, rated: bool = False
) -> Game:
    dealer, hands, stock = deal_from_seed(p.seed, p.dealer)
    o = p.state.outcome
    end = start + length
    return Game(
        created_by=user, created_at=start, status=Game.Status.FINISHED, public=False,
        seed=str(p.seed), commitment=Game.commit_to(str(p.seed)),
        deal={
            "dealer": dealer,
            "hands": [[CODES[c] for c in hand] for hand in hands],
            "stock": [CODES[c] for c in stock],
        },
        dealer=dealer, started_at=start, turn_started_at=start, seq=len(p.moves),
        last_move_at=end, finished_at=end, winner_seat=o.winner, end=o.end,
        points=list(o.points), chips=list(o.chips), burned=list(o.burned), rated=rated,
    )  # fmt: skip


def _move_rows(game: Game, p: Played, pace: list[timedelta]) -> Iterator[MoveRow]:
    at = game.started_at
    for seq, (move, gap) in enumerate(zip(p.moves, pace, strict=True), start=1):
        at += gap
        yield MoveRow(
            game=game, seq=seq, seat=move.seat, payload=move.to_dict(),
            by_server=bool(p.kinds[move.seat]), created_at=at,
        )  # fmt: skip
