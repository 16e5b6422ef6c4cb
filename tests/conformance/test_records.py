"""Conformance: the shared test vectors in ``records/`` (see records/README.md).

Each ``NNNN.json`` is a game record and ``NNNN.expected.json`` what replaying it must
give: every field but the free ``error`` text, and exit status 0 (``ok``), 1 (an illegal
move) or 2 (an unreadable record). Replayed through the engine's API, then through
``python manage.py replay`` as docs/record.md specifies it.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.record import replay_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RECORDS = HERE / "records"
NAMES = sorted(p.name.removesuffix(".json") for p in RECORDS.glob("[0-9][0-9][0-9][0-9].json"))
INDEX = {
    row["name"]: row
    for row in csv.DictReader((RECORDS / "index.tsv").open(newline=""), delimiter="\t")
}


def expected(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.expected.json").read_text())


def status_of(result: dict) -> int:
    """The exit status docs/record.md gives a result object."""
    if result["ok"]:
        return 0
    return 2 if result["move"] is None else 1


def without_error(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "error"}


def test_there_are_160_records_each_with_its_expected_result_and_index_row() -> None:
    assert len(NAMES) == 160
    assert set(NAMES) == set(INDEX)
    for name in NAMES:
        assert (RECORDS / f"{name}.expected.json").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_engine_replays_the_record_as_expected(name: str) -> None:
    result, status = replay_text((RECORDS / f"{name}.json").read_bytes())
    want = expected(name)
    assert without_error(result) == without_error(want)
    assert status == status_of(want)
    assert ("error" in result) == ("error" in want)
    kind = INDEX[name]["class"]
    assert {"finished": 0, "truncated": 0, "illegal": 1, "unreadable": 2}[kind] == status


# ---- python manage.py replay (docs/record.md, "manage.py replay") ----


def manage_replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=120,
    )


def output_lines(run: subprocess.CompletedProcess) -> list[dict]:
    lines = run.stdout.decode().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_replay_command_replays_every_record_in_one_process() -> None:
    paths = [f"tests/conformance/records/{name}.json" for name in NAMES]
    run = manage_replay(*paths)
    lines = output_lines(run)
    assert len(lines) == len(NAMES), run.stderr.decode()[-2000:]
    for path, name, line in zip(paths, NAMES, lines, strict=True):
        assert list(line)[0] == "file", f"'file' must come first: {line}"
        assert line["file"] == path
        rest = {key: value for key, value in line.items() if key != "file"}
        assert without_error(rest) == without_error(expected(name)), name
    assert run.returncode == max(status_of(expected(name)) for name in NAMES) == 2


@pytest.mark.parametrize("name", ["0010", "0013", "0004"])  # finished, truncated, illegal
def test_the_replay_command_prints_one_object_for_one_file(name: str) -> None:
    run = manage_replay(f"tests/conformance/records/{name}.json")
    (line,) = output_lines(run)
    assert without_error(line) == without_error(expected(name))
    assert run.returncode == status_of(expected(name))


def test_the_replay_command_reads_standard_input_for_a_dash() -> None:
    run = manage_replay("-", stdin=(RECORDS / "0010.json").read_bytes())
    (line,) = output_lines(run)
    assert line == expected("0010")
    assert run.returncode == 0


def test_the_exit_status_is_the_highest_of_the_files() -> None:
    run = manage_replay(
        "tests/conformance/records/0010.json", "tests/conformance/records/0004.json"
    )
    assert [line["file"] for line in output_lines(run)] == [
        "tests/conformance/records/0010.json",
        "tests/conformance/records/0004.json",
    ]
    assert run.returncode == 1


def test_an_unreadable_record_gives_exit_status_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tongits-record/1", "dealer": 0, "hands": [')
    run = manage_replay(str(broken))
    (line,) = output_lines(run)
    assert (line["ok"], line["move"], run.returncode) == (False, None, 2)
    assert isinstance(line["error"], str) and line["error"]


def test_a_malformed_move_gives_exit_status_1(tmp_path: Path) -> None:
    record = json.loads((RECORDS / "0010.json").read_text())
    record["moves"] = record["moves"][:3] + [{"seat": 2, "type": "discard", "card": "10H"}]
    path = tmp_path / "malformed.json"
    path.write_text(json.dumps(record))
    run = manage_replay(str(path))
    (line,) = output_lines(run)
    assert (line["ok"], line["move"], run.returncode) == (False, 3, 1)
