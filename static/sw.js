// Tongits Online's service worker (served at /sw.js by tongits_site/pwa.py, scope /).
// It exists so the site installs on a phone's home screen, an offline visit shows our
// own page instead of the browser's error, and a notification pushed to this device
// (games/notifications) is shown and opens its page when tapped. It keeps the offline page and that page's
// static files, and nothing else: never a table, a game, a series, a socket or an API
// answer, which can hold cards. Every other request goes to the network untouched.
"use strict";

var VERSION = "__VERSION__";
var CACHE = "tongits-offline-" + VERSION;
// Filled in by the server: the offline page (in the reader's language) and its files.
var OFFLINE = "__OFFLINE__";
var PRECACHE = "__PRECACHE__";
// The site's icon, shown with a notification.
var ICON = "__ICON__";
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

// A notice pushed by the site (games/notifications/delivery.py): title, text, the page to
// open and a tag (a newer notice of a table replaces the older one). Never a card of a
// hand: at most the discard that made it someone's turn, which everyone at the table saw.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var title = data.title || "Tongits Online";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: ICON,
    badge: ICON,
    data: {url: data.url || "/"}
  }));
});

// A tap opens the notice's page: in a tab of the site already open, else a new one. Only a
// path of this site is opened, whatever the message said.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var asked = (event.notification.data && event.notification.data.url) || "/";
  var url = new URL(asked, self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true})
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url.href && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url.href);
    }));
});
