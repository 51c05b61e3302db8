/* Registers the site's service worker (notifications/pwa.py) for the whole site: it makes the
 * site installable, shows push notifications and answers "you are offline" when the site cannot
 * be reached. A browser without service workers simply goes on without them. */
"use strict";
(function () {
  const script = document.currentScript;
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
