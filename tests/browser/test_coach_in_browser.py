"""The coach in a real browser (issue 10): a person uploads a game in which one player
played carelessly, asks for its analysis on the replay page, and watches the progress bar
fill and the marks and the graph appear, without the page reloading, while a real
``manage.py db_worker`` works on the server's database. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.bots import choose
from games.engine import apply, new_game, seat_view
from games.engine.cards import CODES
from tests.browser.conftest import REPO
from tests.browser.support import ARTIFACTS, PageErrors, sign_up, stop

pytestmark = pytest.mark.browser


def careless_record(seed: int) -> dict:
    """A whole game: seat 0 plays any legal move, the others play like the Normal bot."""
    state = initial = new_game(seed)
    kinds = ("random", "normal", "normal")
    moves = []
    while state.outcome is None:
        move = choose(kinds[state.turn], seat_view(state, state.turn), random.Random(state.ply))
        moves.append(move.to_dict())
        state = apply(state, move)
    return {
        "format": "tongits-record/1",
        "dealer": initial.dealer,
        "hands": [[CODES[c] for c in range(52) if h >> c & 1] for h in initial.hands],
        "stock": [CODES[c] for c in initial.stock],
        "moves": moves,
        "players": ["Careless", "Bea", "Carl"],
    }


@pytest.fixture(scope="module")
def worker(server, server_env):
    """The background worker, as ``make run`` starts it beside the server."""
    # A smaller budget than the site's: the page's behaviour is the same, in less time on
    # a busy machine (close calls judged in 64 deals at most rather than 960).
    quick = json.dumps({"worlds": 24, "max_worlds": 64, "batch": 16})
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"],
        cwd=REPO, env={**server_env, "TONGITS_COACH_BUDGET": quick},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield proc
    finally:
        stop(proc)


def test_a_person_asks_for_an_analysis_and_sees_it_appear(browser, server, worker, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    upload = tmp_path / "careless.json"
    upload.write_text(json.dumps(careless_record(5)))
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    sign_up(page, server)

    page.goto(f"{server}/games/upload/")
    page.locator("#id_record").set_input_files(upload)
    page.get_by_role("button", name="Replay it").click()
    page.wait_for_url("**/replay/?move=*")
    page.evaluate("window.notReloaded = true")

    page.get_by_role("button", name="Analyse this game").click()
    page.locator("#coach-progress").wait_for()
    # A guard against hanging, not a speed target: the worker analyses it in seconds.
    page.locator("#coach-graph").wait_for(timeout=120_000)

    assert page.evaluate("window.notReloaded === true")
    assert page.locator("#coach-graph .coach-line").count() == 3
    # A mark says the better move; a close call (issue 53) opens on its figures instead.
    marks = page.locator(".coach-marks li")
    assert marks.count() >= 1
    first = marks.first.inner_text()
    assert "Better: " in first or "Close call" in first, first
    assert page.get_by_role("table", name="Each person's play, as the coach judged it").is_visible()
    # The replay's move list gets its marks too, still without a reload.
    page.locator(".move-list .coach-mark").first.wait_for()
    assert page.evaluate("window.notReloaded === true")
    page.screenshot(path=ARTIFACTS / "coach-replay.png", full_page=True)
    # The graph's x-axis numbers the moves (issue 29), and no two of its labels overlap.
    page.set_viewport_size({"width": 1280, "height": 800})
    numbers = page.locator("#coach-graph .coach-moves text").all_text_contents()
    assert len(numbers) >= 3 and numbers[0] == "1"
    assert [int(n) for n in numbers] == sorted({int(n) for n in numbers})
    assert overlapping_labels(page) == []
    page.locator("#coach-graph").screenshot(path=ARTIFACTS / "coach-graph-1280.png")

    # A marked move opens the step at that move, with its verdict, and why, in a line from
    # the seat's own view (issue 29), next to the mark. A game whose only judged moves are
    # close calls (issue 53) opens one of those, which shows no mark and says so.
    marked = page.locator(".coach-marks:not(.coach-close-calls) li")
    has_mark = marked.count() > 0
    (marked if has_mark else marks).first.get_by_role("link").click()
    page.locator(".coach-step").wait_for()
    step = page.locator(".coach-step").inner_text()
    why = page.locator(".replay-table .coach-why")
    if has_mark:
        assert "Better: " in step
        assert why.is_visible() and why.inner_text().startswith("Why: ")
    else:
        assert "Close call" in step and "no mark" in step, step

    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, storage_state=context.storage_state()
    )
    small = phone.new_page()
    small.goto(page.url)  # the marked move: its mark and why line above the table
    small.locator("#coach-graph").wait_for()
    assert small.locator(".replay-table .coach-why").is_visible() or not has_mark
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the replay with the coach is {width}px wide on a 360px screen"
    small.screenshot(path=ARTIFACTS / "coach-replay-360.png", full_page=True)
    assert overlapping_labels(small) == []
    small.locator("#coach-graph").screenshot(path=ARTIFACTS / "coach-graph-360.png")
    phone.close()
    errors.assert_none()
    context.close()


def overlapping_labels(page) -> list[list[str]]:
    """The pairs of the graph's labels (chips and moves' numbers) whose boxes on the
    screen overlap."""
    return page.evaluate(
        """() => {
          const boxes = [...document.querySelectorAll('#coach-graph text')].map((t) => {
            const r = t.getBoundingClientRect();
            return [t.textContent, r.left, r.top, r.right, r.bottom];
          });
          const out = [];
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, al, at, ar, ab] = boxes[i];
              const [b, bl, bt, br, bb] = boxes[j];
              if (al < br && bl < ar && at < bb && bt < ab) out.push([a, b]);
            }
          }
          return out;
        }"""
    )
