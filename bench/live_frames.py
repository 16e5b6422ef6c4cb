"""What a browser makes of the table socket's frames, for the live benchmark's clients.

A frame is HTML: one or more top-level elements, each with an id and a ``data-seq``, that
htmx swaps in by id (out of band). A client keeps the newest version of each id it has
seen (never an older ``data-seq``, as static/js/table.js does) and reads its own board
from them: the ``#my-hand`` form's buttons, hidden fields and card checkboxes, the message
box and whether the result is shown. Nothing here knows how the server builds a frame,
only what the page shows; it is regex-based because a full HTML parser would make the
clients, not the server, the bottleneck.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

# An opening tag's name. Django escapes "<" in text and attribute values, so every "<"
# followed by a letter starts a tag.
OPEN = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
# The rest of an opening tag: its attributes (values may hold ">"), up to its ">".
TAG_REST = re.compile(r"""((?:[^>"']|"[^"]*"|'[^']*')*)>""")
CONTROLS = re.compile(r"<(button|input)\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.I)
ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)  # fmt: skip
TEXT_TAG = re.compile(r"<[^>]*>")
RANKS = "A23456789TJQK"
POINTS = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}


def attrs(text: str) -> dict[str, str]:
    """A tag's attributes (after its name); a bare attribute maps to ""."""
    out: dict[str, str] = {}
    for name, double, single, bare in ATTR.findall(text):
        out.setdefault(name.lower(), _unescape(double or single or bare))
    return out


def _unescape(value: str) -> str:
    if "&" not in value:
        return value
    for entity, char in (("&quot;", '"'), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">")):
        value = value.replace(entity, char)
    return value.replace("&amp;", "&")


@dataclass(frozen=True)
class Element:
    """One top-level element of a frame."""

    id: str
    seq: int | None
    attrs: dict[str, str]
    html: str

    @property
    def text(self) -> str:
        return " ".join(TEXT_TAG.sub(" ", self.html).split())


def roots(html: str) -> list[Element]:
    """The top-level elements of a frame, in order (text between them is ignored).

    An element ends at the close tag that balances the tags of its own name inside it,
    so only those are counted, not every tag of the frame (this is the clients' hot path).
    """
    found: list[Element] = []
    pos = 0
    while (m := OPEN.search(html, pos)) is not None:
        name = m.group(1).lower()
        rest = TAG_REST.match(html, m.end())
        first, pos = (rest.group(1), rest.end()) if rest else ("", m.end())
        if name not in VOID and not first.rstrip().endswith("/"):
            pos = _closing(html, name, pos)
        found.append(_element(first, html[m.start() : pos]))
    return [e for e in found if e.id]


def _closing(html: str, name: str, pos: int) -> int:
    """Where the element whose opening tag ends at ``pos`` ends (past its close tag)."""
    depth = 1
    for t in _same_name(name).finditer(html, pos):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            return html.find(">", t.end()) + 1
    return len(html)


@functools.cache
def _same_name(name: str) -> re.Pattern[str]:
    return re.compile(rf"<(/?){re.escape(name)}(?![a-zA-Z0-9-])", re.I)


def _element(first_tag_attrs: str, html: str) -> Element:
    a = attrs(first_tag_attrs)
    seq = a.get("data-seq", "")
    return Element(a.get("id", ""), int(seq) if seq.isdigit() else None, a, html)


@dataclass
class Hand:
    """The ``#my-hand`` form as a person sees it: what they may press and choose."""

    seq: int | None
    actions: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    hidden: dict[str, str] = field(default_factory=dict)
    is_form: bool = False


def read_hand(element: Element) -> Hand:
    hand = Hand(element.seq, is_form=element.html.lstrip().lower().startswith("<form"))
    for m in CONTROLS.finditer(element.html):
        a = attrs(m.group(2))
        if "disabled" in a or "hidden" in a:
            continue
        if m.group(1).lower() == "button":
            if a.get("name") == "action" and a.get("value"):
                hand.actions.append(a["value"])
        elif a.get("type") == "hidden" and "name" in a:
            hand.hidden[a["name"]] = a.get("value", "")
        elif a.get("type") == "checkbox" and a.get("name") == "cards":
            hand.cards.append(a.get("value", ""))
    return hand


class Board:
    """The newest version of each board part one client has seen."""

    def __init__(self) -> None:
        self.parts: dict[str, Element] = {}
        self.seq = -1  # the highest data-seq seen on any part
        self._hand: tuple[Element, Hand] | None = None
        self._inputs: dict[str, tuple[Element, dict[str, str]]] = {}

    def apply(self, html: str) -> list[Element]:
        """Swap a frame's parts in; return the parts that were taken (not older ones)."""
        taken = []
        for element in roots(html):
            shown = self.parts.get(element.id)
            if shown is not None and _older(element, shown):
                continue
            self.parts[element.id] = element
            taken.append(element)
            if element.seq is not None and element.seq > self.seq:
                self.seq = element.seq
        return taken

    def hand(self) -> Hand | None:
        element = self.parts.get("my-hand")
        if element is None:
            return None
        if self._hand is None or self._hand[0] is not element:  # read once per version
            self._hand = (element, read_hand(element))
        read = self._hand[1]
        hand = Hand(read.seq, list(read.actions), list(read.cards), dict(read.hidden), read.is_form)
        # As a browser's FormData does: inputs elsewhere on the page that belong to the
        # form (form="my-hand"), such as its seq and move id in the status bar (each part
        # read once per version, like the hand).
        for other in self.parts.values():
            if other.id != "my-hand" and 'form="my-hand"' in other.html:
                hand.hidden.update(self._inputs_of(other))
        seq = hand.hidden.get("seq", "")
        if seq.isdigit():
            hand.seq = int(seq)
        return hand

    def _inputs_of(self, element: Element) -> dict[str, str]:
        found = self._inputs.get(element.id)
        if found is None or found[0] is not element:
            found = self._inputs[element.id] = (element, _form_inputs(element.html, "my-hand"))
        return found[1]

    def message(self) -> str:
        element = self.parts.get("messages")
        return element.text if element is not None else ""

    def finished(self) -> bool:
        """The result is shown: the game is over for this seat."""
        element = self.parts.get("table-result")
        return element is not None and "hidden" not in element.attrs


def _form_inputs(html: str, form: str) -> dict[str, str]:
    found = {}
    for m in CONTROLS.finditer(html):
        a = attrs(m.group(2))
        if m.group(1).lower() == "input" and a.get("form") == form and a.get("type") == "hidden":
            found[a.get("name", "")] = a.get("value", "")
    found.pop("", None)
    return found


def _older(incoming: Element, shown: Element) -> bool:
    return incoming.seq is not None and shown.seq is not None and incoming.seq < shown.seq


# --- What a simple player presses ----------------------------------------------------------


def choose(hand: Hand) -> dict[str, object] | None:
    """The fields a browser would send for this player's next action, or None.

    A plain strategy that only reads the board: fold when a Draw call must be answered;
    draw; meld a set or run of three if the hand has one; discard the card worth most
    points. (An away seat's "I'm back" is never needed: the bench's turn clock is long.)
    """
    can = set(hand.actions)
    if "fold" in can:
        return {"action": "fold"}
    if "draw" in can:
        return {"action": "draw"}
    if "meld" in can:
        meld = find_meld(hand.cards)
        if meld:
            return {"action": "meld", "cards": meld}
    if "discard" in can and hand.cards:
        return {"action": "discard", "cards": max(hand.cards, key=_discard_order)}
    if "fight" in can:
        return {"action": "fight"}
    return None


def _discard_order(code: str) -> tuple[int, int]:
    return POINTS.get(code[:1], 0), RANKS.find(code[:1])


def find_meld(cards: list[str]) -> list[str] | None:
    """Three cards of one rank, or three of one suit in consecutive ranks (ace low)."""
    by_rank: dict[str, list[str]] = {}
    held = set(cards)
    for code in cards:
        by_rank.setdefault(code[:1], []).append(code)
    for same in by_rank.values():
        if len(same) >= 3:
            return sorted(same)[:3]
    for code in sorted(cards):
        rank, suit = RANKS.find(code[:1]), code[1:]
        if rank < 0 or rank > len(RANKS) - 3:
            continue
        run = [RANKS[rank + i] + suit for i in range(3)]
        if all(c in held for c in run):
            return run
    return None


def form_fields(hand: Hand, choice: dict[str, object], url: str) -> dict[str, object]:
    """The JSON object htmx's ws-send makes of the form: every hidden input, the checked
    cards (a string for one, a list for several), the pressed button, and HEADERS."""
    data: dict[str, object] = dict(hand.hidden)
    cards = choice.get("cards")
    if isinstance(cards, str):
        data["cards"] = cards
    elif isinstance(cards, list):
        data["cards"] = cards[0] if len(cards) == 1 else list(cards)
    data["action"] = choice["action"]
    data["HEADERS"] = {
        "HX-Request": "true",
        "HX-Trigger": f"act-{choice['action']}",
        "HX-Trigger-Name": "action",
        "HX-Target": "my-hand",
        "HX-Current-URL": url,
    }
    return data
