"""The result screen, made in Python: who won and how, every seat's melds and hand, the
points and chips, each payment's terms (R10), and the way to the next game."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.table.board_markup import esc, oob
from games.table.pieces import card_in
from games.words.terms import term_html


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
        "gg": gettext("Good game"),
        "gg_said": gettext("Say “Good game” in the table's chat"),
        "even": gettext("You neither won nor lost chips"),
    }


def _my_outcome(chips: int, w: Mapping[str, str]) -> str:
    """The seat's own outcome in chips, the result's first line (issue 48)."""
    if chips > 0:
        return ngettext("You won %(n)s chip", "You won %(n)s chips", chips) % {"n": chips}
    if chips < 0:
        return ngettext("You lost %(n)s chip", "You lost %(n)s chips", -chips) % {"n": -chips}
    return w["even"]


def result(v: Mapping[str, Any]) -> str:
    """The result screen: who won and how, every seat's melds and hand, the points and
    chips, each payment's terms with what earned them (R10), and the way to the next game.
    Hidden (and empty) until the game ends. Made once per seat when a game ends, which
    through the template engine cost as much as a dozen moves' boards."""
    r = v.get("result")
    head = (
        f'<section id="table-result" class="result" aria-labelledby="result-title" '
        f'data-seq="{v["seq"]}"{oob(v)}{"" if r else " hidden"}>'
    )
    if not r:
        return head + "</section>"
    ids = itertools.count(1)
    w = _result_words(v.get("lang") or get_language())

    def term(name: str, badge: str = "") -> str:
        return term_html(name, badge, f"tip-result-{next(ids)}")

    winner = esc(r["winner"])
    mine = next((row for row in r["rows"] if row["is_me"]), None)
    head += '<div class="result-main">'
    if mine is None:  # a watcher: who won leads
        out = [head, f'<h2 id="result-title">{winner} {esc(r["end"])}</h2>']
    else:  # a seat: its own outcome leads, then who won and how
        gain = " is-gain" if mine["chips"] > 0 else " is-loss" if mine["chips"] < 0 else ""
        out = [
            head,
            f'<h2 id="result-title" class="result-mine{gain}">{_my_outcome(mine["chips"], w)}'
            f'</h2><p class="result-end">{winner} {esc(r["end"])}</p>',
        ]
    if r.get("how"):
        out.append(f'<p class="result-how">{esc(r["how"])}</p>')
    out.append('<ul class="result-rows">')
    for row in r["rows"]:
        name = esc(row["name"])
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
    out.append(
        '</ul></div><div class="result-side">'
        f'<div class="result-payments"><h3>{w["payments"]}</h3><ul class="payments">'
    )
    for p in r["payments"]:
        loser, total = esc(p["loser"]), p["total"]
        pays = ngettext(
            "<strong>%(loser)s</strong> pays %(winner)s <strong>%(total)s</strong> chip:",
            "<strong>%(loser)s</strong> pays %(winner)s <strong>%(total)s</strong> chips:",
            total,
        ) % {"loser": loser, "winner": winner, "total": total}
        aces = (
            esc(r["aces"])
            if p["aces"]
            else gettext("no ace in %(winner)s's hand or melds") % {"winner": winner}
        )
        secrets = ": " + "; ".join(esc(s) for s in r["secrets"]) if p["secret_sets"] else ""
        terms = [
            f"<li>{w['base']} <strong>{p['base']}</strong>: {esc(r['base_reason'])}</li>",
            f"<li>{w['aces']} <strong>+{p['aces']}</strong>: {aces}</li>",
            f"<li>{term('secret sets')} <strong>+{p['secret_points']}</strong>{secrets}</li>",
        ]
        if p["burned"]:
            never = gettext("%(loser)s never opened") % {"loser": loser}
            terms.append(f"<li>{term('burned', 'warn')} <strong>+1</strong>: {never}</li>")
        out.append(f'<li><p>{pays}</p><ul class="payment-terms">{"".join(terms)}</ul></li>')
    out.append("</ul></div>")
    # The way on, and beside it the coach's review of this game (its replay); a seat may
    # say "Good game" in the table's chat (games/social/chat/presets.py) with one tap.
    gg = (
        f'<button type="button" class="button button-secondary result-gg" ws-send '
        f'name="chat_preset" value="p:gg" title="{w["gg_said"]}">{w["gg"]}</button>'
        if mine is not None
        else ""
    )
    review = reverse("replay", args=[v["game_id"]])
    report = v.get("report_url")
    reporting = (
        f'<a class="button button-secondary report-link" href="{esc(report)}">{w["report"]}</a>'
        if report
        else ""
    )
    out.append(
        f'<div class="result-actions">{_next_game(v)}{gg}'
        f'<a class="button button-secondary" href="{review}">{w["review"]}</a>{reporting}</div>'
    )
    out.append("</div></section>")
    return "".join(out)


def _next_game(v: Mapping[str, Any]) -> str:
    """The way on from the result: go to, watch or join the next game, or play again."""
    following = v.get("next_game") or {}
    way, url = following.get("way"), esc(following.get("url") or "")
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
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(token)}">'
        if token and str(token) != "NOTPROVIDED"
        else ""
    )
    if way == "join" and following.get("rematch"):
        label = gettext("Accept the rematch")
    elif way == "join":
        label = gettext("Join the next game")
    else:
        label = gettext("Play again")
    waits = following.get("waits") if way == "join" else ""
    said = gettext("It waits %(left)s for your answer.") % {"left": waits} if waits else ""
    # data-socket: over the table's open socket when there is one (static/js/table.js),
    # posted otherwise (and without scripts, a plain form).
    again = (
        f'<form method="post" action="{action}" hx-post="{action}" class="again-form" '
        f'data-socket="again">{hidden}<button type="submit" class="button">{label}</button>'
        + (f' <span class="muted rematch-waits">{esc(said)}</span>' if said else "")
        + "</form>"
    )
    if way is not None:
        return again
    # Or the same people at a private table, dealt when all accept (games.social).
    rematch, named = reverse("rematch", args=[v["game_id"]]), gettext("Rematch")
    return (
        f'{again}<form method="post" action="{rematch}" hx-post="{rematch}" class="again-form">'
        f'{hidden}<button type="submit" class="button button-secondary">{named}</button></form>'
    )
