// The table's chat drawer (games/social/chat): a new message's bubble is placed over its
// sender's seat and fades after a few seconds; the Chat button shows a dot until the
// drawer is opened; the log keeps its newest line in view; the free text box empties
// once sent. Loaded after the page (templates/games/table.html): the hand does not wait.
// The socket's frames do the rest (htmx's ws extension swaps them in).
(function () {
  "use strict";

  var SHOWN_MS = 4000;
  var sheet = document.getElementById("chat-sheet");

  function seatBox(seat) {
    var panel = document.querySelector('#seats [data-seat="' + seat + '"]');
    if (panel) return { rect: panel.getBoundingClientRect(), below: false };
    // No opponent's panel with that seat: it is the watcher's own (the hand).
    var hand = document.querySelector("#my-hand .hand-header") || document.getElementById("my-hand");
    return hand ? { rect: hand.getBoundingClientRect(), below: true } : null;
  }

  function place(bubble) {
    var box = seatBox(bubble.getAttribute("data-seat"));
    if (!box) return;
    var width = bubble.offsetWidth;
    var left = box.rect.left + box.rect.width / 2 - width / 2;
    left = Math.max(4, Math.min(window.innerWidth - width - 4, left));
    var top = box.below ? box.rect.top - bubble.offsetHeight - 6 : box.rect.top + 6;
    bubble.style.left = left + "px";
    bubble.style.top = Math.max(4, top) + "px";
  }

  function showBubbles() {
    document.querySelectorAll(".chat-bubble[data-id]:not([data-shown])").forEach(function (bubble) {
      bubble.setAttribute("data-shown", "1");
      place(bubble);
      bubble.classList.add("is-shown");
      window.setTimeout(function () {
        bubble.classList.remove("is-shown");
        bubble.hidden = true;
      }, SHOWN_MS);
    });
  }

  // The table's layout moves under a bubble still shown (a board swapped in, a sheet
  // closed, the screen turned): each is placed over its seat again.
  function placeShown() {
    document.querySelectorAll(".chat-bubble.is-shown").forEach(place);
  }

  function scrollLog() {
    var log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function seen() {
    var dot = document.getElementById("chat-unread");
    if (dot && sheet && sheet.open) dot.removeAttribute("data-on");
  }

  // Muted: that person's lines already in the log go too (new ones are never sent).
  function hideMuted() {
    var note = document.querySelector("#chat-note[data-muted]");
    if (!note) return;
    var who = note.getAttribute("data-muted");
    document.querySelectorAll("#chat-log .chat-line").forEach(function (line) {
      if (line.getAttribute("data-user") === who) line.hidden = true;
    });
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    hideMuted();
    placeShown();
    showBubbles();
    scrollLog();
    seen();
  });
  // A sheet's toggle does not bubble: heard on the way down.
  document.addEventListener("toggle", placeShown, true);
  window.addEventListener("resize", placeShown);
  if (sheet) {
    sheet.addEventListener("toggle", function () {
      seen();
      scrollLog();
    });
  }
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target && event.target.closest && event.target.closest(".chat-say");
    if (form) form.reset();
  });
  // Run after the page's load (the talk so far may be in already: static/js/table.js asks
  // for it when the socket opens), and a line said meanwhile gets its bubble now.
  hideMuted();
  showBubbles();
  scrollLog();
})();
