"""``manage.py make_puzzle_fixture``: mine seeded bot games for the puzzles a fresh site
ships with (games/puzzles/fixtures/shipped.json), the file kept after every game so a run
cut short keeps what it found and a second run goes on from there (a seed mined is not
mined again, a puzzle is kept once by its key). ``--load`` stores the file's puzzles in
the database (as migration 0002 does). CPU-heavy: run it with ``nice -n 19``, one job, in
ranges of seeds, and commit the file between ranges (docs/puzzles.md)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, as_completed

from django.core.management.base import BaseCommand, CommandParser

from games.puzzles import shipped
from games.puzzles.models import Puzzle


class Command(BaseCommand):
    help = "Mine seeded bot games into games/puzzles/fixtures/shipped.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seeds", default="1-200", help="seeds of the games: A-B")
        parser.add_argument("--puzzles", type=int, default=500, help="stop at this many")
        parser.add_argument("--jobs", type=int, default=1, help="processes")
        parser.add_argument("--load", action="store_true", help="store the file's puzzles")

    def handle(self, *args, seeds: str, puzzles: int, jobs: int, load: bool, **options):
        if load:
            self.stdout.write(f"{shipped.load(Puzzle)} puzzles loaded")
            return
        first, last = (int(x) for x in seeds.split("-"))
        data = shipped.read()
        done = set(data["games"])
        todo = [s for s in range(first, last + 1) if s not in done]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            waiting = [pool.submit(shipped.rows_of_game, seed) for seed in todo]
            for future in as_completed(waiting):
                got = future.result()
                data["games"].append(got["seed"])
                data["puzzles"].extend(got["puzzles"])
                shipped.write(data)
                self.stdout.write(
                    f"seed {got['seed']}: {len(got['puzzles'])} puzzles, "
                    f"{len(data['puzzles'])} in all"
                )
                if len(data["puzzles"]) >= puzzles:
                    for f in waiting:
                        f.cancel()
                    break
        self.stdout.write(f"{len(data['puzzles'])} puzzles from {len(data['games'])} games")
