"""Game records in and out of the database: download, upload, integrity, fair deals.

The record (the deal plus the move log) is the game; everything here either builds one
from stored rows or stores one after the engine has replayed it.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext

from games.access import seat_names
from games.engine.cards import CODES
from games.engine.deal import deal_from_seed
from games.engine.moves import InvalidMoveError, Move
from games.engine.record import Record, RecordError, load_record, replay
from games.models import Game, Seat
from games.models import Move as MoveRow
from games.series.models import Hand
from games.words import rule_messages
from games.words.text import encodable


class BadRecord(ValueError):
    """An uploaded record the engine rejects; the message says where and why."""


class AlreadyUploaded(BadRecord):
    """An upload of a record its account has stored already: ``game`` is that copy (a
    series' first hand), to be opened rather than stored again."""

    def __init__(self, message: str, game: Game) -> None:
        super().__init__(message)
        self.game = game


def record_dict(game: Game, moves: list | None = None) -> dict[str, Any]:
    """A finished game as a tongits-record/1 object, with its players and result.

    ``moves`` are the logged payloads, when the caller fetched them with other games'."""
    if not game.revealed:
        raise PermissionError("a game's record is available only after it ends")
    record = game.record(moves).to_dict()
    record["id"] = game.pk
    record["players"] = seat_names(game)
    models = bot_models(game)
    if any(models):
        record["bot_models"] = models
    if game.started_at:
        record["started"] = game.started_at.isoformat()
    if game.seed:
        record["seed"], record["commitment"] = game.seed, game.commitment
    if game.status == Game.Status.ABORTED:
        # Its moves do not end it: this says it will not go on (a series' replay checks it).
        record["aborted"] = True
    return record


def bot_models(game: Game) -> list[str | None]:
    """For each seat, the version of the learned model its bot played with, or None (a
    person, or a bot that uses no model), as stored at the deal: the record's
    ``bot_models`` (docs/record.md). Empty for a game no such bot played."""
    return list(game.bot_models or [])


def stored_difference(game: Game) -> str | None:
    """Replay a stored game's log and say how it differs from what was stored, if it does.

    A finished game must end exactly at its last move with the stored result; a game in
    play must replay without error to its stored seq.
    """
    moves = list(game.moves.order_by("seq").values_list("seq", "payload"))
    if [seq for seq, _ in moves] != list(range(1, len(moves) + 1)):
        return "the move log has a gap or a repeated seq"
    if len(moves) != game.seq:
        return f"the game says seq {game.seq} but the log holds {len(moves)} moves"
    result = replay(game.record([payload for _, payload in moves]))
    if not result.ok:
        return f"move {result.error_move + 1} is illegal: {result.error}"
    return _result_difference(game, result.state.outcome)


def _result_difference(game: Game, outcome) -> str | None:
    if game.status == Game.Status.FINISHED and outcome is None:
        return "stored as finished, but the log does not end the game"
    if game.status != Game.Status.FINISHED:
        return "the log ends the game, but it is not stored as finished" if outcome else None
    stored = (game.winner_seat, game.end, game.points, game.chips, game.burned)
    replayed = (
        outcome.winner, outcome.end, list(outcome.points), list(outcome.chips),
        list(outcome.burned),
    )  # fmt: skip
    if stored != replayed:
        return f"stored result {stored} differs from the replay's {replayed}"
    return None


def verify_deal(game: Game) -> tuple[bool, str]:
    """Check a finished game's revealed seed against its commitment and its deal."""
    if not game.revealed:
        return False, gettext("The seed stays secret until the game ends.")
    if not game.seed:
        return False, gettext("This game has no seed (an uploaded record).")
    if game.deal is None:  # a table called off before its deal
        return False, gettext("This table ended before the cards were dealt: there is no deal.")
    if Game.commit_to(game.seed) != game.commitment:
        return False, gettext("The seed does not match the commitment shown during the game.")
    # A series' later hand is dealt by the last hand's winner: the rule, not the seed,
    # names that dealer, and the seed shuffles the same deck either way.
    named = game.dealer if _dealer_named_by_series(game) else None
    dealer, hands, stock = deal_from_seed(int(game.seed), named)
    dealt = {
        "dealer": dealer,
        "hands": [[CODES[c] for c in hand] for hand in hands],
        "stock": [CODES[c] for c in stock],
    }
    if dealt != game.deal:
        return False, gettext("The seed matches its commitment, but it does not give this deal.")
    return True, gettext("The seed matches its commitment and gives exactly this deal.")


def _dealer_named_by_series(game: Game) -> bool:
    return Hand.objects.filter(game_id=game.pk, number__gt=1).exists()


# --- The same record uploaded again -------------------------------------------------------
# Before the engine replays an upload: a copy already stored replayed whole, so a record
# the same as it would too. A record that cannot be read is no copy of anything; the
# engine then says what is wrong with it.


def same_game_key(record: Record) -> tuple | None:
    """What makes two records one game: the dealer, each hand's cards (in any order), the
    stock in its order, the variants, and the moves as the engine writes them (their cards
    in any order, keys it ignores left out); None if a move cannot be read."""
    try:
        moves = tuple(json.dumps(Move.from_dict(m).to_dict(), sort_keys=True) for m in record.moves)
    except InvalidMoveError:
        return None
    hands = tuple(tuple(sorted(hand)) for hand in record.hands)
    return record.dealer, hands, tuple(record.stock), tuple(sorted(record.variants)), moves


def _key_of(data: str | bytes | dict) -> tuple | None:
    try:
        return same_game_key(load_record(data))
    except RecordError:
        return None


def _uploads_of(user: AbstractBaseUser | None):
    if user is None or not user.is_authenticated:
        return Game.objects.none()  # an upload by nobody (``manage.py import_record``)
    return Game.objects.filter(created_by=user, imported=True)


def uploaded_game(data: str | bytes | dict, user: AbstractBaseUser | None) -> Game | None:
    """The account's stored upload of the same game as ``data``, if any."""
    key = _key_of(data)
    if key is None:
        return None
    dealer, moves = key[0], key[-1]
    for game in _uploads_of(user).filter(dealer=dealer, seq=len(moves)).order_by("pk"):
        # The deal first, from the game's row: its moves are read only if that agrees.
        deal = same_game_key(game.record([]))
        if deal is not None and deal[:-1] == key[:-1] and same_game_key(game.record()) == key:
            return game
    return None


def uploaded_series(data: dict[str, Any], user: AbstractBaseUser | None) -> Game | None:
    """The first hand of the account's stored upload of the same series as ``data``, if
    any: the same ante, end and hands, in the same order."""
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        return None
    keys = [_key_of(hand) for hand in hands]
    if None in keys:
        return None
    ended = bool(data.get("ended"))
    try:
        people = sorted(set(data.get("people_at_end", []))) if ended else []
    except TypeError:
        return None  # not a list of seats: the series' reader says so
    first = (
        _uploads_of(user)
        .filter(series_hand__number=1, series_hand__series__imported=True)
        .annotate(hands=Count("series_hand__series__hands"))
        .filter(hands=len(keys))
    )
    for game in first.select_related("series_hand__series").order_by("pk"):
        series = game.series_hand.series
        if (series.ante, series.ended_at is not None, series.people_at_end) != (
            data.get("ante"), ended, people,
        ):  # fmt: skip
            continue
        stored = list(
            Game.objects.filter(series_hand__series=series).order_by("series_hand__number")
        )
        logs: dict[int, list] = {g.pk: [] for g in stored}
        rows = MoveRow.objects.filter(game__in=stored).order_by("game_id", "seq")
        for game_id, payload in rows.values_list("game_id", "payload"):
            logs[game_id].append(payload)
        if [same_game_key(g.record(logs[g.pk])) for g in stored] == keys:
            return game
    return None


def import_game_record(
    data: str | bytes | dict,
    user: AbstractBaseUser | None,
    bots: list[str | None] | None = None,
) -> Game:
    """Store an uploaded game record as an imported game, after the engine replays it.
    ``bots``: each seat's bot kind, or None for a person (a series record says so)."""
    return import_game_records([(data, bots)], user)[0]


def import_game_records(
    items: list[tuple[str | bytes | dict, list[str | None] | None]],
    user: AbstractBaseUser | None,
) -> list[Game]:
    """Store uploaded game records (each with its seats' bots) as imported games, in
    order, once the engine has replayed every one: four inserts however many there are
    (a series' hands come in one upload)."""
    read = []
    for data, bots in items:
        try:
            record = load_record(data)
        except RecordError as e:
            raise BadRecord(cannot_read(str(e))) from None
        result = replay(record)
        if not result.ok:
            raise BadRecord(move_refused(result.error_move, result.error))
        raw = data if isinstance(data, dict) else json.loads(data)
        names = _checked_names(raw.get("players"))
        read.append((record, result, names, bots or [None] * 3))
    return _store_imports(read, user)


def cannot_read(reason: str) -> str:
    """An upload's message for a record the engine cannot read at all."""
    return gettext("The record cannot be read: %(reason)s.") % {
        "reason": rule_messages.unreadable(reason)
    }


def move_refused(index: int, error: str) -> str:
    """An upload's message for a record whose move ``index`` (from 0) the engine refused:
    its number, then the rule's sentence."""
    return gettext("Move %(number)s cannot be played. %(reason)s") % {
        "number": index + 1,
        "reason": rule_messages.refused_move(error),
    }


def _checked_names(players: object) -> list[str]:
    """Three names to show for the seats, or blanks when the record has no such list."""
    if not (isinstance(players, list) and len(players) == 3):
        return [""] * 3
    names = [str(p) if p else "" for p in players]
    for index, name in enumerate(names):
        if not encodable(name):
            raise BadRecord(
                gettext("The name of player %(number)s is not text.") % {"number": index + 1}
            )
    # Without NULs, which PostgreSQL refuses in a text column.
    return [name.replace("\x00", "")[:40] for name in names]


def _imported_game(record, result, user) -> Game:
    o = result.state.outcome
    game = Game(
        created_by=user, public=False, imported=True, variants=record.variants,
        status=Game.Status.FINISHED if o else Game.Status.ABORTED,
        deal={
            "dealer": record.dealer,
            "hands": [[CODES[c] for c in h] for h in record.hands],
            "stock": [CODES[c] for c in record.stock],
        },
        dealer=record.dealer, seq=len(result.applied),
        abort_reason="" if o else Game.UNFINISHED_UPLOAD,
    )  # fmt: skip
    if o is not None:
        game.winner_seat, game.end = o.winner, o.end
        game.points, game.chips, game.burned = list(o.points), list(o.chips), list(o.burned)
    return game


@transaction.atomic
def _store_imports(read: list, user) -> list[Game]:
    games = Game.objects.bulk_create(
        [_imported_game(record, result, user) for record, result, _, _ in read]
    )
    Seat.objects.bulk_create(
        Seat(game=game, index=index, display_name=name, bot_kind=bot or "")
        for game, (_, _, names, bots) in zip(games, read, strict=True)
        for index, (name, bot) in enumerate(zip(names, bots, strict=True))
    )
    MoveRow.objects.bulk_create(
        MoveRow(game=game, seq=i, seat=m.seat, payload=m.to_dict())
        for game, (_, result, _, _) in zip(games, read, strict=True)
        for i, m in enumerate(result.applied, start=1)
    )
    return games
