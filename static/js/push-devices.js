/* The notification settings' "Push notifications" panel: subscribes this browser to push
 * (the service worker registered by service-worker-register.js, the site's VAPID key) and sends
 * the subscription to /api/notifications/push/. Removing a device is a plain form. */
"use strict";
(function () {
  const panel = document.getElementById("push-devices");
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  if (!panel || !button || !status) {
    return;
  }
  const gettext = window.gettext || ((text) => text);  // the reader's words (base.html's catalog)
  const say = (text) => { status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(gettext("This browser cannot receive push notifications."));
    return;
  }

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function deviceName() {
    const ua = navigator.userAgent;
    const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox"
      : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : gettext("A browser");
    const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS"
      : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS"
      : /Linux/.test(ua) ? "Linux" : gettext("a device");
    return interpolate(gettext("%(browser)s on %(system)s"), { browser, system }, true);
  }

  async function subscribe() {
    button.disabled = true;
    say(gettext("Asking your browser…"));
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(gettext("Your browser did not allow notifications from this site, so nothing was subscribed."));
        return;
      }
      await navigator.serviceWorker.register("/service-worker.js", { scope: "/" });
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.dataset.publicKey),
      });
      const response = await fetch(panel.dataset.api, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ ...subscription.toJSON(), name: deviceName() }),
      });
      if (!response.ok) {
        say(gettext("The site could not save this device's subscription. Please try again later."));
        return;
      }
      say(gettext("This device now receives push notifications."));
      window.location.reload();
    } catch (error) {
      say(gettext("This browser could not subscribe to push notifications (its push service may be unreachable)."));
    } finally {
      button.disabled = false;
    }
  }

  button.hidden = false;
  button.addEventListener("click", subscribe);
})();
