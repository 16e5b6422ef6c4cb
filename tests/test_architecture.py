"""The architecture of games/, read from its imports (issue 25): no module is part of an
import circle, and the capabilities depend one way, as pyproject.toml's import-linter
contracts say (wiring, sockets, pages, history, the coach, the table, play, words, bots,
the engine). Both checks are shown to fail on a copy of games/ with a planted import."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests import architecture_picture
from tests.import_graph import circles

REPO = Path(__file__).resolve().parent.parent
LINT = "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True))"


def _copy_with(tmp_path: Path, module: str, planted: str) -> Path:
    """A copy of games/ and pyproject.toml in ``tmp_path``, with ``planted`` appended to
    ``module``'s file."""
    shutil.copytree(
        REPO / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text() + f"\n{planted}  # planted by the test\n")
    return tmp_path


def _run(code: list[str], cwd: Path) -> subprocess.CompletedProcess:
    # A process of its own, run in the copy, finds the copy's games/ before the real one.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(cwd), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, *code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_no_module_of_games_is_part_of_an_import_circle():
    assert circles("games") == []


def test_no_module_of_the_benchmarks_is_part_of_an_import_circle():
    # bench.live and bench.live_arena imported each other (issue 47): a run's shared pieces
    # now sit in modules of their own that import neither.
    assert circles("bench") == []


def test_the_import_contracts_are_kept():
    result = _run(["-c", LINT], REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


def test_a_circle_planted_in_a_copy_of_games_is_found(tmp_path):
    copy = _copy_with(tmp_path, "games.words.text", "from games.words import rule_messages")
    result = _run([str(REPO / "tests" / "import_graph.py"), "games"], copy)
    assert result.returncode == 0, result.stderr
    assert '["games.words.rule_messages", "games.words.text"]' in result.stdout


def test_an_upward_import_planted_in_a_copy_of_games_breaks_the_layers(tmp_path):
    copy = _copy_with(tmp_path, "games.engine.cards", "import games.play.moves")
    result = _run(["-c", LINT], copy)
    assert result.returncode != 0
    assert "games.engine is not allowed to import games.play" in result.stdout


CAPABILITIES = [
    "games",
    "games.engine",
    "games.bots",
    "games.words",
    "games.play",
    "games.play.live",
    "games.table",
    "games.analysis",
    "games.history",
    "games.views",
    "games.sockets",
    "games.series",
    "games.ratings",
    "games.social",
    "games.social.chat",
    "games.tournaments",
    "games.fairplay",
    "games.notifications",
    "games.daily",
    "games.puzzles",
]


def test_each_package_of_games_says_what_it_owns_and_what_it_may_import():
    for package in CAPABILITIES:
        init = REPO.joinpath(*package.split("."), "__init__.py")
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert len(doc) > 80 and "import" in doc, f"{package}: {doc!r}"


def test_a_module_of_games_over_400_lines_says_at_its_top_why():
    for path in sorted((REPO / "games").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        text = path.read_text()
        if text.count("\n") > 400:
            doc = ast.get_docstring(ast.parse(text)) or ""
            assert "\nSize: " in doc, f"{path.relative_to(REPO)} has no 'Size:' reason"


SITE = ("games", "accounts", "tongits_site")
MODULE_LINES = 600


def oversized(root: Path, packages: tuple[str, ...] = SITE) -> list[str]:
    """Modules of ``packages`` under ``root`` over MODULE_LINES lines whose first five lines
    do not say why (a line "Size: …"): a reader should learn it before reading 600 lines."""
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = path.read_text().splitlines()
            if len(lines) > MODULE_LINES and not any(x.startswith("Size: ") for x in lines[:5]):
                found.append(path.relative_to(root).as_posix())
    return found


def test_no_module_of_the_site_is_over_600_lines_unless_its_first_lines_say_why():
    assert oversized(REPO) == []


def test_the_size_check_finds_a_long_module_and_lets_one_that_says_why_pass(tmp_path):
    (tmp_path / "games").mkdir()
    body = "x = 1\n" * MODULE_LINES
    (tmp_path / "games" / "long.py").write_text('"""A module."""\n' + body)
    (tmp_path / "games" / "said.py").write_text('"""A module.\n\nSize: one table.\n"""\n' + body)
    (tmp_path / "games" / "short.py").write_text(body)
    assert oversized(tmp_path, ("games",)) == ["games/long.py"]


def test_the_readmes_layout_names_every_package_of_games_and_only_paths_that_exist():
    readme = (REPO / "README.md").read_text()
    layout = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([\w./-]+)`", layout))
    roots = ("games/", "accounts/", "tongits_site/", "locale/", "templates/", "static/", "docs/")
    for path in sorted(p for p in named if p.startswith(roots) or p.startswith(".ci/")):
        assert (REPO / path).exists(), f"the README's layout names {path}, which is not there"
    packages = {
        f"games/{p.parent.name}/"
        for p in (REPO / "games").glob("*/__init__.py")
        if p.parent.name != "migrations"
    }
    assert packages <= named, f"not in the README's layout: {sorted(packages - named)}"


def test_no_process_id_file_is_committed():
    tracked = subprocess.run(
        ["git", "ls-files", "*.pid"], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert tracked.stdout == ""


def test_the_architecture_picture_is_drawn_from_the_code_as_it_is():
    drawn = (REPO / "docs" / "architecture.svg").read_text()
    assert drawn == architecture_picture.svg(), (
        "docs/architecture.svg is not the code's: python -m tests.architecture_picture "
        "> docs/architecture.svg"
    )


def test_the_path_of_a_move_in_the_picture_names_only_what_the_code_has(monkeypatch):
    assert architecture_picture.check_move() == []
    renamed = [(what, [*needs, ("games/play/moves.py", "submit_move_renamed")])
               for what, needs in architecture_picture.MOVE]  # fmt: skip
    monkeypatch.setattr(architecture_picture, "MOVE", renamed)
    assert "games/play/moves.py: submit_move_renamed" in architecture_picture.check_move()


# The one writer (docs/architecture.md): only games/play/moves.py appends a move to a game's
# log, through the statements of games/play/live/rows.py. A finished game written whole
# (an upload, the made-up games of ``seed_games``) may make its rows with the ORM, never
# through the writer's statements.
WRITER = "games/play/moves.py"
WRITERS_STATEMENTS = "games/play/live/rows.py"
WHOLE_FINISHED_GAMES = {
    "games/history/records.py",
    "games/management/commands/seed_games.py",
}
ROW_WRITES = {"create", "bulk_create", "get_or_create", "update_or_create", "update", "bulk_update"}
APPENDS = {"insert_move", "log_and_save"}


def _receiver(node: ast.expr) -> list[str]:
    """The names along a call's receiver: ``game.moves.filter(x).update`` gives
    ["update", "filter", "moves", "game"]."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            return [*names, node.id]
        else:
            return names


def _names_the_model(chain: list[str], i: int, model: set[str], models: set[str]) -> bool:
    """Whether ``chain[i]`` is games.models.Move (by one of ``model``'s names, or as
    ``Move`` of one of ``models``'s, the names the module gives games.models)."""
    if chain[i] in model:
        return True
    return chain[i] == "Move" and i + 1 < len(chain) and chain[i + 1] in models


def _inserts(node: ast.expr) -> bool:
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    else:
        return False
    return re.search(r"\bINSERT\s+INTO\b", text, re.IGNORECASE) is not None


def move_writes(path: Path) -> list[tuple[int, str, bool]]:
    """Where the module at ``path`` writes a row of the move log, in the order of its
    lines: (line, what, whether through the writer's statements rather than the ORM)."""
    tree = ast.parse(path.read_text())
    model: set[str] = set()  # the names the module gives games.models.Move
    models: set[str] = set()  # and games.models itself
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "games.models":
            model |= {a.asname or a.name for a in node.names if a.name == "Move"}
        elif isinstance(node, ast.ImportFrom) and node.module == "games":
            models |= {a.asname or a.name for a in node.names if a.name == "models"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            chain = _receiver(node.func)
            if not chain:
                continue
            if chain[0] in APPENDS:
                found.append((node.lineno, chain[0], True))
            elif _names_the_model(chain, 0, model, models):
                found.append((node.lineno, "a Move row made", False))
            elif chain[0] in ROW_WRITES and (
                "moves" in chain[1:-1]
                or any(_names_the_model(chain, i, model, models) for i in range(1, len(chain)))
            ):
                found.append((node.lineno, ".".join(reversed(chain)), False))
        elif (model or models) and _inserts(node):
            found.append((node.lineno, "an INSERT beside the Move model", True))
    return sorted(set(found))  # an f-string's text is its parts too


def move_writers(root: Path, packages: tuple[str, ...] = SITE) -> list[str]:
    """Every write of the move log under ``root`` that is not the one writer's."""
    wrong = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "migrations" in path.parts or name in (WRITER, WRITERS_STATEMENTS):
                continue
            for line, what, statements in move_writes(path):
                if name in WHOLE_FINISHED_GAMES and not statements:
                    continue
                wrong.append(f"{name}:{line} {what}")
    return wrong


def test_only_the_one_writer_appends_a_move():
    assert move_writers(REPO) == []
    # ... and it does: a person's move and the server's come through it.
    assert {what for _, what, _ in move_writes(REPO / WRITER)} == APPENDS


def test_a_move_written_outside_the_one_writer_is_found(tmp_path):
    play = tmp_path / "games" / "play"
    play.mkdir(parents=True)
    (play / "tables.py").write_text(
        "from games import models\n"
        "from games.models import Game, Move as MoveRow\n"
        "from games.play.live import rows\n"
        "def cheat(game):\n"
        "    MoveRow.objects.create(game=game, seq=1, seat=0, payload={})\n"
        "    MoveRow(game=game, seq=2, seat=0, payload={}).save()\n"
        "    models.Move.objects.bulk_create([])\n"
        "    game.moves.filter(seq=1).update(payload={})\n"
        "    rows.insert_move(game.pk, 3, 0, {}, None, False, None)\n"
        "    sql = f'INSERT INTO {MoveRow._meta.db_table} VALUES (1)'\n"
        "    Game.objects.filter(pk=game.pk).update(seq=3)  # not a move\n"
    )
    (play / "moves.py").write_text("from games.play.live import rows\nrows.insert_move()\n")
    records = tmp_path / "games" / "history"
    records.mkdir()
    (records / "records.py").write_text(
        "from games.models import Move\n"
        "Move.objects.bulk_create([])  # a finished game, whole\n"
        "from games.play.live import rows\n"
        "rows.log_and_save(None, None, [])  # but never a live game's move\n"
    )
    assert move_writers(tmp_path, ("games",)) == [
        "games/history/records.py:4 log_and_save",
        "games/play/tables.py:5 MoveRow.objects.create",
        "games/play/tables.py:6 a Move row made",
        "games/play/tables.py:7 models.Move.objects.bulk_create",
        "games/play/tables.py:8 game.moves.filter.update",
        "games/play/tables.py:9 insert_move",
        "games/play/tables.py:10 an INSERT beside the Move model",
    ]
