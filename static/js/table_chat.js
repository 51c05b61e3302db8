/* The table chat panel (templates/tables/chat/panel.html; docs/table-chat.md): one module for
 * every table page, battle or tavern, through the core's chat API (tables/chat/api.py).
 *
 * Each [data-table-chat] section reads its lines from data-chat-url. While the table's socket
 * (data-socket-path, opened by the page's TableClient through static/js/push.js) is open, a
 * {"type": "chat"} note fetches what changed; otherwise the panel polls with ?since=<stamp>
 * (204 while nothing changed), never while its tab is hidden. New lines are appended to a
 * polite live region, so a screen reader hears each once; reactions update in place.
 * Everything is drawn with textContent: a line is text, never markup.
 */
(function () {
  "use strict";

  const POLL_MS = 3000;

  // the page's table client (static/js/table_client.js, loaded before this script) speaks
  // to the API: one fetch with the CSRF token, {status, data} back
  const request = (method, url, body) => window.TableClient.request(method, url, body);

  function firstError(data) {
    if (data && data.errors) {
      for (const messages of Object.values(data.errors)) {
        if (Array.isArray(messages) && messages.length) return String(messages[0]);
      }
    }
    return (data && data.detail) || gettext("The message could not be sent; try again.");
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    children.flat().forEach((child) => {
      if (child === null || child === undefined) return;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function names(list) {
    if (list.length <= 1) return list.join("");
    return interpolate(gettext("%(names)s and %(last)s"), { names: list.slice(0, -1).join(", "), last: list[list.length - 1] }, true);
  }

  function init(root) {
    const url = root.dataset.chatUrl;
    const path = root.dataset.socketPath || "";
    const $ = (name) => root.querySelector(`[data-${name}]`);
    const list = $("chat-lines");
    const form = $("chat-form");
    const input = $("chat-text");
    const to = $("chat-to");
    const errorBox = $("chat-error");
    const note = $("chat-note");
    const older = $("chat-older");
    const moderate = $("chat-moderate");
    const spectators = $("chat-spectators");
    const mutedList = $("chat-muted");
    const push = window.WRPush;
    let stamp = null;
    let page = null; // the last answer: what she may do, the reactions, who is muted
    let busy = false;
    let again = false;
    let pushed = Boolean(push && push.isOpen && path && push.isOpen(path));
    const shown = new Map(); // line id -> its <li>
    const known = new Map(); // line id -> the line as last read

    function reactionsOf(line) {
      const box = el("span", { class: "table-chat__reactions", role: "group", "aria-label": gettext("Reactions") });
      line.reactions.forEach((r) => {
        const label = r.mine
          ? interpolate(gettext("%(reaction)s: %(count)s (%(names)s), yours: press to take it back"), { reaction: r.words, count: r.count, names: names(r.names) }, true)
          : interpolate(gettext("%(reaction)s: %(count)s (%(names)s)"), { reaction: r.words, count: r.count, names: names(r.names) }, true);
        box.append(el("button", {
          type: "button", class: "table-chat__reaction", "aria-pressed": r.mine ? "true" : "false",
          "aria-label": label, title: label, "data-reaction": r.reaction, "data-on": r.mine ? "0" : "1",
        }, `${r.emoji} ${r.count}`));
      });
      return box;
    }

    function pickerOf(line) {
      if (!page || !page.you.may_send) return null;
      const menu = el("details", { class: "table-chat__react" },
        el("summary", { "aria-label": line.mine ? gettext("React to your message") : interpolate(gettext("React to %(name)s's message"), { name: line.author }, true) }, gettext("React")));
      const choices = el("span", { class: "table-chat__choices" });
      page.reactions.forEach((r) => choices.append(el("button", {
        type: "button", class: "table-chat__reaction", "aria-label": r.words, title: r.words,
        "data-reaction": r.reaction, "data-on": "1",
      }, r.emoji)));
      menu.append(choices);
      return menu;
    }

    function lineNode(line) {
      const muted = page && page.muted.some((m) => m.user_id === line.author_id);
      const mayMute = page && page.you.moderator && !line.mine && !line.gm && !muted;
      const who = line.mine ? gettext("You") : line.author;
      const badge = line.gm ? gettext("GM") : line.spectator ? gettext("watching") : "";
      const whisper = line.whisper ? " " + interpolate(gettext("whispers %(name)s"), { name: line.whisper }, true) : "";
      return el("li", {
        class: `table-chat__line${line.whisper ? " table-chat__line--whisper" : ""}`,
        "data-line": line.id,
      },
      el("strong", { class: "table-chat__author" }, who),
      badge ? el("span", { class: "table-chat__badge" }, ` (${badge})`) : null,
      whisper ? el("em", { class: "table-chat__whisper" }, whisper) : null,
      ": ",
      el("span", { class: "table-chat__said" }, line.text),
      " ",
      reactionsOf(line),
      pickerOf(line),
      mayMute ? el("button", {
        type: "button", class: "secondary table-chat__mute", "data-mute": line.author_id,
      }, interpolate(gettext("Mute %(name)s"), { name: line.author }, true)) : null);
    }

    function upsert(line, prepend) {
      known.set(line.id, line);
      const node = lineNode(line);
      const old = shown.get(line.id);
      if (old) {
        if (old.isEqualNode(node)) return;
        // keep an open reaction menu open across a redraw of its line
        const open = old.querySelector("details[open]");
        if (open) { const menu = node.querySelector("details"); if (menu) menu.open = true; }
        old.replaceWith(node);
      } else if (prepend) {
        list.prepend(node);
      } else {
        const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
        list.append(node);
        if (atBottom) list.scrollTop = list.scrollHeight;
      }
      shown.set(line.id, node);
    }

    function drawControls() {
      const you = page.you;
      // no box to type in for someone who may not speak (a muted member, a spectator the host
      // has not let talk): the note says why, and the box comes back when she may
      form.hidden = !you.may_send;
      input.disabled = !you.may_send;
      $("chat-send").disabled = !you.may_send;
      note.textContent = you.why_not || "";
      const targets = JSON.stringify(you.whisper_to);
      if (to.dataset.targets !== targets) { // redrawn only when it changes: an open list stays open
        const keep = to.value;
        to.replaceChildren(el("option", { value: "" }, gettext("Everyone")),
          ...you.whisper_to.map((w) => el("option", { value: w.key }, interpolate(gettext("%(name)s only (whisper)"), { name: w.name }, true))));
        to.value = you.whisper_to.some((w) => w.key === keep) ? keep : "";
        to.dataset.targets = targets;
      }
      $("chat-to-box").hidden = you.whisper_to.length === 0;
      moderate.hidden = !you.moderator;
      if (you.moderator) {
        spectators.checked = page.spectators_may_chat;
        mutedList.replaceChildren(...page.muted.map((m) => el("li", {},
          `${m.name} `, el("button", { type: "button", class: "secondary", "data-unmute": m.user_id }, interpolate(gettext("Let %(name)s speak again"), { name: m.name }, true)))));
        $("chat-muted-none").hidden = page.muted.length > 0;
      }
    }

    function draw(data, first) {
      const before = page;
      page = data;
      stamp = data.stamp;
      drawControls();
      // who may do what changed: redraw every line's buttons
      const redraw = !before || before.you.moderator !== data.you.moderator
        || before.you.may_send !== data.you.may_send
        || JSON.stringify(before.muted) !== JSON.stringify(data.muted);
      if (redraw) known.forEach((line) => upsert(line, false));
      data.results.forEach((line) => upsert(line, false));
      if (first) older.hidden = !data.older;
      $("chat-empty").hidden = shown.size > 0;
    }

    async function refresh(full) {
      if (busy) { again = true; return; }
      busy = true;
      try {
        const since = full || stamp === null ? "" : `?since=${stamp}`;
        const { status, data } = await request("GET", url + since);
        if (status === 200 && data) draw(data, stamp === null || full);
      } catch (e) {
        // offline: the next note or poll tries again
      } finally {
        busy = false;
        if (again) { again = false; refresh(false); }
        // a read that began after the socket opened has been answered: from now on the panel
        // reads only on the socket's notes (data-listening; the browser tests wait for it)
        else if (pushed) root.dataset.listening = "socket";
      }
    }

    async function write(tail, body, method) {
      const { status, data } = await request(method || "POST", url + tail, body);
      if (status >= 200 && status < 300) { await refresh(false); return true; }
      errorBox.textContent = firstError(data);
      return false;
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      errorBox.textContent = "";
      if (!input.value.trim()) { errorBox.textContent = gettext("Write something first."); input.focus(); return; }
      const { status, data } = await request("POST", url, { text: input.value, whisper_to: to.value });
      if (status === 201) {
        input.value = "";
        upsert(data, false);
        $("chat-empty").hidden = true;
        refresh(false);
        return;
      }
      errorBox.textContent = firstError(data);
    });

    list.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      const item = button.closest("[data-line]");
      if (button.dataset.reaction && item) {
        write("reactions/", { line: Number(item.dataset.line), reaction: button.dataset.reaction, on: button.dataset.on === "1" });
      } else if (button.dataset.mute) {
        write("mutes/", { user: Number(button.dataset.mute), muted: true });
      }
    });
    mutedList.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-unmute]");
      if (button) write("mutes/", { user: Number(button.dataset.unmute), muted: false });
    });
    spectators.addEventListener("change", () => {
      write("settings/", { spectators_may_chat: spectators.checked }, "PATCH");
    });
    older.addEventListener("click", async () => {
      const first = [...shown.keys()].reduce((a, b) => Math.min(a, b), Infinity);
      if (!Number.isFinite(first)) return;
      older.disabled = true;
      try {
        const { status, data } = await request("GET", `${url}?before=${first}`);
        if (status !== 200 || !data) return;
        data.results.slice().reverse().forEach((line) => upsert(line, true));
        older.hidden = !data.older;
      } finally { older.disabled = false; }
    });

    document.addEventListener("wr:push", (event) => {
      const detail = event.detail || {};
      if (!path || detail.path !== path) return;
      if (detail.kind === "open") { pushed = true; refresh(false); }
      else if (detail.kind === "down") { pushed = false; delete root.dataset.listening; }
      else if (detail.kind === "message" && detail.data && detail.data.type === "chat") refresh(false);
    });
    document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(false); });
    setInterval(() => { if (!pushed && !document.hidden) refresh(false); }, POLL_MS);
    refresh(true);
  }

  function start() { document.querySelectorAll("[data-table-chat]").forEach(init); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
