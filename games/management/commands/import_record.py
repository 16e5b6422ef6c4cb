"""``manage.py import_record FILE``: replay a tongits-record/1 and store it for replay."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.history.records import BadRecord
from games.history.uploads import import_record


class Command(BaseCommand):
    help = "Import a tongits-record/1 file (- for standard input) as a replayable game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args, file: str, **options) -> None:
        try:
            data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as e:
            raise CommandError(f"cannot read {file}: {e.strerror}") from None
        try:
            game = import_record(data, user=None)
        except BadRecord as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"imported as game {game.pk}")
