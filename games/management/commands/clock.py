"""``manage.py clock``: the server clock on its own, beside the web workers.

Useful in production so that bots move and turn clocks run out even while no web worker
has had a request yet. Safe to run beside clocks in the workers: each move is made once.
"""

from __future__ import annotations

import asyncio

from django.core.management.base import BaseCommand

from games.clock import clock_loop, tick


class Command(BaseCommand):
    help = "Run the server clock: play bots and enforce turn deadlines, until stopped."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--once", action="store_true", help="Tick once and exit (for cron or a check)."
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
