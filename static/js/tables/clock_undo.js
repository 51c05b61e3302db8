/* The turn clock and undo requests of a table (templates/tables/clock_undo_panel.html).
 *
 * Self-contained: it reads the table's clock/ and undo/ endpoints when the page is drawn and
 * whenever the page's own client moves the table's data-version on (a MutationObserver: no
 * polling of its own, so a hidden tab asks nothing). A running clock counts down each second
 * in the page from the server's deadline. Seats are named by the page (data-seat-names on the
 * table's root, or "Seat 1", "Seat 2"); nothing here shows a move.
 */
(function () {
  "use strict";

  const panel = document.getElementById("table-extras");
  if (!panel) return;
  const root = document.getElementById(panel.dataset.root) || document.body;
  const clockBox = document.getElementById("table-clock");
  const undoBox = document.getElementById("table-undo");
  const buttons = {
    ask: document.getElementById("table-undo-ask"),
    approve: document.getElementById("table-undo-approve"),
    refuse: document.getElementById("table-undo-refuse"),
    withdraw: document.getElementById("table-undo-withdraw"),
  };
  let clock = null;
  let ticking = null;

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function seatName(seat) {
    const names = (root.dataset.seatNames || "").split("|").filter(Boolean);
    const index = Number(seat);
    return names[index] || `Seat ${Number.isInteger(index) ? index + 1 : seat}`;
  }

  function clockText(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), r = s % 60;
    if (d) return `${d} d ${h} h`;
    if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
    return `${m}:${String(r).padStart(2, "0")}`;
  }

  function drawClock() {
    if (!clock) { clockBox.hidden = true; return; }
    clockBox.hidden = false;
    document.getElementById("table-clock-words").textContent = `Turn clock: ${clock.words}.`;
    document.getElementById("table-clock-paused").hidden = !clock.paused;
    const list = document.getElementById("table-clock-seats");
    list.replaceChildren();
    for (const seat of clock.seats) {
      const left = seat.running ? (Date.parse(seat.deadline) - Date.now()) / 1000 : seat.seconds_left;
      const item = document.createElement("li");
      item.className = "table-extras__seat" + (seat.running ? " table-extras__seat--running" : "") +
        (seat.running && left < 60 ? " table-extras__seat--low" : "");
      item.textContent = `${seatName(seat.seat)}: ${clockText(left)}${seat.running ? " to move" : " left"}`;
      list.append(item);
    }
  }

  async function call(url, body) {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      credentials: "same-origin",
      headers: body
        ? { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() }
        : { Accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, data };
  }

  function drawUndo(state, note) {
    undoBox.hidden = !state.request && !state.can_ask;
    const request = state.request;
    let text = note || "";
    if (!text && request && request.status === "pending") {
      text = state.yours
        ? "You asked to take back your last move: waiting for the others."
        : `${seatName(request.seat)} asks to take back their last move.`;
    } else if (!text && request) {
      text = `Last request to take back a move: ${request.status_words}.`;
    }
    document.getElementById("table-undo-note").textContent = text;
    buttons.ask.hidden = !state.can_ask;
    buttons.approve.hidden = buttons.refuse.hidden = !state.your_vote;
    buttons.withdraw.hidden = !state.yours;
  }

  async function refresh() {
    const [c, u] = await Promise.all([call(panel.dataset.clockUrl), call(panel.dataset.undoUrl)]);
    if (c.ok) { clock = c.data.clock; drawClock(); }
    if (u.ok) drawUndo(u.data);
  }

  for (const [decision, button] of Object.entries(buttons)) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const answer = await call(panel.dataset.undoUrl, { decision });
      button.disabled = false;
      if (answer.ok) drawUndo(answer.data);
      else {
        const errors = answer.data.errors || {};
        const reason = (errors.undo || errors.decision || [answer.data.detail || "That did not work."])[0];
        const u = await call(panel.dataset.undoUrl);
        if (u.ok) drawUndo(u.data, reason);
      }
    });
  }

  new MutationObserver(refresh).observe(root, { attributes: true, attributeFilter: ["data-version"] });
  ticking = setInterval(() => { if (clock && !document.hidden) drawClock(); }, 1000);
  window.addEventListener("pagehide", () => clearInterval(ticking));
  refresh();
})();
