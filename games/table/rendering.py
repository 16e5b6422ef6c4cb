"""What one watcher of a table sees, as template context: for the page and the socket.

Size: ~600 lines, kept whole: who may watch, the board's context and the memo of the
parts a socket sends are one pipeline from a snapshot to HTML, and the memo's keys must
change with the context they key (the cards and panels are apart, in pieces.py).

Everything here starts from ``seat_view`` (the engine's observer), so a template can only
show what the seat may see: its own hand, the public table, and every hand after the end.
Templates get these flags and faces, never a ``GameState``, a deal or a seed in play.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.timesince import timeuntil
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

from games.engine import Move, SeatView, seat_view
from games.engine.cards import codes_of
from games.engine.state import Phase
from games.models import Game, is_correspondence
from games.play.live import snapshots
from games.play.live.snapshots import SeatRow, Snapshot
from games.table import board_html
from games.table import story as table_view
from games.table.board_felt import meld_key
from games.table.board_markup import MEMO_SIZE
from games.table.pieces import SeatPanel, face, faces, hand_card, hand_faces

FRAME_TEMPLATE = "games/table.html#frame"
ENDS = table_view.ENDS
ABORTED = gettext_lazy("This game was called off: nobody wins or pays.")
# The answers to a Draw call, as the seat panel's words ({% term %} translates them).
ANSWERS = {"fold": "folded", "fight": "fights", "auto": "folded (not opened)"}
LOG_IN_TO_WATCH = gettext_lazy("Log in to watch a table.")
PRIVATE = gettext_lazy("This table is private.")


# --- Who may watch ------------------------------------------------------------------------


@dataclass
class Table:
    """A game as one watcher (a seated person, or a spectator) sees it: a snapshot of one
    version of the game, and the watcher's place at it."""

    game: Snapshot
    seats: tuple[SeatRow, ...]
    mine: SeatRow | None  # None for a spectator
    at_next: bool = False  # the watcher has a seat at the game played after this one


def table_for(snap: Snapshot, user: AbstractBaseUser | AnonymousUser) -> Table:
    """The watcher's table at this snapshot; PermissionDenied for an anonymous user or a
    private table where the user has no seat. No query: sockets call it on the loop."""
    if not user.is_authenticated:
        raise PermissionDenied(LOG_IN_TO_WATCH)
    mine = snap.seat_of(user.pk)
    if mine is None and not snap.public:
        raise PermissionDenied(PRIVATE)
    at_next = snap.next_game is not None and user.pk in snap.next_game.users
    return Table(snap, snap.seats, mine, at_next)


def load_table(game_id: int, user: AbstractBaseUser | AnonymousUser) -> Table:
    """The table as ``user`` may watch it, as the database holds it now. Raises Http404,
    or PermissionDenied for an anonymous user or a private table where the user has no
    seat."""
    if not user.is_authenticated:
        raise PermissionDenied(LOG_IN_TO_WATCH)
    snap = snapshots.fresh(game_id)
    if snap is None:
        raise Http404(gettext("There is no such game."))
    return table_for(snap, user)


def refusal_code(snap: Snapshot | None, user: AbstractBaseUser | AnonymousUser) -> int | None:
    """The WebSocket close code for a socket that may not watch the table (None: it may),
    from a snapshot in hand: no query."""
    if not user.is_authenticated:
        return 4401
    if snap is None:
        return 4404
    try:
        table_for(snap, user)
    except PermissionDenied:
        return 4403
    return None


# --- Cards --------------------------------------------------------------------------------


# --- The board ----------------------------------------------------------------------------


def board_context(
    table: Table, view: SeatView | None = None, lang: str | None = None, now: str | None = None
) -> dict[str, Any]:
    """The template context of the whole board for this watcher, in the active language
    (``lang``: it, taken once per board; it keys every cache of words).

    ``view`` defaults to the watcher's seat view of the current state (tests pass one).
    ``now``: the server's time as the board says it (default: now; a socket's boards
    carry a placeholder, filled in as each frame goes out).
    """
    if lang is None:
        lang = get_language()
    game, mine = table.game, table.mine
    names = [s.shown_name for s in table.seats]
    # Not the Game itself: a template never gets near its seed or its deal.
    ctx: dict[str, Any] = {
        "game_id": game.pk,
        "public": game.public,
        # "Private" means invite only: said of a table with a place for other people,
        # not of one against bots (Quick play), where nobody else can sit anyway.
        "invite_only": not game.public and any(not s.is_bot for s in table.seats if s != mine),
        "seq": game.seq,
        "me": mine.index if mine else None,
        "spectator": mine is None,
        "commitment": game.commitment,
        # Game.revealed is the one gate for the seed and the deal (a snapshot of a game in
        # play holds no seed at all).
        "seed": game.seed if game.revealed else "",
        "client_move_id": client_move_id(game.pk, game.seq, mine),
        "act_url": act_url(game.pk),
        "now": now if now is not None else timezone.now().isoformat(),
        "message": "",
        "lang": lang,
        "shared_note": shared_note(game.shared, names),
        # The ringed card a tap on the pile throws (greedy's least-deadwood card): as the
        # person chose for this kind of table (SeatRow.suggest: at rated and arena tables
        # only if they asked), and never in the daily deal, whose scores measure the
        # player alone.
        "suggest": not game.daily and (mine is None or mine.suggest),
    }
    if game.status == Game.Status.WAITING:
        return {**ctx, **_waiting_context(table, names)}
    if not game.dealt:  # aborted before the deal
        return {**ctx, "aborted": True, "turn_text": str(ABORTED)}
    if view is None:
        view = seat_view(game.state, mine.index if mine else None)
    return {**ctx, **_dealt_context(table, view, names, lang)}


def shared_note(shared: Collection, names: list[str]) -> str:
    """What a table something rides on (rated, or a series' hand) says to everyone at it
    when two of its accounts share a network address or a device (found as they sat down,
    before the deal: games.fairplay)."""
    said = []
    for a, b, why in shared:
        who = {"one": names[a], "other": names[b]}
        if "address" in why and "device" in why:
            text = gettext("%(one)s and %(other)s play from the same network and device.")
        elif "device" in why:
            text = gettext("%(one)s and %(other)s play from the same device.")
        else:
            text = gettext("%(one)s and %(other)s play from the same network address.")
        said.append(text % who)
    if not said:
        return ""
    return " ".join([gettext("Fair play:"), *said])


# Per process: a board made again for the same seat and version carries the same id, so
# a board that changed nothing else need not be sent again, and every id is new per move.
_MOVE_ID_SALT = secrets.token_hex(16)


@lru_cache(maxsize=4096)
def act_url(game_id: int) -> str:
    return reverse("act", args=[game_id])


def client_move_id(game_id: int, seq: int, mine: SeatRow | None) -> str:
    """The id the hand form sends with its move: a repeat of it (a resend after a
    reconnect) is applied once."""
    if mine is None:
        return ""
    text = f"{_MOVE_ID_SALT}:{game_id}:{seq}:{mine.index}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _waiting_context(table: Table, names: list[str]) -> dict[str, Any]:
    missing = sum(1 for s in table.seats if s.is_open)
    invite = ""
    if table.mine is not None:  # the token lets people into a private table
        invite = reverse("invite", args=[table.game.invite_token])
    said = ngettext(
        "Waiting for %(n)s more player to sit down.",
        "Waiting for %(n)s more players to sit down.",
        missing,
    ) % {"n": missing}
    game = table.game
    if game.due_at is not None and is_correspondence(game.turn_seconds):
        # A correspondence Rematch waits days for the others (after_game.play_again).
        left = gettext("Bots take the open seats in %(left)s.") % {"left": timeuntil(game.due_at)}
        said = f"{said} {left}"
    return {
        "waiting": True,
        "waiting_seats": [
            {"index": s.index, "name": names[s.index], "open": s.is_open, "bot": s.is_bot}
            for s in table.seats
        ],
        "invite_path": invite,
        "turn_text": said,
    }


def _dealt_context(
    table: Table, view: SeatView, names: list[str], lang: str | None
) -> dict[str, Any]:
    game, me = table.game, view.seat
    journal = game.position.journal if game.position else ()
    told = table_view.story(journal, view, names, lang)
    # An aborted game's state still has a seat to act; nobody may.
    can = legal_flags(view.legal if game.status == Game.Status.PLAYING else ())
    panels = _panels(table, view, names, told["fresh_melds"], can["layoff"])
    for seat, note in table_view.blocks(journal, view, names).items():
        panels[seat].block_note = note
    for seat, did in told["last_turns"].items():
        panels[seat].last_turn = did
    aborted = game.status == Game.Status.ABORTED
    order = [me, (me + 1) % 3, (me + 2) % 3] if me is not None else [0, 1, 2]
    hand, hand_html = _hand_cards(view.hand, lang)
    ctx = {
        "dealt": True,
        "playing": not view.finished and not game.is_over,
        "finished": view.finished,
        "aborted": aborted,
        "my_panel": panels[me] if me is not None else None,
        "others": [panels[s] for s in order if s != me],
        "meld_groups": [panels[s] for s in order if panels[s].melds],
        "hand": hand,
        "hand_points": view.hand_points,
        "hand_html": hand_html,
        "hand_cards": view.hand,
        # The seat's own ways to take the discard (its own cards): a tap on the discard
        # takes it at once when there is one, and asks when there are several.
        "takes": "|".join(" ".join(codes_of(m.cards)) for m in view.legal if m.type == "take")
        if game.status == Game.Status.PLAYING
        else "",
        "top_discard": face(view.top_discard) if view.top_discard is not None else None,
        "discards": len(view.discards),
        "discard_cards": view.discards,
        "discard_pile": faces(view.discards),
        "stock_left": view.stock_left,
        "can": can,
        "turn_text": str(ABORTED) if aborted else turn_text(view, names),
        "last_move": told["last_sentence"],
        "moves_head": told["moves_head"],
        "moves_tail": told["moves_tail"],
        "moves_start": told["moves_count"] - len(told["moves_tail"]) + 1,
    }
    if view.finished:
        ctx["result"] = table_view.result_context(view, names, faces, journal)
        ctx["next_game"] = next_game_context(table)
        # Report (fair play): for a seat at a game another person played in.
        if table.mine is not None and any(
            s.user_id is not None and s != table.mine for s in table.seats
        ):
            ctx["report_url"] = reverse("report_game", args=[game.pk])
    return ctx


@lru_cache(maxsize=512)  # a hand's markup is some 4 KB: 2 MB at most
def _hand_cards(
    hand: tuple[int, ...], lang: str | None
) -> tuple[tuple[SafeString, ...], SafeString]:
    """The hand's cards as the form shows them, one by one and joined: made once per hand
    and language (a hand is shown again at every move of the others)."""
    in_meld = table_view.in_melds(hand) if hand else 0
    cards = tuple(
        hand_card(f, bool(in_meld >> card & 1), lang)
        for card, f in zip(hand, hand_faces(hand), strict=True)
    )
    return cards, SafeString("".join(cards))


def next_game_context(table: Table) -> dict[str, Any] | None:
    """The way from a finished table to the game played after it, if there is one.

    ``way`` is "go" for a watcher seated there, "join" for a player here with no seat
    there yet (their button asks play_again, which seats them), "full" when it was dealt
    without them (watchable only if public), and "watch" for a spectator of a public
    table. A private table's next game is nobody else's business (and no spectator can
    load a private table anyway).
    """
    following = table.game.next_game
    if following is None:
        return None
    url = reverse("table", args=[following.pk])
    if table.at_next:
        return {"way": "go", "url": url}
    if table.mine is None:
        return {"way": "watch", "url": url} if following.public else None
    if following.status == Game.Status.WAITING:
        # A rematch's table has a deadline for its open seats (after_game.play_again),
        # days away at a correspondence table: then it is said.
        slow = is_correspondence(table.game.turn_seconds)
        waits = following.rematch and following.due_at and slow
        left = timeuntil(following.due_at) if waits else ""
        return {"way": "join", "url": url, "rematch": following.rematch, "waits": left}
    return {"way": "full", "url": url if following.public else ""}


def _panels(
    table: Table,
    view: SeatView,
    names: list[str],
    fresh: Collection[int],
    may_lay_off: bool,
) -> list[SeatPanel]:
    game = table.game
    playing = not view.finished and game.status == Game.Status.PLAYING
    laying_off = may_lay_off and playing
    now = timezone.now()
    panels = []
    for seat, info in zip(table.seats, view.seats, strict=True):
        turn = playing and view.turn == seat.index
        # An away person's turn clock runs as anyone's: the server moves for them when
        # it runs out (games.play.moves._due_at); only a bot is "thinking".
        clock = turn and not seat.is_bot and game.due_at is not None
        panel = SeatPanel(
            index=seat.index,
            name=names[seat.index],
            is_me=seat.index == view.seat,
            cards=info.cards,
            opened=info.opened,
            blocked=info.blocked,
            away=seat.away,
            bot=seat.is_bot,
            dealer=view.dealer == seat.index,
            turn=turn,
            thinking=turn and seat.is_bot,
            deadline=game.due_at.isoformat() if clock else "",
            seconds_left=max(0, int((game.due_at - now).total_seconds())) if clock else 0,
            answer=ANSWERS.get(info.answer, ""),
        )
        panel.melds = [
            _meld(m, laying_off, m.index in fresh) for m in view.melds if m.owner == seat.index
        ]
        panels.append(panel)
    return panels


def _meld(meld, laying_off: bool, fresh: bool = False) -> dict[str, Any]:
    hidden = meld.secret and not meld.cards
    return {
        "index": meld.index,
        "number": meld.index + 1,
        "cards": faces(meld.cards),
        "secret": meld.secret,
        "hidden": hidden,
        "backs": range(meld.size) if hidden else range(0),
        "size": meld.size,
        "pickable": laying_off and not meld.secret,
        "fresh": fresh,  # made or laid off on in the newest turn
    }


def legal_flags(legal: tuple[Move, ...]) -> dict[str, bool]:
    """Which action buttons to show: one per move type that is legal now (the server
    checks the chosen cards)."""
    types = {move.type for move in legal}
    flags = {t: t in types for t in ("draw", "take", "meld", "secret", "layoff", "discard")}
    flags |= {t: t in types for t in ("call", "fold", "fight")}
    flags["any"] = bool(types)
    flags["choose"] = bool(types & {"take", "meld", "secret", "layoff", "discard"})
    return flags


def turn_text(view: SeatView, names: list[str]) -> str:
    """Whose turn it is, and what they must do, in words."""
    if view.finished:
        end = table_view.ENDS.get(view.outcome.end, table_view.WON)
        return gettext("%(winner)s %(end)s.") % {"winner": names[view.outcome.winner], "end": end}
    mine = view.my_turn
    if view.phase is Phase.ANSWER:
        you_called = view.caller == view.seat
        caller = names[view.caller]
        if mine:
            if you_called:
                return gettext("You called Draw. Fold or fight?")
            return gettext("%(caller)s called Draw. Fold or fight?") % {"caller": caller}
        if you_called:
            return gettext("You called Draw. Waiting for %(who)s to fold or fight.") % {
                "who": names[view.turn]
            }
        return gettext("%(caller)s called Draw. Waiting for %(who)s to fold or fight.") % {
            "caller": caller,
            "who": names[view.turn],
        }
    if not mine:
        return gettext("%(who)s's turn.") % {"who": names[view.turn]}
    if view.phase is Phase.START:
        # Taking the discard is offered only when it melds with the hand (R3).
        call = any(m.type == "call" for m in view.legal)
        take = any(m.type == "take" for m in view.legal)
        if call and take:
            return gettext("Your turn: draw, call Draw, or take the discard.")
        if call:
            return gettext("Your turn: draw or call Draw.")
        if take:
            return gettext("Your turn: draw or take the discard.")
        return gettext("Your turn: draw a card.")
    return gettext("Your turn: meld or lay off if you like, then discard one card.")


# --- Rendering ----------------------------------------------------------------------------

# The board's parts, in page order: each is a partial of the table template whose root
# has an id and, in a socket frame, hx-swap-oob. "status" goes in every frame: it carries
# the form's seq and move id, and tells the page that the frame is of this version.
PARTS = (
    "status", "live", "messages", "result", "seats", "piles", "melds", "hand", "moves-head",
    "moves-tail", "fairness",
)  # fmt: skip
ALWAYS = "status"
# Where the time of sending goes: a cached board may be sent some time after it was made,
# and the turn clock corrects the device's clock by the server's time.
NOW = "%%server-now%%"


def render_parts(
    table: Table,
    *,
    message: str = "",
    view: SeatView | None = None,
    now: str | None = None,
    lang: str | None = None,
) -> dict[str, str]:
    """The watcher's board as its parts (id -> HTML with hx-swap-oob): state, not a delta.
    In the active language (``lang``: it, if the caller has it already)."""
    return {part: html for part, (html, _) in _made_parts(table, message, view, now, lang).items()}


def _made_parts(
    table: Table, message: str, view: SeatView | None, now: str | None, lang: str | None
) -> dict[str, tuple[str, int]]:
    """Each part as (HTML, a hash of it without its version): the hash of the part as
    made with placeholders for the version and the move id, so that a part whose
    content did not change hashes the same at the next version."""
    values = {**board_context(table, view, lang, now), "oob": True, "message": message}
    stand_in = {**values, "seq": SEQ, "client_move_id": MOVE_ID}
    seq, move_id = str(values["seq"]), values["client_move_id"]
    made = {}
    for part in PARTS:
        html, bare = _render_part(part, values, stand_in)
        html = html.replace(SEQ, seq)
        made[part] = (html.replace(MOVE_ID, move_id) if MOVE_ID in html else html, bare)
    return made


def _render_part(part: str, values: dict[str, Any], stand_in: dict[str, Any]) -> tuple[str, int]:
    """One part with placeholders for the version and the move id, and its hash. The
    parts worth it (MEMO_KEYS) are made once for the same inputs, whichever board and
    seat they are for; the others are quick to make."""
    keyed = MEMO_KEYS.get(part)
    key = keyed(values) if keyed else None
    if key is None:
        html = _render(part, stand_in)
        return html, hash(html)
    key = (values["lang"], key)  # the words are in the board's language
    memo = _memo[part]
    found = memo.get(key)
    if found is None:
        html = _render(part, stand_in)
        found = memo[key] = (html, hash(html))
        while len(memo) > MEMO_SIZE:
            del memo[next(iter(memo))]
    return found


def _render(part: str, values: dict[str, Any]) -> str:
    build = board_html.BUILDERS.get(part)
    if build is not None:
        html = build(values)
        if html is not None:
            return html
    # A context of its own per part: the ids of its explanations ({% term %}) are
    # numbered within it. The board's numbers are small counts: localizing each one
    # would be a tenth of the work.
    context = Context({**values, "term_ns": part}, use_l10n=False)
    return _template(part).template.render(context)


SEQ = "%%seq%%"
MOVE_ID = "%%move-id%%"


def _hand_key(v: dict[str, Any]) -> tuple | None:
    mine = v.get("my_panel")
    return (
        v["game_id"], v.get("me"), v["oob"], v["spectator"], v.get("waiting"), v.get("finished"),
        v.get("playing"), tuple(v.get("hand", ())), v.get("hand_points"),
        (mine.turn, mine.opened, mine.blocked, mine.dealer, mine.away, mine.last_turn,
         mine.block_note, _clock_key(mine)) if mine else None,
        v["now"] if mine and mine.deadline else None,  # the clock's
        tuple(sorted(v.get("can", {}).items())), v.get("takes"),
    )  # fmt: skip


def _clock_key(p: SeatPanel | None) -> tuple | None:
    return (p.turn, p.thinking, p.deadline, p.seconds_left) if p else None


def _piles_key(v: dict[str, Any]) -> tuple:
    # The same for every watcher of a version: made once for all of them. The turn's
    # words show here only before the deal.
    words = v["turn_text"] if not v.get("dealt") else None
    return (
        v["oob"], v.get("waiting"), v.get("dealt"), words, v.get("invite_path"),
        v.get("invite_url"), v.get("top_discard"), v.get("stock_left"), v.get("discard_cards"),
    )  # fmt: skip


def _melds_key(v: dict[str, Any]) -> tuple:
    groups = tuple(
        (p.is_me, p.name, tuple(meld_key(m) for m in p.melds)) for p in v.get("meld_groups", ())
    )
    return (v["oob"], v.get("waiting"), v.get("dealt"), groups)


# The parts worth making once per distinct input: exactly what each reads, besides seq
# and the move id.
MEMO_KEYS = {
    "piles": _piles_key,
    "melds": _melds_key,
    "hand": _hand_key,
    "result": lambda v: (v["oob"],) if not v.get("result") else None,
    "messages": lambda v: (v["oob"],) if not v.get("message") else None,
    "fairness": lambda v: (v["oob"], v["commitment"], v["seed"]),
    # The sealed blocks of the move list: the same lines (one tuple, story's) until a
    # block fills, so joined once for a seat's side rather than at every move.
    "moves-head": lambda v: (v["oob"], v.get("moves_head") or ()),
}
_memo: dict[str, dict[tuple, tuple[str, int]]] = {part: {} for part in MEMO_KEYS}


@cache
def _template(part: str):
    return get_template(f"games/table.html#{part}")


def render_frame(table: Table, *, message: str = "", view: SeatView | None = None) -> str:
    """The whole board as one frame (the htmx POST's answer, and tests)."""
    return "".join(render_parts(table, message=message, view=view).values())


def message_frame(message: str, seq: int) -> str:
    """Only the message box, for the one socket whose action failed (in the active
    language: a service's message is put into words as it is shown)."""
    context = {"oob": True, "message": message, "seq": seq}
    return render_to_string("games/table.html#messages", context)


def next_game_part(game_id: int) -> str:
    """What a socket that went on to the arena's next game sends before its board
    (games/sockets/table.py): the new game's number, address and title, read by
    static/js/table.js, and the menu's part about who sits here (names, friends, ratings),
    fetched only if the person opens the menu. In the active language."""
    context = {"oob": True, "game_id": game_id}
    return render_to_string("games/table.html#next-game", context)


# Boards made for sockets, by (game, seat, at next game, language), the newest rev only:
# all sockets of one seat in one language, and all spectators in it, share one. The time
# of sending is filled in as it goes out. Bounded: a board is a few kilobytes and only
# the newest is of use.
BOARDS = 400
_boards: OrderedDict[tuple, tuple[int, dict[str, tuple[str, int]]]] = OrderedDict()


def socket_parts(table: Table) -> dict[str, tuple[str, int]]:
    """The watcher's board for a socket in the active language, made once per version,
    seat and language in this process (with ``NOW`` where the time of sending goes):
    each part as (HTML, a hash of it without its data-seq), the second to tell whether a
    part changed since a socket's last frame."""
    snap = table.game
    lang = get_language()  # once per board: it keys the board and every piece of it
    key = (snap.pk, table.mine.index if table.mine else None, table.at_next, lang)
    hit = _boards.get(key)
    if hit is not None and hit[0] == snap.rev:
        _boards.move_to_end(key)
        return hit[1]
    parts = _made_parts(table, "", None, NOW, lang)
    if hit is None or hit[0] < snap.rev:
        _boards[key] = (snap.rev, parts)
        _boards.move_to_end(key)
        while len(_boards) > BOARDS:
            _boards.popitem(last=False)
    return parts


def forget_boards() -> None:
    _boards.clear()
    board_html.forget()
    table_view.forget()
    for memo in _memo.values():
        memo.clear()


def stamp(html: str) -> str:
    """Fill in the time of sending."""
    return html.replace(NOW, timezone.now().isoformat()) if NOW in html else html
