"""What the table tells one watcher about the game so far: each seat's last turn, the
move list, why a seat is blocked, the whole discard pile, the hints in the hand, and the
result term by term.

Everything said of a move comes from the game's journal (``games.words.narration.Entry``): a
move as every seat saw it, so a card drawn from the stock or laid in a secret set is never
named, whichever seat's side the story is told from. Pieces of HTML are made once per
distinct input (``lru_cache``) and shared by every board that shows them; the rendering's
memo keys hold them as they are, which keys each part by exactly what it shows.

Size: ~450 lines, kept whole: the last turns, the move list, the blocked note, the
hints and the result's terms all read the same journal entries with one set of cached
helpers; each is a short function.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy

from games.engine import SeatView
from games.engine.cards import ACES, RANK_MASKS, cards_of, mask_of, short
from games.engine.melds import all_melds
from games.engine.state import Phase
from games.words.card_names import name_in
from games.words.narration import Entry

# The move list is sent in two parts: the older turns, in blocks of this many (sent again
# only when a block fills), and the newest turns (sent with every move).
BLOCK = 8
ENDS = {
    "tongits": gettext_lazy("won by Tongits"),
    "draw": gettext_lazy("won an unfought Draw"),
    "fought_draw": gettext_lazy("won a fought Draw"),
    "stock": gettext_lazy("won with the lowest points when the stock ran out"),
}
WON = gettext_lazy("won")
BASES = {
    "tongits": gettext_lazy("a win by Tongits"),
    "fought_draw": gettext_lazy("a fought Draw won"),
    "draw": gettext_lazy("an unfought Draw"),
    "stock": gettext_lazy("the lowest points when the stock ran out"),
}


class Turn:
    """One seat's moves in a row: a turn (draw or take, melds, lay-offs, discard), a Draw
    call, or an answer to one.

    Immutable, and hashed once: every board looks each turn of the game up in the caches
    of its words (``move_line`` and the like), three seats a move."""

    __slots__ = ("number", "seat", "entries", "_key", "_hash")

    def __init__(self, number: int, seat: int, entries: tuple[Entry, ...]) -> None:
        self.number = number  # 1 first
        self.seat = seat
        self.entries = entries
        self._key = (number, seat, entries)
        self._hash = hash(self._key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and self._hash == other._hash and self._key == other._key

    def __repr__(self) -> str:
        return f"Turn({self.number}, {self.seat}, {self.entries!r})"


# The turns of the journals told lately, by the journal's identity (a position's journal
# is one tuple shared by every board of that version): found once for its three seats.
_turns_told: OrderedDict[int, tuple[Sequence[Entry], list[Turn]]] = OrderedDict()
TURNS_KEPT = 256


def turns(journal: Sequence[Entry]) -> list[Turn]:
    """The journal's moves grouped by turn (the list is shared: do not change it)."""
    hit = _turns_told.get(id(journal))
    if hit is not None and hit[0] is journal:
        return hit[1]
    found = _turns(journal)
    _turns_told[id(journal)] = (journal, found)  # the journal held: its id stays its own
    while len(_turns_told) > TURNS_KEPT:
        _turns_told.popitem(last=False)
    return found


def forget() -> None:
    _turns_told.clear()
    _heads.clear()


def _turns(journal: Sequence[Entry]) -> list[Turn]:
    out: list[Turn] = []
    start = 0
    for i in range(1, len(journal) + 1):
        if i == len(journal) or journal[i].seat != journal[start].seat:
            out.append(Turn(len(out) + 1, journal[start].seat, tuple(journal[start:i])))
            start = i
    return out


# --- Moves in words, from one seat's side ------------------------------------------------
# Every piece of words below is cached with the language it is in (``lang``, the active
# language, taken once per board): two watchers of one table in two languages never
# share a sentence.


@lru_cache(maxsize=52 * 4)
def chip(card: int, lang: str | None) -> SafeString:
    """A card named in a sentence, in its suit's colour."""
    return format_html(
        '<span class="chip suit-{}" title="{}">{}</span>',
        "cdhs"[card // 13], name_in(card, lang), short(card),
    )  # fmt: skip


def chips(mask: int, lang: str | None) -> SafeString:
    return mark_safe(" ".join(chip(c, lang) for c in cards_of(mask)))


KINDS = {"set": pgettext_lazy("meld kind", "set"), "run": pgettext_lazy("meld kind", "run")}


def _laid_off(e: Entry, names: Sequence[str], me: int | None, lang: str | None) -> SafeString:
    cards, kind = chips(e.cards, lang), KINDS.get(e.kind, e.kind)
    if e.owner == e.seat:
        if e.seat == me:
            text = gettext("laid off {cards} on your own {kind}")
        else:
            text = gettext("laid off {cards} on their own {kind}")
    elif e.owner == me:
        text = gettext("laid off {cards} on your {kind}")
    else:
        text = gettext("laid off {cards} on {owner}'s {kind}")
    return format_html(text, cards=cards, kind=kind, owner=names[e.owner])


def phrase(e: Entry, names: Sequence[str], me: int | None, lang: str | None = None) -> SafeString:
    """What the move did, without who did it: "took 9♠ and melded 7♠ 8♠ 9♠"."""
    match e.type:
        case "draw":
            return mark_safe(gettext("drew the last card") if e.last else gettext("drew"))
        case "take":
            return format_html(
                gettext("took {card} and melded {cards}"),
                card=chip(e.taken, lang), cards=chips(e.cards | 1 << e.taken, lang),
            )  # fmt: skip
        case "meld":
            return format_html(gettext("melded {cards}"), cards=chips(e.cards, lang))
        case "secret":
            return mark_safe(gettext("laid a secret set"))
        case "layoff":
            return _laid_off(e, names, me, lang)
        case "discard":
            return format_html(gettext("discarded {cards}"), cards=chips(e.cards, lang))
        case "call":
            return mark_safe(gettext("called Draw"))
        case "fold":
            return mark_safe(gettext("folded"))
        case "fight":
            return mark_safe(gettext("chose to fight"))
    return mark_safe(e.type)


def _joined(turn: Turn, parts: list[SafeString]) -> SafeString:
    """Joined as "drew, melded 5♥ 6♥ 7♥ and discarded K♣"; after a take, which says "and",
    "took 9♠ and melded 7♠ 8♠ 9♠, then discarded K♥"."""
    if len(parts) < 2:
        return parts[0] if parts else mark_safe("")
    took = any(e.type == "take" for e in turn.entries[:-1])
    text = gettext("{first}, then {last}") if took else gettext("{first} and {last}")
    return format_html(text, first=mark_safe(", ".join(parts[:-1])), last=parts[-1])


def subject(seat: int, names: Sequence[str], me: int | None) -> str:
    return gettext("You") if seat == me else names[seat]


def _side(turn: Turn, me: int | None) -> int | None:
    """The watcher as far as this turn's words go: a seat it is not about (neither the
    one who played it nor the owner of a meld laid off on) reads it as a spectator does,
    so two of a table's three seats share one telling of each turn."""
    if me == turn.seat or any(e.owner == me for e in turn.entries if e.type == "layoff"):
        return me
    return None


def what_they_did(
    turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None
) -> SafeString:
    """The turn without its subject, for the seat's own panel: "drew and discarded K♣"."""
    return _what_they_did(turn, names, _side(turn, me), lang)


@lru_cache(maxsize=4096)
def _what_they_did(
    turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None
) -> SafeString:
    return _joined(
        turn, [_phrase(e, names, me if e.type == "layoff" else None, lang) for e in turn.entries]
    )


@lru_cache(maxsize=4096)
def _phrase(e: Entry, names: tuple[str, ...], me: int | None, lang: str | None) -> SafeString:
    # A turn's entries are told again each time the turn grows by a move: each once.
    # Only a lay-off's words depend on who reads them ("your run").
    return phrase(e, names, me, lang)


def sentence(turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None) -> SafeString:
    """The turn as a sentence: "Ana drew and discarded K♣"."""
    return _sentence(turn, names, _side(turn, me), lang)


@lru_cache(maxsize=4096)
def _sentence(turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None) -> SafeString:
    return format_html(
        gettext("{who} {did}"),
        who=subject(turn.seat, names, me), did=_what_they_did(turn, names, me, lang),
    )  # fmt: skip


def move_line(turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None) -> SafeString:
    """One line of the move list."""
    return _move_line(turn, names, _side(turn, me), lang)


@lru_cache(maxsize=4096)
def _move_line(turn: Turn, names: tuple[str, ...], me: int | None, lang: str | None) -> SafeString:
    return format_html(
        '<li class="move-line{}" value="{}">{}</li>',
        " is-mine" if turn.seat == me else "", turn.number, _sentence(turn, names, me, lang),
    )  # fmt: skip


def last_turns(all_turns: list[Turn]) -> dict[int, Turn]:
    """Each seat's most recent turn."""
    found: dict[int, Turn] = {}
    for turn in reversed(all_turns):
        found.setdefault(turn.seat, turn)
        if len(found) == 3:
            break
    return found


def move_list(
    all_turns: list[Turn], names: tuple[str, ...], me: int | None, lang: str | None = None
) -> dict[str, Any]:
    """The move list's two parts: the older turns in whole blocks, and the rest."""
    count = len(all_turns)
    sealed = (count - 1) // BLOCK * BLOCK if count else 0
    return {
        "moves_head": _head(tuple(all_turns[:sealed]), names, me, lang) if sealed else (),
        "moves_tail": tuple(move_line(t, names, me, lang) for t in all_turns[sealed:]),
        "moves_count": count,
    }


# The sealed blocks of a game's move list change only when a block fills: told once for
# each seat and language, not again at every move (keyed by the turns themselves).
_heads: OrderedDict[tuple, tuple[SafeString, ...]] = OrderedDict()
HEADS_KEPT = 512


def _head(
    sealed: tuple[Turn, ...], names: tuple[str, ...], me: int | None, lang: str | None
) -> tuple[SafeString, ...]:
    key = (sealed, names, me, lang)
    found = _heads.get(key)
    if found is None:
        found = _heads[key] = tuple(move_line(t, names, me, lang) for t in sealed)
        while len(_heads) > HEADS_KEPT:
            _heads.popitem(last=False)
    return found


# --- Blocks (R5) -------------------------------------------------------------------------


def block_reason(
    journal: Sequence[Entry], seat: int, names: Sequence[str], me: int | None, now: bool
) -> str:
    """Why ``seat`` may not call Draw (R5): who laid off on its melds since its last draw
    or take. ``now``: the seat is at the start of its turn. Another seat's reason is said
    on that seat's panel, so it does not name the seat again."""
    layers: list[int] = []
    for e in reversed(journal):
        if e.seat == seat and e.type in ("draw", "take"):
            break
        if e.type == "layoff" and e.owner == seat and e.seat not in layers:
            layers.insert(0, e.seat)
    if not layers:
        return ""
    who = _and([subject(s, names, me) for s in layers])
    own = layers == [seat]
    if seat == me:
        if own:
            if now:
                return gettext("You laid off on your own meld: you may not call Draw this turn.")
            return gettext(
                "You laid off on your own meld: you may not call Draw on your next turn."
            )
        if now:
            return gettext("%(who)s laid off on your meld: you may not call Draw this turn.") % {
                "who": who
            }
        return gettext(
            "%(who)s laid off on your meld: you may not call Draw on your next turn."
        ) % {"who": who}
    # Said on the seat's own panel, under its name.
    if own:
        if now:
            return gettext("%(who)s laid off on their own meld: no Draw call this turn.") % {
                "who": who
            }
        return gettext("%(who)s laid off on their own meld: no Draw call on their next turn.") % {
            "who": who
        }
    if now:
        return gettext("%(who)s laid off on their meld: no Draw call this turn.") % {"who": who}
    return gettext("%(who)s laid off on their meld: no Draw call on their next turn.") % {
        "who": who
    }


def _and(words: list[str]) -> str:
    if len(words) < 2:
        return "".join(words)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


# --- The hand ----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def in_melds(hand: tuple[int, ...]) -> int:
    """The cards of the hand that some meld of the hand uses (the hint)."""
    found = 0
    for meld in all_melds(mask_of(hand)):
        found |= meld
    return found


# --- The result --------------------------------------------------------------------------


def how_it_ended(journal: Sequence[Entry], end: str, names: Sequence[str]) -> str:
    """After a Draw, who called it and how each other seat answered (R7), in words: "Ana
    called Draw. Ben folded. Cat fought." Empty for the other ends, which the headline
    says whole."""
    if end not in ("draw", "fought_draw"):
        return ""
    said: list[str] = []
    caller, answered = -1, set()
    for e in journal:
        if e.type == "call":
            caller, answered = e.seat, set()
            said = [gettext("%(name)s called Draw.") % {"name": names[e.seat]}]
        elif e.type == "fold":
            answered.add(e.seat)
            said.append(gettext("%(name)s folded.") % {"name": names[e.seat]})
        elif e.type == "fight":
            answered.add(e.seat)
            said.append(gettext("%(name)s fought.") % {"name": names[e.seat]})
    # A seat that had not opened may not fight: the engine folds for it, logging no move.
    for seat in range(3):
        if caller >= 0 and seat != caller and seat not in answered:
            said.append(gettext("%(name)s folded, not having opened.") % {"name": names[seat]})
    return " ".join(said)


def result_context(
    view: SeatView, names: Sequence[str], faces, journal: Sequence[Entry] = ()
) -> dict[str, Any]:
    """Everything the result screen shows, the winner first: how it ended, every seat's
    melds and hand, the points, and each payment term with what earned it (R10)."""
    o = view.outcome
    hands = view.revealed_hands or ((), (), ())
    order = [o.winner, *(s for s in range(3) if s != o.winner)]
    rows = [
        {
            "name": names[s],
            "is_me": s == view.seat,
            "winner": s == o.winner,
            "hand": faces(hands[s]),
            "melds": [
                {"cards": faces(m.cards), "secret": m.secret} for m in view.melds if m.owner == s
            ],
            "points": o.points[s],
            "burned": o.burned[s],
            "chips": o.chips[s],
        }
        for s in order
    ]
    owned = [m for m in view.melds if m.owner == o.winner]
    held = mask_of(hands[o.winner])
    aces = cards_of(held & ACES) + [c for m in owned for c in m.cards if c % 13 == 0]
    secrets = [
        gettext("four %(rank)s laid as a secret set") % {"rank": _rank_plural(m.cards[0])}
        for m in owned
        if m.secret
    ]
    fours = [r for r in range(13) if held & RANK_MASKS[r] == RANK_MASKS[r]]
    # r: the club of rank r
    secrets += [gettext("four %(rank)s in hand") % {"rank": _rank_plural(r)} for r in fours]
    payments = [
        {
            "loser": names[p.loser],
            "base": p.base,
            "aces": p.aces,
            "secret_sets": p.secret_sets,
            "secret_points": 3 * p.secret_sets,
            "burned": p.burned,
            "total": p.total,
        }
        for p in o.payments
    ]
    return {
        "winner": names[o.winner],
        "end": str(ENDS.get(o.end, WON)),
        "how": how_it_ended(journal, o.end, names),
        "base_reason": str(BASES.get(o.end, "")),
        "rows": rows,
        "payments": payments,
        "aces": chips(mask_of(aces), get_language()),
        "secrets": secrets,
    }


RANK_PLURALS = {
    "A": gettext_lazy("aces"),
    "J": gettext_lazy("jacks"),
    "Q": gettext_lazy("queens"),
    "K": gettext_lazy("kings"),
}


def _rank_plural(card: int) -> str:
    rank = short(card)[:-1]
    plural = RANK_PLURALS.get(rank)
    return str(plural) if plural else gettext("%(rank)ss") % {"rank": rank}


# --- For the board -----------------------------------------------------------------------


def story(
    journal: Sequence[Entry], view: SeatView, names: Sequence[str], lang: str | None = None
) -> dict[str, Any]:
    """The board's words about the moves so far, for this watcher, in ``lang`` (the active
    language, which keys every cached piece)."""
    if lang is None:
        lang = get_language()
    me, key = view.seat, tuple(names)
    all_turns = turns(journal)
    last = last_turns(all_turns)
    newest = all_turns[-1] if all_turns else None
    fresh = {e.meld for e in newest.entries if e.meld >= 0} if newest else set()
    return {
        **move_list(all_turns, key, me, lang),
        "last_sentence": format_html("{}.", sentence(newest, key, me, lang)) if newest else "",
        "last_turns": {s: what_they_did(t, key, me, lang) for s, t in last.items()},
        "fresh_melds": fresh,
    }


def blocks(journal: Sequence[Entry], view: SeatView, names: Sequence[str]) -> dict[int, str]:
    """Why each blocked seat is blocked."""
    return {
        s.seat: block_reason(
            journal, s.seat, names, view.seat, view.turn == s.seat and view.phase is Phase.START
        )
        for s in view.seats
        if s.blocked
    }
