"""``manage.py clock``: the server clock on its own, beside the web workers.

Each web worker runs a clock of its own from the moment it starts serving (unless
``TONGITS_CLOCK_IN_WORKERS`` is off); this one keeps the games moving while every worker
restarts, or serves instead of them. Safe to run beside them: each move is made once.
"""

from __future__ import annotations

import asyncio

from django.core.management.base import BaseCommand

from games.play.clock import clock_loop, tick


class Command(BaseCommand):
    help = "Run the server clock: play bots and enforce turn deadlines, until stopped."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--once",
            action="store_true",
            help=(
                "Tick once and exit, as a check. Not a clock to run from cron on its own:"
                " with no other clock running, each run reads the time since the last one"
                " as downtime and gives people back their turn time instead of enforcing it."
            ),
        )

    def handle(self, *args, once: bool = False, **options) -> None:
        if once:
            moves = tick()
            self.stdout.write(f"{moves} move(s) made.")
            return
        try:
            asyncio.run(clock_loop())
        except KeyboardInterrupt:
            pass
