// Settings' Notifications: this device's Web Push (asks the browser's permission, subscribes
// with the site's VAPID public key through the service worker of static/sw.js, and sends
// the subscription to the site), and the time zone filled in from the browser when empty.
// The words come from the page (data-text-*), in its language.
(function () {
  "use strict";

  var zoneField = document.querySelector("[data-detect-time-zone]");
  if (zoneField && !zoneField.value && window.Intl) {
    zoneField.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  }

  var box = document.getElementById("push-device");
  var key = box && box.getAttribute("data-push-key");
  if (!key) return;
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var status = document.getElementById("push-status");

  function say(name) { status.textContent = box.getAttribute("data-text-" + name); }

  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  var supported = "serviceWorker" in navigator && "PushManager" in window &&
    "Notification" in window;
  if (!supported) {
    say("unsupported");
    return;
  }

  // The VAPID key as the browser takes it: base64url to bytes.
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrf() {
    var headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    return headers["X-CSRFToken"] || "";
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify(data)
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
      return response.json();
    });
  }

  function registration() {
    var script = document.documentElement.dataset.serviceWorker;
    return navigator.serviceWorker.register(script, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function subscribe() {
    on.disabled = true;
    say("working");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return registration();
    }).then(function (reg) {
      return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(key)});
    }).then(function (subscription) {
      var zone = window.Intl ? Intl.DateTimeFormat().resolvedOptions().timeZone : "";
      return post(box.getAttribute("data-subscribe-url"),
        {subscription: subscription.toJSON(), time_zone: zone});
    }).then(function () {
      say("on");
      show(true);
      off.focus();
    }).catch(function (error) {
      // What failed, for whoever looks into it (a browser without its push service says
      // AbortError); the person reads the sentence.
      status.setAttribute("data-error", (error && (error.name + ": " + error.message)) || "");
      say(error && error.message === "denied" ? "denied" : "error");
    }).then(function () { on.disabled = false; });
  }

  function unsubscribe() {
    off.disabled = true;
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box.getAttribute("data-forget-url"), {endpoint: endpoint});
      });
    }).then(function () {
      say("off");
      show(false);
      on.focus();
    }).catch(function () { say("error"); })
      .then(function () { off.disabled = false; });
  }

  on.addEventListener("click", subscribe);
  off.addEventListener("click", unsubscribe);

  // What this device is now: subscribed (with this site's key) or not.
  navigator.serviceWorker.getRegistration("/").then(function (reg) {
    return reg ? reg.pushManager.getSubscription() : null;
  }).then(function (subscription) {
    var subscribed = !!subscription && Notification.permission === "granted";
    show(subscribed);
    if (!subscribed) return;
    say("on");
    // The site may have forgotten it (a push service said it was gone): told again.
    post(box.getAttribute("data-subscribe-url"), {subscription: subscription.toJSON()})
      .catch(function () {});
  }).catch(function () { show(false); });
})();
