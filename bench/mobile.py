"""The site on a slow phone: ``python -m bench.mobile``.

One Daphne worker as in production (``DJANGO_DEBUG=0``, WhiteNoise's compressed static
files from a ``collectstatic`` of the bench's own, its own database), reached through a
small TCP relay that can cut the line, and Debian's Chromium at 360x740 with Chrome's
network emulation (CDP ``Network.emulateNetworkConditions``: by default 400 kbps down and
up and 400 ms round trip). It prints:

- the home page's cold load (a fresh browser, to the load event);
- the cold visit from typing the address to a dealt hand you can act on (a move's button
  shown and enabled, which the table does once its socket is open), through Play now,
  tapped as soon as it can be (shown and still), as a person does; and the same with the
  tap after the home page's load event; each ``--visits`` times in a fresh browser, the
  median printed (``--waterfall`` prints the slowest visit's requests, and the moments
  the pages noted: DOMContentLoaded, load, the table's socket open, its first frame);
- the table's first load in a fresh browser (with the guest's session): bytes as received
  (encoded, headers included) and requests, from the page's own target;
- tap -> the card visibly moved and tap -> your board updated, p50 and p95 over
  your moves (the bots answer at once) by kind: draw, take and discard each by its button
  and by a tap on the stock or the discard pile (``stock``, ``pile-take``,
  ``pile-throw``), meld, lay off, until each kind has ``--per-kind`` (30; ``--any-kind``:
  ``--moves`` of any kind). The player steers towards takes and lay-offs, and after the
  first game each table is dealt from a seed rich in them (bench/mobile_deals.py). Timed in
  the page from the tap (its pointerdown's timeStamp) to the first frame whose cards on
  screen differ (MOVE_CLOCK), and to the new board painted, with its parts (to the frame
  in, swapped in, painted), and, for comparison, as Playwright sees it from outside (its
  own tap and polling included). From here on the relay is the slow line (the same
  rate and round trip, on the bytes actually sent) and Chrome's emulation is off: Chrome
  puts no latency on a socket's frames and throttles them by their inflated size (see
  ``Relay``);
- after the line is cut for ``--offline-seconds`` on this seat's turn (the relay drops
  every connection and refuses new ones, and the browser is told it is offline): that the
  move on offer is disabled with the reason, and that tapping it and submitting its form
  send nothing; then the time from the network's return until the table shows the
  database's version with its moves enabled (current and playable), and the move pressed
  then, timed to its board;
- from the worker's log: how many lines report an error (``worker_errors``, each printed);
- from the database: the moves stored, and that no move was stored twice (a client move id
  twice, or two moves of one seq).

The last line is the JSON of it all. Nothing here is asserted except that the run worked:
tests/test_bench_mobile.py runs it tiny.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench.live_server import BenchDatabase, Workers, close_django, setup_django, site_env
from bench.slowline import SlowLine

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
PHONE = {"width": 360, "height": 740}
ACTIONS = ("Fold", "Draw", "Discard")
ACT_TIMEOUT_MS = 60_000


# --- The browser ------------------------------------------------------------------------------


class Wire:
    """What one page's own target received: requests and encoded bytes (CDP Network); and
    the move frames its sockets sent (Playwright's ``framesent``), which is how a move
    leaves."""

    def __init__(self, cdp, page) -> None:
        self.requests = 0
        self.bytes = 0
        self.sent = 0
        # The waterfall: per request id, [url, started, response headers in, finished,
        # encoded bytes, status]; times in ms from the wire's start. Socket frames received
        # are kept as (ms, payload bytes).
        self.start = time.monotonic()
        self.wall = time.time()
        self.page = page
        self.log: dict[str, list] = {}
        self.frames: list[tuple[float, int]] = []
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)
        cdp.on("Network.webSocketCreated", self._socket)
        cdp.on("Network.webSocketHandshakeResponseReceived", self._handshake)
        cdp.on("Network.webSocketFrameReceived", self._frame_in)
        page.on("websocket", lambda ws: ws.on("framesent", self._frame))

    def _ms(self) -> float:
        return (time.monotonic() - self.start) * 1000

    def _frame(self, payload) -> None:
        # Moves only: the chat's own frames (a socket that opens asks for the talk so far,
        # ``chat_history``) are not moves.
        if isinstance(payload, str) and '"chat_' in payload:
            return
        self.sent += 1

    def _sent(self, event: dict) -> None:
        self.requests += 1
        key = event["requestId"]
        if key in self.log:  # a redirect: the same id goes on to its new address
            key = f"{key}+{self._ms():.0f}"
            self.log[key] = self.log.pop(event["requestId"])
        self.log[event["requestId"]] = [event["request"]["url"], self._ms(), None, None, 0, ""]

    def _response(self, event: dict) -> None:
        if entry := self.log.get(event["requestId"]):
            entry[2], entry[5] = self._ms(), event["response"].get("status", "")

    def _finished(self, event: dict) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))
        if entry := self.log.get(event["requestId"]):
            entry[3], entry[4] = self._ms(), int(event.get("encodedDataLength", 0))

    def _failed(self, event: dict) -> None:
        # A request given up (a tap that navigates away cancels the page's own fetches).
        if entry := self.log.get(event["requestId"]):
            entry[3], entry[5] = self._ms(), "x"

    def _socket(self, event: dict) -> None:
        self.log[event["requestId"]] = [event["url"], self._ms(), None, None, 0, "ws"]

    def _handshake(self, event: dict) -> None:
        if entry := self.log.get(event["requestId"]):
            entry[2], entry[5] = self._ms(), event["response"].get("status", "")
            headers = event["response"].get("headers", {})
            entry.append(headers.get("Sec-WebSocket-Extensions", ""))

    def _frame_in(self, event: dict) -> None:
        self.frames.append((self._ms(), len(event["response"].get("payloadData", ""))))

    def waterfall(self) -> list[str]:
        """One line a request, in the order sent: start, headers, end (ms), status,
        bytes, address; then the first socket frames received."""
        lines = []
        for url, start, headers, end, size, status, *extra in self.log.values():
            shown = lambda t: f"{t:7.0f}" if t is not None else "      -"  # noqa: E731
            lines.append(
                f"{start:7.0f} {shown(headers)} {shown(end)}  {status!s:>3} {size:>7,}  "
                f"{url[:90]}{'  ' + extra[0] if extra and extra[0] else ''}"
            )
        for at, size in self.frames[:3]:
            lines.append(f"{at:7.0f}  socket frame in, {size:,} characters")
        marks = self.page.evaluate("() => JSON.parse(sessionStorage.getItem('__marks') || '[]')")
        for name, at in marks:
            lines.append(f"{at - self.wall * 1000:7.0f}  in the page: {name}")
        return lines


# The page's own moments on the way to a dealt hand, for the waterfall: kept in the tab's
# sessionStorage (it outlives the home page), as wall-clock times.
MARKS = """
(function () {
  function mark(name) {
    try {
      var marks = JSON.parse(sessionStorage.getItem('__marks') || '[]');
      marks.push([name + ' ' + location.pathname, Date.now()]);
      sessionStorage.setItem('__marks', JSON.stringify(marks));
    } catch (e) {}
  }
  document.addEventListener('DOMContentLoaded', function () { mark('DOMContentLoaded'); });
  window.addEventListener('load', function () { mark('load'); });
  var opened = false, board = false;
  document.addEventListener('htmx:wsOpen', function () {
    if (!opened) mark('socket open (htmx:wsOpen)');
    opened = true;
  });
  document.addEventListener('htmx:wsAfterMessage', function () {
    if (!board) mark('first socket frame swapped');
    board = true;
  });
})();
"""


# A move timed inside the page, as the person sees it, from the tap on the move's control
# (the pointerdown's own timeStamp: when the finger touched; a click without one, as a key
# gives, from the click's) to two moments:
#
# - ``moved``: the first animation frame whose cards on screen differ from the tap's: the
#   cards shown in the hand (a card gone, or one arriving, face down for a draw), the top
#   of the discard pile, or the cards on the felt (a meld laid, a card laid off). It is read
#   in every frame (requestAnimationFrame, whose time is that frame's), from what is
#   visible (``checkVisibility``: a card hidden counts as gone), not from the table's own
#   word for it. A move that moves no card (fold) counts its board as moved.
# - ``shown``: the board of the next version swapped in (htmx's wsAfterMessage with a new
#   data-seq) and a frame painted after it (a requestAnimationFrame, then a task).
#
# The controls: the hand's buttons (#my-hand button[name=action]) and the stock and the
# discard pile (.pile), each a kind of its own: a pile tapped to draw is "stock", to take
# "pile-take", to throw "pile-throw". The time Playwright takes to find, check and tap the
# control, and to notice the change from outside, is the bench's own and not counted here
# (100-200 ms a move on a loaded machine).
MOVE_CLOCK = """
window.__move = null;
(function () {
  var CONTROL = '#my-hand button[name=action], .pile, [data-move]';
  function shown(el) {
    return el.isConnected && (!el.checkVisibility ||
      el.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
  }
  function face(el) { return el.getAttribute('data-card') || el.textContent.trim() || '?'; }
  // The cards on screen that a move changes, as one string.
  function cardsSeen() {
    var hand = Array.from(document.querySelectorAll('#my-hand .hand > li'))
      .filter(shown).map(function (li) {
        var card = li.querySelector('.card, .hand-card');
        return card ? face(card) : '';
      });
    var top = Array.from(document.querySelectorAll('#table-piles .pile-discard > .card'))
      .filter(function (el) { return shown(el) && !el.classList.contains('empty'); })
      .map(face)[0] || '';
    var felt = Array.from(document.querySelectorAll('#table-melds .card')).filter(shown).length;
    return hand.join(' ') + '|' + top + '|' + felt;
  }
  function kindOf(control) {
    if (!control.classList.contains('pile')) return control.value || control.dataset.move || '';
    if (control.classList.contains('pile-stock')) return 'stock';
    var discard = document.getElementById('act-discard');
    return discard && !discard.disabled ? 'pile-throw' : 'pile-take';
  }
  function start(event) {
    var control = event.target.closest && event.target.closest(CONTROL);
    if (!control || control.disabled) return;
    if (window.__move && window.__move.pending && event.type === 'click') return;
    var status = document.querySelector('#table-status');
    var kind = kindOf(control);
    var move = window.__move = {
      tap: event.timeStamp, seq: status && status.dataset.seq, shown: null,
      moved: null, kind: kind, pending: event.type === 'pointerdown'
    };
    var before = cardsSeen();
    function frame(now) {
      if (window.__move !== move || move.moved !== null) return;
      if (cardsSeen() !== before) { move.moved = now; return; }
      if (move.shown !== null) { move.moved = move.shown; move.noCard = true; return; }
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  }
  document.addEventListener('pointerdown', start, true);
  document.addEventListener('click', function (event) {
    // A pile's tap presses the move's own button (a click from the script): the same move.
    if (!event.isTrusted) return;
    if (window.__move && window.__move.pending) { window.__move.pending = false; return; }
    start(event);
  }, true);
  document.addEventListener('htmx:wsBeforeMessage', function () {
    var move = window.__move;
    if (move && move.shown === null && !move.painting) move.arrived = performance.now();
  });
  document.addEventListener('htmx:wsAfterMessage', function () {
    var move = window.__move, status = document.querySelector('#table-status');
    if (!move || move.shown !== null || move.painting || !status) return;
    if (status.dataset.seq === move.seq) return;
    move.painting = true;
    move.swapped = performance.now();
    requestAnimationFrame(function () {
      setTimeout(function () { move.shown = performance.now(); }, 0);
    });
  });
})();
"""


def phone_page(browser, storage_state=None):
    """A fresh phone-sized browser context with touch and an empty cache, whose every
    byte goes through the bench's slow line (the relay, see bench/slowline.py): Chrome's
    own emulation is used only to tell the page it is offline."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
        storage_state=storage_state,
    )  # fmt: skip
    context.add_init_script(MOVE_CLOCK)
    context.add_init_script(MARKS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    wire = Wire(cdp, page)

    def network(offline: bool = False) -> None:
        """Chrome's online/offline flag (navigator.onLine and its events)."""
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )

    return context, page, wire, network


def seq(page) -> str:
    return page.locator("#table-status").get_attribute("data-seq") or ""


def ready(page, timeout_ms: int = ACT_TIMEOUT_MS) -> None:
    """Wait until the hand can be acted on: the table says it is connected (its script has
    run and its socket is open) and one of its buttons is shown and enabled, or the game's
    result is shown. The page's HTML alone does not count: its buttons come enabled, and
    the table's script disables them until the socket is open."""
    names = " || ".join(f'b.textContent.trim() === "{n}"' for n in ACTIONS)
    page.wait_for_function(
        "() => document.querySelector('#table-result:not([hidden])') || "
        "(document.querySelector('#connection[data-state=connected]') && "
        "[...document.querySelectorAll('button')].some(b => b.offsetParent && !b.disabled && "
        f"({names})))",
        timeout=timeout_ms,
    )


# The moves timed, of every kind: each of draw, take and discard by its button and by a tap
# on the stock or the discard pile (the two taps a turn), whichever has been timed less.
KINDS = ("draw", "stock", "take", "pile-take", "discard", "pile-throw", "meld", "layoff")
BY_PILE = {"draw": ("stock", ".pile-stock"), "take": ("pile-take", ".pile-discard"),
           "discard": ("pile-throw", ".pile-discard")}  # fmt: skip
# Deals rich in takes, lay-offs and melds for the bench's player (``python -m
# bench.mobile_deals`` finds them again, with what each is expected to give), in order.
RICH_SEEDS = (
    8408, 12883, 17812, 28735, 1194, 8492, 10590, 21529, 2942, 23370, 23511, 4147,
    20036, 20389, 24906, 27762, 5130, 13878, 29046, 20222, 8889, 9391, 26326, 3091,
    6029, 7320, 10901, 6678, 15028, 18016, 10446, 23490, 29080, 29807, 14929, 23712,
    27509, 7445, 28135, 1632, 4507,
)  # fmt: skip


def _mask(codes) -> int:
    from games.engine.cards import mask_of_codes

    return mask_of_codes(codes)


def _codes(mask: int) -> list[str]:
    from games.engine.cards import codes_of

    return codes_of(mask)


def plan(page) -> tuple[str, list[str], str] | None:
    """This seat's next move, as the bench's player makes it with the table's buttons
    (bench/mobile_deals.py ``steer``: take the discard whenever it melds, meld at once,
    lay off whenever it can, throw the card that helps least): (its kind, the hand's
    cards to choose, the meld to lay off on), None when none is offered. A Draw called
    is folded."""
    from bench.mobile_deals import steer
    from games.engine.cards import parse_card

    state = page.evaluate(
        """() => {
          const shown = b => b.offsetParent && !b.disabled;
          return {
            offered: [...document.querySelectorAll('#my-hand button[name=action]')]
              .filter(shown).map(b => b.value),
            hand: [...document.querySelectorAll('#my-hand input[name=cards]')].map(i => i.value),
            top: (document.querySelector('#table-piles .pile-discard .card[data-card]') || {})
              .dataset?.card || '',
            melds: [...document.querySelectorAll('#table-melds .meld-pick')].map(m => [
              m.querySelector('input').value,
              [...m.querySelectorAll('.card[data-card]')].map(c => c.dataset.card)]),
          };
        }"""
    )
    top = parse_card(state["top"]) if state["top"] else None
    melds = [(int(index), _mask(cards)) for index, cards in state["melds"]]
    planned = steer(state["offered"], _mask(state["hand"]), top, melds)
    if planned is None:
        return None
    kind, cards, meld = planned
    return kind, _codes(cards), str(meld) if meld >= 0 else ""


def tap_card(page, code: str) -> None:
    """Tap a hand card where it shows: near its left edge, since in a crowded hand the next
    card covers the rest of it."""
    page.locator(f'#my-hand label[data-card="{code}"]').tap(position={"x": 6, "y": 24})


def choose(page, cards: list[str], meld: str) -> None:
    """Tap the hand's cards (and a meld on the felt) so that exactly these are chosen."""
    for code in page.eval_on_selector_all(
        "#my-hand input[name=cards]:checked", "els => els.map(e => e.value)"
    ):
        if code not in cards:
            tap_card(page, code)
    for code in cards:
        if not page.locator(f"#card-{code}").is_checked():
            tap_card(page, code)
    if meld:
        page.locator(f'label[for="meld-{meld}"]').tap()
    # A chosen card rises; the move is tapped once it stands still, so that the probe
    # sees the move's change and not the end of the choice's own.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#my-hand .card, #table-melds .meld')]"
        ".every(c => !c.getAnimations().length)",
        timeout=ACT_TIMEOUT_MS,
    )


# Each timed move: its kind, tap -> moved, tap -> board shown, and the board's parts (tap
# to its frame in, the frame swapped in, painted), in ms.
TIMED: list[dict] = []
REFUSED: list[str] = []


def timed_move(page) -> dict | None:
    """Make this seat's next move (``plan``) by touch and time it in the page
    (MOVE_CLOCK); None if it was not this seat's turn."""
    planned = plan(page)
    if planned is None:
        return None
    kind, cards, meld = planned
    choose(page, cards, meld)
    control = f"#act-{kind}"
    if kind in BY_PILE:
        pile_kind, pile = BY_PILE[kind]
        done = [t["kind"] for t in TIMED]
        if done.count(pile_kind) < done.count(kind):
            control = pile
    before = seq(page)
    start = time.monotonic()
    page.locator(control).tap()
    try:
        page.wait_for_function(
            "s => document.querySelector('#table-status').dataset.seq !== s",
            arg=before,
            timeout=15_000,
        )
    except Exception:  # refused (the message says why): nothing to time
        REFUSED.append(f"{kind} {cards} {meld}: {page.locator('#messages').inner_text()}")
        return {}
    outside = (time.monotonic() - start) * 1000
    move = page.wait_for_function(
        "() => window.__move && window.__move.shown !== null && window.__move.moved !== null"
        " && window.__move",
        timeout=ACT_TIMEOUT_MS,
    ).json_value()
    timed = {
        "kind": move["kind"] or kind,
        "card_moved": not move.get("noCard"),
        "moved": move["moved"] - move["tap"],
        "board": move["shown"] - move["tap"],
        "outside": outside,
        "parts": [
            move.get("arrived", move["swapped"]) - move["tap"],
            move["swapped"] - move.get("arrived", move["swapped"]),
            move["shown"] - move["swapped"],
        ],
    }
    TIMED.append(timed)
    return timed


def offered(page, enabled: bool = True) -> str:
    """The name of this seat's move on offer (Fold, Draw or Discard), "" if none is; with
    ``enabled``, only a button that can be pressed now (the table is connected)."""
    for name in ACTIONS:
        button = page.get_by_role("button", name=name, exact=True)
        if button.is_visible() and (not enabled or button.is_enabled()):
            return name
    return ""


def press(page) -> str:
    """Press this seat's move (Fold, Draw, or Discard of the last card) without waiting
    for anything; the button's name, or "" if there is none to press."""
    for name in ACTIONS:
        if offered(page) == name:
            if name == "Discard" and not page.locator("#my-hand input:checked").count():
                page.locator("#my-hand .hand-card").last.click()
            page.get_by_role("button", name=name, exact=True).click()
            return name
    return ""


def _shown_seq(page) -> int:
    try:
        return int(seq(page) or -1)
    except Exception:  # the board is being swapped
        return -1


def game_id_of(page) -> int:
    return int(re.search(r"/games/(\d+)/", page.url).group(1))


def deal_from(page, base: str, finished: int, seed: int) -> None:
    """The next table for the player of the finished game ``finished``, as Play now makes
    it (two Normal bots, rated) but dealt from ``seed``; opened as a person opens it."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from games.models import Game
    from games.play.tables import create_table

    def make() -> int:
        # In a thread of its own: the table tells the lobby through the channel layer
        # (async_to_sync), which may not run in Playwright's event loop's thread.
        try:
            user = Game.objects.get(pk=finished).created_by
            return create_table(user, others=("normal", "normal"), rated=True, seed=seed).pk
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        game_id = pool.submit(make).result()
    page.goto(f"{base}/games/{game_id}/", wait_until="commit", timeout=ACT_TIMEOUT_MS)
    page.wait_for_load_state("load")
    ready(page)


def play_again(page) -> None:
    """Play again from a finished table. The form is submitted from the page: on a slow
    line the result's part is swapped in again while a pointer click waits for it to be
    still, which it may never be."""
    finished = page.url
    page.evaluate("document.querySelector('#table-result form.again-form').requestSubmit()")
    page.wait_for_function("u => location.href !== u", arg=finished, timeout=ACT_TIMEOUT_MS)
    page.wait_for_load_state("load")
    ready(page)


# --- The database ------------------------------------------------------------------------------


def stored(game_ids: list[int]) -> dict[str, int]:
    """The moves stored for these games, and how many were stored twice."""
    from django.db.models import Count

    from games.models import Game, Move

    moves = Move.objects.filter(game_id__in=game_ids)
    twice_ids = (
        moves.exclude(client_move_id=None)
        .values("game_id", "client_move_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    twice_seqs = moves.values("game_id", "seq").annotate(n=Count("id")).filter(n__gt=1).count()
    seqs = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))
    return {
        "moves": moves.count(),
        "moves_by_seq": sum(seqs.values()),
        "stored_twice": twice_ids + twice_seqs,
    }


def db_seq(game_id: int) -> int:
    from games.models import Game

    return Game.objects.filter(pk=game_id).values_list("seq", flat=True).get()


# --- The run ------------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(options: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread, which Django takes for an
    # async context; the bench's few queries run one at a time, between the browser's steps.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    scratch = Path(tempfile.mkdtemp(prefix="tongits-mobile-"))
    database = BenchDatabase("" if options.sqlite else options.postgres, scratch)
    workers = Workers(scratch)
    relay = None
    report: dict = {}
    options.workers = workers
    try:
        env = site_env(database.create(), options.redis, scratch, bots=True)
        setup_django(env)
        workers.start(1, env)
        relay = SlowLine(workers.items[0].port, options.kbps, options.rtt_ms)
        base = f"http://127.0.0.1:{relay.port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                report = measure(browser, base, relay, options)
            finally:
                browser.close()
        return report
    finally:
        if relay:
            relay.close()
        workers.stop()
        problems = workers.log_problems()
        report["worker_errors"] = len(problems)  # tracebacks and ERROR lines in its log
        close_django()
        database.drop()
        shutil.rmtree(scratch, ignore_errors=True)
        if problems:
            print("\n".join(problems[:20]))


def measure(browser, base: str, relay: SlowLine, options: argparse.Namespace) -> dict:
    kbps, rtt = options.kbps, options.rtt_ms
    report: dict = {"network": {"kbps": kbps, "rtt_ms": rtt}}

    # The home page, cold.
    context, page, wire, _ = phone_page(browser)
    start = time.monotonic()
    page.goto(f"{base}/", wait_until="load")
    report["home_cold_ms"] = round((time.monotonic() - start) * 1000)
    report["home_bytes"], report["home_requests"] = wire.bytes, wire.requests
    context.close()

    # From the address to a dealt hand you can act on, through Play now, cold (a fresh
    # browser each time, its cache empty): tapped as soon as it can be (shown, and the
    # page stands still), as a person does; with ``--after-load`` also the same with the
    # tap after the home page's load event. Each ``--visits`` times: the median and the
    # worst are the figures, and all are kept.
    kinds = [("play_now_cold_ms", "commit")]
    if options.after_load:
        kinds.append(("play_now_after_load_ms", "load"))
    for key, wait in kinds:
        times = []
        for _visit in range(options.visits):
            context, page, wire, _ = phone_page(browser)
            start = time.monotonic()
            page.goto(f"{base}/", wait_until=wait)
            page.get_by_role("button", name="Play now").tap(timeout=ACT_TIMEOUT_MS)
            page.wait_for_url(
                re.compile(r"/games/\d+/$"), timeout=ACT_TIMEOUT_MS, wait_until="commit"
            )
            ready(page)
            times.append(round((time.monotonic() - start) * 1000))
            if options.screenshot and not _visit and wait == "commit":
                # The dealt hand as production serves it (minified files, compressed),
                # once the new cards' short fade-in is over.
                page.wait_for_timeout(1500)
                page.screenshot(path=options.screenshot)
            if options.waterfall and times[-1] == max(times):  # the slowest visit's requests
                report[key.replace("_ms", "_waterfall")] = wire.waterfall()
            table_url, session = page.url, context.storage_state()
            context.close()
        report[key] = round(statistics.median(times))
        report[key.replace("_ms", "_worst_ms")] = max(times)
        report[key.replace("_ms", "_each_ms")] = times

    # The table's first load in a fresh browser with the guest's session: the bytes as
    # received (compressed, headers included).
    context, page, wire, network = phone_page(browser, storage_state=session)
    start = time.monotonic()
    page.goto(table_url, wait_until="load")
    ready(page)
    report["table_first_load_ms"] = round((time.monotonic() - start) * 1000)
    page.wait_for_load_state("networkidle")
    report["table_bytes"], report["table_requests"] = wire.bytes, wire.requests

    # Moves of every kind, each timed from its tap until the card moved and until this
    # seat's board of the next version is shown. A finished game is followed by a table
    # dealt from the next of RICH_SEEDS (bench/mobile_deals.py: deals on which the bench's
    # player takes the discard and lays off often), then by Play again.
    games = [game_id_of(page)]
    cpu_before, moves_before = options.workers.cpu_s(), stored(games)["moves"]
    frames_before = len(wire.frames)
    started = time.monotonic()
    deadline = started + max(options.moves * 20, options.per_kind * 40)  # a slow machine
    seeds = list(RICH_SEEDS) if options.deals == "rich" else []

    def fewest() -> int:  # the fewest moves timed of any kind
        return min(sum(t["kind"] == k for t in TIMED) for k in KINDS)

    while (len(TIMED) < options.moves or fewest() < options.per_kind) and (
        time.monotonic() < deadline
    ):
        if page.locator("#table-result:not([hidden])").count():
            if seeds:
                deal_from(page, base, games[-1], seeds.pop(0))
            else:
                play_again(page)
            games.append(game_id_of(page))
            continue
        if timed_move(page) is None:
            page.wait_for_timeout(50)  # the bots' turn
    report["moves_seconds"] = round(time.monotonic() - started)
    cpu = options.workers.cpu_s() - cpu_before
    moves = stored(games)["moves"] - moves_before
    report["worker_cpu_ms_per_move"] = round(cpu * 1000 / max(moves, 1), 1)
    sizes = [size for _, size in wire.frames[frames_before:]]
    report["frame_chars_p50"] = round(percentile(sizes, 50))
    report["frame_chars_p95"] = round(percentile(sizes, 95))
    report["moves_timed"] = len(TIMED)
    report["moves_refused"] = REFUSED
    report["moves_by_kind"] = {k: sum(t["kind"] == k for t in TIMED) for k in (*KINDS, "fold")}
    # Tap -> moved over the moves that move a card (a fold moves none: its board is all).
    moving = [t for t in TIMED if t["card_moved"]]
    for name, timed in (("moved", moving), ("board", TIMED), ("outside", TIMED)):
        values = [t[name] for t in timed]
        report[f"{name}_p50_ms"] = round(percentile(values, 50))
        report[f"{name}_p95_ms"] = round(percentile(values, 95))
    report["moves_moving_a_card"] = len(moving)
    for name in ("moved", "board"):
        report[f"{name}_by_kind_ms"] = {
            k: [round(percentile(v, 50)), round(percentile(v, 95)), len(v)]
            for k in KINDS
            if (v := [t[name] for t in TIMED if t["kind"] == k])
        }
    report["board_by_kind_p50_ms"] = {k: v[0] for k, v in report["board_by_kind_ms"].items()}
    # Where a move's time goes: p50 and p95 of each part (the slowest moves' parts too).
    for i, part in enumerate(("frame_in", "swap", "paint")):
        values = [t["parts"][i] for t in TIMED]
        report[f"board_{part}_p50_ms"] = round(percentile(values, 50))
        report[f"board_{part}_p95_ms"] = round(percentile(values, 95))
    slowest = sorted(TIMED, key=lambda t: -t["board"])[:3]
    report["board_slowest_parts_ms"] = [
        [t["kind"], *(round(x) for x in t["parts"])] for t in slowest
    ]

    # The line is cut on this seat's turn, as on a train. The table says so and disables
    # its moves; she taps one all the same: nothing is sent, then or later. When the
    # network is back she waits for the button to come back and presses it. Recovery is
    # the time from the network's return until the table shows the database's version
    # with its moves enabled again (current and playable); the move pressed then is timed
    # to its board as well, and the database must hold it once.
    deadline = time.monotonic() + ACT_TIMEOUT_MS / 1000
    while not offered(page):  # this seat's turn, with a move to press
        assert time.monotonic() < deadline, "no move to make"
        if page.locator("#table-result:not([hidden])").count():
            play_again(page)
            games.append(game_id_of(page))
        else:
            page.wait_for_timeout(50)
    game = games[-1]
    before = int(seq(page))
    sent_before = wire.sent
    relay.cut()
    network(offline=True)
    name = offered(page, enabled=False)
    button = page.get_by_role("button", name=name, exact=True)
    button.wait_for(state="visible", timeout=ACT_TIMEOUT_MS)
    page.wait_for_function(
        "n => { const b = [...document.querySelectorAll('#my-hand button[name=action]')]"
        ".find(b => b.textContent.trim() === n); return b && b.disabled; }",
        arg=name,
        timeout=ACT_TIMEOUT_MS,
    )
    disabled_offline = button.is_disabled()
    reason = page.locator("#my-hand .offline-note").inner_text(timeout=ACT_TIMEOUT_MS)
    # A tap on the disabled button, and the form submitted as Enter would: both must do
    # nothing (the page's guard stops a submit while not connected).
    if name == "Discard" and not page.locator("#my-hand input:checked").count():
        page.locator("#my-hand .hand-card").last.click()
    button.click(force=True, timeout=ACT_TIMEOUT_MS)
    page.evaluate("document.getElementById('my-hand').requestSubmit()")
    time.sleep(options.offline_seconds)
    sent_offline = wire.sent - sent_before
    relay.mend()
    network(offline=False)
    start = time.monotonic()
    limit = start + options.recover_timeout
    recovered = False
    while time.monotonic() < limit:
        if offered(page) == name and _shown_seq(page) == db_seq(game):
            recovered = True
            break
        page.wait_for_timeout(50)
    recover_ms = round((time.monotonic() - start) * 1000) if recovered else None
    sent_while_down = wire.sent - sent_before
    stored_while_down = db_seq(game) - before
    after_ms = None
    if recovered:
        shown = seq(page)
        pressed_at = time.monotonic()
        press(page)
        page.wait_for_function(
            "s => document.querySelector('#table-status').dataset.seq !== s",
            arg=shown,
            timeout=ACT_TIMEOUT_MS,
        )
        after_ms = round((time.monotonic() - pressed_at) * 1000)
    report["offline_seconds"] = options.offline_seconds
    report["offline_action"] = name
    report["offline_disabled"] = disabled_offline
    report["offline_reason"] = reason
    report["sent_offline"] = sent_offline
    report["sent_before_pressed_again"] = sent_while_down
    report["stored_while_down"] = stored_while_down
    report["recovered"] = recovered
    report["recover_ms"] = recover_ms
    report["move_after_recovery_ms"] = after_ms
    report["frames_sent"] = wire.sent  # every move of this page went out as one frame
    context.close()

    report.update(stored(games))
    report["games"] = len(games)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="moves timed, of every kind")
    parser.add_argument(
        "--per-kind",
        type=int,
        default=30,
        help="play on until every kind of move (draw, stock, take, pile-take, discard, "
        "pile-throw, meld, layoff) has been timed this many times (or 20 minutes passed)",
    )
    parser.add_argument("--offline-seconds", type=float, default=20)
    parser.add_argument("--recover-timeout", type=float, default=120)
    parser.add_argument("--kbps", type=int, default=400, help="down and up")
    parser.add_argument("--rtt-ms", type=int, default=400)
    parser.add_argument(
        "--visits",
        type=int,
        default=5,
        help="cold visits through Play now (their median and worst are the figures)",
    )
    parser.add_argument(
        "--any-kind",
        dest="per_kind",
        action="store_const",
        const=0,
        help="stop at --moves, whatever their kinds",
    )
    parser.add_argument(
        "--deals",
        choices=("rich", "random"),
        default="rich",
        help="after the first game (Play now's), deal the tables from seeds rich in takes "
        "and lay-offs (RICH_SEEDS), or Play again (random deals)",
    )
    parser.add_argument(
        "--after-load",
        action="store_true",
        help="also time cold visits with Play now tapped after the home page's load event",
    )
    parser.add_argument(
        "--screenshot", metavar="PNG", help="save the first cold visit's dealt hand here"
    )
    parser.add_argument(
        "--waterfall",
        action="store_true",
        help="also print the slowest cold visit's requests (start, headers in, end in ms, "
        "bytes) and the page's own moments",
    )
    parser.add_argument("--sqlite", action="store_true", help="SQLite, not PostgreSQL")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres",
    )
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", ""))
    parser.add_argument("--no-redis", dest="redis", action="store_const", const="")
    options = parser.parse_args(argv)
    if not options.postgres.startswith(("postgres://", "postgresql://")):
        options.sqlite = True
    report = run(options)
    for key in ("play_now_cold_waterfall", "play_now_after_load_waterfall"):
        if key in report:
            kind = key.removesuffix("_waterfall").replace("_", " ")
            print(f"{kind}: the slowest visit's requests")
            print("\n".join(report[key]))
    print(f"slow line (bench/slowline.py, pages and sockets): {options.kbps} kbps down and "
          f"up, {options.rtt_ms} ms round trip; 360x740, touch")  # fmt: skip
    print(f"home page, cold:                  {report['home_cold_ms']:>7} ms "
          f"({report['home_bytes']:,} bytes, {report['home_requests']} requests)")  # fmt: skip
    print(
        f"cold visit -> a hand you can act on: median {report['play_now_cold_ms']} ms, "
        f"worst {report['play_now_cold_worst_ms']} ms of {report['play_now_cold_each_ms']}"
    )
    if "play_now_after_load_ms" in report:
        print(f"  tapped after the load event: median {report['play_now_after_load_ms']} ms "
              f"of {report['play_now_after_load_each_ms']}")  # fmt: skip
    print(f"table's first load:               {report['table_first_load_ms']:>7} ms "
          f"({report['table_bytes']:,} bytes compressed, headers included, "
          f"{report['table_requests']} requests)")  # fmt: skip
    print(f"tap -> the card visibly moved:    p50 {report['moved_p50_ms']} ms, "
          f"p95 {report['moved_p95_ms']} ms over the {report['moves_moving_a_card']} moves "
          "that move a card")  # fmt: skip
    print("  by kind, p50 / p95 ms (moves): " + ", ".join(
        f"{k} {v[0]} / {v[1]} ({v[2]})" for k, v in report["moved_by_kind_ms"].items()
    ))  # fmt: skip
    print(f"tap -> the server's board:        p50 {report['board_p50_ms']} ms, "
          f"p95 {report['board_p95_ms']} ms over {report['moves_timed']} moves "
          f"{report['moves_by_kind']} (seen from Playwright: p50 {report['outside_p50_ms']} ms, "
          f"p95 {report['outside_p95_ms']} ms)")  # fmt: skip
    print("  by kind, p50 / p95 ms (moves): " + ", ".join(
        f"{k} {v[0]} / {v[1]} ({v[2]})" for k, v in report["board_by_kind_ms"].items()
    ))  # fmt: skip
    print(f"  its parts, p50 / p95: frame in {report['board_frame_in_p50_ms']} / "
          f"{report['board_frame_in_p95_ms']} ms, swapped in {report['board_swap_p50_ms']} / "
          f"{report['board_swap_p95_ms']} ms, painted {report['board_paint_p50_ms']} / "
          f"{report['board_paint_p95_ms']} ms; the slowest three moves "
          f"{report['board_slowest_parts_ms']}")  # fmt: skip
    print(f"  worker CPU {report['worker_cpu_ms_per_move']} ms a move (the bots' included), "
          f"socket frames in p50 {report['frame_chars_p50']:,} / "
          f"p95 {report['frame_chars_p95']:,} characters")  # fmt: skip
    if report["moves_refused"]:
        print(f"  refused: {report['moves_refused']}")
    print(f"after {options.offline_seconds:g} s offline: current and playable again in "
          f"{report['recover_ms']} ms, the next move's board in "
          f"{report['move_after_recovery_ms']} ms ({report['offline_action']} disabled "
          f"offline: {report['offline_disabled']}, frames sent while down: "
          f"{report['sent_before_pressed_again']})")  # fmt: skip
    print(f"database: {report['moves']} moves in {report['games']} games, "
          f"{report['stored_twice']} stored twice")  # fmt: skip
    print(f"worker's log: {report['worker_errors']} lines reporting an error")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
