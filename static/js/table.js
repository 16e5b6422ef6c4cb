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

  function remember() {
    var active = document.activeElement;
    kept = {
      cards: Array.from(document.querySelectorAll('#my-hand input[name="cards"]:checked')).map(
        function (input) { return input.value; }
      ),
      meld: (document.querySelector('input[name="meld"]:checked') || {}).value,
      focus: active && active.id ? active.id : null,
    };
  }

  function restore() {
    if (!kept) return;
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

  // After an action the chosen cards have left the hand, so only the ones still held
  // stay chosen; an update that moved on to someone else's turn clears the choice.
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!document.querySelector("#my-hand.is-turn") && kept) kept.cards = [];
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
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { button.textContent = url; });
    } else {
      button.textContent = url;  // no clipboard here (plain http): show it to copy by hand
    }
  });

  // The "sort by rank" toggle is pure CSS; this only remembers it per browser.
  var sort = document.getElementById("sort-by-rank");
  if (sort) {
    try {
      sort.checked = window.localStorage.getItem("tongits-sort-by-rank") === "1";
      sort.addEventListener("change", function () {
        window.localStorage.setItem("tongits-sort-by-rank", sort.checked ? "1" : "0");
      });
    } catch (e) {
      // Storage can be off (private mode); the toggle still works for this page.
    }
  }
})();
