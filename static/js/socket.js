// The table's socket, opened as soon as the page's head is read (issue 24). On a slow line
// the page's stylesheets and scripts take a second or more; htmx's ws extension would only
// open the socket once they have all run, and its handshake is one more round trip on top.
// Opened here, the handshake travels while they load: the socket is usually open, its
// first board waiting, by the time htmx starts. What arrives meanwhile is kept, in order,
// and handed over with the socket (static/js/table.js gives it to the ws extension).
// Without this file, or with another address, the extension opens its own socket as before.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="tongits:socket"]');
  if (!meta || !("WebSocket" in window)) return;
  var path = meta.getAttribute("content");
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  var socket;
  try {
    socket = new WebSocket(url, []);
  } catch (e) {
    return;
  }
  var kept = []; // [type, event] in the order they came, until the socket is taken
  var taken = false;
  function keep(event) {
    if (!taken) kept.push(event);
  }
  socket.addEventListener("open", keep);
  socket.addEventListener("message", keep);
  socket.addEventListener("close", keep);
  socket.addEventListener("error", keep);

  window.tongitsEarlySocket = {
    // The socket for this address, once, with what it received replayed to the handlers
    // the caller sets at once (in a microtask: before any later event of the socket,
    // which comes as a task, so the order holds); null otherwise.
    take: function (wanted) {
      if (taken || new URL(wanted, location.href).href !== new URL(url).href) return null;
      taken = true;
      queueMicrotask(function () {
        kept.forEach(function (event) {
          if (event.type === "message") {
            socket.dispatchEvent(new MessageEvent("message", { data: event.data }));
          } else if (typeof socket["on" + event.type] === "function") {
            socket["on" + event.type](event);
          }
        });
        kept = [];
      });
      return socket;
    },
  };
})();
