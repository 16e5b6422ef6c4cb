"""The picture of docs/architecture.md, drawn from the code: ``docs/architecture.svg``.

    python -m tests.architecture_picture > docs/architecture.svg

It reads the layers of games/ from pyproject.toml's first import-linter contract, what each
package holds from games/__init__.py's list, which capabilities each one imports from its
source (grimp, import-linter's graph, imports inside functions included), and checks that
every module and function the path of a move names is still there. So the picture cannot
drift from the code: tests/test_architecture.py draws it again and compares, and a
renamed step stops the drawing with the name to change below (``MOVE``).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from dataclasses import dataclass
from html import escape
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parent.parent
SIDE = ("games.models", "games.series", "games.ratings")  # beside the layers, by name
OTHER = "games (the rest)"

# A move, from a tap to every seat's screen: (what happens, [(file, name it needs), …]).
# A name is a function, class or constant of the file ("Class.method" for a method), or,
# in a script, a string it holds.
MOVE: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "A tap on a button of the hand (a form made by games/table/board_hand.py); htmx's "
        "ws-send sends the form as a frame over the table's socket (static/js/table.js "
        "keeps the buttons off while it is down).",
        [("games/table/board_hand.py", "hand"), ("static/js/table.js", "htmx:wsAfterMessage")],
    ),
    (
        "games/sockets/table.py GameConsumer.receive: the frame limit "
        "(games/play/ratelimit.py FrameLimiter), then actions.frame_data.",
        [
            ("games/sockets/table.py", "GameConsumer.receive"),
            ("games/play/ratelimit.py", "FrameLimiter"),
            ("games/play/actions.py", "frame_data"),
        ],
    ),
    (
        "On a database thread (games/play/live/db.py in_db_thread): "
        "games/play/actions.py perform reads the frame into a move.",
        [("games/play/live/db.py", "in_db_thread"), ("games/play/actions.py", "perform")],
    ),
    (
        "The one writer, games/play/moves.py submit_move: the game's row locked "
        "(live/rows.py locked_game), the move applied by games/engine/rules.py apply, "
        "appended with the game's summary (live/rows.py log_and_save), the new snapshot "
        "made (live/snapshots.py build_snapshot).",
        [
            ("games/play/moves.py", "submit_move"),
            ("games/play/live/rows.py", "locked_game"),
            ("games/engine/rules.py", "apply"),
            ("games/play/live/rows.py", "log_and_save"),
            ("games/play/live/snapshots.py", "build_snapshot"),
        ],
    ),
    (
        'After the commit, telling.notify_game: "game N is at rev R" published to the '
        "game's group for the other workers (live/publish.py publish) and told to this "
        "worker's sockets (live/watch.py tell). No hand travels in it.",
        [
            ("games/play/telling.py", "notify_game"),
            ("games/play/live/publish.py", "publish"),
            ("games/play/live/watch.py", "tell"),
        ],
    ),
    (
        "Every socket of the game, on every worker: GameConsumer.game_update takes the "
        "snapshot of that rev (live/news.py apply_news, once a process), then "
        "GameConsumer.send_board.",
        [
            ("games/sockets/table.py", "GameConsumer.game_update"),
            ("games/play/live/news.py", "apply_news"),
            ("games/sockets/table.py", "GameConsumer.send_board"),
        ],
    ),
    (
        "Each renders its own seat's board: games/table/spectators.py table_for (the "
        "engine's seat_view: this seat's cards only), games/table/rendering.py "
        "socket_parts, the parts of games/table/board_html.py BUILDERS.",
        [
            ("games/table/spectators.py", "table_for"),
            ("games/engine/view.py", "seat_view"),
            ("games/table/rendering.py", "socket_parts"),
            ("games/table/board_html.py", "BUILDERS"),
        ],
    ),
    (
        "Only the parts that changed go out; static/js/table.js lets htmx swap each in by "
        "its id, never an older one over a newer (data-seq).",
        [("static/js/table.js", "htmx:oobBeforeSwap")],
    ),
]


@dataclass
class Member:
    key: str  # a module or package of games/, or OTHER
    title: str
    says: str
    imports: list[str]
    steps: list[int]


def layers() -> list[list[str]]:
    """pyproject.toml's layers, top first, each a list of sibling modules."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contract = config["tool"]["importlinter"]["contracts"][0]
    return [[m.strip() for m in line.split("|")] for line in contract["layers"]]


def descriptions() -> dict[str, str]:
    """What each package holds, as games/__init__.py lists it ("play/  live play: …")."""
    doc = ast.get_docstring(ast.parse((REPO / "games" / "__init__.py").read_text())) or ""
    found = {}
    for line in doc.splitlines():
        m = re.match(r"^    (\S.*?)\s{2,}(\S.*)$", line)
        if m:
            names = [n.strip().rstrip("/") for n in m.group(1).split(",")]
            for name in names:
                found[f"games.{name}"] = m.group(2)
    return found


def first_sentence(module: str) -> str:
    path = REPO.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    return text.split(". ")[0].rstrip(".") + "."


def capability_of(module: str, keys: list[str]) -> str | None:
    if module == "games" or module.startswith("games.migrations"):
        return None
    for key in sorted(keys, key=len, reverse=True):
        if module == key or module.startswith(key + "."):
            return key
    return OTHER


def imports_between(keys: list[str]) -> dict[str, set[str]]:
    graph = grimp.build_graph("games", cache_dir=None)
    out: dict[str, set[str]] = {k: set() for k in [*keys, OTHER]}
    for module in graph.modules:
        mine = capability_of(module, keys)
        if mine is None:
            continue
        for other in graph.find_modules_directly_imported_by(module):
            theirs = capability_of(other, keys)
            if theirs is not None and theirs != mine:
                out[mine].add(theirs)
    return out


def defines(path: Path, name: str) -> bool:
    text = path.read_text()
    if path.suffix != ".py":
        return name in text
    scope: list[ast.stmt] = ast.parse(text).body
    for part in name.split("."):
        match = next((n for n in scope if _named(n) == part), None)
        if match is None:
            return False
        scope = getattr(match, "body", [])
    return True


def _named(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def check_move() -> list[str]:
    """What the path of a move names that the code no longer has."""
    missing = []
    for _, needs in MOVE:
        for file, name in needs:
            path = REPO / file
            if not path.exists() or not defines(path, name):
                missing.append(f"{file}: {name}")
    return missing


def short(key: str) -> str:
    if key == OTHER:
        return "the rest"
    return key.removeprefix("games.")


def steps_by_capability(keys: list[str]) -> dict[str, list[int]]:
    """The numbers of the steps of a move that pass through each capability."""
    steps: dict[str, list[int]] = {}
    for number, (_, needs) in enumerate(MOVE, 1):
        for file, _ in needs:
            key = "browser"
            if file.endswith(".py"):
                module = file.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
                key = capability_of(module, keys)
            if key is not None and number not in steps.setdefault(key, []):
                steps[key].append(number)
    return steps


def members(layer_lists: list[list[str]]) -> tuple[list[list[Member]], list[Member]]:
    keys = [m for layer in layer_lists for m in layer] + list(SIDE)
    said = descriptions()
    imports = imports_between(keys)
    order = {k: i for i, k in enumerate([*keys, OTHER])}
    steps = steps_by_capability(keys)

    def member(key: str, title: str, says: str) -> Member:
        named = sorted(imports.get(key, ()), key=order.__getitem__)
        return Member(key, title, says, [short(k) for k in named], steps.get(key, []))

    rows = []
    for layer in layer_lists:
        if len(layer) > 1 and len({said.get(m) for m in layer}) == 1:
            # The wiring: one line of games/__init__.py for them all.
            title = "games/: " + ", ".join(_path(m).removeprefix("games/") for m in layer)
            key = layer[0]
            merged = set().union(*(imports[m] for m in layer)) - set(layer)
            named = sorted(merged, key=order.__getitem__)
            says = said.get(layer[0], "")
            step_list = sorted({s for m in layer for s in steps.get(m, [])})
            rows.append([Member(key, title, says, [short(k) for k in named], step_list)])
            continue
        rows.append([member(m, _path(m), said.get(m, first_sentence(m))) for m in layer])
    side = [member(m, _path(m), first_sentence(m)) for m in SIDE]
    rest = sorted(
        p.name + "/" if p.is_dir() else p.name
        for p in (REPO / "games").iterdir()
        if p.name not in ("__init__.py", "migrations", "__pycache__", "apps.py")
        and capability_of(f"games.{p.stem}", keys) == OTHER
        and (p.suffix == ".py" or (p / "__init__.py").exists())
    )
    side.append(
        member(OTHER, "games/: " + ", ".join(rest), "Beside the layers, imported from any.")
    )
    return rows, side


def _is_package(module: str) -> bool:
    return (REPO.joinpath(*module.split(".")) / "__init__.py").exists()


def _path(module: str) -> str:
    path = "/".join(module.split("."))
    return path + "/" if _is_package(module) else path + ".py"


# --- Drawing -------------------------------------------------------------------------------

WIDTH = 1120
LEFT, LEFT_W = 56, 620
RIGHT, RIGHT_W = 700, 400
LINE = 15


def wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


class Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, x: float, y: float, s: str, cls: str) -> None:
        self.parts.append(f'<text x="{x}" y="{y}" class="{cls}">{escape(s)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, cls: str) -> None:
        self.parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" class="{cls}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str) -> None:
        self.parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="{cls}"/>')

    def badge(self, x: float, y: float, n: int) -> None:
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="9" class="badge"/>')
        self.text(x, y + 4, str(n), "badge-n")


def member_lines(m: Member, width: int) -> list[tuple[str, str]]:
    # A title is set in a wider (monospace) face, and leaves room for the step badges.
    room = int(width * 0.8) - 4 * len(m.steps)
    lines = [(s, "title") for s in wrap(m.title, room)]
    lines += [(s, "says") for s in wrap(m.says, width)]
    if m.key == "games.play":
        writer = (
            "The one writer of games in play: moves.py alone appends to a game's move "
            "log (submit_move, and through it server_moves.py's moves for the clock's bots "
            "and away seats, by live/rows.py log_and_save), under the game's row lock. An "
            "upload's finished game is written whole by history/records.py."
        )
        lines += [(s, "writer") for s in wrap(writer, width)]
    if m.imports:
        lines += [(s, "imports") for s in wrap("imports " + ", ".join(m.imports), width)]
    else:
        lines.append(("imports nothing of games/", "imports"))
    return lines


def draw_box(c: Canvas, x: float, y: float, w: float, group: list[Member]) -> float:
    """One layer (its siblings one under another): the height it took."""
    chars = int((w - 44) / 6.3)
    blocks = [member_lines(m, chars) for m in group]
    height = 10 + sum(len(b) * LINE + 8 for b in blocks) + (len(group) - 1) * 4
    writer = any(m.key == "games.play" for m in group)
    c.rect(x, y, w, height, "box writer-box" if writer else "box")
    at = y + 10
    for i, (m, block) in enumerate(zip(group, blocks, strict=True)):
        if i:
            c.line(x + 10, at - 2, x + w - 10, at - 2, "sibling")
        for n, number in enumerate(m.steps):
            c.badge(x + w - 16 - 22 * (len(m.steps) - 1 - n), at + 8, number)
        for text, cls in block:
            at += LINE
            c.text(x + 12, at - 3, text, cls)
        at += 8 + (4 if i < len(group) - 1 else 0)
    return height


def svg() -> str:
    missing = check_move()
    if missing:
        raise SystemExit("The path of a move names what the code no longer has (MOVE): "
                         + "; ".join(missing))  # fmt: skip
    rows, side = members(layers())
    c = Canvas()
    c.text(LEFT, 30, "games/: capabilities, each importing only those below it", "head")
    c.text(RIGHT, 30, "A move, from a tap to every seat's screen", "head")
    left = draw_layers(c, rows)
    right = draw_move(c, draw_side(c, side))
    return document(c, max(left, right) + 20)


def draw_layers(c: Canvas, rows: list[list[Member]]) -> float:
    """The browser, then the layers top to bottom, with the way imports run beside them."""
    steps = [i for i, (_, needs) in enumerate(MOVE, 1) if any(f[-3:] != ".py" for f, _ in needs)]
    browser = Member(
        "browser",
        "The browser: templates/, static/js/ (htmx and its ws extension)",
        "The page and its socket: a form sent as a frame, parts swapped in by id.",
        [],
        steps,
    )
    top = 48 + draw_box(c, LEFT, 48, LEFT_W, [browser]) + 14
    y = top
    for group in rows:
        y += draw_box(c, LEFT, y, LEFT_W, group) + 10
    c.parts.append(
        f'<line x1="{LEFT - 26}" y1="{top}" x2="{LEFT - 26}" y2="{y - 14}" class="down"'
        ' marker-end="url(#arrow)"/>'
    )
    middle = (top + y) / 2
    c.parts.append(
        f'<text x="{LEFT - 32}" y="{middle}" class="down-label" '
        f'transform="rotate(-90 {LEFT - 32} {middle})">imports point down</text>'
    )
    return y


def draw_side(c: Canvas, side: list[Member]) -> float:
    y = 48
    c.text(RIGHT, y + 4, "Beside the layers (their sums sit below play):", "says")
    y += 14
    for m in side:
        y += draw_box(c, RIGHT, y, RIGHT_W, [m]) + 8
    return y + 10


def draw_move(c: Canvas, y: float) -> float:
    chars = int((RIGHT_W - 40) / 6.1)
    for number, (what, _) in enumerate(MOVE, 1):
        lines = wrap(what, chars)
        c.badge(RIGHT + 9, y + 9, number)
        for i, line in enumerate(lines):
            c.text(RIGHT + 26, y + 13 + i * LINE, line, "step")
        y += len(lines) * LINE + 8
    return y


STYLE = (
    "text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:#1b1f24}"
    ".head{font-size:15px;font-weight:600}.title{font-size:13px;font-weight:600;"
    "font-family:ui-monospace,Menlo,Consolas,monospace}.says{font-size:12px}"
    ".imports{font-size:11px;fill:#57606a}.writer{font-size:12px;fill:#8a4b00;"
    "font-weight:600}.step{font-size:11.5px}.box{fill:#f6f8fa;stroke:#8c959f}"
    ".writer-box{fill:#fff8ec;stroke:#bf8700;stroke-width:1.5}"
    ".sibling{stroke:#c7ced6;stroke-dasharray:4 3}.badge{fill:#0969da}"
    ".badge-n{font-size:11px;fill:#fff;text-anchor:middle;font-weight:600}"
    ".down{stroke:#57606a;stroke-width:2}.down-label{font-size:12px;fill:#57606a;"
    "text-anchor:middle}"
)


def document(c: Canvas, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="The capabilities of '
        'games/, which way their imports run, and the path of a move">\n'
        f"<style>{STYLE}</style>\n"
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" '
        'markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#57606a"/>'
        "</marker></defs>\n"
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>\n'
        + "\n".join(c.parts)
        + "\n</svg>\n"
    )


if __name__ == "__main__":
    sys.stdout.write(svg())
