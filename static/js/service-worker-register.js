/* Registers the site's service worker (notifications/pwa.py) for the whole site: it makes the
 * site installable, shows push notifications and answers "you are offline" when a page cannot be
 * loaded. A browser without service workers simply goes on without them.
 *
 * A page already open when the connection drops says so too: a banner, and its content greyed
 * out, so what it shows (a table's last state) is not taken for the current one. */
"use strict";
(function () {
  const script = document.currentScript;
  let banner = null;

  function showOffline(offline) {
    const main = document.getElementById("main");
    if (offline && !banner) {
      banner = document.createElement("div");
      banner.id = "offline-banner";
      banner.setAttribute("role", "alert");
      banner.textContent = "You are offline. What this page shows may be out of date until the connection is back.";
      banner.style.cssText = "position: sticky; top: 0; z-index: 50; padding: .6rem 1rem; " +
        "background: #5b1020; color: #fff; text-align: center; font-weight: 600";
      document.body.prepend(banner);
      if (main) {
        main.style.opacity = "0.45";
        main.setAttribute("aria-describedby", "offline-banner");
      }
      document.body.dataset.offline = "1";
    } else if (!offline && banner) {
      banner.remove();
      banner = null;
      if (main) {
        main.style.opacity = "";
        main.removeAttribute("aria-describedby");
      }
      delete document.body.dataset.offline;
    }
  }

  window.addEventListener("offline", () => showOffline(true));
  window.addEventListener("online", () => showOffline(false));
  document.addEventListener("DOMContentLoaded", () => showOffline(!navigator.onLine));

  if (!("serviceWorker" in navigator) || !script) {
    return;
  }
  const url = script.dataset.url || "/service-worker.js";
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* an insecure origin or a blocked worker: the site works without it */
    });
  });
})();
