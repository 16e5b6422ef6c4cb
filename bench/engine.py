"""How fast the rules engine is on one core: ``python -m bench.engine [--seconds S]``.

Two measurements, each for about S seconds:

- random playouts: new deals played to the end, every move drawn uniformly from
  ``legal_moves`` and then applied, which is the work a bot or a server does per move;
- replays: the median time to load a finished game's record and replay it, which is the
  work the server does to rebuild a game from its move log.

The last line of standard output is one JSON object for scripts; the lines before it are
for people. Nothing here imports Django, so the figures are the engine's alone.

When OpenSpiel's Python package is installed (``pip install -r bench/requirements-compare.txt``,
kept out of the project's requirements), the same run also times random playouts of its C++
``gin_rummy`` driven from Python, counting player decisions only (not its chance nodes, the
deal), and prints the ratio: the target is at least 1.25 times OpenSpiel's figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from games.engine import (
    GameState,
    Move,
    Record,
    apply,
    deal_from_seed,
    legal_moves,
    load_record,
    new_game,
    replay,
)


def play_random(seed: int, rng: random.Random) -> tuple[list[Move], GameState]:
    """The moves of one game dealt from ``seed`` with uniformly random legal moves."""
    state = new_game(seed)
    moves = []
    while state.outcome is None:
        move = rng.choice(legal_moves(state))
        state = apply(state, move)
        moves.append(move)
    return moves, state


def playouts(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """(games, moves, elapsed seconds) of random playouts for about ``seconds``."""
    games = moves = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        played, _ = play_random(rng.getrandbits(64), rng)
        games += 1
        moves += len(played)
    return games, moves, elapsed


def finished_records(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Records (as JSON-ready dicts) of ``count`` finished random games."""
    out = []
    for _ in range(count):
        seed = rng.getrandbits(64)
        dealer, hands, stock = deal_from_seed(seed)
        moves, _ = play_random(seed, rng)
        out.append(Record(dealer, hands, stock, moves).to_dict())
    return out


def greedy_records(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Records of ``count`` games between three greedy bots: longer games, like real ones."""
    from games.bots import choose
    from games.engine import seat_view

    out = []
    for _ in range(count):
        seed = rng.getrandbits(64)
        dealer, hands, stock = deal_from_seed(seed)
        state, moves = new_game(seed), []
        while state.outcome is None:
            move = choose("greedy", seat_view(state, state.turn), rng)
            state = apply(state, move)
            moves.append(move)
        out.append(Record(dealer, hands, stock, moves).to_dict())
    return out


def replay_ms(records: list[dict[str, Any]], seconds: float) -> float:
    """Median ms to load and replay one record, over passes through all of them."""
    times: list[float] = []
    started = time.perf_counter()
    while not times or time.perf_counter() - started < seconds:
        for data in records:
            begin = time.perf_counter()
            result = replay(load_record(data))
            times.append(time.perf_counter() - begin)
            if not result.ok or result.state.outcome is None:
                raise RuntimeError(f"a record did not replay to its end: {result.error}")
    return 1000 * statistics.median(times)


def openspiel_moves_per_s(seconds: float, rng: random.Random) -> float | None:
    """Player moves a second of random gin_rummy playouts in OpenSpiel, if installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    moves = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                moves += 1
    return moves / elapsed


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement (5)")
    parser.add_argument("--records", type=int, default=200, help="records to replay (200)")
    parser.add_argument("--seed", type=int, default=None, help="for repeatable deals")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    games, moves, elapsed = playouts(args.seconds, rng)
    print(f"random playouts: {games} games, {moves} moves in {elapsed:.1f} s on one core")
    replay_median = replay_ms(finished_records(args.records, rng), args.seconds)
    print(f"replay: median {replay_median:.3f} ms a record over {args.records} records")
    bot_records = greedy_records(args.records, rng)
    bot_moves = statistics.mean(len(r["moves"]) for r in bot_records)
    bot_median = replay_ms(bot_records, args.seconds)
    print(f"replay of greedy-bot games ({bot_moves:.0f} moves on average): {bot_median:.3f} ms")
    figures = {
        "games_per_s": round(games / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "replay_ms": round(replay_median, 4),
        "replay_ms_bot_games": round(bot_median, 4),
    }
    reference = openspiel_moves_per_s(args.seconds, rng)
    if reference is None:
        print("OpenSpiel not installed: no reference figure (bench/requirements-compare.txt)")
    else:
        figures["openspiel_moves_per_s"] = round(reference, 1)
        figures["ratio_to_openspiel"] = round(moves / elapsed / reference, 2)
        print(f"OpenSpiel gin_rummy: {reference:.0f} player moves/s in this run")
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
