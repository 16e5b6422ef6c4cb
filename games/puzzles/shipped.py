"""The puzzles a fresh site ships with: mined from seeded bot games (``mining.bot_game``:
Easy, Normal, Easy, or from seed 1000 a random seat 0; seats 0 and 2 judged) and kept in
``fixtures/shipped.json``, which the migration 0002 loads (and ``make_puzzle_fixture
--load`` loads again, keeping what is there). ``make_puzzle_fixture`` adds to the file game
by game, merging by seed and by puzzle key: a seed's game and the coach's seeds are fixed,
so a seed gives the same puzzles again (under the same filters, ``mining.SCREEN_SHARE``
and ``mining.FIRST_GIVE_UP``: docs/puzzles.md says which seeds were mined under which)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from . import mining

PATH = Path(__file__).resolve().parent / "fixtures" / "shipped.json"
FIELDS = ("seq", "view", "played", "answer", "also", "line", "theme", "why", "mark", "figures")


def rows_of_game(seed: int) -> dict[str, Any]:
    """{"seed", "puzzles": [row, ...]} of one seeded bot game (run in a worker process)."""
    found = mining.mine_bot_game(seed)
    rows = []
    for f in found:
        data = asdict(f)
        rows.append({"key": f"bot/{seed}/{f.seq}", **{k: data[k] for k in FIELDS}})
    return {"seed": seed, "puzzles": rows}


def read(path: Path = PATH) -> dict[str, Any]:
    """{"games": [seeds mined], "puzzles": [rows]}; empty when there is no file."""
    if not path.exists():
        return {"games": [], "puzzles": []}
    return json.loads(path.read_text())


def write(data: dict[str, Any], path: Path = PATH) -> None:
    """Keep ``data`` in the file: each seed once, each puzzle once by its key (the last of
    a key wins: the same seed and move give the same puzzle), in the order of the keys."""
    puzzles = {r["key"]: r for r in data["puzzles"] if not too_easy(r)}
    data = {
        "games": sorted(set(data["games"])),
        "puzzles": sorted(puzzles.values(), key=lambda r: _order(r["key"])),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    tmp.replace(path)


def too_easy(row: dict[str, Any]) -> bool:
    return mining.too_easy(len(row["view"]["legal"]), len(row["also"]))


def _order(key: str) -> tuple[int, int]:
    _, seed, seq = key.split("/")
    return int(seed), int(seq)


def load(model, path: Path = PATH) -> int:
    """Store the file's puzzles with ``model`` (the Puzzle model, or its historical one in
    a migration), keeping every puzzle already there; return how many rows were new."""
    rows = read(path)["puzzles"]
    before = model.objects.count()
    model.objects.bulk_create(
        [model(key=r["key"], **{k: r[k] for k in FIELDS}) for r in rows],
        ignore_conflicts=True,
        batch_size=200,
    )
    return model.objects.count() - before
