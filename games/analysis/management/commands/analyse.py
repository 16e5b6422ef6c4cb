"""``manage.py analyse GAME [--json]``: the coach's analysis of a finished game, here and now.

Runs in this process (no worker needed) and stores the result as the background task
would, so the replay page shows it too. A game already analysed is shown, not redone.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError

from games.access import seat_names
from games.analysis import analysis
from games.analysis.models import Analysis
from games.analysis.report import build
from games.models import Game
from games.words.narration import distinct_names


class Command(BaseCommand):
    help = "Analyse every move of each person in a finished game, and print the verdicts."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", type=int, help="the game's number")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, game: int, json: bool = False, **options) -> None:
        found = Game.objects.filter(pk=game).first()
        if found is None:
            raise CommandError(f"There is no game {game}.")
        if found.status != Game.Status.FINISHED:
            raise CommandError(f"Game {game} has not been played to its end.")
        current = analysis.current(found)
        if current is None or current.status == Analysis.Status.FAILED:
            try:
                current = Analysis.objects.create(
                    game=found, total=len(analysis.judged_moves(found)), status="queued"
                )
            except IntegrityError:
                raise CommandError(f"Game {game} is being analysed already.") from None
        if current.active:
            analysis.run(current.pk)
            current.refresh_from_db()
        names = distinct_names(seat_names(found))
        report = build(current, names, found.seq)
        if json:
            self.stdout.write(_json(found, report))
        else:
            self.stdout.write(_text(report))


def _json(game: Game, report) -> str:
    data = {
        "game": game.pk,
        "moves": [
            {
                "seq": v.seq,
                "seat": v.seat,
                "player": v.name,
                "mark": v.mark,
                "close_call": v.close,
                "loss_interval": [v.low, v.high] if v.close else None,
                "played_chips": v.played_chips,
                "best_chips": v.best_chips,
                "loss": v.loss,
                "better": v.better,
                "why": v.why,
                "stake": v.stake,
            }  # fmt: skip
            for v in report.verdicts.values()
        ],
        "players": [
            {
                "seat": p.seat,
                "player": p.name,
                "accuracy": p.accuracy,
                "moves": p.moves,
                "marks": p.counts,
                "mean_loss": p.mean_loss,
            }  # fmt: skip
            for p in report.people
        ],
    }
    return json.dumps(data, indent=1, ensure_ascii=False)


def _text(report) -> str:
    lines = []
    for p in report.people:
        counts = ", ".join(f"{n} {m}" for m, n in p.counts.items())
        lines.append(f"{p.name}: accuracy {p.accuracy}% over {p.moves} moves ({counts}).")
    for v in report.marked:
        lines.append(f"Move {v.seq}, {v.name}: {v.mark_name}, −{v.loss} chips. {v.better}.")
        if v.why:
            lines.append(f"  Why: {v.why}.")
    if not report.marked:
        lines.append("No move lost chips the coach could measure.")
    for v in report.close:
        lines.append(
            f"Move {v.seq}, {v.name}: close call, no mark: −{v.low} to −{v.high} chips in "
            f"{v.worlds} deals, the {v.line_name} line ({v.line} chips) inside. {v.better}."
        )
    return "\n".join(lines)
