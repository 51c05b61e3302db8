// Pushed updates (apibase/push.py, docs/push.md): one WebSocket per subscription, opened when
// the page says the server pushes (body[data-push]), reopened with backoff when it drops.
// What arrives is only a note ("version 12", "your notifications changed", who is at a table);
// the caller reads what changed through its usual request. While no socket is open the caller
// polls, as it did before pushes (never while its tab is hidden). A table's socket also says
// whether its tab is visible, and repeats it every 30 s as a heartbeat (tables/presence.py).
(function () {
  "use strict";
  const enabled = () => document.body && document.body.dataset.push === "1" && "WebSocket" in window;

  // subscribe(path, { onMessage, onOpen, onDown, presence }) -> { connected(), close() }
  // onOpen: the socket is open (stop polling); onDown: it is not (poll); onMessage(data);
  // presence: tell the server whether this tab is visible.
  // Every note and change of state is also told to the page as a "wr:push" event
  // ({path, kind: "open" | "down" | "message", data}), so another module of the page (the
  // table chat, static/js/table_chat.js) hears the same socket without opening its own.
  const opened = new Set();
  const tell = (path, kind, data) => {
    if (kind === "open") opened.add(path);
    if (kind === "down") opened.delete(path);
    document.dispatchEvent(new CustomEvent("wr:push", { detail: { path, kind, data } }));
  };
  const isOpen = (path) => opened.has(path);

  function subscribe(path, handlers) {
    let socket = null;
    let delay = 1000;
    let timer = null;
    let closed = false;
    let open = false;
    let beat = null;
    const visibility = () => {
      if (handlers.presence && socket && open) {
        socket.send(JSON.stringify({ type: "visibility", visible: !document.hidden }));
      }
    };
    const down = () => {
      if (open) { open = false; if (handlers.onDown) handlers.onDown(); tell(path, "down"); }
    };
    function connect() {
      if (closed || !enabled() || document.hidden) return;
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
      try { socket = new WebSocket(url); } catch (e) { retry(); return; }
      socket.addEventListener("open", () => {
        open = true; delay = 1000;
        if (handlers.onOpen) handlers.onOpen();
        tell(path, "open");
        visibility();
        clearInterval(beat);
        if (handlers.presence) beat = setInterval(visibility, 30000);
      });
      socket.addEventListener("message", (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (e) { return; }
        handlers.onMessage(data);
        tell(path, "message", data);
      });
      socket.addEventListener("close", (event) => {
        socket = null;
        clearInterval(beat);
        down();
        // 4401/4403/4404: this page may not listen (signed out, removed): no retry
        if (event.code >= 4400 && event.code < 4500) { closed = true; return; }
        retry();
      });
    }
    function retry() {
      if (closed) return;
      clearTimeout(timer);
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    }
    document.addEventListener("visibilitychange", () => {
      visibility();
      if (document.hidden) return;
      if (!socket) { delay = 1000; clearTimeout(timer); connect(); }
    });
    connect();
    return {
      connected: () => open,
      close: () => { closed = true; clearTimeout(timer); if (socket) socket.close(); },
    };
  }

  // Who is at a table, in words, into ``element`` (a table page's [data-presence] box):
  // "Here: Reimu, Marisa. Away: Sakuya since 10:02."
  function showPresence(element, people) {
    if (!element) return;
    const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const here = people.filter((p) => p.here).map((p) => p.name);
    const away = people.filter((p) => !p.here).map((p) => interpolate(gettext("%(name)s since %(time)s"), { name: p.name, time: time(p.since) }, true));
    const parts = [];
    if (here.length) parts.push(interpolate(gettext("Here: %(names)s."), { names: here.join(", ") }, true));
    if (away.length) parts.push(interpolate(gettext("Away: %(names)s."), { names: away.join(", ") }, true));
    element.textContent = parts.join(" ");
    element.hidden = parts.length === 0;
    // for whatever else on the page follows who is here (tavern/spectators.js)
    document.dispatchEvent(new CustomEvent("wr:presence", { detail: people }));
  }

  window.WRPush = { enabled, subscribe, showPresence, isOpen };
})();
