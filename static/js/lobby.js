// The lobby's lists are replaced whenever any table changes (htmx's ws extension swaps
// them out of band, which, unlike a normal htmx swap, does not keep the focus). Put the
// keyboard focus back on the same control, found by its id, so nobody loses their place.
(function () {
  "use strict";
  let focusedId = null;

  document.body.addEventListener("htmx:wsBeforeMessage", function () {
    const active = document.activeElement;
    focusedId = active && active.id && active.closest("#lobby-lists") ? active.id : null;
  });

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    if (!focusedId || (document.activeElement && document.activeElement.id === focusedId)) {
      return;
    }
    // The control may be gone (its table filled up): fall back to the list's heading.
    const target =
      document.getElementById(focusedId) || document.getElementById("open-tables-title");
    if (target) {
      target.focus({ preventScroll: true });
    }
    focusedId = null;
  });
})();
