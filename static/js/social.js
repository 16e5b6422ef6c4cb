// Friends over the lobby's socket (games/sockets/lobby.py). The page says when it is hidden
// or shown, so friends see "Away". (A challenge of ours accepted takes us to its table:
// static/js/news.js, on every page.)
(function () {
  "use strict";
  let socket = null;
  let leaving = false; // a page being left turns hidden too: that is no "away"

  function sayAway() {
    if (socket && !leaving) {
      socket.send(JSON.stringify({ away: document.visibilityState === "hidden" }));
    }
  }

  document.body.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail && event.detail.socketWrapper;
    sayAway();
  });
  document.body.addEventListener("htmx:wsClose", function () {
    socket = null;
  });
  document.addEventListener("visibilitychange", sayAway);
  window.addEventListener("pagehide", function () {
    leaving = true;
  });
  window.addEventListener("pageshow", function () {
    leaving = false;
  });

  // A friend's presence has its place only where the page shows that friend: the lobby's
  // box lists those who were here when it was made, so one who comes later has none
  // (htmx would report the frame's missing target as an error).
  document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
    const found = /^<span id="(presence-\d+)"/.exec(event.detail.message || "");
    if (found && !document.getElementById(found[1])) event.preventDefault();
  });
})();
