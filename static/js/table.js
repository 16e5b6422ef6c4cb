// The table's small helpers: the turn clock, and keeping the player's place (chosen cards,
// chosen meld, keyboard focus) when the socket swaps in a new board. No eval, no inline
// script: the page works without this file, only less smoothly.
(function () {
  "use strict";

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
      open: Array.from(document.querySelectorAll(".table details[id][open]")).map(
        function (d) { return d.id; }
      ),
      hand: codes("#my-hand .hand-card[data-card]"),
      melds: meldKeys(),
      discard: codes("#table-center .pile-discard [data-card]").join(""),
      atBottom: movesAtBottom(),
    };
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
    if (kept.focus && (!active || active === document.body)) {
      var target = document.getElementById(kept.focus);
      if (target) target.focus({ preventScroll: true });
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

  // A board part never goes back in time: a late answer (say, to a POST) for an older
  // seq than the one shown is dropped. Equal seqs swap (a reconnect's snapshot).
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!target || !incoming) return;
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
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".copy-link");
    if (!button) return;
    var url = new URL(button.getAttribute("data-copy"), window.location.href).href;
    // The word comes from the page, in its language.
    var done = function () { button.textContent = button.getAttribute("data-copied") || "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { button.textContent = url; });
    } else {
      button.textContent = url;  // no clipboard here (plain http): show it to copy by hand
    }
  });

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
})();
