// The table's small helpers: the turn clock, and keeping the player's place (chosen cards,
// chosen meld, keyboard focus) when the socket swaps in a new board. No eval, no inline
// script: the page works without this file, only less smoothly.
(function () {
  "use strict";

  // --- The socket opened early by static/js/socket.js: the ws extension takes it. ---
  // A reconnect goes to the game the page shows now: an arena's next game comes over the
  // socket (below), while the ws extension keeps the address the page was loaded with
  // (an arena's waiting table's, /ws/arena/<id>/, until its first game came).
  if (window.htmx) {
    var makeSocket = htmx.createWebSocket;
    htmx.createWebSocket = function (url) {
      var shown = document.querySelector("[ws-connect][data-game]");
      var game = shown && shown.getAttribute("data-game");
      if (game) url = url.replace(/\/ws\/(game|arena)\/\d+\//, "/ws/game/" + game + "/");
      var early = window.tongitsEarlySocket && window.tongitsEarlySocket.take(url);
      if (early) return early;
      if (makeSocket) return makeSocket(url);
      var socket = new WebSocket(url, []);
      socket.binaryType = htmx.config.wsBinaryType;
      return socket;
    };
  }

  // --- The turn clock: counts down to data-deadline (an ISO time from the server). ---
  // data-now is the server's time when it rendered the clock: the difference from this
  // browser's time when the clock first appears corrects a wrong clock on the device.
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var deadline = Date.parse(clock.getAttribute("data-deadline"));
      if (isNaN(deadline)) return;
      if (!clock.hasAttribute("data-offset")) {
        var rendered = Date.parse(clock.getAttribute("data-now"));
        clock.setAttribute("data-offset", isNaN(rendered) ? 0 : rendered - now);
      }
      var offset = Number(clock.getAttribute("data-offset")) || 0;
      var left = Math.max(0, Math.round((deadline - now - offset) / 1000));
      var text = clock.querySelector(".clock-time");
      // A correspondence clock hours away keeps the server's words ("2 d 5 h").
      if (left >= 3600) return;
      if (text) text.textContent = left + " s";
      clock.classList.toggle("clock-low", left <= 10);
    });
  }
  tick();
  window.setInterval(tick, 1000);

  // --- Keep the player's place across swaps. ---
  var kept = null;

  function codes(selector) {
    return Array.from(document.querySelectorAll(selector)).map(function (el) {
      return el.getAttribute("data-card");
    });
  }

  // A meld by its cards ("7S 8S 9S"): one that grew or is new reads differently.
  function meldKeys() {
    return Array.from(document.querySelectorAll("#table-center .meld")).map(function (meld) {
      return Array.from(meld.querySelectorAll("[data-card]"))
        .map(function (c) { return c.getAttribute("data-card"); })
        .join(" ");
    });
  }

  function movesAtBottom() {
    var box = document.querySelector(".move-scroll");
    return !box || box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  }

  function remember() {
    var active = document.activeElement;
    kept = {
      cards: Array.from(document.querySelectorAll('#my-hand input[name="cards"]:checked')).map(
        function (input) { return input.value; }
      ),
      meld: (document.querySelector('input[name="meld"]:checked') || {}).value,
      focus: active && active.id ? active.id : null,
      // Focus on the board comes back to the hand when its part is swapped away; in a
      // sheet it stays, and a page nobody has moved focus on is left alone.
      inTable: !!(active && active.closest &&
        active.closest("#my-hand, #table-center, #seats, #table-status")),
      open: Array.from(document.querySelectorAll(".table details[id][open]")).map(
        function (d) { return d.id; }
      ),
      hand: codes("#my-hand .hand-card[data-card]"),
      melds: meldKeys(),
      discard: codes("#table-center .pile-discard [data-card]").join(""),
      atBottom: movesAtBottom(),
      seats: seatCounts(),
      result: resultShown(),
    };
  }

  function resultShown() {
    var result = document.getElementById("table-result");
    return !!(result && !result.hidden);
  }

  // Mark what this update brought, for the CSS animations: the cards new in the hand,
  // the melds new or grown, a new top discard. Nothing on the first board of the page.
  function markNew(before) {
    if (before.hand.length) {
      document.querySelectorAll("#my-hand .hand-card[data-card]").forEach(function (card) {
        if (before.hand.indexOf(card.getAttribute("data-card")) < 0) card.classList.add("is-new");
      });
    }
    var melds = document.querySelectorAll("#table-center .meld");
    meldKeys().forEach(function (key, i) {
      if (before.melds.indexOf(key) < 0) melds[i].classList.add("is-new");
    });
    var top = document.querySelector("#table-center .pile-discard [data-card]");
    if (top && top.getAttribute("data-card") !== before.discard) top.classList.add("is-new");
    document.querySelectorAll("#seats .seat-panel[data-seat]").forEach(function (seat) {
      var was = before.seats[seat.getAttribute("data-seat")];
      var count = seat.querySelector(".seat-count");
      var fan = seat.querySelector(".seat-fan");
      if (fan && count && was !== undefined && was !== count.textContent) fan.classList.add("is-new");
    });
  }

  function seatCounts() {
    var counts = {};
    document.querySelectorAll("#seats .seat-panel[data-seat]").forEach(function (seat) {
      var count = seat.querySelector(".seat-count");
      if (count) counts[seat.getAttribute("data-seat")] = count.textContent;
    });
    return counts;
  }

  function scrollMoves() {
    var box = document.querySelector(".move-scroll");
    if (box) box.scrollTop = box.scrollHeight;
  }
  scrollMoves();

  function restore() {
    if (!kept) return;
    markNew(kept);
    kept.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
    if (kept.atBottom) scrollMoves();
    kept.cards.forEach(function (code) {
      var input = document.getElementById("card-" + code);
      if (input) input.checked = true;
    });
    if (kept.meld !== undefined) {
      var meld = document.getElementById("meld-" + kept.meld);
      if (meld) meld.checked = true;
    }
    var active = document.activeElement;
    if (!kept.result && resultShown() && (kept.inTable || !active || active === document.body)) {
      // The hand is over: focus goes from the hand (now under the result) to the way on,
      // its first action (Play again, or the next game), not thirteen Tabs away.
      var way = document.querySelector("#table-result .result-actions a, #table-result .result-actions button");
      if (way) {
        way.focus({ preventScroll: true });
        kept = null;
        return;
      }
    }
    if (!active || active === document.body || active.id === "main") {
      // Focus that dropped with the swapped part goes back where it was if that is still
      // there, else to the hand (its card in the roving tab stop): never to the page.
      // Focus on <main> (a tap on the felt gives it) counts as on the board (issue 48).
      var onMain = kept.focus === "main";
      var target = kept.focus && !onMain && document.getElementById(kept.focus);
      if (target && !target.disabled) target.focus({ preventScroll: true });
      else if (kept.inTable || onMain) focusHand();
    }
    kept = null;
  }

  // The chosen cards stay chosen for as long as they are in the hand: after an action
  // the ones played have left it, and an update about another seat changes nothing.
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:wsAfterMessage", function () {
    restore();
    tick();
  });

  // --- An arena's next game, come over the socket (games/sockets/table.py) ---------------
  // Its frame opens with #next-game: the new game's number, address and title. Its board
  // replaces the last game's whole (the seqs start again), nothing chosen carries over,
  // and the page takes the new game's address and title without loading.
  var nextGame = null;
  function nextGameCame(incoming) {
    var game = incoming.getAttribute("data-game");
    var section = document.querySelector("[ws-connect][data-game]");
    if (!section || !game || game === section.getAttribute("data-game")) return;
    nextGame = incoming;
    kept = null;
  }
  function goOnToNextGame() {
    if (!nextGame) return;
    var came = nextGame;
    nextGame = null;
    againSent = 0; // this game's Play again is a new press, however soon it ends
    var section = document.querySelector("[ws-connect][data-game]");
    var game = came.getAttribute("data-game");
    section.setAttribute("data-game", game);
    section.setAttribute("ws-connect", "/ws/game/" + game + "/");
    var heading = document.getElementById("table-title");
    if (heading && heading.firstChild) heading.firstChild.textContent = came.getAttribute("data-heading");
    document.title = came.getAttribute("data-title");
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", came.getAttribute("data-url"));
    document.dispatchEvent(new CustomEvent("tongits:nextgame", { detail: { game: game } }));
  }
  document.addEventListener("htmx:wsAfterMessage", goOnToNextGame);

  // --- An arena's bar: its clock counts down here; the line is asked for again a while
  // after each game comes (points and rank change as games end), each page at its own
  // moment within a minute, so a round of a crowd's games ending asks for it spread out,
  // and once when the clock reaches zero (games/tournaments/views.py: at_table). ---
  function askForBar(low, high) {
    window.setTimeout(function () {
      var bar = document.getElementById("arena-bar");
      if (bar && window.htmx) window.htmx.trigger(bar, "tongits:bar");
    }, (low + (high - low) * Math.random()) * 1000);
  }
  document.addEventListener("tongits:nextgame", function () { askForBar(5, 60); });
  var barShown = null, barSince = 0;
  window.setInterval(function () {
    var clock = document.querySelector("#arena-bar .arena-clock[data-seconds]");
    if (!clock) return;
    if (clock !== barShown) { barShown = clock; barSince = Date.now(); }
    var left = Math.max(0, parseInt(clock.getAttribute("data-seconds"), 10) - Math.floor((Date.now() - barSince) / 1000));
    var m = Math.floor(left / 60), h = Math.floor(m / 60), sec = left % 60;
    var shown = (h ? h + ":" + (m % 60 < 10 ? "0" : "") + (m % 60) : m) + ":" + (sec < 10 ? "0" : "") + sec;
    clock.textContent = (clock.getAttribute("data-says") || "@@").replace("@@", shown);
    if (left === 0 && !clock.hasAttribute("data-asked")) {
      clock.setAttribute("data-asked", "1");
      askForBar(0.3, 5);
    }
  }, 1000);

  // A board part never goes back in time: a late answer (say, to a POST) for an older
  // seq than the one shown is dropped. Equal seqs swap (a reconnect's snapshot), and
  // so does every part of an arena's next game.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!target || !incoming) return;
    if (incoming.id === "next-game") nextGameCame(incoming);
    if (nextGame) return;
    var shown = parseInt(target.getAttribute("data-seq"), 10);
    var next = parseInt(incoming.getAttribute("data-seq"), 10);
    if (!isNaN(shown) && !isNaN(next) && next < shown) event.preventDefault();
  });

  // Enter on a card (a checkbox) or a meld (a radio) must never send a move. Chromium
  // answers it by clicking the form's first enabled submit button, skipping the disabled
  // default button that stops Enter in a text field, and on the hand that first button is
  // Call Draw, Fold or Fight whenever one is offered. Those must be pressed on purpose.
  // Capturing on the document catches it before the input's own handling, and keeps
  // working after the socket swaps in a new hand form.
  document.addEventListener(
    "keydown",
    function (event) {
      var input = event.target;
      if (event.key !== "Enter" || !(input instanceof HTMLInputElement)) return;
      if (input.type !== "checkbox" && input.type !== "radio") return;
      if (input.form && input.form.id === "my-hand") event.preventDefault();
    },
    true
  );

  // The invite link in full (a board sent over the socket knows only its path), and a
  // button that copies it.
  function fullInviteLinks() {
    document.querySelectorAll("a.invite-link").forEach(function (link) {
      if (link.textContent !== link.href) link.textContent = link.href;
    });
  }
  fullInviteLinks();
  document.addEventListener("htmx:wsAfterMessage", fullInviteLinks);

  // The hand's toggles (sort by rank, mark the cards that form melds) are pure CSS;
  // this only remembers them per browser.
  [["sort-by-rank", "tongits-sort-by-rank"], ["hint-melds", "tongits-hint-melds"]].forEach(
    function (pair) {
      var toggle = document.getElementById(pair[0]);
      if (!toggle) return;
      try {
        toggle.checked = window.localStorage.getItem(pair[1]) === "1";
        toggle.addEventListener("change", function () {
          window.localStorage.setItem(pair[1], toggle.checked ? "1" : "0");
        });
      } catch (e) {
        // Storage can be off (private mode); the toggle still works for this page.
      }
    }
  );

  // --- The hand as one Tab stop (roving tabindex) -------------------------------------
  // Tab reaches the hand once, on the card last moved to; the arrow keys (and Home, End)
  // go from card to card, Space chooses. Set again on every new hand.
  var rovingCard = null; // the code of the card that holds the hand's tab stop

  function handInputs() {
    return Array.from(document.querySelectorAll('#my-hand input[name="cards"]'));
  }

  // The cards in the order shown: by rank when the hand is sorted so (CSS order).
  function shownInputs() {
    var inputs = handInputs();
    var sorted = document.getElementById("sort-by-rank");
    if (!sorted || !sorted.checked) return inputs;
    return inputs.slice().sort(function (a, b) {
      var rank = function (input) {
        var li = input.closest("li");
        return li ? parseInt(li.style.getPropertyValue("--by-rank"), 10) || 0 : 0;
      };
      return rank(a) - rank(b);
    });
  }

  function rove() {
    var inputs = shownInputs();
    if (!inputs.length) return;
    var stop = inputs.filter(function (input) { return input.value === rovingCard; })[0];
    if (!stop) stop = inputs[0];
    inputs.forEach(function (input) { input.tabIndex = input === stop ? 0 : -1; });
  }

  function focusHand() {
    var stop = document.querySelector('#my-hand input[name="cards"][tabindex="0"]');
    if (!stop) {
      rove();
      stop = document.querySelector('#my-hand input[name="cards"][tabindex="0"]');
    }
    if (stop) stop.focus({ preventScroll: true });
  }
  rove();

  // The table's skip link (its first Tab stop) lands on the hand's card, not on the form.
  document.addEventListener("click", function (event) {
    if (!(event.target instanceof Element) || !event.target.closest("a[data-to-hand]")) return;
    if (!document.querySelector('#my-hand input[name="cards"]')) return;
    event.preventDefault();
    focusHand();
  });

  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.name === "cards" && input.closest("#my-hand")) {
      rovingCard = input.value;
      rove();
    }
  });

  var MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "cards") return;
    if (!input.closest("#my-hand")) return;
    var inputs = shownInputs();
    var at = inputs.indexOf(input);
    var to = -1;
    if (event.key in MOVES) to = Math.min(inputs.length - 1, Math.max(0, at + MOVES[event.key]));
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = inputs.length - 1;
    if (to < 0) return;
    event.preventDefault();
    inputs[to].focus();
  });

  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "sort-by-rank") rove();
  });

  // --- The connection: said at all times; nothing sent, or queued, while it is down ---
  // How long the socket waits before it tries again (htmx's ws extension asks this after
  // every failed try). Its own default doubles the wait up to 64 s, so a phone that was
  // offline for 20 s could sit a minute on a table that is back. While the browser knows
  // it is offline a try costs nothing (it fails at once, on the phone), so it tries every
  // second and is back within one of the network's return; otherwise the wait doubles up
  // to 8 s, at random within it, so a restarted server is not met by every table at once.
  var RETRY_MAX_MS = 8000;
  function retryDelay(retries) {
    if (navigator.onLine === false) return 500 + 500 * Math.random();
    return Math.min(RETRY_MAX_MS, 1000 * Math.pow(2, Math.min(retries, 3))) * Math.random();
  }
  if (window.htmx) window.htmx.config.wsReconnectDelay = retryDelay;

  var socketShown = document.getElementById("connection");
  var socketWrapper = null; // htmx's ws extension's, as it last opened
  var againSent = 0; // when Play again last went over it
  var state = "connecting";
  var reconnecting = false;

  function say(next) {
    state = next;
    if (!socketShown) return;
    socketShown.setAttribute("data-state", next);
    var text = socketShown.querySelector(".connection-text");
    if (text) text.textContent = socketShown.getAttribute("data-" + next) || next;
    var retry = socketShown.querySelector(".connection-retry");
    if (retry) retry.hidden = next !== "reconnecting";
    var login = socketShown.querySelector(".connection-login");
    if (login) login.hidden = next !== "ended";
    disableActions();
  }

  function connected() {
    return state === "connected" && navigator.onLine !== false;
  }

  // While not connected the buttons are disabled, and say why.
  function disableActions() {
    var off = !connected();
    var why = socketShown ? socketShown.getAttribute("data-disabled") : "";
    document.querySelectorAll('#my-hand button[name="action"], .again-form button').forEach(
      function (button) {
        if (off) {
          button.disabled = true;
          button.setAttribute("data-offline", "1");
          button.title = why;
        } else if (button.getAttribute("data-offline")) {
          button.disabled = false;
          button.removeAttribute("data-offline");
          button.removeAttribute("title");
        }
      }
    );
    piles();
    var hand = document.getElementById("my-hand");
    if (!hand) return;
    hand.classList.toggle("is-offline", off);
    // The reason beside the buttons, not only in the bar (and in their tooltips).
    var note = hand.querySelector(".offline-note");
    var actions = hand.querySelector(".actions");
    if (off && actions && !note) {
      note = document.createElement("p");
      note.className = "offline-note";
      note.textContent = why;
      actions.insertAdjacentElement("afterend", note);
    } else if (!off && note) {
      note.remove();
    }
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (navigator.onLine === false) say("offline");
    else say(reconnecting ? "reconnecting" : "connecting");
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    // htmx's ws extension sends what was queued while the socket was down as soon as it
    // is back: a Discard clicked offline would then go out unseen, on a board that may
    // have changed. Nothing is queued (see the submit guard below); empty it anyway.
    var wrapper = event.detail && event.detail.socketWrapper;
    if (wrapper && wrapper.queue) wrapper.queue.length = 0;
    socketWrapper = wrapper || null;
    // The talk so far, each time the socket opens: a reconnect heals what it missed
    // (static/js/chat.js, loaded after the page, only shows it).
    if (wrapper && document.getElementById("chat-log")) wrapper.send(JSON.stringify({ chat_history: "1" }));
    reconnecting = false;
    say(navigator.onLine === false ? "offline" : "connected");
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event ? event.detail.event.code : 0;
    if (code === 4401) say("ended"); // the session ended: logged out, say, in another tab
    else if (code >= 4000) say("refused");
    else {
      reconnecting = true;
      say(navigator.onLine === false ? "offline" : "reconnecting");
    }
  });
  window.addEventListener("offline", function () {
    if (state !== "ended" && state !== "refused") say("offline");
  });
  window.addEventListener("online", function () {
    if (state === "offline") say(reconnecting ? "reconnecting" : "connected");
  });
  say(navigator.onLine === false ? "offline" : "connecting"); // the buttons wait for the socket

  // An arena's waiting table (no game yet) whose socket stays down loads itself again,
  // each page after its own while: the page sends its person to their table if their
  // game was dealt meanwhile (games/tournaments/waiting.py), or opens a fresh socket.
  var downSince = 0;
  var downFor = 20000 + 10000 * Math.random();
  window.setInterval(function () {
    var section = document.querySelector("[ws-connect][data-arena-wait]");
    if (!section || section.getAttribute("data-game")) return;
    if (connected()) { downSince = 0; return; }
    if (!downSince) downSince = Date.now();
    else if (Date.now() - downSince > downFor) window.location.reload();
  }, 5000);
  if (socketShown) {
    socketShown.addEventListener("click", function (event) {
      // The socket retries by itself; this is for the impatient: a fresh page and socket.
      if (event.target.closest(".connection-retry")) window.location.reload();
    });
  }

  // A move goes out over an open socket or not at all: caught before htmx (capturing on
  // the document) so that it neither queues it nor lets the form post it.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (form && form.getAttribute && form.getAttribute("data-socket") === "again") {
        // Play again over the open socket: the next table comes back on it, as an
        // arena's next game does (no POST, no page, no new socket). Posted otherwise.
        if (!connected() || !socketWrapper) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        // A second press while the first is on its way would reach the next table
        // (refused there); after a refusal (its message shows) the button works again.
        if (Date.now() - againSent < 3000) return;
        againSent = Date.now();
        socketWrapper.send(JSON.stringify({ action: "again" }));
        return;
      }
      if (!form || form.id !== "my-hand" || !document.querySelector("[ws-connect]")) return;
      if (connected()) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      disableActions();
    },
    true
  );

  // --- Sheets: Escape closes the one open, and focus goes back to its button ---------
  function closeSheet(details) {
    details.open = false;
    var summary = details.querySelector("summary");
    if (summary) summary.focus({ preventScroll: true });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector(".sheet[open], .discard-pile[open]");
    if (open) {
      event.preventDefault();
      closeSheet(open);
    }
  });
  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".sheet-close");
    if (close) closeSheet(close.closest("details"));
  });

  // --- Your turn: a short sound and a buzz, each of which can be turned off ---------
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var alerts = { "turn-sound": "tongits-turn-sound", "turn-vibrate": "tongits-turn-vibrate" };
  function alertOn(id) {
    var stored = null;
    try { stored = window.localStorage.getItem(alerts[id]); } catch (e) { /* storage off */ }
    if (stored !== null) return stored === "1";
    // By default on, except for people who asked their device for less motion.
    return !(reduced && reduced.matches);
  }
  Object.keys(alerts).forEach(function (id) {
    var toggle = document.getElementById(id);
    if (!toggle) return;
    toggle.checked = alertOn(id);
    toggle.addEventListener("change", function () {
      try { window.localStorage.setItem(alerts[id], toggle.checked ? "1" : "0"); } catch (e) {}
    });
  });

  var audio = null;
  // Browsers let a page make sound only after a tap or key on it: the context is made then.
  function unlockAudio() {
    if (audio || !(window.AudioContext || window.webkitAudioContext)) return;
    try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, { once: true });
  document.addEventListener("keydown", unlockAudio, { once: true });

  function chime() {
    if (!audio) return;
    var now = audio.currentTime;
    [660, 880].forEach(function (pitch, i) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.12);
      tone.stop(now + i * 0.12 + 0.2);
    });
  }

  // --- Sounds of play: a draw, a discard, a meld, the game's end (off by default) -----
  // Made by WebAudio, no files: a few tones each. Turned on in the Menu, kept on this
  // device. Each sound played is told on the page (a tongits:sound event, and
  // data-sounds on <html> counting them) for tests; none when off.
  var SOUNDS = {
    draw: [[520, 0, 0.07, "triangle"]],
    discard: [[330, 0, 0.09, "triangle"], [250, 0.05, 0.08, "triangle"]],
    meld: [[440, 0, 0.08, "sine"], [554, 0.06, 0.08, "sine"], [659, 0.12, 0.1, "sine"]],
    end: [[523, 0, 0.14, "sine"], [659, 0.12, 0.14, "sine"], [784, 0.24, 0.14, "sine"],
      [1047, 0.36, 0.3, "sine"]],
  };
  var soundsToggle = document.getElementById("play-sounds");
  function soundsOn() {
    try { return window.localStorage.getItem("tongits-play-sounds") === "1"; } catch (e) { return false; }
  }
  if (soundsToggle) {
    soundsToggle.checked = soundsOn();
    soundsToggle.addEventListener("change", function () {
      try { window.localStorage.setItem("tongits-play-sounds", soundsToggle.checked ? "1" : "0"); } catch (e) {}
    });
  }
  function sound(name) {
    if (!SOUNDS[name] || !(soundsToggle ? soundsToggle.checked : soundsOn())) return;
    var root = document.documentElement;
    root.setAttribute("data-sounds", String((parseInt(root.getAttribute("data-sounds"), 10) || 0) + 1));
    document.dispatchEvent(new CustomEvent("tongits:sound", { detail: { name: name } }));
    if (!audio) return;
    var now = audio.currentTime;
    SOUNDS[name].forEach(function (note) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      var at = now + note[1];
      tone.type = note[3];
      tone.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + note[2]);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + note[2] + 0.02);
    });
  }

  // Another seat's move, as the new board shows it: a card thrown, a card drawn or
  // taken, a meld; and the game's end. The person's own moves sounded at the tap.
  var soundBefore = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    soundBefore = { mine: !!pending, top: codes("#table-center .pile-discard [data-card]").join(""),
      melds: meldKeys().length, seats: seatCounts(), result: resultShown() };
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var was = soundBefore;
    soundBefore = null;
    if (!was) return;
    if (!was.result && resultShown()) { sound("end"); return; }
    if (was.mine) return;
    var now = seatCounts();
    var drew = Object.keys(now).some(function (seat) {
      return was.seats[seat] !== undefined && parseInt(now[seat], 10) > parseInt(was.seats[seat], 10);
    });
    var top = codes("#table-center .pile-discard [data-card]").join("");
    if (top && top !== was.top) sound("discard");
    else if (meldKeys().length > was.melds) sound("meld");
    else if (drew) sound("draw");
  });

  function myTurn() {
    var bar = document.getElementById("table-status");
    return !!(bar && bar.classList.contains("is-my-turn"));
  }
  var wasMyTurn = myTurn();
  document.addEventListener("htmx:wsAfterMessage", function () {
    var now = myTurn();
    if (now && !wasMyTurn) {
      document.documentElement.setAttribute("data-turn-alerts", String(Date.now()));
      if (alertOn("turn-sound")) chime();
      if (alertOn("turn-vibrate") && navigator.vibrate) navigator.vibrate(120);
    }
    wasMyTurn = now;
  });

  // --- Drag a card onto the table (SortableJS, from our static files) ----------------
  // Onto the discard pile: discard it. Onto a meld that takes a lay-off: lay it off, with
  // any other cards chosen. Anywhere else on the felt: meld it with the cards chosen. The
  // drop only chooses the cards (and meld) and presses the move's own button, so a move
  // that is not offered now is not made, and the buttons remain for every move.
  function dropped(input, x, y) {
    var under = document.elementFromPoint(x, y);
    if (!under || !input) return;
    var button = null;
    var meld = under.closest(".meld-pick");
    if (under.closest(".pile-discard")) {
      button = document.getElementById("act-discard");
      if (button) {
        handInputs().forEach(function (other) { other.checked = false; });
      }
    } else if (meld) {
      button = document.getElementById("act-layoff");
      if (button) meld.querySelector('input[name="meld"]').checked = true;
    } else if (under.closest("#table-center")) {
      button = document.getElementById("act-meld");
    }
    if (!button || button.disabled) return;
    input.checked = true;
    // After the click that ends the drag, which SortableJS swallows (as it would this
    // one, pressed now).
    window.setTimeout(function () { button.click(); }, 0);
  }

  // SortableJS is fetched after the first board, not with the page: on a slow line its
  // 15 KB would stand between the address and a hand you can act on, and dragging is an
  // extra (every move has its button). Its address comes from the page (data-sortable).
  var sortableAsked = false;
  function loadSortable() {
    var table = document.querySelector("[data-sortable]");
    if (sortableAsked || window.Sortable || !table) return;
    sortableAsked = true;
    var script = document.createElement("script");
    script.src = table.getAttribute("data-sortable");
    script.async = true;
    script.addEventListener("load", dragging);
    document.head.appendChild(script);
  }

  function dragging() {
    var hand = document.querySelector("#my-hand .hand");
    if (!window.Sortable || !hand || hand.getAttribute("data-drag")) return;
    hand.setAttribute("data-drag", "1"); // each new hand is a new element
    window.Sortable.create(hand, {
      sort: true, // a drag within the hand puts the card where it is dropped (kept)
      forceFallback: true, // pointer events: the same for a mouse and a finger
      fallbackTolerance: 8, // less movement than this is a tap, which chooses the card
      delay: 150,
      delayOnTouchOnly: true, // a finger must rest a moment, so a swipe still scrolls
      ghostClass: "is-dragged",
      onEnd: function (event) {
        var at = event.originalEvent;
        var point = at && at.changedTouches ? at.changedTouches[0] : at;
        if (!point || point.clientX === undefined) return;
        var under = document.elementFromPoint(point.clientX, point.clientY);
        if (under && under.closest("#my-hand .hand")) {
          keepOrder(true);
          return;
        }
        dropped(event.item.querySelector('input[name="cards"]'), point.clientX, point.clientY);
      },
    });
  }
  dragging();

  // --- Every meld in view: the felt's melds sized to the room there is (issue 48) -------
  // The largest card height (--mh) at which every meld of every seat fits the felt's meld
  // area without scrolling, found by halving the range: a few layouts a board.
  var MELD_MAX = 140;
  var MELD_MIN = 18;
  function fitMelds() {
    var area = document.getElementById("table-melds");
    if (!area || !area.querySelector(".meld")) return;
    // scrollHeight and clientHeight are whole pixels: a meld may pass the felt's edge by
    // a fraction of one that they round away, so each meld's own box is checked too.
    var melds = area.querySelectorAll(".meld");
    var fits = function (h) {
      area.style.setProperty("--mh", h + "px");
      if (area.scrollHeight > area.clientHeight || area.scrollWidth > area.clientWidth) {
        return false;
      }
      var edge = area.getBoundingClientRect();
      for (var i = 0; i < melds.length; i++) {
        var r = melds[i].getBoundingClientRect();
        if (r.bottom > edge.bottom || r.right > edge.right) return false;
      }
      return true;
    };
    var top = Math.min(MELD_MAX, Math.max(MELD_MIN, area.clientHeight));
    if (fits(top)) return;
    var low = MELD_MIN;
    var high = top;
    while (high - low > 1) {
      var mid = Math.floor((low + high) / 2);
      if (fits(mid)) low = mid;
      else high = mid;
    }
    fits(low);
  }
  fitMelds();
  var fitting = 0;
  function fitSoon() {
    window.cancelAnimationFrame(fitting);
    fitting = window.requestAnimationFrame(fitMelds);
  }
  window.addEventListener("resize", fitSoon);
  // The felt's room also changes with no resize and no board: an opponent's story grows,
  // a message or a choice opens above the hand, a script loaded later adds its part.
  // The felt's own box is laid out by the table's grid, not by the melds inside it.
  var feltBox = document.getElementById("table-center");
  if (feltBox && window.ResizeObserver) new window.ResizeObserver(fitSoon).observe(feltBox);

  // --- The hand's order: dragged or arranged, kept for this game and seat -------------
  // In this browser's storage under the game and seat; cards new to the hand (drawn,
  // taken) go at the end. Nothing stored: the server's order (by suit).
  function orderKey(hand) {
    var section = document.querySelector("[ws-connect][data-game]");
    var game = section ? section.getAttribute("data-game") : "";
    return "tongits-hand:" + game + ":" + hand.getAttribute("data-seat");
  }

  function handItems(hand) {
    return Array.from(hand.children).filter(function (li) {
      return li.querySelector(".hand-card[data-card]");
    });
  }

  function codeOf(li) {
    return li.querySelector(".hand-card").getAttribute("data-card");
  }

  function placeInOrder(hand, order) {
    var items = handItems(hand);
    var rank = {};
    order.forEach(function (code, i) { rank[code] = i; });
    var placed = items.slice().sort(function (a, b) {
      var ra = codeOf(a) in rank ? rank[codeOf(a)] : 1000 + items.indexOf(a);
      var rb = codeOf(b) in rank ? rank[codeOf(b)] : 1000 + items.indexOf(b);
      return ra - rb;
    });
    placed.forEach(function (li) { hand.appendChild(li); });
  }

  // Save the hand's order as shown (after a drag, or Arrange); a person's own order
  // replaces "sort by rank", which orders by CSS.
  function keepOrder(byHand) {
    var hand = document.querySelector("#my-hand .hand[data-seat]");
    if (!hand) return;
    var order = handItems(hand).map(codeOf);
    try { window.localStorage.setItem(orderKey(hand), JSON.stringify(order)); } catch (e) {}
    var sorted = document.getElementById("sort-by-rank");
    if (byHand && sorted && sorted.checked) {
      sorted.checked = false;
      sorted.dispatchEvent(new Event("change", { bubbles: true }));
    }
    rove();
  }

  function keptOrder() {
    var hand = document.querySelector("#my-hand .hand[data-seat]");
    if (!hand || hand.getAttribute("data-ordered")) return;
    hand.setAttribute("data-ordered", "1"); // each new hand is a new element
    var stored = null;
    try { stored = JSON.parse(window.localStorage.getItem(orderKey(hand)) || "null"); } catch (e) {}
    if (Array.isArray(stored)) placeInOrder(hand, stored);
  }
  keptOrder();

  // Arrange: the melds of the hand first, then pairs and nearly-runs, the deadwood last
  // (worked out by the server from this seat's own cards: games/table/arrange.py).
  function arrange() {
    var hand = document.querySelector("#my-hand .hand[data-arrange]");
    if (!hand) return;
    var order = [];
    hand.getAttribute("data-arrange").split("|").forEach(function (group) {
      var cards = group.split(":")[1];
      if (cards) order = order.concat(cards.split(" "));
    });
    placeInOrder(hand, order);
    keepOrder(true);
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#arrange")) arrange();
  });

  // --- The stock and the discard as buttons: a turn in two taps ------------------------
  // Tap the stock: Draw. Tap the discard: take it (with the only meld it makes, or the
  // one the person picks when it makes several), or throw the card chosen (the one the
  // hand suggests, ringed, when none is). Each presses the move's own button, so only a
  // move offered now is made, and the server checks it as ever.
  function button(id) {
    var found = document.getElementById(id);
    return found && !found.disabled ? found : null;
  }

  function chosen() {
    return handInputs().filter(function (input) { return input.checked; });
  }

  function suggested() {
    var hand = document.querySelector("#my-hand .hand[data-suggest]");
    var code = hand && hand.getAttribute("data-suggest");
    return code ? document.getElementById("card-" + code) : null;
  }

  function piles() {
    var stock = document.querySelector(".pile-stock");
    var pile = document.querySelector(".pile-discard");
    var sending = document.querySelector(".table-screen.is-sending");
    if (stock) stock.disabled = !!sending || !button("act-draw");
    if (pile) {
      var throwing = !!button("act-discard");
      pile.disabled = !!sending || !(throwing || button("act-take"));
      pile.classList.toggle("is-throw", throwing);
    }
    document.querySelectorAll("#my-hand .is-suggested").forEach(function (card) {
      card.classList.remove("is-suggested");
    });
    var hint = button("act-discard") && !chosen().length && suggested();
    if (hint) hint.closest(".hand-card").classList.add("is-suggested");
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "cards") piles();
  });

  function press(act, cards) {
    if (cards) {
      handInputs().forEach(function (input) { input.checked = cards.indexOf(input.value) >= 0; });
    }
    act.click();
  }

  function closeChoice() {
    var open = document.querySelector(".take-choice");
    if (open) open.remove();
  }

  // Several ways to take the discard: each is offered as its cards, just above the hand.
  function askWhichTake(act, ways, pile) {
    closeChoice();
    var box = document.createElement("div");
    box.className = "take-choice";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", pile.getAttribute("data-ask") || "");
    var said = document.createElement("p");
    said.textContent = pile.getAttribute("data-ask") || "";
    box.appendChild(said);
    ways.forEach(function (way) {
      var pick = document.createElement("button");
      pick.type = "button";
      pick.className = "button button-secondary";
      way.split(" ").forEach(function (code) {
        var card = document.querySelector('#my-hand .hand-card[data-card="' + code + '"] .card-face');
        var chip = document.createElement("span");
        chip.className = "chip suit-" + code.charAt(1).toLowerCase();
        chip.textContent = card ? card.textContent : code;
        pick.appendChild(chip);
      });
      pick.addEventListener("click", function () {
        closeChoice();
        press(act, way.split(" "));
      });
      box.appendChild(pick);
    });
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button-link";
    cancel.textContent = "\u00d7";
    var felt = document.querySelector(".pile-discard") || pile;
    cancel.setAttribute("aria-label", felt.getAttribute("data-cancel") || "Cancel");
    cancel.addEventListener("click", closeChoice);
    box.appendChild(cancel);
    var form = document.getElementById("my-hand");
    form.parentNode.insertBefore(box, form);
    box.querySelector("button").focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    var pile = event.target.closest && event.target.closest(".pile");
    if (!pile || pile.disabled) return;
    if (pile.classList.contains("pile-stock")) {
      var draw = button("act-draw");
      if (draw) press(draw);
      return;
    }
    var throwIt = button("act-discard");
    if (throwIt) {
      var cards = chosen();
      if (!cards.length && suggested()) suggested().checked = true;
      press(throwIt);
      return;
    }
    var take = button("act-take");
    if (take) press(take); // chosen for the person below, if need be
  });

  // Take discard (the pile tapped, or the button pressed) with no cards chosen that meld
  // with it: the only way it melds is chosen for the person; several are asked about.
  document.addEventListener(
    "click",
    function (event) {
      var take = event.target.closest && event.target.closest("#act-take");
      if (!take || take.disabled) return;
      var ways = (take.getAttribute("data-takes") || "").split("|").filter(Boolean);
      var mine = chosen().map(function (input) { return input.value; }).sort().join(" ");
      var fits = ways.some(function (way) { return way.split(" ").sort().join(" ") === mine; });
      if (fits || !ways.length) return;
      if (ways.length === 1) {
        handInputs().forEach(function (input) {
          input.checked = ways[0].split(" ").indexOf(input.value) >= 0;
        });
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      askWhichTake(take, ways, document.querySelector(".pile-discard"));
    },
    true
  );

  // Meld with no cards chosen: the hand's meld (from its arrangement) is chosen for the
  // person when it holds one, asked about when it holds several.
  document.addEventListener(
    "click",
    function (event) {
      var meld = event.target.closest && event.target.closest("#act-meld");
      if (!meld || meld.disabled || chosen().length) return;
      var hand = document.querySelector("#my-hand .hand[data-arrange]");
      var ways = (hand ? hand.getAttribute("data-arrange") : "").split("|").filter(
        function (group) { return group.indexOf("meld:") === 0; }
      ).map(function (group) { return group.slice(5); });
      if (!ways.length) return;
      if (ways.length === 1) {
        handInputs().forEach(function (input) {
          input.checked = ways[0].split(" ").indexOf(input.value) >= 0;
        });
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      askWhichTake(meld, ways, meld);
    },
    true
  );

  // --- Felt at once: the move shown before the server answers ----------------------------
  // The card thrown lands on the pile, the card drawn arrives face down, the cards melded
  // leave the hand, as soon as the move is sent; the server's board then confirms it (its
  // parts replace these), or its refusal, said just above the hand, puts them back. The
  // move itself goes once: the form's seq and move id are the guard, and the buttons are
  // off while it is on its way.
  var pending = null;

  function settle() {
    if (!pending) return;
    window.clearTimeout(pending.timer);
    document.querySelectorAll(".is-pending").forEach(function (el) { el.remove(); });
    document.querySelectorAll(".is-leaving").forEach(function (el) { el.classList.remove("is-leaving"); });
    var table = document.querySelector(".table-screen");
    if (table) table.classList.remove("is-sending");
    pending = null;
    piles();
  }

  function cardClone(input, size) {
    var card = input.closest(".hand-card");
    var copy = document.createElement("span");
    copy.className = "card " + (size ? "card-" + size + " " : "") + "suit-" +
      card.getAttribute("data-card").charAt(1).toLowerCase() + " is-pending";
    copy.setAttribute("aria-hidden", "true");
    var face = document.createElement("span");
    face.className = "card-face";
    card.querySelectorAll(".card-index > span").forEach(function (part) {
      var piece = document.createElement("span");
      piece.textContent = part.textContent;
      face.appendChild(piece);
    });
    copy.appendChild(face);
    return copy;
  }

  // A card of the felt or the pile copied for a move on its way: the same look, read
  // once by a screen reader (the board that follows says it).
  function feltCopy(card, size) {
    var copy = card.cloneNode(true);
    ["data-card", "role", "aria-label", "id"].forEach(function (name) { copy.removeAttribute(name); });
    copy.setAttribute("aria-hidden", "true");
    copy.classList.remove("is-new", "is-leaving");
    if (size) copy.classList.add("card-" + size);
    copy.classList.add("is-pending");
    return copy;
  }

  // The cards laid on the felt: a new meld among the person's own (or onto the meld laid
  // off on), sized as the felt's melds are.
  function toFelt(copies, onto) {
    if (onto) {
      copies.forEach(function (c) { onto.appendChild(c); });
    } else {
      var meld = document.createElement("div");
      meld.className = "meld is-pending";
      copies.forEach(function (c) { meld.appendChild(c); });
      var mine = document.querySelector('#table-melds .meld-group[data-mine] .melds');
      var groups = document.querySelector("#table-melds .meld-groups");
      // "No melds on the table yet." goes with the first (back on a refusal).
      document.querySelectorAll("#table-melds .muted-on-felt").forEach(function (said) {
        said.classList.add("is-leaving");
      });
      if (mine) {
        var li = document.createElement("li");
        li.className = "is-pending";
        li.appendChild(meld);
        mine.appendChild(li);
      } else if (groups) {
        groups.appendChild(meld);
      } else {
        var felt = document.getElementById("table-melds");
        if (felt) felt.appendChild(meld);
      }
    }
    fitMelds();
  }

  // The discard pile's top card leaves it (taken) or goes under the one thrown.
  function pileTop() {
    var pile = document.querySelector(".pile-discard");
    return pile && pile.querySelector(":scope > .card:not(.is-pending)");
  }

  function showAtOnce(kind) {
    var hand = document.querySelector("#my-hand .hand");
    var cards = chosen();
    var top = pileTop();
    if (kind === "draw") {
      var li = document.createElement("li");
      li.className = "is-pending";
      var card = document.createElement("span");
      card.className = "card hand-card is-pending";
      li.appendChild(card);
      if (hand) hand.appendChild(li);
    } else if (kind === "take" && top && top.getAttribute("data-card")) {
      // The discard, with the cards of the hand it melds with, laid on the felt.
      var taken = [feltCopy(top, "small")].concat(cards.map(function (input) {
        input.closest("li").classList.add("is-leaving");
        return cardClone(input, "small");
      }));
      var empty = document.createElement("span");
      empty.className = "card empty is-pending";
      empty.setAttribute("aria-hidden", "true");
      top.parentNode.insertBefore(empty, top);
      top.classList.add("is-leaving");
      toFelt(taken, null);
    } else if (kind === "discard" && cards.length === 1) {
      if (top) {
        top.classList.add("is-leaving");
        top.parentNode.insertBefore(cardClone(cards[0], ""), top);
      }
      cards[0].closest("li").classList.add("is-leaving");
    } else if ((kind === "meld" || kind === "secret" || kind === "layoff") && cards.length) {
      var copies = cards.map(function (input) {
        input.closest("li").classList.add("is-leaving");
        return cardClone(input, "small");
      });
      var target = kind === "layoff" && document.querySelector('input[name="meld"]:checked');
      toFelt(copies, target ? target.closest(".meld") : null);
    } else {
      return;
    }
    sound(kind === "take" || kind === "secret" || kind === "layoff" ? "meld" : kind);
    var table = document.querySelector(".table-screen");
    if (table) table.classList.add("is-sending");
    // Nothing heard in ten seconds: put the felt back (the move may still arrive, in the
    // board that follows; it is never sent again).
    pending = { timer: window.setTimeout(settle, 10000) };
    piles();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "my-hand") return;
    var by = event.submitter;
    if (!by || by.name !== "action" || pending) return;
    closeChoice();
    showAtOnce(by.value);
  });

  // A refusal (the message box alone) or a new board: whatever was shown at once goes.
  document.addEventListener("htmx:wsAfterMessage", function () {
    settle();
    closeChoice();
  });

  // Every new board: the hand's tab stop, and the buttons as the connection allows.
  document.addEventListener("htmx:wsAfterMessage", function () {
    rove();
    disableActions();
    loadSortable();
    dragging();
    keptOrder();
    piles();
    fitMelds();
  });
  document.addEventListener("htmx:afterSwap", function () {
    rove();
    disableActions();
    dragging();
    keptOrder();
    piles();
  });
  piles();
})();
