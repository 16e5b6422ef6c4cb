// News on every page (templates/social/news.html): a toast for each challenge and friend
// request waiting for the person's answer, at the bottom of the screen (above the hand at
// a table), and the count on the Menu button and the Friends link. The person's socket
// sends the news again, whole, when it changes (#news-feed); the toasts shown are kept,
// new ones added and gone ones taken away by their keys, so focus stays where it is and
// nothing here ever takes it. A toast hidden with its × stays hidden in this browser.
(function () {
  "use strict";

  var region = document.getElementById("news");
  var list = document.getElementById("news-toasts");
  if (!region || !list) return;
  var said = document.getElementById("news-said");
  var HIDDEN = "tongits:news-hidden";
  var timers = {};
  var cameFrom = null; // what had focus before it went into a toast

  function hiddenKeys() {
    try {
      return JSON.parse(localStorage.getItem(HIDDEN) || "[]");
    } catch (e) {
      return [];
    }
  }

  function hideKey(key) {
    var keys = hiddenKeys().filter(function (k) { return k !== key; });
    keys.push(key);
    try {
      localStorage.setItem(HIDDEN, JSON.stringify(keys.slice(-100)));
    } catch (e) { /* private mode: hidden until the page changes */ }
  }

  function toasts() {
    return Array.prototype.slice.call(list.children);
  }

  function byKey(key) {
    return toasts().filter(function (t) { return t.getAttribute("data-key") === key; })[0];
  }

  // --- Leaving: hidden by the person, answered, expired, withdrawn ---------------------
  // Focus inside a toast that goes moves to the next toast, or back where it came from:
  // never to the page.
  function removeToast(toast) {
    var hadFocus = toast.contains(document.activeElement);
    var next = toast.nextElementSibling || toast.previousElementSibling;
    var key = toast.getAttribute("data-key");
    if (key && timers[key]) {
      clearTimeout(timers[key]);
      delete timers[key];
    }
    toast.remove();
    if (!hadFocus) return;
    var target = next && next.querySelector("button:not([disabled]), a");
    if (!target && cameFrom && document.contains(cameFrom)) target = cameFrom;
    if (target) target.focus({ preventScroll: true });
  }

  function hide(toast) {
    var key = toast.getAttribute("data-key");
    if (key) hideKey(key);
    removeToast(toast);
  }

  function addHideButton(toast) {
    if (toast.querySelector(".toast-hide")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "toast-hide";
    button.setAttribute("aria-label", region.getAttribute("data-hide") || "Hide");
    button.textContent = "\u00d7";
    button.addEventListener("click", function () { hide(toast); });
    toast.appendChild(button);
  }

  // A challenge's toast leaves when its time is up; the news is asked again then, so the
  // count follows.
  function watchExpiry(toast) {
    var key = toast.getAttribute("data-key");
    var expires = parseInt(toast.getAttribute("data-expires"), 10);
    if (!key || isNaN(expires) || timers[key]) return;
    var wait = Math.max(0, expires * 1000 - Date.now()) + 500;
    timers[key] = setTimeout(function () {
      delete timers[key];
      if (toast.isConnected) removeToast(toast);
      fetchNews();
    }, Math.min(wait, 2147483647));
  }

  function prepare(toast) {
    addHideButton(toast);
    watchExpiry(toast);
    if (window.htmx) window.htmx.process(toast);
  }

  // --- The news sent again ---------------------------------------------------------------
  function showCounts(feed) {
    var count = feed.querySelector(".news-count");
    if (!count) return;
    document.querySelectorAll(".news-count").forEach(function (shown) {
      if (!feed.contains(shown)) shown.innerHTML = count.innerHTML;
    });
  }

  function isOurPath(url) {
    return !!url && url.charAt(0) === "/" && url.charAt(1) !== "/";
  }

  function merge(feed) {
    showCounts(feed);
    if (!feed.hasAttribute("data-full")) return;
    var hidden = hiddenKeys();
    var incoming = Array.prototype.slice.call(feed.querySelectorAll(".toast[data-key]"));
    var keys = incoming.map(function (t) { return t.getAttribute("data-key"); });
    toasts().forEach(function (toast) {
      var key = toast.getAttribute("data-key");
      // One being answered waits for its answer, which takes its place (the news of the
      // answer may come over the socket first).
      var answering = toast.querySelector(".htmx-request");
      if (key && keys.indexOf(key) < 0 && !toast.hasAttribute("data-sticky") && !answering) {
        removeToast(toast);
      }
    });
    var after = null;
    var arrived = [];
    incoming.forEach(function (item) {
      var key = item.getAttribute("data-key");
      var shown = byKey(key);
      var fresh = item.cloneNode(true);
      if (shown && shown.getAttribute("data-state") === item.getAttribute("data-state")) {
        after = shown;
        return;
      }
      if (!shown && hidden.indexOf(key) >= 0) return;
      if (shown) { // the same challenge, now to be accepted (a game ended)
        shown.replaceWith(fresh);
      } else {
        list.insertBefore(fresh, after ? after.nextSibling : list.firstChild);
        fresh.classList.add("is-arriving");
        arrived.push(fresh);
      }
      prepare(fresh);
      after = fresh;
      var go = fresh.getAttribute("data-go");
      // The challenge this person sent was accepted: to the table, unless they are in
      // the middle of a game, which the toast's link leaves to them.
      if (go && isOurPath(go) && !feed.hasAttribute("data-playing")) window.location.assign(go);
    });
    if (arrived.length && said) {
      said.textContent = arrived.map(function (t) {
        return t.querySelector(".toast-text").textContent.replace(/\s+/g, " ").trim();
      }).join(" ");
    }
    place();
  }

  function fetchNews() {
    var url = region.getAttribute("data-url");
    if (!url || !window.fetch) return;
    fetch(url, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        var parsed = new DOMParser().parseFromString(html, "text/html");
        var feed = parsed.getElementById("news-feed");
        if (feed) merge(feed);
      })
      .catch(function () {});
  }

  // htmx swaps the feed in (over the socket); it is read as it lands.
  new MutationObserver(function () {
    var feed = document.getElementById("news-feed");
    if (feed && !feed.hasAttribute("data-merged")) {
      feed.setAttribute("data-merged", "");
      merge(feed);
    }
  }).observe(region, { childList: true });

  // --- A toast's own answer (Decline, a friend's Accept: htmx, the page stays) ----------
  // It takes the toast's place; the button pressed went with it, so focus goes to the
  // answer, which is read out, and the answer goes after a while unless focus is in it.
  function answered(toast) {
    addHideButton(toast);
    if (document.activeElement === document.body) toast.focus({ preventScroll: true });
    setTimeout(function () {
      if (toast.isConnected && !toast.contains(document.activeElement)) toast.remove();
    }, 8000);
  }
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) {
        if (node.classList && node.classList.contains("toast-answered")) answered(node);
      });
    });
  }).observe(list, { childList: true });

  region.addEventListener("focusin", function (event) {
    if (event.relatedTarget && !region.contains(event.relatedTarget)) cameFrom = event.relatedTarget;
  });
  region.addEventListener("keydown", function (event) {
    var toast = event.target.closest && event.target.closest(".toast");
    if (event.key === "Escape" && toast) hide(toast);
  });

  // --- Where: above the hand at a table (or what a page marks), else at the bottom ------
  var placing = false;
  function place() {
    if (placing) return;
    placing = true;
    window.requestAnimationFrame(function () {
      placing = false;
      var above = document.querySelector("[data-news-above]") || document.getElementById("my-hand");
      var bottom = 0;
      if (above && above.getClientRects().length) {
        var top = above.getBoundingClientRect().top;
        if (top > 0 && top < window.innerHeight) bottom = window.innerHeight - top;
      }
      region.style.setProperty("--news-bottom", Math.round(bottom) + "px");
    });
  }
  window.addEventListener("resize", place);
  document.addEventListener("htmx:wsAfterMessage", place);

  // --- A page without a socket of its own opens the news-only one ------------------------
  if (!document.querySelector("[ws-connect]") && window.htmx) {
    var socket = document.createElement("div");
    socket.setAttribute("hx-ext", "ws");
    socket.setAttribute("ws-connect", "/ws/lobby/?page=news");
    socket.hidden = true;
    region.appendChild(socket);
    if (document.readyState !== "loading") window.htmx.process(socket);
  }

  var hidden = hiddenKeys();
  toasts().forEach(function (toast) {
    if (hidden.indexOf(toast.getAttribute("data-key")) >= 0) toast.remove();
    else prepare(toast);
  });
  place();
})();
