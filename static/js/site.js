// Every page: the colour theme, the header's menu on phones, the live bell and "your turn"
// alerts, local times, tables that scroll in their own box, and forms that submit once.
// Loaded in <head> without defer so the chosen theme applies before the page paints; the rest
// waits for the document.
(function () {
  "use strict";
  const html = document.documentElement;
  // The reader's words (Django's JavaScriptCatalog, loaded by base.html before this script;
  // the catalog is English's own words where the page has none).
  const gettext = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate = window.interpolate || ((fmt, args) => fmt.replace(/%s/g, () => String(args.shift())));
  html.classList.remove("no-js");
  html.classList.add("js");

  // ------------------------------------------------------------------ colour theme
  // "system" follows prefers-color-scheme (site.css); "light"/"dark" set data-theme on <html>.
  const THEMES = ["system", "light", "dark"];
  function storedTheme() {
    try { return localStorage.getItem("wr-theme") || "system"; } catch (e) { return "system"; }
  }
  function applyTheme(theme) {
    if (theme === "light" || theme === "dark") html.dataset.theme = theme;
    else delete html.dataset.theme;
  }
  applyTheme(storedTheme());

  // the browser's time zone, for pages rendered on the server (accounts/time_zones.py uses it
  // unless her profile names one)
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !document.cookie.split("; ").includes(`tz=${zone}`)) {
      document.cookie = `tz=${zone}; path=/; max-age=31536000; SameSite=Lax`;
    }
  } catch (e) { /* no Intl: UTC */ }

  // ------------------------------------------------------------------ "your turn" signals
  // the title with a turn mark, in the page's language; the mark is taken off the same way
  const turnTitle = (title) => interpolate(gettext("▶ Your turn · %(title)s"), { title }, true);
  const turnMark = turnTitle("");
  const baseTitle = () => {
    const title = document.title.replace(/^\(\d+\) /, "");
    return title.startsWith(turnMark) ? title.slice(turnMark.length) : title;
  };
  const alerts = { turn: null, unread: 0 };
  function paintTitleAndIcon() {
    const title = baseTitle();
    if (alerts.turn) document.title = turnTitle(title);
    else if (alerts.unread) document.title = `(${alerts.unread}) ${title}`;
    else document.title = title;
    const icon = document.getElementById("favicon");
    if (icon) {
      if (!icon.dataset.plain) icon.dataset.plain = icon.getAttribute("href");
      const want = alerts.turn ? icon.dataset.alert : icon.dataset.plain;
      if (icon.getAttribute("href") !== want) icon.setAttribute("href", want);
    }
  }
  function pref(name) {
    try { return localStorage.getItem(name) === "1"; } catch (e) { return false; }
  }
  function beep() {
    if (!pref("wr-turn-sound")) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      const ctx = new Ctx();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.08;
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.25);
    } catch (e) { /* no audio: the title and icon still say it */ }
  }
  function desktopNotify(text, url) {
    if (!pref("wr-turn-desktop") || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const n = new Notification("Western Roses", { body: text, tag: "wr-your-turn" });
      if (url) n.onclick = () => { window.focus(); location.href = url; };
    } catch (e) { /* some browsers only allow notifications from a service worker */ }
  }
  // The battle screen and the bell both call this: text (e.g. "Your turn in Fairies at Misty
  // Lake") or null when it is no longer her turn. Sound and desktop notice fire once per new turn.
  function setTurnAlert(text, url) {
    const fresh = text && text !== alerts.turn;
    alerts.turn = text || null;
    document.body && document.body.classList.toggle("your-turn", Boolean(text));
    paintTitleAndIcon();
    if (fresh) { beep(); desktopNotify(text, url); }
  }

  // ------------------------------------------------------------------ the rest, once the page is there
  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  // A destructive button that asks first (.ask-first, static/css/ask-first.css): its "Keep"
  // button and Escape close the question and give the focus back to the button that opened it.
  ready(() => {
    document.querySelectorAll(".ask-first").forEach((box) => {
      const close = () => {
        box.open = false;
        box.querySelector("summary").focus();
      };
      box.querySelectorAll(".ask-first__keep").forEach((b) => b.addEventListener("click", close));
      box.addEventListener("keydown", (e) => { if (e.key === "Escape" && box.open) close(); });
    });
  });

  ready(() => {
    const body = document.body;

    // the theme toggle: system → light → dark
    const toggle = document.getElementById("theme-toggle");
    function labelTheme() {
      const theme = storedTheme();
      if (!toggle) return;
      const words = {
        system: [gettext("Theme: system"), gettext("Theme: system (the colours follow the system; press to change)")],
        light: [gettext("Theme: light"), gettext("Theme: light (the colours are light; press to change)")],
        dark: [gettext("Theme: dark"), gettext("Theme: dark (the colours are dark; press to change)")],
      }[theme] || [theme, theme];
      toggle.textContent = words[0];
      toggle.setAttribute("aria-label", words[1]);
    }
    if (toggle) {
      labelTheme();
      toggle.addEventListener("click", () => {
        const next = THEMES[(THEMES.indexOf(storedTheme()) + 1) % THEMES.length];
        try { localStorage.setItem("wr-theme", next); } catch (e) { /* private mode */ }
        applyTheme(next);
        labelTheme();
      });
    }

    // the header's menu on phones
    const menuButton = document.getElementById("menu-toggle");
    if (menuButton) {
      menuButton.addEventListener("click", () => {
        const open = menuButton.closest(".topbar").classList.toggle("topbar--open");
        menuButton.setAttribute("aria-expanded", open ? "true" : "false");
      });
    }

    // the account's links under her name (a laptop's header): a click on the name opens or
    // closes them; Escape, or a click anywhere else, closes them
    const accountButton = document.getElementById("account-toggle");
    if (accountButton) {
      const account = accountButton.closest(".account");
      const openAccount = (open) => {
        account.classList.toggle("account--open", open);
        accountButton.setAttribute("aria-expanded", open ? "true" : "false");
      };
      accountButton.addEventListener("click", () => openAccount(!account.classList.contains("account--open")));
      document.addEventListener("click", (e) => {
        if (!account.contains(e.target)) openAccount(false);
      });
      account.addEventListener("keydown", (e) => {
        if (e.key === "Escape" && account.classList.contains("account--open")) {
          openAccount(false);
          accountButton.focus();
        }
      });
    }

    // tables scroll in their own box, with a cue when there is more to the side (also the
    // tables live panels bring in later)
    function wrapTable(table) {
      if (table.closest(".table-scroll")) return;
      const box = document.createElement("div");
      box.className = "table-scroll";
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", interpolate(gettext("%s (scrolls sideways)"), [table.getAttribute("aria-label") || gettext("Table")]));
      table.parentNode.insertBefore(box, table);
      box.append(table);
      const cue = document.createElement("p");
      cue.className = "scroll-cue";
      cue.textContent = gettext("Scroll the table sideways to see more →");
      box.after(cue);
    }
    document.querySelectorAll("main table").forEach(wrapTable);
    function markScrollable() {
      document.querySelectorAll(".table-scroll").forEach((box) => {
        box.classList.toggle("is-scrollable", box.scrollWidth > box.clientWidth + 1);
      });
    }
    markScrollable();
    window.addEventListener("resize", markScrollable);
    const main = document.querySelector("main");
    if (main && "MutationObserver" in window) {
      new MutationObserver(() => {
        const loose = [...main.querySelectorAll("table")].filter((t) => !t.closest(".table-scroll"));
        if (!loose.length) return;
        loose.forEach(wrapTable);
        markScrollable();
      }).observe(main, { childList: true, subtree: true });
    }

    // times in the viewer's zone (her profile's, else the browser's), with the zone named, in
    // the page's language (the browser's own variant of it when it has one: en-GB, zh-CN)
    const pageLang = (html.lang || "en").toLowerCase();
    const pageLocale = (navigator.languages || []).find(
      (l) => l.toLowerCase().split("-")[0] === pageLang.split("-")[0],
    ) || pageLang;
    const zone = body.dataset.userTimeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
    function localTimes(rootNode) {
      rootNode.querySelectorAll("time[data-local]").forEach((node) => {
        const when = new Date(node.getAttribute("datetime"));
        if (Number.isNaN(when.getTime())) return;
        const opts = { dateStyle: node.dataset.local === "date" ? "medium" : "medium", timeStyle: "short", timeZone: zone };
        let text;
        try { text = new Intl.DateTimeFormat(pageLocale, opts).format(when); } catch (e) { return; }
        node.textContent = `${text} (${zone.replaceAll("_", " ")})`;
        node.title = when.toISOString();
      });
    }
    localTimes(document);

    // forms that must apply once: the button is disabled while one submit is on its way
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.matches("form[data-once]")) return;
      if (form.dataset.submitting === "1") { event.preventDefault(); return; }
      form.dataset.submitting = "1";
      form.querySelectorAll("button[type=submit], button:not([type])").forEach((b) => { b.disabled = true; });
    }, true);

    // opt-in controls for sound and the browser's notifications (on the preferences page)
    document.querySelectorAll("input[data-local-pref]").forEach((box) => {
      const name = box.dataset.localPref;
      box.checked = pref(name);
      box.addEventListener("change", async () => {
        let on = box.checked;
        if (on && name === "wr-turn-desktop" && "Notification" in window && Notification.permission !== "granted") {
          on = (await Notification.requestPermission()) === "granted";
          box.checked = on;
        }
        try { localStorage.setItem(name, on ? "1" : "0"); } catch (e) { /* private mode */ }
      });
    });

    // the live bell: its count, a notice for each new notification, and the "your turn" signals
    const url = body.dataset.notificationsUrl;
    if (!url) return;
    const bell = document.getElementById("bell");
    const count = document.getElementById("unread-count");
    const notice = document.getElementById("live-alert");
    let known = null; // ids of unread notifications already seen on this page
    async function poll() {
      let data;
      try {
        const response = await fetch(url + "&limit=20", { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
        if (!response.ok) return;
        data = await response.json();
      } catch (e) { return; }
      const items = data.results || [];
      const unread = data.count !== undefined ? data.count : items.length;
      if (count) {
        count.textContent = String(unread);
        count.hidden = unread === 0;
      }
      if (bell) {
        bell.setAttribute("aria-label", unread
          ? interpolate(ngettext("Notifications, %s unread", "Notifications, %s unread", unread), [unread])
          : gettext("Notifications"));
      }
      alerts.unread = unread;
      const fresh = known === null ? [] : items.filter((n) => !known.has(n.id));
      if (known === null) {
        // What the first answer holds is not news to the bell, but the list's first page was
        // drawn before it: one made in between is still missing there. (Tests wait for the
        // mark below instead of a clock.)
        const list = document.getElementById("notification-list");
        const newest = (new URLSearchParams(location.search).get("page") || "1") === "1";
        if (list && newest && items.some((n) => !list.querySelector(`[data-notification="${n.id}"]`))) refreshList();
        document.body.dataset.bellPolled = "1";
      }
      known = new Set(items.map((n) => n.id));
      if (fresh.length && notice) {
        notice.hidden = false;
        notice.replaceChildren(...fresh.slice(0, 3).map((n) => {
          const line = document.createElement(n.url ? "a" : "p");
          if (n.url) line.href = n.url;
          line.textContent = n.title;
          line.style.display = "block";
          return line;
        }));
        clearTimeout(notice.timer);
        notice.timer = setTimeout(() => { notice.hidden = true; }, 8000);
        if (document.getElementById("notification-list")) refreshList();
      }
      const turn = items.find((n) => n.event === "your_turn");
      const onThatBattle = turn && turn.url && location.pathname === new URL(turn.url, location.href).pathname;
      if (!document.getElementById("battle")) setTurnAlert(turn && !onThatBattle ? turn.title : null, turn && turn.url);
      else paintTitleAndIcon();
    }
    async function refreshList() {
      try {
        const response = await fetch(location.href, { credentials: "same-origin", cache: "no-store" });
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.getElementById("notification-list");
        const here = document.getElementById("notification-list");
        if (fresh && here) { here.replaceWith(fresh); localTimes(fresh); }
      } catch (e) { /* the next poll tries again */ }
    }
    poll();
    // Pushed: the socket says when something changed (static/js/push.js); polled meanwhile.
    let pushed = false;
    if (window.WRPush && window.WRPush.enabled()) {
      window.WRPush.subscribe("/ws/notifications/", {
        onOpen: () => { pushed = true; },
        onDown: () => { pushed = false; },
        onMessage: () => poll(),
      });
    }
    setInterval(() => { if (!document.hidden && !pushed) poll(); }, 1500);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  });

  window.WR = { setTurnAlert, applyTheme };
})();
