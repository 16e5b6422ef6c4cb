"""The felt and what surrounds it, made in Python: the status bar, the spoken summary, the
opponents' panels, the melds, the piles and the move list. Every move changes these for
every watcher; each distinct panel and meld is made once per language and shared by every
board that shows it (a move changes one or two of a table's panels and one meld at most).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, pgettext

from games.table.board_markup import MEMO_SIZE, cards_left, clock, esc, oob, seat_words
from games.table.pieces import SeatPanel, card_in
from games.words.terms import term_html


def seat_panel(p: Any, now: str, lang: str | None = None) -> str:
    """An opponent's seat, compact as at a card table: name, cards left (a small fan of
    backs), the turn's ring and clock, badges as small marks (each explained on hover,
    focus and tap), and its last turn as a line of its cards, the whole story (and why it
    is blocked) a tap away."""
    lang = lang or get_language()
    words = seat_words(lang)
    ids = itertools.count(1)

    def term(name: str, badge: str) -> str:
        return term_html(name, badge, f"tip-seat{p.index}-{next(ids)}", lang)

    turn = ' class="seat-panel is-turn" aria-current="true"' if p.turn else ' class="seat-panel"'
    # Each badge is a mark (its word still said to screen readers, and in its tooltip).
    marks = []
    if p.dealer:
        marks.append(("dealer", term("dealer", "plain")))
    marks.append(
        ("opened", term("opened", "plain")) if p.opened else ("closed", term("not opened", "muted"))
    )
    if p.blocked:
        marks.append(("blocked", term("blocked", "warn")))
    if p.away:
        marks.append(("away", f'<span class="badge warn">{words["away"]}</span>'))
    if p.answer:
        marks.append(("answer", term(p.answer, "plain")))
    badges = " ".join(f'<span class="mark" data-mark="{k}">{html}</span>' for k, html in marks)
    fan = min(p.cards, 5)
    out = [
        f'<li{turn} data-seat="{p.index}">',
        '<div class="seat-top">',
        f'<h2 class="seat-name">{esc(p.name)}</h2>',
        f'<p class="seat-cards"><span class="seat-fan" aria-hidden="true" style="--fan: {fan}">'
        + '<span class="card back card-mini"></span>' * fan
        + f'</span><span class="seat-count">{cards_left(p.cards, lang)}</span></p>',
        "</div>",
        f'<p class="badges">{badges}</p>',
        clock(p, now, lang) if p.turn else "",
    ]
    if p.last_turn or p.block_note:
        # The summary shows the turn's cards only (its words are hidden from sight, not
        # from screen readers, which hear "Last turn:" and open it for the words).
        warn = " has-block" if p.block_note else ""
        out.append(
            f'<details class="seat-story{warn}" id="story-{p.index}">'
            f'<summary tabindex="-1"><span class="visually-hidden">{words["last_turn"]}</span>'
            f'<span class="story-cards" aria-hidden="true">{esc(p.last_turn)}</span></summary>'
            '<div class="story-body">'
        )
        if p.last_turn:
            out.append(
                f'<p class="seat-last"><span class="visually-hidden">{words["last_turn"]} '
                f"</span>{esc(p.last_turn)}</p>"
            )
        if p.block_note:
            out.append(f'<p class="block-note">{esc(p.block_note)}</p>')
        out.append("</div></details>")
    out.append("</li>")
    return "\n".join(out)


# --- Parts of the board: each takes the board's values (a dict, or the page's Context) ---


def status(v: Mapping[str, Any]) -> str:
    mine = v.get("my_panel")
    turn = bool(mine and mine.turn)
    form = ""
    if v.get("hand"):  # the hand form's version and move id (see the template)
        seq = v["seq"]
        form = (
            f'<input type="hidden" name="seq" value="{seq}" form="my-hand">'
            f'<input type="hidden" name="client_move_id" value="{v["client_move_id"]}" '
            'form="my-hand">'
        )
    ticking = clock(mine, v["now"], v.get("lang")) if turn else ""
    # Two accounts at this rated table share an address or a device: said to everyone.
    note = v.get("shared_note")
    shared = f'<p class="shared-note" role="note">{esc(note)}</p>' if note else ""
    return (
        f'<div id="table-status" class="turn-bar{" is-my-turn" if turn else ""}" '
        f'data-seq="{v["seq"]}"{oob(v)}>{form}'
        f'<p class="turn-text">{esc(v.get("turn_text", ""))}</p>{ticking}{shared}</div>'
    )


def live(v: Mapping[str, Any]) -> str:
    """What a screen reader says after a move: the move, then whose turn it is."""
    seq = v["seq"]
    said = f"{esc(v.get('last_move') or '')} {esc(v.get('turn_text', ''))}"
    return (
        '<div id="table-live" class="visually-hidden" aria-live="polite" aria-atomic="true" '
        f'data-seq="{seq}"{oob(v, "innerHTML")}><p data-seq="{seq}">{said}</p></div>'
    )


def seats(v: Mapping[str, Any]) -> str | None:
    """The opponents' panels (None while the table waits: the template says who sits)."""
    if v.get("waiting"):
        return None
    lang, now = v.get("lang"), v["now"]
    panels = "".join(panel_html(p, now, lang) for p in v.get("others", ()))
    return (
        f'<ul id="seats" class="seats" role="list" aria-label="{seat_words(lang)["players"]}" '
        f'data-seq="{v["seq"]}"{oob(v)}>{panels}</ul>'
    )


def melds(v: Mapping[str, Any]) -> str:
    """The melds on the felt, grouped by owner, told from the watcher's side."""
    lang = v.get("lang")
    inner = ""
    if v.get("dealt") and not v.get("waiting"):
        words = seat_words(lang)
        groups = []
        for p in v.get("meld_groups", ()):
            whose = words["your_melds"] if p.is_me else _whose_melds(p.name, lang)
            items = "".join(f"<li>{meld_html(m, lang)}</li>" for m in p.melds)
            # On the felt an opponent's melds are labelled by the name alone (cut short
            # on a phone, "Mga meld ni ..." said nothing); the heading says it whole.
            shown = whose if p.is_me else esc(p.name)
            groups.append(
                f'<section class="meld-group"{" data-mine" if p.is_me else ""} '
                f'aria-label="{whose}">'
                f'<h2 class="meld-owner"><span aria-hidden="true">{shown}</span>'
                f'<span class="visually-hidden">{whose}</span></h2>'
                f'<ul class="melds">{items}</ul></section>'
            )
        body = "".join(groups) or f'<p class="muted-on-felt">{words["no_melds"]}</p>'
        inner = f'<div class="meld-groups">{body}</div>'
    return f'<div id="table-melds" class="felt-part" data-seq="{v["seq"]}"{oob(v)}>{inner}</div>'


@lru_cache(maxsize=8)
def _felt_words(lang: str | None) -> dict[str, str]:
    return {
        "stock": gettext("Stock"),
        "cards": gettext("cards"),
        "discard": pgettext("pile", "Discard"),
        "empty": gettext("Discard: empty"),
        "pile": escape(gettext("The discard pile, the top card last")),
        "no_moves": gettext("No moves yet."),
        "ask": escape(gettext("Take the discard with:")),
        "cancel": escape(gettext("Cancel")),
    }


def piles(v: Mapping[str, Any]) -> str | None:
    """The stock, the top discard and the whole discard pile (top last) once dealt; None
    before (the template says who is awaited, with the invite link)."""
    if v.get("waiting") or not v.get("dealt"):
        return None
    lang = v.get("lang")
    words = _felt_words(lang)
    top = v.get("top_discard")
    n = v.get("discards") or 0
    shown = card_in(top, "", lang) if top else '<span class="card empty" aria-hidden="true"></span>'
    pile = ""
    if v.get("discard_pile"):
        cards = "".join(f"<li>{card_in(c, 'small', lang)}</li>" for c in v["discard_pile"])
        see = gettext("See the whole discard pile (%(discards)s)") % {"discards": n}
        pile = (
            f'<details class="discard-pile" id="discard-pile"><summary>{see}</summary>'
            f'<ol class="discard-list" aria-label="{words["pile"]}">{cards}</ol></details>'
        )
    in_pile = gettext("%(discards)s in pile") % {"discards": n}
    # The stock and the discard are buttons for a tap (or a card dropped on the discard):
    # static/js/table.js turns them on when the seat's hand offers the move (Draw, Take
    # discard, Discard), whose own buttons stay for the keyboard and screen readers; so
    # these are no Tab stops. The same for every watcher: made once per version.
    return (
        f'<div id="table-piles" class="felt-part" data-seq="{v["seq"]}"{oob(v)}>'
        '<div class="piles"><button type="button" class="pile pile-stock" tabindex="-1" '
        f'disabled data-act="draw" aria-label="{words["stock"]} {v.get("stock_left")} '
        f'{words["cards"]}"><span class="card back" aria-hidden="true"></span>'
        f'<span class="pile-label">{words["stock"]} <strong>{v.get("stock_left")}</strong>'
        "</span></button>"
        '<button type="button" class="pile pile-discard" tabindex="-1" disabled '
        f'data-act="take" data-ask="{words["ask"]}" data-cancel="{words["cancel"]}">{shown}'
        f'<span class="pile-label">{words["discard"] if top else words["empty"]} '
        f'<span class="muted-on-felt">{in_pile}</span></span></button></div>{pile}</div>'
    )


def moves_head(v: Mapping[str, Any]) -> str:
    """The move list's older turns, in whole blocks (sent again only when one fills)."""
    lines = "".join(esc(line) for line in v.get("moves_head") or ())
    return f'<ol id="moves-head" class="move-lines" data-seq="{v["seq"]}"{oob(v)}>{lines}</ol>'


def moves_tail(v: Mapping[str, Any]) -> str:
    """The move list's newest turns."""
    lines = "".join(esc(line) for line in v.get("moves_tail") or ())
    if not lines and not v.get("moves_head"):
        lines = f'<li class="move-none">{_felt_words(v.get("lang"))["no_moves"]}</li>'
    return f'<ol id="moves-tail" class="move-lines" data-seq="{v["seq"]}"{oob(v)}>{lines}</ol>'


def meld(m: Mapping[str, Any], lang: str | None = None) -> str:
    """One meld on the felt: face up (a radio button to lay off on it, when the watcher
    may), or a secret set face down."""
    lang = lang or get_language()
    n, fresh = m["number"], " is-fresh" if m["fresh"] else ""
    if m["pickable"]:
        i = m["index"]
        cards = "".join(card_in(c, "small", lang) for c in m["cards"])
        return (
            f'<label class="meld meld-pick{fresh}" for="meld-{i}">'
            f'<input type="radio" name="meld" value="{i}" id="meld-{i}" form="my-hand">'
            f'<span class="visually-hidden">{gettext("Meld %(n)s:") % {"n": n}} </span>'
            f"{cards}</label>"
        )
    if m["hidden"]:
        said = gettext("Meld %(n)s: a secret set of %(size)s cards, face down") % {
            "n": n,
            "size": m["size"],
        }
        backs = '<span class="card back card-small" aria-hidden="true"></span>' * m["size"]
        return (
            f'<div class="meld secret{fresh}" role="img" aria-label="{escape(said)}">{backs}</div>'
        )
    said = (
        gettext("Meld %(n)s, a secret set") % {"n": n}
        if m["secret"]
        else gettext("Meld %(n)s") % {"n": n}
    )
    cards = "".join(card_in(c, "small", lang) for c in m["cards"])
    was = " was-secret" if m["secret"] else ""
    return f'<div class="meld{was}{fresh}" role="group" aria-label="{escape(said)}">{cards}</div>'


@lru_cache(maxsize=512)
def _whose_melds(name: str, lang: str | None) -> str:
    return gettext("%(name)s's melds") % {"name": escape(name)}


# --- Made once, shown on every board --------------------------------------------------------
# rendering.py's memo of parts keys the felt's melds by the same tuples (``meld_key``).


def _panel_key(p: SeatPanel) -> tuple:
    # The seat panel's own lines (its melds are drawn in the centre, not here).
    return (
        p.index, p.name, p.cards, p.opened, p.blocked, p.away, p.bot, p.dealer, p.turn,
        p.deadline, p.seconds_left, p.thinking, p.answer, p.last_turn, p.block_note,
    )  # fmt: skip


_panels_made: dict[tuple, str] = {}


def panel_html(p: SeatPanel, now: str, lang: str | None = None) -> SafeString:
    """One opponent's panel: made once per distinct panel and language, shared by every
    board that shows it (a move changes one or two of a table's three)."""
    key = (_panel_key(p), now, lang or get_language())
    html = _panels_made.get(key)
    if html is None:
        html = _panels_made[key] = seat_panel(p, now, key[2])
        while len(_panels_made) > MEMO_SIZE:
            del _panels_made[next(iter(_panels_made))]
    return SafeString(html)


_melds_made: dict[tuple, str] = {}


def meld_html(m: dict[str, Any], lang: str | None = None) -> SafeString:
    """One meld on the table: made once per distinct meld and language, and shared by
    every board that shows it (a move changes one meld at most)."""
    key = (meld_key(m), lang or get_language())
    html = _melds_made.get(key)
    if html is None:
        html = _melds_made[key] = meld(m, key[1])
        while len(_melds_made) > MEMO_SIZE:
            del _melds_made[next(iter(_melds_made))]
    return SafeString(html)


def meld_key(m: dict[str, Any]) -> tuple:
    return (
        m["index"], tuple(m["cards"]), m["pickable"], m["hidden"], m["secret"], m["size"],
        m["fresh"],
    )  # fmt: skip


def forget() -> None:
    """Drop the panels and melds made so far (tests, and a change of templates)."""
    _panels_made.clear()
    _melds_made.clear()
