"""``manage.py replay FILE…``: replay game records and print what the engine makes of them;
a series record (``tongits-series/1``) prints each hand's result and the pot's ledger, a
tournament record (``tongits-tournament/1``) each game's result and the standings again.

Output and exit statuses are those of docs/record.md. ``--stored [--game ID]`` instead
replays games from the database's move logs and reports any whose stored result differs
from the replay: an integrity check staff can run.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.record import replay_text
from games.history.records import stored_difference
from games.models import Game
from games.series import record as series_record
from games.tournaments import record as tournament_record


class Command(BaseCommand):
    help = "Replay tongits-record/1 files (- for standard input), or stored games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", metavar="FILE")
        parser.add_argument("--stored", action="store_true", help="check stored games")
        parser.add_argument("--game", type=int, help="with --stored: only this game")

    def handle(self, *args, files: list[str], stored: bool, game: int | None, **opts) -> None:
        if stored:
            worst = self._check_stored(game)
        elif files:
            worst = self._replay_files(files)
        else:
            raise CommandError("give record files (or - for standard input), or --stored")
        if worst:
            # A management command can only return a status through SystemExit.
            sys.stdout.flush()
            raise SystemExit(worst)

    def _replay_files(self, files: list[str]) -> int:
        worst = 0
        for path in files:
            result, status = _replay_file(path)
            if len(files) > 1:
                result = {"file": path, **result}
            self.stdout.write(json.dumps(result))
            worst = max(worst, status)
        return worst

    def _check_stored(self, game_id: int | None) -> int:
        games = Game.objects.exclude(status=Game.Status.WAITING).exclude(deal=None)
        if game_id is not None:
            games = games.filter(pk=game_id)
            if not games.exists():
                raise CommandError(f"no started game {game_id}")
        total, bad = games.count(), 0
        for done, game in enumerate(games.order_by("pk").iterator(chunk_size=200), start=1):
            problem = stored_difference(game)
            if problem:
                bad += 1
                self.stdout.write(json.dumps({"game": game.pk, "ok": False, "error": problem}))
            if done % 100 == 0 or done == total:
                self.stderr.write(f"\rchecked {done}/{total}", ending="")
        self.stderr.write("")
        self.stdout.write(json.dumps({"checked": total, "differ": bad}))
        return 1 if bad else 0


def _replay_file(path: str) -> tuple[dict, int]:
    try:
        text = sys.stdin.buffer.read() if path == "-" else _read(path)
    except OSError as e:
        return {"ok": False, "move": None, "error": f"cannot read {path}: {e.strerror}"}, 2
    if series_record.parse(text) is not None:
        return series_record.replay_series_text(text)
    if tournament_record.parse(text) is not None:
        return tournament_record.replay_tournament(text)
    return replay_text(text)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()
