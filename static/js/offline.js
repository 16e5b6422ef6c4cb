// The offline page: try the visit again as soon as the phone is back online.
(function () {
  "use strict";
  window.addEventListener("online", function () { window.location.reload(); });
})();
