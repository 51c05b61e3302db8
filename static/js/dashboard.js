// GM dashboard: live panels and quick actions without reloading.
// The page asks the live URL with the last ETag when its socket (gmtools/consumers.py) says
// something changed, and once a minute (links expire, sessions start); without a socket it
// polls every two seconds instead, never while hidden. An unchanged dashboard answers 304 (one
// cheap query on the server), a changed one sends each panel as HTML and the campaign's
// characters, which refill the quick-action selects (keeping what is selected).
// Quick-action forms post with fetch and show the answer; without JavaScript they are plain
// forms that post and come back to this page.
(function () {
  "use strict";
  // words in the reader's language (Django's JavaScriptCatalog, /jsi18n/, loaded by base.html)
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, key) => String(obj[key])));
  const root = document.getElementById("dashboard");
  if (!root) return;
  const liveUrl = root.dataset.liveUrl;
  const every = parseInt(root.dataset.pollMs || "2000", 10);
  const status = document.getElementById("live-status");
  const result = document.getElementById("quick-result");
  let version = root.dataset.version || "";
  let timer = null;
  let busy = false;
  let again = false;
  const socketPath = root.dataset.socketPath;
  const QUIET_MS = 60000;

  function syncSelects(characters) {
    document.querySelectorAll("select[data-characters]").forEach((select) => {
      const wanted = select.dataset.characters === "npc"
        ? characters.filter((c) => c.is_npc) : characters;
      const chosen = new Set(Array.from(select.selectedOptions).map((o) => o.value));
      const blank = select.dataset.blank;
      const same = select.options.length === wanted.length + (blank ? 1 : 0) &&
        wanted.every((c, i) => {
          const o = select.options[i + (blank ? 1 : 0)];
          return o.value === String(c.id) && o.textContent === c.name;
        });
      if (same) return;
      select.innerHTML = "";
      if (blank) select.append(new Option(blank, ""));
      wanted.forEach((c) => {
        const o = new Option(c.name, String(c.id));
        o.selected = chosen.has(String(c.id));
        select.append(o);
      });
    });
  }

  // the award form's checkboxes (no Ctrl-click multi-select): one per character, ticks kept
  function syncChecks(characters) {
    document.querySelectorAll("[data-character-checks]").forEach((box) => {
      const boxes = Array.from(box.querySelectorAll("input[type=checkbox]"));
      const same = boxes.length === characters.length &&
        characters.every((c, i) => boxes[i].value === String(c.id) && boxes[i].parentNode.textContent.trim() === c.name);
      if (same) return;
      const ticked = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
      box.innerHTML = "";
      characters.forEach((c) => {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "checkbox";
        input.name = "characters";
        input.value = String(c.id);
        input.id = `award-character-${c.id}`;
        input.checked = ticked.has(String(c.id));
        label.append(input, ` ${c.name}`);
        box.append(label);
      });
    });
  }

  function apply(data) {
    version = data.version;
    root.dataset.version = version;
    Object.entries(data.panels).forEach(([key, html]) => {
      const target = root.querySelector(`[data-live="${key}"]`);
      if (target && target.innerHTML !== html) target.innerHTML = html;
    });
    syncSelects(data.characters || []);
    syncChecks(data.characters || []);
  }

  async function poll() {
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    try {
      const response = await fetch(liveUrl, {
        headers: { "If-None-Match": version, Accept: "application/json" },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (response.status === 200) {
        apply(await response.json());
        status.textContent = gettext("Up to date.");
      } else if (response.status === 304) {
        status.textContent = gettext("Up to date.");
      } else {
        status.textContent = interpolate(gettext("Could not refresh (%(status)s); retrying."), { status: response.status }, true);
      }
    } catch (err) {
      status.textContent = gettext("Offline; retrying.");
    } finally {
      busy = false;
      if (again) poll();  // a note arrived while this answer was on its way
    }
  }

  function schedule(ms) {
    clearInterval(timer);
    timer = setInterval(() => { if (!document.hidden) poll(); }, ms || every);
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });

  // ---------------------------------------------------------------- quick actions
  function showErrors(form, errors) {
    const list = form.querySelector(".form-errors");
    form.querySelectorAll(".field.has-error").forEach((f) => f.classList.remove("has-error"));
    list.innerHTML = "";
    list.hidden = true;
    Object.entries(errors || {}).forEach(([field, messages]) => {
      const slot = form.querySelector(`.field[data-field="${field}"]`);
      if (slot) slot.classList.add("has-error");
      messages.forEach((m) => {
        const li = document.createElement("li");
        const named = slot && slot.querySelector("label, legend");
        const words = named ? named.textContent.trim() : "";
        li.textContent = field === "non_field_errors" || !words ? m : interpolate(gettext("%(field)s: %(message)s"), { field: words, message: m }, true);
        list.append(li);
      });
      list.hidden = false;
    });
  }

  // a fresh one-time token: 32 hex digits, as apibase/form_once.py writes them
  function newToken() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  document.querySelectorAll("form[data-quick]").forEach((form) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        // getAttribute: a field named "action" (apply/clear) shadows form.action.
        const response = await fetch(form.getAttribute("action"), {
          method: "POST",
          body: new FormData(form),
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        const data = await response.json();
        showErrors(form, data.ok ? {} : data.errors || { non_field_errors: [data.detail] });
        result.textContent = data.detail || "";
        result.className = "quick-result " + (data.ok ? "ok" : "bad");
        if (data.ok) {
          // done: the form clears for the next one, with a fresh one-time token (the server
          // applies a token once, so a double submit of the same form changes nothing twice)
          form.reset();
          const token = form.querySelector("input[name=once_token]");
          if (token) token.value = newToken();
          await poll();
        }
      } catch (err) {
        result.textContent = gettext("The action could not be sent; nothing was changed.");
        result.className = "quick-result bad";
      } finally {
        button.disabled = false;
      }
    });
  });

  schedule();
  if (socketPath && window.WRPush && window.WRPush.enabled()) {
    window.WRPush.subscribe(socketPath, {
      onOpen: () => schedule(QUIET_MS),
      onDown: () => schedule(),
      onMessage: (data) => { if (data.type === "changed") poll(); },
    });
  }
})();
