/* The turn clock and undo requests of a table (templates/tables/clock_undo_panel.html).
 *
 * Self-contained: it reads the table's clock/ and undo/ endpoints when the page is drawn and
 * whenever the page's own client moves the table's data-version (or data-clock) on (a MutationObserver: no
 * polling of its own, so a hidden tab asks nothing). A running clock counts down each second
 * in the page from the server's deadline, which it also gives as a time of day. Seats are named
 * by the page (a json_script of seat → name named by the panel's data-seat-names-id, as a
 * battle's players; data-seat-names on the table's root; or "Seat 1", "Seat 2"); nothing here
 * shows a move. Without an undo URL (a battle: its GM undoes) there is no undo part.
 *
 * Who manages the table (a battle's GM) also gets the control (#table-clock-form, the
 * new-table form's own fields, templates/tables/clock_fields.html): set or change the time
 * control, take it off ("No clock"), pause and resume it, through the same clock/ endpoint;
 * a refusal is shown in the server's words.
 */
(function () {
  "use strict";

  const panel = document.getElementById("table-extras");
  if (!panel) return;
  const root = document.getElementById(panel.dataset.root) || document.body;
  const clockBox = document.getElementById("table-clock");
  const undoBox = document.getElementById("table-undo");
  const buttons = undoBox ? {
    ask: document.getElementById("table-undo-ask"),
    approve: document.getElementById("table-undo-approve"),
    refuse: document.getElementById("table-undo-refuse"),
    withdraw: document.getElementById("table-undo-withdraw"),
  } : {};
  const form = document.getElementById("table-clock-form");
  let seatMap = null;
  let clock = null;
  let ticking = null;

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function seatName(seat) {
    if (seatMap === null) {
      const script = panel.dataset.seatNamesId && document.getElementById(panel.dataset.seatNamesId);
      try { seatMap = script ? JSON.parse(script.textContent) : {}; } catch (e) { seatMap = {}; }
    }
    if (seatMap[seat]) return seatMap[seat];
    const names = (root.dataset.seatNames || "").split("|").filter(Boolean);
    const index = Number(seat);
    return names[index] || interpolate(gettext("Seat %(number)s"), { number: Number.isInteger(index) ? index + 1 : seat }, true);
  }

  function clockText(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), r = s % 60;
    if (d) return interpolate(gettext("%(days)s d %(hours)s h"), { days: d, hours: h }, true);
    if (h) return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours: h, minutes: String(m).padStart(2, "0") }, true);
    return `${m}:${String(r).padStart(2, "0")}`;
  }

  function timeOfDay(when) {
    // in the page's language (its <html lang>), not the browser's
    return new Date(when).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }

  /* The control in the page's language ("3 days per move; then the seat is skipped"), from
     its mode, seconds and rule: the server's ``words`` are English. */
  const RULE_WORDS = {
    skip: gettext("the seat is skipped"),
    random: gettext("the random bot plays the move"),
    heuristic: gettext("the heuristic bot plays the move"),
    forfeit: gettext("the seat forfeits"),
  };
  function durationWords(seconds) {
    let left = Math.max(0, Math.round(seconds));
    const parts = [];
    const units = [
      [86400, (n) => ngettext("%(n)s day", "%(n)s days", n)],
      [3600, (n) => ngettext("%(n)s hour", "%(n)s hours", n)],
      [60, (n) => ngettext("%(n)s minute", "%(n)s minutes", n)],
      [1, (n) => ngettext("%(n)s second", "%(n)s seconds", n)],
    ];
    for (const [size, words] of units) {
      const n = Math.floor(left / size);
      left %= size;
      if (n) parts.push(interpolate(words(n), { n }, true));
    }
    if (!parts.length) return interpolate(ngettext("%(n)s second", "%(n)s seconds", 0), { n: 0 }, true);
    if (parts.length === 1) return parts[0];
    return interpolate(gettext("%(larger)s %(smaller)s"), { larger: parts[0], smaller: parts[1] }, true);
  }
  function controlWords(c) {
    if (!c || !(c.rule in RULE_WORDS) || !Number.isFinite(Number(c.seconds))) return c ? c.words : "";
    const words = c.mode === "move" ? gettext("%(duration)s per move; then %(rule)s") : gettext("%(duration)s in all, per player; then %(rule)s");
    return interpolate(words, { duration: durationWords(Number(c.seconds)), rule: RULE_WORDS[c.rule] }, true);
  }

  function drawClock() {
    drawControl();
    if (!clock) { clockBox.hidden = true; return; }
    clockBox.hidden = false;
    document.getElementById("table-clock-words").textContent = interpolate(gettext("Turn clock: %(clock)s."), { clock: controlWords(clock) }, true);
    document.getElementById("table-clock-paused").hidden = !clock.paused;
    const list = document.getElementById("table-clock-seats");
    list.replaceChildren();
    for (const seat of clock.seats) {
      const left = seat.running ? (Date.parse(seat.deadline) - Date.now()) / 1000 : seat.seconds_left;
      const item = document.createElement("li");
      item.className = "table-extras__seat" + (seat.running ? " table-extras__seat--running" : "") +
        (seat.running && left < 60 ? " table-extras__seat--low" : "");
      item.textContent = seat.running
        ? interpolate(gettext("%(name)s: %(time)s to move, until %(deadline)s"), { name: seatName(seat.seat), time: clockText(left), deadline: timeOfDay(seat.deadline) }, true)
        : interpolate(gettext("%(name)s: %(time)s left"), { name: seatName(seat.seat), time: clockText(left) }, true);
      list.append(item);
    }
  }

  async function call(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: body ? "POST" : "GET",
        credentials: "same-origin",
        headers: body
          ? { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() }
          : { Accept: "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      // offline or the server away: the page's own status says so; the next change asks again
      return { ok: false, data: { detail: gettext("The server could not be reached; try again.") } };
    }
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, data };
  }

  function drawUndo(state, note) {
    undoBox.hidden = !state.request && !state.can_ask;
    const request = state.request;
    let text = note || "";
    if (!text && request && request.status === "pending") {
      text = state.yours
        ? gettext("You asked to take back your last move: waiting for the others.")
        : interpolate(gettext("%(name)s asks to take back their last move."), { name: seatName(request.seat) }, true);
    } else if (!text && request) {
      text = interpolate(gettext("Last request to take back a move: %(status)s."), { status: request.status_words }, true);
    }
    document.getElementById("table-undo-note").textContent = text;
    buttons.ask.hidden = !state.can_ask;
    buttons.approve.hidden = buttons.refuse.hidden = !state.your_vote;
    buttons.withdraw.hidden = !state.yours;
  }

  async function refresh() {
    const [c, u] = await Promise.all([
      call(panel.dataset.clockUrl),
      undoBox ? call(panel.dataset.undoUrl) : Promise.resolve({ ok: false }),
    ]);
    if (c.ok) { clock = c.data.clock; drawClock(); }
    if (u.ok) drawUndo(u.data);
  }

  // --- the control of who manages the table -------------------------------------------------
  let pauseButton = null;

  function drawControl() {
    if (!form) return;
    pauseButton.hidden = !clock;
    if (clock) pauseButton.textContent = clock.paused ? gettext("Resume the clock") : gettext("Pause the clock");
  }

  function firstError(data) {
    const errors = data.errors || {};
    if (errors.seconds) return form.elements.clock_minutes.dataset.error;
    for (const key of ["mode", "rule", "paused", "non_field_errors"]) {
      if (errors[key]) return errors[key][0];
    }
    const any = Object.values(errors)[0];
    return (any && any[0]) || data.detail || gettext("That did not work: try again.");
  }

  async function sendControl(body, done) {
    const note = document.getElementById("table-clock-note");
    const error = document.getElementById("table-clock-error");
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    const answer = await call(panel.dataset.clockUrl, body);
    for (const b of form.querySelectorAll("button")) b.disabled = false;
    if (answer.ok) {
      clock = answer.data.clock;
      error.textContent = "";
      note.textContent = done(clock);
      drawClock();
    } else {
      note.textContent = "";
      error.textContent = firstError(answer.data);
    }
  }

  if (form) {
    pauseButton = document.getElementById("table-clock-pause");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const mode = form.elements.clock_mode.value;
      const body = { mode };
      if (mode !== "none") {
        const minutes = form.elements.clock_minutes.value.trim();
        if (/^\d+$/.test(minutes)) body.seconds = Number(minutes) * 60;
        body.rule = form.elements.clock_rule.value;
      }
      sendControl(body, (c) => c ? interpolate(gettext("The turn clock is set: %(clock)s."), { clock: controlWords(c) }, true) : gettext("The turn clock is off."));
    });
    pauseButton.addEventListener("click", () => {
      if (!clock) return;
      sendControl({ paused: !clock.paused },
        (c) => c && c.paused ? gettext("The clock is paused.") : gettext("The clock runs again."));
    });
  }

  for (const [decision, button] of Object.entries(buttons)) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const answer = await call(panel.dataset.undoUrl, { decision });
      button.disabled = false;
      if (answer.ok) drawUndo(answer.data);
      else {
        const errors = answer.data.errors || {};
        const reason = (errors.undo || errors.decision || [answer.data.detail || gettext("That did not work.")])[0];
        const u = await call(panel.dataset.undoUrl);
        if (u.ok) drawUndo(u.data, reason);
      }
    });
  }

  // data-clock: a page whose clock changes bump no version (a battle's feed) says so there
  new MutationObserver(refresh).observe(root, { attributes: true, attributeFilter: ["data-version", "data-clock"] });
  ticking = setInterval(() => { if (clock && !document.hidden) drawClock(); }, 1000);
  window.addEventListener("pagehide", () => clearInterval(ticking));
  refresh();
})();
