"""``manage.py replay FILE…``: replay game records and print what the engine makes of them.

The output and exit statuses are those of shared/RECORD.md. With ``--stored`` (see the
history issue) it will check stored games instead; here it reads records only.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from games.engine.record import replay_text


class Command(BaseCommand):
    help = "Replay tongits-record/1 files (- for standard input) and print one JSON result each."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args, files: list[str], **options) -> None:
        worst = 0
        for path in files:
            result, status = _replay_file(path)
            if len(files) > 1:
                result = {"file": path, **result}
            self.stdout.write(json.dumps(result))
            worst = max(worst, status)
        if worst:
            # BaseCommand has no way to return a status other than through SystemExit.
            sys.stdout.flush()
            raise SystemExit(worst)


def _replay_file(path: str) -> tuple[dict, int]:
    try:
        text = sys.stdin.buffer.read() if path == "-" else _read(path)
    except OSError as e:
        return {"ok": False, "move": None, "error": f"cannot read {path}: {e.strerror}"}, 2
    return replay_text(text)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()
