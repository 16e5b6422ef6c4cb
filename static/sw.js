// Tongits Online's service worker (served at /sw.js by tongits_site/pwa.py, scope /).
// It exists so the site installs on a phone's home screen and an offline visit shows our
// own page instead of the browser's error. It keeps the offline page and that page's
// static files, and nothing else: never a table, a game, a series, a socket or an API
// answer, which can hold cards. Every other request goes to the network untouched.
"use strict";

var VERSION = "__VERSION__";
var CACHE = "tongits-offline-" + VERSION;
// Filled in by the server: the offline page (in the reader's language) and its files.
var OFFLINE = "__OFFLINE__";
var PRECACHE = "__PRECACHE__";
// Paths whose answers are never kept nor answered from the cache (tests read this list).
var NEVER = ["/games/", "/game/", "/table/", "/series/", "/ws/", "/api/", "/invite/",
  "/play/", "/live/", "/accounts/", "/admin/", "/staff/", "/players/", "/i18n/"];

function never(path) {
  for (var i = 0; i < NEVER.length; i++) {
    if (path.indexOf(NEVER[i]) === 0) return true;
  }
  return false;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("tongits-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: always from the network; only when that fails, the offline page.
    event.respondWith(fetch(request).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE); });
    }));
    return;
  }
  if (never(url.pathname)) return;
  if (PRECACHE.indexOf(url.pathname + url.search) === -1) return;
  // One of the offline page's own files: the network first, the kept copy offline.
  event.respondWith(fetch(request).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(request); });
  }));
});
