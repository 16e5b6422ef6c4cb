"""bench.live's work through the site's own code, on its ORM thread: people logged in,
tables made and advanced the way the bench's people play, and the checks after a run
(every answered move logged once, every stored game replays). Imported by the runs
(bench/live_run.py, bench/live_arena.py) and bench/presence.py; imports no other part
of the bench, so bench/ has no import circle (tests/test_architecture.py)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any


def make_people(count: int, prefix: str = "live") -> list[tuple[int, str]]:
    """Users, each logged in: (user id, the Cookie header a browser would send)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    people = []
    for index in range(count):
        # No password: hashing one is slow on purpose, and the session is all a socket needs.
        user = get_user_model().objects.create_user(f"{prefix}{index}")
        session = store_class()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        people.append((user.pk, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return people


def make_game(user_ids: list[int], bots: str | bool) -> int:
    """A dealt table for these people (the first makes it, the others join), or for one
    person and two bots of the level ``bots``."""
    from django.contrib.auth import get_user_model

    from games.play import tables

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    people = [users[pk] for pk in user_ids]
    if bots:
        return tables.create_table(people[0], others=(bots, bots)).pk
    game = tables.create_table(people[0], others=("open", "open"))
    for person in people[1:]:
        tables.join_table(game.pk, person)
    return game.pk


def advance(game_id: int, moves: int) -> int:
    """Play up to ``moves`` moves of a dealt game, the way the bench's people play
    (bench/live_frames.choose), through the site's own service, and stop before the stock
    runs low: the moves made.

    Tables that all start at their first move all end their games within a second or
    two of each other, some 35 s later at ``--think 1``, and every socket of the run
    reconnects at once: a herd in the middle of the window, which ``--herd`` measures on
    its own. A site that has been running has its games at every stage, ending at a
    steady rate; tables started at random points of their games are that site.
    """
    from games.engine.rules import apply
    from games.engine.view import seat_view
    from games.models import Game
    from games.play import moves as play_moves

    game = Game.objects.get(pk=game_id)
    state = play_moves.game_state(game)
    users = {s.index: s.user for s in game.seats.select_related("user")}
    made = 0
    while made < moves and state.outcome is None and len(state.stock) - state.stock_pos > 3:
        view = next(v for v in map(lambda s: seat_view(state, s), range(3)) if v.legal)
        move = plain_move(view)
        payload = {k: v for k, v in move.to_dict().items() if k != "seat"}
        play_moves.submit_move(game_id, users[view.seat], payload, expected_seq=game.seq + made)
        state = apply(state, move)
        made += 1
    return made


def plain_move(view):
    """bench/live_frames.choose in the engine's terms: fold, draw, meld three, discard
    the card worth most, fight."""
    from games.engine.cards import points, rank_of
    from games.engine.moves import DISCARD, DRAW, FIGHT, FOLD, MELD

    kinds: dict[str, list] = {}
    for move in view.legal:
        kinds.setdefault(move.type, []).append(move)
    threes = [m for m in kinds.get(MELD, ()) if m.cards.bit_count() == 3]
    for choice in (kinds.get(FOLD), kinds.get(DRAW), threes):
        if choice:
            return choice[0]
    if kinds.get(DISCARD):
        return max(kinds[DISCARD], key=lambda m: (points(m.cards), rank_of(m.card)))
    return (kinds.get(FIGHT) or view.legal)[0]


def count_moves() -> int:
    from games.models import Move

    return Move.objects.count()


def current_seqs(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))


def verify(stats, game_ids: list[int]) -> dict[str, Any]:
    """Every answered move is logged exactly once, nothing is logged that no client sent,
    and every seat's last board showed its game's final seq."""
    from games.models import Game, Move

    rows = Move.objects.filter(game_id__in=game_ids, client_move_id__isnull=False)
    logged = Counter(rows.values_list("game_id", "client_move_id"))
    seqs = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))
    unanswered = stats.sent_ids - stats.answered_ids
    behind = [
        f"game {g} seat {s}: saw {seen}, game at {seqs.get(g)}"
        for (g, s), seen in stats.last_seqs.items()
        if seen != seqs.get(g)
    ]
    kinds = Counter(
        Move.objects.filter(game_id__in=game_ids).values_list("payload__type", flat=True)
    )
    ends = Counter(
        Game.objects.filter(pk__in=game_ids).exclude(end="").values_list("end", flat=True)
    )
    lost = [key for key in stats.answered_ids if logged[key] == 0]
    lost_examples = []
    for game_id, client_move_id in sorted(lost)[:5]:
        seq, action, seen = stats.answered_how.get((game_id, client_move_id), (-1, "?", -1))
        at = Move.objects.filter(game_id=game_id, seq__in=[seq + 1, seq + 2]).order_by("seq")
        logged_there = [
            f"{m.seq}: seat {m.seat} {m.payload.get('type')}" + (" (server)" if m.by_server else "")
            for m in at
        ]
        lost_examples.append(
            f"game {game_id} (at seq {seqs.get(game_id)}): {action} sent at seq {seq}, "
            f"answered by a board at {seen}; logged {logged_there}"
        )
    return {
        "lost_examples": lost_examples,
        "move_kinds": dict(kinds.most_common()),
        "game_ends": dict(ends.most_common()),
        "lost": sum(1 for key in stats.answered_ids if logged[key] == 0),
        "doubled": sum(1 for n in logged.values() if n > 1),
        "unknown_logged": sum(1 for key in logged if key not in stats.sent_ids),
        "unanswered": len(unanswered),
        "unanswered_but_logged": sum(1 for key in unanswered if logged[key]),
        "seats_behind": len(behind),
        "seats_behind_examples": behind[:3],
        "games": len(game_ids),
    }


def replay_stored() -> dict[str, Any]:
    """``manage.py replay --stored`` on the bench database: every stored game replays."""
    import io

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("replay", stored=True, stdout=out, stderr=err)
        status = 0
    except SystemExit as e:  # the command's way of giving an exit status
        status = e.code if isinstance(e.code, int) else 1
    lines = out.getvalue().strip().splitlines() or ["{}"]
    try:
        summary = json.loads(lines[-1])
    except ValueError:
        summary = {"output": lines[-1][:200]}
    return {"exit": status, **summary, "problems": [line[:300] for line in lines[:-1][:3]]}
