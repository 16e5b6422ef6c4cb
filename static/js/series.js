// Series tables (issue 9). On a hand's table: when the hand ends, say so, count it in the
// panel and go to the series' screen between hands a moment later (the result's way on is
// the series' own Next hand, in the page; its plain Play again is hidden by the CSS). On
// that screen: count the pause down (the server deals when it is over; the page asks every
// 2 s through htmx).
(function () {
  "use strict";
  if (window.seriesScript) return;
  window.seriesScript = true;

  function onTable() {
    var panel = document.getElementById("series-panel");
    if (!panel) return;
    var current = !!panel.dataset.seriesCurrent;
    var going = false;
    var seriesUrl = panel.dataset.seriesUrl;
    var gameId = panel.dataset.gameId;
    // The pot and standings as they are now that the hand counts: the server's panel.
    function refresh() {
      if (!gameId || !window.fetch) return;
      fetch(seriesUrl + "panel/?game=" + encodeURIComponent(gameId), {credentials: "same-origin"})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          var now = document.getElementById("series-panel");
          if (!html || !now) return;
          var box = document.createElement("div");
          box.innerHTML = html;
          var fresh = box.querySelector("#series-panel");
          if (!fresh) return;
          var note = fresh.querySelector("#series-next-note");
          if (note) note.hidden = false;
          now.replaceWith(fresh);
        })
        .catch(function () {});
    }
    function check() {
      var result = document.getElementById("table-result");
      if (!result || result.hidden) return;
      if (going || !current) return;
      going = true;
      var note = document.getElementById("series-next-note");
      if (note) note.hidden = false;
      refresh();
      window.setTimeout(function () { window.location.assign(seriesUrl); }, 3000);
    }
    new MutationObserver(check).observe(document.body, {
      subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"],
    });
    check();
  }

  function onScreen() {
    var countdown = document.getElementById("series-countdown");
    if (!countdown) return;
    var left = parseInt(countdown.dataset.seconds, 10) || 0;
    var shown = countdown.querySelector(".series-seconds");
    var started = Date.now();
    window.setInterval(function () {
      var now = Math.max(0, left - Math.floor((Date.now() - started) / 1000));
      if (shown) shown.textContent = String(now);
    }, 500);
  }

  function start() { onTable(); onScreen(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
