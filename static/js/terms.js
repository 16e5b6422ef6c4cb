// Words of the game ({% term %} in templates): each is a button whose explanation shows on
// hover and on keyboard focus by CSS alone. This adds what CSS cannot: a tap toggles it
// (phones neither hover nor focus a button when tapped), a tap elsewhere closes it, Escape
// hides it without moving focus, and a tip is placed by its word, inside the screen.
(function () {
  "use strict";

  var EDGE = 8; // px kept between a tip and the side of the screen
  var GAP = 5; // px between a word and its tip

  function closeAll(except) {
    document.querySelectorAll('.term-word[aria-expanded="true"]').forEach(function (word) {
      if (word !== except) word.setAttribute("aria-expanded", "false");
    });
  }

  // The tip is position: fixed (a scrolling table cannot clip it): put it under its word,
  // or above when there is no room below, and inside the screen's width.
  function place(term) {
    var tip = term && term.querySelector(".term-tip");
    if (!tip) return;
    tip.style.top = tip.style.left = "";
    if (!tip.offsetWidth) return; // hidden
    var word = term.querySelector(".term-word").getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    var left = Math.min(word.left, width - EDGE - tip.offsetWidth);
    var top = word.bottom + GAP;
    if (top + tip.offsetHeight > window.innerHeight && word.top > tip.offsetHeight + GAP) {
      top = word.top - GAP - tip.offsetHeight;
    }
    tip.style.left = Math.max(EDGE, left) + "px";
    tip.style.top = top + "px";
  }

  function placeShown() {
    document
      .querySelectorAll('.term:hover, .term:focus-within, .term-word[aria-expanded="true"]')
      .forEach(function (el) { place(el.closest(".term")); });
  }

  function termOf(event) {
    return event.target instanceof Element ? event.target.closest(".term") : null;
  }

  document.addEventListener("click", function (event) {
    var word = event.target instanceof Element ? event.target.closest(".term-word") : null;
    if (!word) {
      if (!termOf(event)) closeAll(null); // a tap inside a tip (its link) keeps it open
      return;
    }
    var open = word.getAttribute("aria-expanded") !== "true";
    closeAll(word);
    word.setAttribute("aria-expanded", open ? "true" : "false");
    word.parentElement.classList.remove("is-dismissed");
    place(word.parentElement);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".term").forEach(function (term) {
      if (term.matches(":hover, :focus-within")) term.classList.add("is-dismissed");
    });
    closeAll(null);
  });

  // A dismissed tip shows again once the pointer or the focus has left and come back.
  document.addEventListener("focusin", function (event) {
    place(termOf(event));
  });
  document.addEventListener("mouseover", function (event) {
    place(termOf(event));
  });
  document.addEventListener("focusout", function (event) {
    var term = termOf(event);
    if (term && !term.contains(event.relatedTarget)) term.classList.remove("is-dismissed");
  });
  document.addEventListener("mouseout", function (event) {
    var term = termOf(event);
    if (term && !term.contains(event.relatedTarget)) term.classList.remove("is-dismissed");
  });
  window.addEventListener("scroll", placeShown, { capture: true, passive: true });
  window.addEventListener("resize", placeShown, { passive: true });
})();
