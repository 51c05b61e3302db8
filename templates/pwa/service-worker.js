/* Western Roses' service worker (served from /service-worker.js, scope "/"; notifications/pwa.py).
 *
 * - push: shows the notification the server sent (its own title, body and link; the tag is the
 *   delivery's key, so a message sent twice replaces itself instead of showing twice);
 * - notificationclick: opens the notification's page (a table, a battle) in a tab of this site,
 *   reusing an open one;
 * - fetch: a page load that cannot reach the site gets the offline page. Nothing else is cached,
 *   so no stale page or game state is ever shown as current.
 */
"use strict";

const CACHE = "{{ cache_name|escapejs }}";
const OFFLINE_URL = "{{ offline_url|escapejs }}";
const PRECACHE = [{% for url in precache %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const ICON = "{{ icon|escapejs }}";
const FALLBACK_URL = "/notifications/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") {
    return; // the browser fetches it as if there were no service worker
  }
  event.respondWith(
    fetch(request).catch(() =>
      caches.open(CACHE).then((cache) => cache.match(OFFLINE_URL)).then(
        (page) => page || new Response("You are offline.", {
          status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" },
        })
      )
    )
  );
});

/** The same-origin link of a notification, or the notification list. */
function sameSiteURL(raw) {
  try {
    const url = new URL(raw || FALLBACK_URL, self.location.origin);
    if (url.origin === self.location.origin) {
      return url.href;
    }
  } catch (e) { /* fall through */ }
  return new URL(FALLBACK_URL, self.location.origin).href;
}

/** What a push message asks to show; a message that cannot be read still says something. */
function readPush(event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  return {
    title: typeof data.title === "string" && data.title ? data.title : "Western Roses",
    body: typeof data.body === "string" ? data.body : "You have a new notification.",
    url: sameSiteURL(typeof data.url === "string" ? data.url : ""),
    tag: typeof data.tag === "string" && data.tag ? data.tag : undefined,
  };
}

self.addEventListener("push", (event) => {
  const note = readPush(event);
  event.waitUntil(
    self.registration.showNotification(note.title, {
      body: note.body,
      tag: note.tag,
      icon: ICON,
      badge: ICON,
      data: { url: note.url },
    })
  );
});

/** Go to ``url`` in a tab of this site (the first one open), or open a new one. */
function openPage(url) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    for (const tab of tabs) {
      if (new URL(tab.url).origin === self.location.origin && "navigate" in tab) {
        return tab.navigate(url).then((moved) => (moved || tab).focus().catch(() => moved || tab))
          .catch(() => self.clients.openWindow(url));
      }
    }
    return self.clients.openWindow(url);
  });
}

self.addEventListener("notificationclick", (event) => {
  const url = sameSiteURL(event.notification.data && event.notification.data.url);
  event.notification.close();
  event.waitUntil(openPage(url));
});
