"""``manage.py arena``: bots play each other in the engine and the command reports how
each listed entry did. Nothing touches the database.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper

from games.bots import BOT_KINDS
from games.bots.arena import (
    MIXES,
    ArenaResult,
    default_jobs,
    describe_paired,
    parse_mixes,
    play_arena,
    play_paired,
)

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Play bot games in the engine and print each seat entry's win rate and mean chips."
    requires_system_checks: list[str] = []  # an engine-only command needs no project checks

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100, help="how many games (100)")
        parser.add_argument(
            "--seats",
            default="greedy,random,random",
            help=f"three bot kinds, comma-separated, from {', '.join(BOT_KINDS)}",
        )
        parser.add_argument("--seed", type=int, default=0, help="the arena's seed (0)")
        parser.add_argument(
            "--jobs",
            type=int,
            default=default_jobs(),
            help="processes to play the games in (one a core); the results do not depend on it",
        )
        parser.add_argument("--json", action="store_true", help="end with one JSON line")
        parser.add_argument(
            "--paired",
            action="store_true",
            help="play each deal twice, --hero then --base in the same seat against each of "
            "--mixes, and print the paired differences (--games counts deals a mix)",
        )
        parser.add_argument("--hero", default="hard", help="with --paired: the bot under test")
        parser.add_argument("--base", default="greedy", help="with --paired: the baseline")
        parser.add_argument(
            "--mixes",
            default=",".join(MIXES),
            help=f"with --paired: opponent mixes, comma-separated, from {', '.join(MIXES)}",
        )

    def handle(self, *args, **options) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["jobs"] < 1:
            raise CommandError("--jobs must be at least 1")
        if options["paired"]:
            self._paired(options)
            return
        kinds = [k.strip() for k in options["seats"].split(",")]
        try:
            result = play_arena(
                kinds, games, options["seed"], ProgressBar(self.stderr), jobs=options["jobs"]
            )
        except ValueError as e:
            raise CommandError(str(e)) from None
        self._report(result, as_json=options["json"])

    def _paired(self, options: dict) -> None:
        try:
            mixes = parse_mixes(options["mixes"])
            results = [
                play_paired(
                    options["hero"],
                    options["base"],
                    MIXES[mix],
                    options["games"],
                    options["seed"],
                    ProgressBar(self.stderr),
                    jobs=options["jobs"],
                )
                for mix in mixes
            ]
        except ValueError as e:
            raise CommandError(str(e)) from None
        for result in results:
            self.stdout.write("\n".join(describe_paired(result)))
        if options["json"]:
            self.stdout.write(json.dumps([r.to_dict() for r in results]))

    def _report(self, result: ArenaResult, as_json: bool) -> None:
        self.stdout.write(f"{result.games} games, seats rotating game by game")
        for number, entry in enumerate(result.entries, 1):
            low, high = entry.win_rate_interval()
            chips = entry.mean_chips_interval()
            chips_ci = f" (95% CI {chips[0]:+.2f} to {chips[1]:+.2f})" if chips else ""
            self.stdout.write(
                f"{number}. {entry.kind:<7} win rate {entry.win_rate:6.1%} "
                f"(95% CI {low:.1%}-{high:.1%})  mean chips {entry.mean_chips:+.2f}{chips_ci}  "
                f"({entry.ms_per_move:.3f} ms a move, p50 {entry.ms_percentile(0.5):.3f}, "
                f"p95 {entry.ms_percentile(0.95):.3f})"
            )
        if as_json:
            self.stdout.write(json.dumps(result.to_dict()))


class ProgressBar:
    """``[#####     ] 40/100`` on one line, redrawn about every 1% of the games."""

    def __init__(self, stream: OutputWrapper) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int) -> None:
        if done != total and done % max(total // 100, 1):
            return
        filled = BAR_WIDTH * done // total
        bar = "#" * filled + " " * (BAR_WIDTH - filled)
        # str as the style: a progress bar is not an error, whatever stderr's style says.
        ending = "\n" if done == total else ""
        self.stream.write(f"\r[{bar}] {done}/{total}", style_func=str, ending=ending)
        self.stream.flush()
