"""The seat's hand as a form, made in Python: its cards, what it holds, its own last turn
and block, and a button per legal kind of move (their labels are listed for makemessages
in board_strings.py)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext, ngettext, pgettext

from games.table.arrange import arrangement_attr, suggested_discard
from games.table.board_markup import cards_left, clock, esc, oob
from games.words.terms import term_html

# The hand's action buttons in the order shown: (move type, classes, label's msgid).
ACTIONS = (
    ("fold", "button", "Fold"),
    ("fight", "button", "Fight"),
    ("call", "button button-call", "Call Draw"),
    ("draw", "button", "Draw"),
    ("take", "button button-secondary", "Take discard"),
    ("meld", "button button-secondary", "Meld"),
    ("secret", "button button-secondary", "Secret set"),
    ("layoff", "button button-secondary", "Lay off"),
    ("discard", "button", "Discard"),
)


@lru_cache(maxsize=8)
def _hand_words(lang: str | None) -> dict[str, str]:
    """The hand's fixed words in ``lang`` (the active language)."""
    return {
        "title": gettext("Your hand"),
        "your_last_turn": gettext("Your last turn:"),
        "away": gettext("The server is playing for you while you are away."),
        "back": gettext("I'm back"),
        "legend": gettext("Your cards: choose cards for your next action"),
        "actions": escape(gettext("Actions")),
        # Not "take" and "layoff": those keys are the buttons' labels, set below.
        "take_hint": gettext("Tap the discard to take it with the cards it melds with."),
        "layoff_hint": gettext("To lay off, choose cards and a meld on the table."),
        "arrange": gettext("Arrange"),
        # Meld pressed with no cards chosen, when the hand holds several melds (table.js).
        "ask_meld": f' data-ask="{escape(gettext("Which meld?"))}"',
        "arrange_said": escape(gettext("Arrange your hand: melds first, then near-melds")),
        # The labels are the buttons' whole markup, made once per flag set below.
        **{kind: pgettext("action", label) for kind, _, label in ACTIONS},
    }


@lru_cache(maxsize=64)
def _actions(flags: tuple[bool, ...], lang: str | None, takes: str = "") -> str:
    words = _hand_words(lang)
    buttons = "".join(
        f'<button type="submit" class="{classes}" name="action" value="{kind}" '
        f'id="act-{kind}"{f" data-takes={chr(34)}{takes}{chr(34)}" if kind == "take" else ""}'
        f"{words['ask_meld'] if kind == 'meld' else ''}>{words[kind]}</button>"
        for (kind, classes, _), shown in zip(ACTIONS, flags, strict=True)
        if shown
    )
    return f'<div class="actions" role="group" aria-label="{words["actions"]}">{buttons}</div>'


@lru_cache(maxsize=256)
def _points(n: int, lang: str | None) -> str:
    return ngettext("%(points)s point", "%(points)s points", n) % {"points": n}


def hand(v: Mapping[str, Any]) -> str | None:
    """The player's hand as a form: its cards (chosen by checkboxes), what it holds, the
    seat's own last turn and block, and a button per legal kind of move. None for a
    spectator, a seat waiting for the deal, or a hand emptied: the template says those."""
    cards = v.get("hand")
    if v.get("spectator") or v.get("waiting") or (not cards and not v.get("finished")):
        return None
    lang, mine, can = v.get("lang"), v.get("my_panel"), v.get("can") or {}
    words, playing = _hand_words(lang), v.get("playing")
    ids = itertools.count(1)

    def term(name: str, badge: str = "") -> str:
        return term_html(name, badge, f"tip-hand-{next(ids)}", lang)

    info = f"{cards_left(len(cards or ()), lang)} · {_points(v.get('hand_points') or 0, lang)}"
    if mine and mine.opened:
        info += f" · {term('opened')}"
    if mine and mine.blocked:
        info += f" · {term('blocked', 'warn')}"
    if mine and mine.dealer:
        info += f" · {term('dealer')}"
    turn = bool(mine and mine.turn)
    token = v.get("csrf_token")
    out = [
        f'<form id="my-hand" class="my-hand{" is-turn" if turn else ""}" method="post" '
        f'action="{v["act_url"]}" ws-send data-seq="{v["seq"]}"{oob(v)}>',
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(token)}">'
        if token and token != "NOTPROVIDED"
        else "",
        # The form's default button, disabled: Enter on a card must not submit a move.
        '<button type="submit" hidden disabled></button>',
        f'<div class="hand-header"><h2 id="hand-title">{words["title"]}</h2>',
        f'<span class="seat-clock" aria-hidden="true">{clock(mine, v["now"], lang)}</span>'
        if turn
        else "",
        f'<p class="hand-info">{info}</p></div>',
    ]
    if mine and mine.last_turn:
        did = gettext("You %(did)s") % {"did": esc(mine.last_turn)}
        out.append(
            f'<p class="seat-last"><span class="visually-hidden">{words["your_last_turn"]} '
            f"</span>{did}</p>"
        )
    if mine and mine.block_note and playing:
        out.append(f'<p class="block-note">{esc(mine.block_note)}</p>')
    if mine and mine.away and playing:
        out.append(
            f'<p class="away-note">{words["away"]} <button type="submit" class="button" '
            f'name="action" value="back">{words["back"]}</button></p>'
        )
    if cards:
        # The seat's own cards, arranged (Arrange) and the one a tap on the discard pile
        # throws when none is chosen: static/js/table.js reads them.
        held = tuple(v.get("hand_cards") or ())
        suggest = (
            f' data-suggest="{suggested_discard(held)}"'
            if can.get("discard") and held and v.get("suggest", True)
            else ""
        )
        out.append(
            f'<fieldset class="hand-fieldset"><legend class="visually-hidden">{words["legend"]}'
            f'</legend><ul class="hand" data-seat="{v.get("me")}" data-n="{len(cards)}" '
            f'data-arrange="{arrangement_attr(held)}"{suggest}>{esc(v["hand_html"])}</ul>'
            f'<button type="button" class="button-link arrange" id="arrange" '
            f'aria-label="{words["arrange_said"]}">{words["arrange"]}</button></fieldset>'
        )
    if can.get("any"):
        flags = tuple(bool(can.get(kind)) for kind, _, _ in ACTIONS)
        out.append(_actions(flags, lang, v.get("takes") or ""))
        if can.get("take"):
            out.append(f'<p class="hint">{words["take_hint"]}</p>')
        elif can.get("layoff"):
            out.append(f'<p class="hint">{words["layoff_hint"]}</p>')
    out.append("</form>")
    return "".join(out)
