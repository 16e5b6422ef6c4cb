// A tournament's page: count its clock down between the server's refreshes (htmx asks for
// the live part every 2 or 10 s and replaces it, with the server's own count), and ask
// once more when an upcoming tournament starts, a moment after, each page at its own
// moment (a crowd's pages do not all ask in the same instant), and again while it still
// shows as upcoming.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function show(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s);
  }
  var started = Date.now();
  function tick() {
    var clock = document.querySelector(".tournament-clock");
    var count = clock && clock.querySelector(".countdown");
    if (!count) return;
    if (clock.dataset.at !== clock.dataset.seconds) {  // a fresh part from the server
      clock.dataset.at = clock.dataset.seconds;
      started = Date.now();
    }
    var left = Math.max(0, parseInt(clock.dataset.seconds, 10) - Math.floor((Date.now() - started) / 1000));
    count.textContent = show(left);
    var live = document.getElementById("tournament-live");
    // Still upcoming at zero after an ask (the server had not started it yet, and a poll
    // that finds nothing new gets no content, so the part stays): ask again, 4 s on.
    var asked = live ? parseInt(live.dataset.startAsked || "0", 10) : 0;
    if (left === 0 && live && (!asked || Date.now() - asked > 4000) && /tongits:start/.test(live.getAttribute("hx-trigger") || "")) {
      live.dataset.startAsked = String(Date.now());
      setTimeout(function () { window.htmx.trigger(live, "tongits:start"); }, 300 + Math.random() * 2000);
    }
  }
  tick();
  setInterval(tick, 500);
})();

// The live part's answers: how many standings rows are left out comes with each (a header:
// a join changes only that, and gets no new part), and a busy site's answer (503, with
// Retry-After) makes the page wait that long, and a little more, before it asks again,
// saying why. Every page of a crowd waits its own while, so they do not all come back at once.
(function () {
  "use strict";
  var quietUntil = 0;
  function isLive(evt) { return evt.detail && evt.detail.elt && evt.detail.elt.id === "tournament-live"; }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (isLive(evt) && Date.now() < quietUntil) evt.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!isLive(evt)) return;
    var xhr = evt.detail.xhr, busy = document.getElementById("tournament-busy");
    if (xhr.status === 503) {
      var wait = parseInt(xhr.getResponseHeader("Retry-After") || "10", 10) || 10;
      quietUntil = Date.now() + wait * 1000 * (1 + Math.random() / 2);
      if (busy) busy.hidden = false;
      return;
    }
    if (busy) busy.hidden = true;
    var more = xhr.getResponseHeader("X-Tongits-More"), said = document.getElementById("standings-more");
    if (more && said) said.textContent = decodeURIComponent(more);
  });
})();

// Starts are set and shown in UTC; a player in Manila reading "08:27" may take it for their
// own clock. The new tournament form says, under its start, when that is where the reader
// is (the browser's own time zone), and says it again as the start is changed.
(function () {
  "use strict";
  var input = document.getElementById("id_starts_at");
  var said = document.getElementById("starts-local");
  if (!input || !said) return;
  function show() {
    var m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(input.value || "");
    if (!m) { said.hidden = true; return; }
    var at = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]));
    var when = at.toLocaleString(document.documentElement.lang || undefined, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    });
    said.textContent = said.dataset.says.replace("%(when)s", when);
    said.hidden = false;
  }
  input.addEventListener("input", show);
  show();
})();
