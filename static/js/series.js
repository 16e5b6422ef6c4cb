// Series tables (issue 9). On a hand's table: when the hand ends, say so and go to the
// series' screen between hands a moment later. On that screen: count the pause down
// (the server deals when it is over; the page asks every 2 s through htmx).
(function () {
  "use strict";
  if (window.seriesScript) return;
  window.seriesScript = true;

  function onTable() {
    var panel = document.getElementById("series-panel");
    if (!panel || !panel.dataset.seriesCurrent) return;
    var going = false;
    function check() {
      var result = document.getElementById("table-result");
      if (going || !result || result.hidden) return;
      going = true;
      var note = document.getElementById("series-next-note");
      if (note) note.hidden = false;
      window.setTimeout(function () { window.location.assign(panel.dataset.seriesUrl); }, 3000);
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
