// The main menu on a phone: the links fold away behind a Menu button, so a page (the table
// above all) starts near the top of the screen. Without this script the links wrap onto
// more rows instead; on a wider screen they are always shown and the button is not.
(function () {
  "use strict";

  var nav = document.querySelector(".site-nav");
  var toggle = nav && nav.querySelector(".nav-toggle");
  if (!toggle) return;
  nav.classList.add("nav-collapsible");

  function setOpen(open) {
    nav.classList.toggle("nav-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }

  toggle.addEventListener("click", function () {
    setOpen(toggle.getAttribute("aria-expanded") !== "true");
  });
  // Escape closes an open menu and puts focus back on its button.
  nav.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && nav.classList.contains("nav-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  // A tap or focus outside the menu closes it.
  document.addEventListener("click", function (event) {
    if (!nav.contains(event.target)) setOpen(false);
  });
  document.addEventListener("focusin", function (event) {
    if (!nav.contains(event.target)) setOpen(false);
  });
})();

// After an action the page comes back with what it did in the messages at the top of the
// content (Friends, Settings, a tournament's Join...). Focus starts there, not at the top
// of the page: the message is read out, and Tab goes on into the page from it. A page that
// put focus somewhere itself (a form's first error, autofocus) keeps it, and so does a
// page whose only message is the guest's "You play as Guest 123" (no action of theirs:
// it is read with the page).
(function () {
  "use strict";

  var messages = document.querySelector("main .messages");
  if (!messages || document.querySelector("[autofocus]")) return;
  if (!messages.querySelector(".message:not(.message-guest)")) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  messages.setAttribute("tabindex", "-1");
  messages.focus({ preventScroll: true });
})();

// A Copy link button (a table's or a tournament's invite): the link, made whole, to the
// clipboard; where there is none (plain http), the link is shown to copy by hand.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest && event.target.closest(".copy-link");
  if (!button) return;
  var url = new URL(button.getAttribute("data-copy"), window.location.href).href;
  // The word comes from the page, in its language.
  var done = function () { button.textContent = button.getAttribute("data-copied") || "Copied"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, function () { button.textContent = url; });
  } else {
    button.textContent = url;
  }
});

// The service worker that lets the site install as an app and show its own page offline
// (static/sw.js). Its address carries the page's language, so a switch of language
// installs it again with the offline page in that language.
(function () {
  "use strict";
  var script = document.documentElement.dataset.serviceWorker;
  if (!script || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script, {scope: "/"}).catch(function () {});
  });
})();

// Scripts a page runs only after its load event (<meta name="tongits:later" content="URL"
// data-as="script">), in the order named, so that on a slow line they do not share it with
// what the page needs to be shown and tapped: the home page's htmx, for its live counts.
(function () {
  "use strict";
  var later = document.querySelectorAll('meta[name="tongits:later"][data-as="script"]');
  if (!later.length) return;
  function runLater() {
    Array.prototype.forEach.call(later, function (meta) {
      var script = document.createElement("script");
      script.src = meta.getAttribute("content");
      script.async = false;
      document.head.appendChild(script);
    });
  }
  if (document.readyState === "complete") runLater();
  else window.addEventListener("load", runLater);
})();
