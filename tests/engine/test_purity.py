"""The engine is pure Python: no Django, no clock, no randomness but the seeded deal."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
SOURCES = sorted(ENGINE.glob("*.py"))

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import games.engine as engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "games.engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module the file imports (absolute imports only)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            names.add("__import__")
    return names


def test_importing_every_engine_module_pulls_in_no_django() -> None:
    root = ENGINE.parents[1]
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
    )
    result = json.loads(out.stdout)
    expected = {f"games.engine.{p.stem}" for p in SOURCES if p.stem != "__init__"}
    assert set(result["modules"]) == expected
    assert [m for m in result["loaded"] if m == "django" or m.startswith("django.")] == []


def test_the_engine_has_source_files_to_check() -> None:
    assert {p.name for p in SOURCES} >= {
        "cards.py", "melds.py", "moves.py", "state.py", "rules.py", "scoring.py",
        "record.py", "deal.py", "view.py", "__init__.py",
    }  # fmt: skip


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_the_engine_reads_no_clock_and_uses_randomness_only_in_the_seeded_deal(path: Path) -> None:
    names = imported_modules(path)
    assert not names & {"time", "datetime", "django", "secrets", "uuid", "__import__"}
    if path.name != "deal.py":
        assert "random" not in names
    assert "import random" not in path.read_text() or path.name == "deal.py"


def test_the_import_check_sees_clock_and_random_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import random\nfrom datetime import date\nimport time as t\nfrom . import x\n"
    )
    assert imported_modules(sample) == {"random", "datetime", "time"}
