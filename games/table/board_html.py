"""The table's busiest parts, made in Python rather than through the template engine.

Every move changes these for every watcher: the opponents' panels (cards left, the turn,
the last turn in words), the status bar, the spoken summary and the felt's melds. Through
Django's templates each cost a tenth to a quarter of a millisecond, three seats a move,
which was a third of a worker's CPU at a busy table. Here each is one f-string, its fixed
words translated once per language (the msgids are the ones the templates used, so the
catalogue is the same).

This is the only markup of these parts: the template's partials call them (the
``board_part`` tag in games/table/cards.py), so the page and the socket send the
same HTML. Every value from outside goes through ``_e`` (escaped unless it is already
HTML we made, such as a sentence with its cards); numbers and ids are ours.

Size: ~600 lines, kept whole: one small f-string function per part of the board plus
the shared escaping and translated words they all use; splitting them would scatter
``BUILDERS``, the one list of the parts both templates and sockets draw.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.table.pieces import SeatPanel, card_in
from games.words.terms import term_html


def _e(value: Any) -> str:
    """``value`` for HTML: as it is if it is markup already, else escaped (exactly as
    Django's ``escape``, without its wrapper for lazy strings on every call)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(value if type(value) is str else str(value))


@lru_cache(maxsize=8)
def _words(lang: str | None) -> dict[str, str]:
    """The parts' fixed words in ``lang``, which must be the active language."""
    return {
        "players": escape(gettext("Players")),
        "last_turn": gettext("Last turn:"),
        "thinking": gettext("thinking…"),
        "time_left": gettext("Time left:"),
        "away": pgettext("term", "away"),
        "your_melds": escape(gettext("Your melds")),
        "no_melds": gettext("No melds on the table yet."),
    }


@lru_cache(maxsize=256)
def _cards_left(n: int, lang: str | None) -> str:
    return ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}


@lru_cache(maxsize=512)
def _seconds(n: int, lang: str | None) -> str:
    return gettext("%(s)s s") % {"s": n}


def _oob(v: Mapping[str, Any], how: str = "true") -> str:
    return f' hx-swap-oob="{how}"' if v.get("oob") else ""


def clock(p: Any, now: str, lang: str | None = None) -> str:
    """A seat's turn clock: "thinking…" for a bot, else the time left
    (the page counts it down from ``data-deadline``, correcting its own clock by
    ``data-now``, the server's time of sending)."""
    lang = lang or get_language()
    if p.thinking:
        return f'<span class="clock thinking">{_words(lang)["thinking"]}</span>'
    if not p.deadline:
        return ""
    return (
        f'<span class="clock" data-deadline="{_e(p.deadline)}" data-now="{_e(now)}">'
        f'<span class="visually-hidden">{_words(lang)["time_left"]} </span>'
        f'<span class="clock-time">{_seconds(p.seconds_left, lang)}</span></span>'
    )


def seat_panel(p: Any, now: str, lang: str | None = None) -> str:
    """An opponent's panel: name, cards left, badges (each explained on hover, focus and
    tap), the turn's ring and clock, what it did on its last turn, and why it is blocked."""
    lang = lang or get_language()
    words = _words(lang)
    ids = itertools.count(1)

    def term(name: str, badge: str) -> str:
        return term_html(name, badge, f"tip-seat{p.index}-{next(ids)}", lang)

    turn = ' class="seat-panel is-turn" aria-current="true"' if p.turn else ' class="seat-panel"'
    # The dealer's badge opens the badges' line, not the name's: a long name is cut short
    # on a phone, and the badge went with it.
    dealer = f"{term('dealer', 'plain')} " if p.dealer else ""
    badges = dealer + (term("opened", "plain") if p.opened else term("not opened", "muted"))
    if p.blocked:
        badges += f" {term('blocked', 'warn')}"
    if p.away:
        badges += f' <span class="badge warn">{words["away"]}</span>'
    if p.answer:
        badges += f" {term(p.answer, 'plain')}"
    out = [
        f'<li{turn} data-seat="{p.index}">',
        f'<h2 class="seat-name">{_e(p.name)}</h2>',
        '<p class="seat-cards"><span class="card back card-mini" aria-hidden="true"></span> '
        f"{_cards_left(p.cards, lang)}</p>",
        f'<p class="badges">{badges}</p>',
    ]
    if p.turn:
        out.append(clock(p, now, lang))
    if p.last_turn:
        out.append(
            f'<p class="seat-last"><span class="visually-hidden">{words["last_turn"]} </span>'
            f"{_e(p.last_turn)}</p>"
        )
    if p.block_note:
        out.append(f'<p class="block-note">{_e(p.block_note)}</p>')
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
    shared = f'<p class="shared-note" role="note">{_e(note)}</p>' if note else ""
    return (
        f'<div id="table-status" class="turn-bar{" is-my-turn" if turn else ""}" '
        f'data-seq="{v["seq"]}"{_oob(v)}>{form}'
        f'<p class="turn-text">{_e(v.get("turn_text", ""))}</p>{ticking}{shared}</div>'
    )


def live(v: Mapping[str, Any]) -> str:
    """What a screen reader says after a move: the move, then whose turn it is."""
    seq = v["seq"]
    said = f"{_e(v.get('last_move') or '')} {_e(v.get('turn_text', ''))}"
    return (
        '<div id="table-live" class="visually-hidden" aria-live="polite" aria-atomic="true" '
        f'data-seq="{seq}"{_oob(v, "innerHTML")}><p data-seq="{seq}">{said}</p></div>'
    )


def seats(v: Mapping[str, Any]) -> str | None:
    """The opponents' panels (None while the table waits: the template says who sits)."""
    if v.get("waiting"):
        return None
    lang, now = v.get("lang"), v["now"]
    panels = "".join(panel_html(p, now, lang) for p in v.get("others", ()))
    return (
        f'<ul id="seats" class="seats" role="list" aria-label="{_words(lang)["players"]}" '
        f'data-seq="{v["seq"]}"{_oob(v)}>{panels}</ul>'
    )


def melds(v: Mapping[str, Any]) -> str:
    """The melds on the felt, grouped by owner, told from the watcher's side."""
    lang = v.get("lang")
    inner = ""
    if v.get("dealt") and not v.get("waiting"):
        words = _words(lang)
        groups = []
        for p in v.get("meld_groups", ()):
            whose = words["your_melds"] if p.is_me else _whose_melds(p.name, lang)
            items = "".join(f"<li>{meld_html(m, lang)}</li>" for m in p.melds)
            groups.append(
                f'<section class="meld-group" aria-label="{whose}">'
                f'<h2 class="meld-owner">{whose}</h2><ul class="melds">{items}</ul></section>'
            )
        body = "".join(groups) or f'<p class="muted-on-felt">{words["no_melds"]}</p>'
        inner = f'<div class="meld-groups">{body}</div>'
    return f'<div id="table-melds" class="felt-part" data-seq="{v["seq"]}"{_oob(v)}>{inner}</div>'


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
        "take_hint": gettext("To take the discard, choose the cards it melds with."),
        "layoff_hint": gettext("To lay off, choose cards and a meld on the table."),
        # The labels are the buttons' whole markup, made once per flag set below.
        **{kind: pgettext("action", label) for kind, _, label in ACTIONS},
    }


@lru_cache(maxsize=64)
def _actions(flags: tuple[bool, ...], lang: str | None) -> str:
    words = _hand_words(lang)
    buttons = "".join(
        f'<button type="submit" class="{classes}" name="action" value="{kind}" '
        f'id="act-{kind}">{words[kind]}</button>'
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

    info = f"{_cards_left(len(cards or ()), lang)} · {_points(v.get('hand_points') or 0, lang)}"
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
        f'action="{v["act_url"]}" ws-send data-seq="{v["seq"]}"{_oob(v)}>',
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'
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
        did = gettext("You %(did)s") % {"did": _e(mine.last_turn)}
        out.append(
            f'<p class="seat-last"><span class="visually-hidden">{words["your_last_turn"]} '
            f"</span>{did}</p>"
        )
    if mine and mine.block_note and playing:
        out.append(f'<p class="block-note">{_e(mine.block_note)}</p>')
    if mine and mine.away and playing:
        out.append(
            f'<p class="away-note">{words["away"]} <button type="submit" class="button" '
            f'name="action" value="back">{words["back"]}</button></p>'
        )
    if cards:
        out.append(
            f'<fieldset class="hand-fieldset"><legend class="visually-hidden">{words["legend"]}'
            f'</legend><ul class="hand">{_e(v["hand_html"])}</ul></fieldset>'
        )
    if can.get("any"):
        out.append(_actions(tuple(bool(can.get(kind)) for kind, _, _ in ACTIONS), lang))
        if can.get("take"):
            out.append(f'<p class="hint">{words["take_hint"]}</p>')
        elif can.get("layoff"):
            out.append(f'<p class="hint">{words["layoff_hint"]}</p>')
    out.append("</form>")
    return "".join(out)


@lru_cache(maxsize=8)
def _felt_words(lang: str | None) -> dict[str, str]:
    return {
        "stock": gettext("Stock"),
        "cards": gettext("cards"),
        "discard": pgettext("pile", "Discard"),
        "empty": gettext("Discard: empty"),
        "pile": escape(gettext("The discard pile, the top card last")),
        "no_moves": gettext("No moves yet."),
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
    return (
        f'<div id="table-piles" class="felt-part" data-seq="{v["seq"]}"{_oob(v)}>'
        '<div class="piles"><div class="pile"><span class="card back" aria-hidden="true"></span>'
        f"<p>{words['stock']}<br><strong>{v.get('stock_left')}</strong> "
        f'<span class="visually-hidden">{words["cards"]}</span></p></div>'
        f'<div class="pile pile-discard">{shown}'
        f"<p>{words['discard'] if top else words['empty']}<br>"
        f'<span class="muted-on-felt">{in_pile}</span></p></div></div>{pile}</div>'
    )


def moves_head(v: Mapping[str, Any]) -> str:
    """The move list's older turns, in whole blocks (sent again only when one fills)."""
    lines = "".join(_e(line) for line in v.get("moves_head") or ())
    return f'<ol id="moves-head" class="move-lines" data-seq="{v["seq"]}"{_oob(v)}>{lines}</ol>'


def moves_tail(v: Mapping[str, Any]) -> str:
    """The move list's newest turns."""
    lines = "".join(_e(line) for line in v.get("moves_tail") or ())
    if not lines and not v.get("moves_head"):
        lines = f'<li class="move-none">{_felt_words(v.get("lang"))["no_moves"]}</li>'
    return f'<ol id="moves-tail" class="move-lines" data-seq="{v["seq"]}"{_oob(v)}>{lines}</ol>'


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


@lru_cache(maxsize=8)
def _result_words(lang: str | None) -> dict[str, str]:
    """The result screen's fixed words in ``lang``, which must be the active language."""
    return {
        "you": gettext("(you)"),
        "winner": gettext("winner"),
        "secret": gettext("(a secret set)"),
        "none": pgettext("melds", "none"),
        "no_cards": gettext("no cards left"),
        "melds": gettext("Melds"),
        "hand": gettext("Hand"),
        "payments": gettext("Payments"),
        "base": pgettext("payment", "base"),
        "aces": pgettext("payment", "aces"),
        "go": gettext("Go to the next game"),
        "watch_next": gettext("Watch the next game"),
        "watch_it": gettext("Watch it"),
        "without_you": gettext("The next game was dealt without you."),
        "review": gettext("Review this game"),
        "report": gettext("Report a player"),
    }


def result(v: Mapping[str, Any]) -> str:
    """The result screen: who won and how, every seat's melds and hand, the points and
    chips, each payment's terms with what earned them (R10), and the way to the next game.
    Hidden (and empty) until the game ends. Made once per seat when a game ends, which
    through the template engine cost as much as a dozen moves' boards."""
    r = v.get("result")
    head = (
        f'<section id="table-result" class="result" aria-labelledby="result-title" '
        f'data-seq="{v["seq"]}"{_oob(v)}{"" if r else " hidden"}>'
    )
    if not r:
        return head + "</section>"
    ids = itertools.count(1)
    w = _result_words(v.get("lang") or get_language())

    def term(name: str, badge: str = "") -> str:
        return term_html(name, badge, f"tip-result-{next(ids)}")

    winner = _e(r["winner"])
    out = [head, f'<h2 id="result-title">{winner} {_e(r["end"])}</h2>']
    if r.get("how"):
        out.append(f'<p class="result-how">{_e(r["how"])}</p>')
    out.append('<ul class="result-rows">')
    for row in r["rows"]:
        name = _e(row["name"])
        line = f"<strong>{name}</strong>"
        if row["is_me"]:
            line += f" {w['you']}"
        if row["winner"]:
            line += f' <span class="badge">{w["winner"]}</span>'
        if row["burned"]:
            line += f" {term('burned', 'warn')}"
        points = ngettext("%(points)s point", "%(points)s points", row["points"]) % {
            "points": row["points"]
        }
        chips = ngettext(
            "<strong>%(chips)s</strong> chip", "<strong>%(chips)s</strong> chips", row["chips"]
        ) % {"chips": f"{row['chips']:+d}", "n": row["chips"]}
        melds = (
            "".join(
                f'<span class="meld{" was-secret" if m["secret"] else ""}">'
                + "".join(card_in(c, "small", get_language()) for c in m["cards"])
                + (f'<span class="visually-hidden"> {w["secret"]}</span>' if m["secret"] else "")
                + "</span>"
                for m in row["melds"]
            )
            or f'<span class="muted">{w["none"]}</span>'
        )
        held = "".join(card_in(c, "small", get_language()) for c in row["hand"]) or (
            f'<span class="muted">{w["no_cards"]}</span>'
        )
        whose_melds = gettext("%(name)s's melds") % {"name": name}
        whose_hand = gettext("%(name)s's hand") % {"name": name}
        out.append(
            f'<li class="result-row{" is-winner" if row["winner"] else ""}">'
            f'<p class="result-line">{line} <span class="result-figures">{points} · {chips}'
            '</span></p><div class="result-cards">'
            f'<div class="result-melds" role="group" aria-label="{whose_melds}">'
            f'<span class="result-label" aria-hidden="true">{w["melds"]}</span>{melds}</div>'
            f'<div class="cards-inline" role="group" aria-label="{whose_hand}">'
            f'<span class="result-label" aria-hidden="true">{w["hand"]}</span>{held}</div>'
            "</div></li>"
        )
    out.append(f'</ul><h3>{w["payments"]}</h3><ul class="payments">')
    for p in r["payments"]:
        loser, total = _e(p["loser"]), p["total"]
        pays = ngettext(
            "<strong>%(loser)s</strong> pays %(winner)s <strong>%(total)s</strong> chip:",
            "<strong>%(loser)s</strong> pays %(winner)s <strong>%(total)s</strong> chips:",
            total,
        ) % {"loser": loser, "winner": winner, "total": total}
        aces = (
            _e(r["aces"])
            if p["aces"]
            else gettext("no ace in %(winner)s's hand or melds") % {"winner": winner}
        )
        secrets = ": " + "; ".join(_e(s) for s in r["secrets"]) if p["secret_sets"] else ""
        terms = [
            f"<li>{w['base']} <strong>{p['base']}</strong>: {_e(r['base_reason'])}</li>",
            f"<li>{w['aces']} <strong>+{p['aces']}</strong>: {aces}</li>",
            f"<li>{term('secret sets')} <strong>+{p['secret_points']}</strong>{secrets}</li>",
        ]
        if p["burned"]:
            never = gettext("%(loser)s never opened") % {"loser": loser}
            terms.append(f"<li>{term('burned', 'warn')} <strong>+1</strong>: {never}</li>")
        out.append(f'<li><p>{pays}</p><ul class="payment-terms">{"".join(terms)}</ul></li>')
    out.append("</ul>")
    # The way on, and beside it the coach's review of this game (its replay).
    review = reverse("replay", args=[v["game_id"]])
    report = v.get("report_url")
    reporting = (
        f'<a class="button button-secondary report-link" href="{_e(report)}">{w["report"]}</a>'
        if report
        else ""
    )
    out.append(
        f'<div class="result-actions">{_next_game(v)}'
        f'<a class="button button-secondary" href="{review}">{w["review"]}</a>{reporting}</div>'
    )
    out.append("</section>")
    return "".join(out)


def _next_game(v: Mapping[str, Any]) -> str:
    """The way on from the result: go to, watch or join the next game, or play again."""
    following = v.get("next_game") or {}
    way, url = following.get("way"), _e(following.get("url") or "")
    w = _result_words(v.get("lang") or get_language())
    if way == "go":
        return f'<p class="again-form"><a class="button" href="{url}">{w["go"]}</a></p>'
    if way == "watch":
        return f'<p class="again-form"><a href="{url}">{w["watch_next"]}</a></p>'
    if way == "full":
        watch = f' <a href="{url}">{w["watch_it"]}</a>' if url else ""
        return f'<p class="again-form">{w["without_you"]}{watch}</p>'
    if v.get("spectator"):
        return ""
    # Before the next game exists the first press makes it; after, the button seats you there.
    action = reverse("play_again", args=[v["game_id"]])
    token = v.get("csrf_token")  # the page's (a socket's frame has none: htmx sends it)
    hidden = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'
        if token and str(token) != "NOTPROVIDED"
        else ""
    )
    if way == "join" and following.get("rematch"):
        label = gettext("Accept the rematch")
    elif way == "join":
        label = gettext("Join the next game")
    else:
        label = gettext("Play again")
    again = (
        f'<form method="post" action="{action}" hx-post="{action}" class="again-form">'
        f'{hidden}<button type="submit" class="button">{label}</button></form>'
    )
    if way is not None:
        return again
    # Or the same people at a private table, dealt when all accept (games.social).
    rematch, named = reverse("rematch", args=[v["game_id"]]), gettext("Rematch")
    return (
        f'{again}<form method="post" action="{rematch}" hx-post="{rematch}" class="again-form">'
        f'{hidden}<button type="submit" class="button button-secondary">{named}</button></form>'
    )


BUILDERS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "result": result,
    "status": status,
    "live": live,
    "seats": seats,
    "melds": melds,
    "hand": hand,
    "piles": piles,
    "moves-head": moves_head,
    "moves-tail": moves_tail,
}


# --- Made once, shown on every board --------------------------------------------------------
# A move changes one or two of a table's panels and one meld at most: each distinct one is
# made once per language and shared by every board that shows it (rendering.py's memo of
# parts keys them by the same tuples).

MEMO_SIZE = 300


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
    key = (_meld_key(m), lang or get_language())
    html = _melds_made.get(key)
    if html is None:
        html = _melds_made[key] = meld(m, key[1])
        while len(_melds_made) > MEMO_SIZE:
            del _melds_made[next(iter(_melds_made))]
    return SafeString(html)


def _meld_key(m: dict[str, Any]) -> tuple:
    return (
        m["index"], tuple(m["cards"]), m["pickable"], m["hidden"], m["secret"], m["size"],
        m["fresh"],
    )  # fmt: skip


def forget() -> None:
    """Drop the panels and melds made so far (tests, and a change of templates)."""
    _panels_made.clear()
    _melds_made.clear()
