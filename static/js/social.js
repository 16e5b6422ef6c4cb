// Friends over the lobby's socket (games/sockets/lobby.py). The page says when it is hidden
// or shown, so friends see "Away"; and when a challenge of ours is accepted the socket
// sends #social-go with the table's address, which we open (the person asked for it).
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

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    const go = document.getElementById("social-go");
    const url = go && go.getAttribute("data-go");
    // Only a path of ours: never another site, whatever a frame says.
    if (url && url.charAt(0) === "/" && url.charAt(1) !== "/") {
      window.location.assign(url);
    }
  });
})();
