// Replays: the arrow keys (and Home/End) press the matching step control, so htmx swaps
// the step and pushes its URL as for a click. Focus follows the control that was used,
// since the swap replaces it.
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  var focusedId = null;

  function typingIn(target) {
    return target.closest && target.closest("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typingIn(event.target)) return;
    var control = document.querySelector('a[data-step="' + which + '"]');
    if (!control) return;
    event.preventDefault();
    control.click();
  });

  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    focusedId = active && active.id ? active.id : null;
  });

  // The move list scrolls inside its own box (positioned, so offsetTop is measured from it).
  function showCurrentMove(step) {
    var current = step.querySelector('.move-list [aria-current="step"]');
    var list = step.querySelector(".replay-moves");
    if (current && list && list.scrollHeight > list.clientHeight) {
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
    }
  }

  // The coach's analysis has just come in: fetch the step again, now with its marks.
  document.body.addEventListener("coach-done", function () {
    if (document.getElementById("replay-step") && window.htmx) {
      window.htmx.ajax("GET", window.location.href, { target: "#replay-step", swap: "outerHTML" });
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var step = document.getElementById("replay-step");
    if (step) showCurrentMove(step);
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // The coach's block refreshing itself moves nobody's focus.
    if (event.detail && event.detail.target && event.detail.target.id === "coach") return;
    var step = document.getElementById("replay-step");
    if (!step) return;
    showCurrentMove(step);
    var again = focusedId && document.getElementById(focusedId);
    if (again && again.tagName !== "SPAN") {
      again.focus();
    } else if (focusedId) {
      document.getElementById("replay-move").focus();
    }
  });
})();
