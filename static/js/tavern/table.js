/* The tavern table page (templates/minigames/table.html): polls the seat's payload with the
 * table core's TableClient, sends moves, reloads on 409, shows the move log in words and the
 * final result with its breakdowns.
 *
 * The board is drawn by the game's renderer when its file is loaded
 * (static/js/tavern/<slug>.js registers window.TavernGames[slug] = {render(root, payload, api)},
 * with drawsResult: true when its board shows the final scoring itself, so the page's own result
 * box then keeps to the heading and the pot instead of saying it all twice)
 * and otherwise by the generic renderer below: the view as readable lists and every legal move
 * as a button labelled in words, so every game is playable. Moves are only ever taken from
 * payload.moves (the server's list); a refused move shows the server's reason.
 */
(function () {
  "use strict";

  const root = document.getElementById("tavern-table");
  if (!root) return;
  const board = document.getElementById("tavern-board");
  const movesBox = document.getElementById("tavern-moves");
  const statusBox = document.getElementById("tavern-status");
  const STALE = gettext("Someone else moved first: the table has been refreshed.");
  let staleNote = false; // set by a refused stale move, for the redraw that follows it
  const summaryBox = document.getElementById("tavern-summary");
  const logBox = document.getElementById("tavern-log");
  const logEmpty = document.getElementById("tavern-log-empty");
  const resultBox = document.getElementById("tavern-result");
  const game = root.dataset.game;
  let current = null;
  let logAfter = 0;
  /* The status the server drew the page in (seats and buttons are server-rendered). */
  const startedStatus = root.dataset.status || null;
  let advice = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /* Words for a key of the view ("cards_in_hand" -> "Cards in hand"). */
  function words(key) {
    const text = String(key).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /* Anything in the view as nested lists a person can read (no JSON, no braces). */
  function describe(value, depth) {
    if (value === null || value === undefined) return el("span", { class: "muted" }, "none");
    if (typeof value !== "object") return el("span", {}, typeof value === "boolean" ? (value ? "yes" : "no") : value);
    if (depth > 4) return el("span", { class: "muted" }, "…");
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { class: "muted" }, "none");
      if (value.every((v) => v === null || typeof v !== "object")) {
        return el("span", {}, value.map((v) => (v === null ? "none" : String(v))).join(", "));
      }
      const list = el("ol", { class: "tavern-view-list" });
      value.forEach((item) => { const li = el("li"); li.appendChild(describe(item, depth + 1)); list.appendChild(li); });
      return list;
    }
    if (typeof value.name === "string" && Object.keys(value).length <= 3 && typeof value.id === "string") {
      return el("span", {}, value.name);
    }
    const dl = el("dl", { class: "tavern-view-dl" });
    for (const [key, item] of Object.entries(value)) {
      if (key === "id" || key === "game") continue;
      dl.appendChild(el("dt", {}, words(key)));
      const dd = el("dd");
      dd.appendChild(describe(item, depth + 1));
      dl.appendChild(dd);
    }
    return dl;
  }

  function seatName(seat) {
    if (!current || seat === null || seat === undefined) return "";
    return current.names[seat] || interpolate(gettext("Seat %(number)s"), { number: Number(seat) + 1 }, true);
  }

  function fallbackButtons(moves) {
    movesBox.replaceChildren();
    if (!moves || !moves.length) return;
    movesBox.appendChild(el("h3", {}, gettext("Your moves")));
    const list = el("div", { class: "tavern-move-buttons" });
    moves.forEach((move, i) => {
      const button = el("button", { type: "button", class: "tavern-move", "data-move": String(i) }, move.label);
      button.addEventListener("click", () => api.play(move.action));
      list.appendChild(button);
    });
    movesBox.appendChild(list);
  }

  const genericRenderer = {
    render(target, payload) {
      target.replaceChildren();
      if (!payload.view) {
        target.appendChild(el("p", { class: "muted" }, gettext("The game starts when every seat is filled and the host starts it.")));
        return;
      }
      const waiting = payload.waiting_on.map(seatName).filter(Boolean);
      if (waiting.length && !payload.finished) {
        target.appendChild(el("p", { class: "tavern-waiting" }, interpolate(gettext("Waiting on: %(names)s."), { names: waiting.join(", ") }, true)));
      }
      const details = el("details", { class: "tavern-view", open: "" });
      details.appendChild(el("summary", {}, payload.seat === null || payload.public_view ? gettext("The table (public)") : gettext("The table as you see it")));
      details.appendChild(describe(payload.view, 0));
      target.appendChild(details);
      api.fallbackButtons(payload.moves);
    },
  };

  function renderer(payload) {
    // Before the game starts there is no view to draw (the lobby): every game says so in the
    // same words, rather than a game's table drawn from nothing.
    if (!payload.view) return genericRenderer;
    const games = window.TavernGames || {};
    return games[game] || genericRenderer;
  }

  /* The result box: the heading and where the pot went, and, unless the board drew the final
   * scoring itself (onBoard), the winners and the result's text, scores and breakdown. */
  function showResult(payload, onBoard) {
    if (!payload.finished || !payload.result) { resultBox.hidden = true; return; }
    const r = payload.result;
    resultBox.replaceChildren();
    // An abandoned table has no result: it says who abandoned it, and nobody "won".
    resultBox.appendChild(el("h3", {}, r.abandoned ? gettext("The table was abandoned") : gettext("The game is over")));
    if (r.text && !onBoard) resultBox.appendChild(el("p", { class: "tavern-result-text" }, r.text));
    // A board that draws the result names the winners in its own heading ("You win!"):
    // the box then keeps to the heading and the pot, so the winner is not told twice.
    if (Array.isArray(r.winners) && !r.abandoned && !onBoard) {
      const names = r.winners.map(seatName).filter(Boolean);
      resultBox.appendChild(el("p", {}, names.length ? interpolate(ngettext("Winner: %(names)s.", "Winners: %(names)s.", names.length), { names: names.join(", ") }, true) : gettext("Nobody won.")));
    }
    if (onBoard) {
      showPot(payload);
      resultBox.hidden = false;
      return;
    }
    if (Array.isArray(r.scores)) {
      const list = el("ul", { class: "tavern-scores" });
      r.scores.forEach((s, i) => {
        if (s && typeof s === "object") list.appendChild(el("li", {}, s.text || `${s.name || seatName(s.seat)}: ${Object.entries(s).filter(([k]) => !["seat", "name"].includes(k)).map(([k, v]) => `${words(k)} ${v}`).join(", ")}`));
        else list.appendChild(el("li", {}, `${seatName(i)}: ${s}`));
      });
      resultBox.appendChild(list);
    }
    if (Array.isArray(r.breakdown) && r.breakdown.length) {
      resultBox.appendChild(el("h4", {}, gettext("How it was scored")));
      const list = el("ul", { class: "tavern-breakdown" });
      r.breakdown.forEach((b) => {
        const points = typeof b.points === "number" && b.points ? " " + interpolate(ngettext("(%(count)s point)", "(%(count)s points)", Math.abs(b.points)), { count: b.points }, true) : "";
        const text = typeof b === "string" ? b : (b.text || "") + points;
        list.appendChild(el("li", {}, text));
      });
      resultBox.appendChild(list);
    }
    showPot(payload);
    resultBox.hidden = false;
  }

  function showPot(payload) {
    const table = payload.table || {};
    const paid = table.stakes && table.stakes.paid ? Object.entries(table.stakes.paid) : [];
    if (paid.length) {
      resultBox.appendChild(el("p", { class: "tavern-pot" }, interpolate(gettext("The pot: %(shares)s."), { shares: paid.map(([s, y]) => interpolate(gettext("%(yen)s yen to %(name)s"), { yen: y, name: seatName(Number(s)) }, true)).join(", ") }, true)));
    } else if (table.stakes && table.stakes.returned) {
      resultBox.appendChild(el("p", { class: "tavern-pot" }, gettext("The stakes were returned.")));
    }
  }

  async function loadLog() {
    const url = `${root.dataset.logUrl}?after=${logAfter}&limit=200`;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const data = await response.json();
      // Newest moves come in at the bottom of a box that scrolls: follow them, unless the
      // player has scrolled up to read an earlier move.
      const following = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
      const firstLoad = logAfter === 0 && !logBox.children.length;
      const heard = [];
      data.results.forEach((entry) => {
        logAfter = Math.max(logAfter, entry.n);
        entry.events.forEach((ev) => {
          if (!ev.text) return;
          logBox.appendChild(el("li", { "data-n": String(entry.n) }, ev.text));
          if (!firstLoad && (current === null || entry.seat !== current.seat)) heard.push(ev.text);
        });
      });
      // her turn came back, seen by a poll between the moves or only by others' moves in the
      // log (a bot that answers before the next poll): either way she is told it is hers
      if (yourMoveDue || (heard.length && wasMine)) heard.push(gettext("Your move."));
      yourMoveDue = false;
      if (heard.length) announce(heard);
      if (following) logBox.scrollTop = logBox.scrollHeight;
      if (logEmpty) logEmpty.hidden = logBox.children.length > 0;
      if (data.next_after !== null && data.next_after !== undefined) loadLog();
    } catch (err) { /* the next poll tries again */ }
  }

  /* The advisor's estimate beside every move button drawn (on the board, in a sheet or a card's
   * details, in "Your moves"): each renderer keys its buttons by data-move, the index into
   * payload.moves, and the advice comes in that order. Marked in place, never by drawing the
   * table again, which would close whatever the player has opened meanwhile. */
  function markAdvice() {
    if (!advice) return;
    for (const box of [board, movesBox]) {
      box.querySelectorAll("button[data-move]").forEach((button) => {
        const entry = advice[Number(button.dataset.move)];
        if (!entry || typeof entry.win_chance !== "number" || button.querySelector(".tavern-advice")) return;
        button.appendChild(el("small", { class: "tavern-advice" }, " " + interpolate(gettext("(%(percent)s% to win)"), { percent: Math.round(entry.win_chance * 100) }, true)));
      });
    }
  }

  /* The advisor's estimates for the version drawn. A worker searches (a second or so): until
   * it is done the API answers 202, and the page asks again, every second and then less often
   * (at most every 5 s), for as long as that version is the one drawn: a search lost with its
   * worker is asked for again by the server (minigames/advice.py), so it comes once a worker
   * is back, however long that takes. */
  async function loadAdvice(payload) {
    if (!root.dataset.advisor || !payload.moves.length) return;
    for (let attempt = 0; current === payload; attempt++) {
      try {
        const response = await fetch(root.dataset.adviceUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (response.status === 200) {
          const data = await response.json();
          if (current === payload && data.version === payload.version && data.advice.length === payload.moves.length) {
            advice = data.advice;
            markAdvice();
          }
          return;
        }
        if (response.status !== 202) return;
      } catch (err) { /* advice is optional: the next attempt, or none */ }
      await new Promise((done) => window.setTimeout(done, Math.min(5000, 1000 + 250 * attempt)));
    }
  }
  // Buttons drawn later for the same version (a sheet or a card's details opened) get it too.
  if (root.dataset.advisor && window.MutationObserver) {
    const watch = new MutationObserver(markAdvice);
    for (const box of [board, movesBox]) watch.observe(box, { childList: true, subtree: true });
  }

  /* The compact header's seats: which of them the table waits on ("to move"). */
  function markSeats(payload) {
    const waiting = payload.finished ? [] : payload.waiting_on || [];
    document.querySelectorAll("#tavern-seats .tavern-seat").forEach((seat) => {
      const on = waiting.includes(Number(seat.dataset.seat));
      seat.classList.toggle("tavern-seat--to-move", on);
      const flag = seat.querySelector(".tavern-seat-turn");
      if (flag) flag.hidden = !on;
    });
  }

  /* What a screen reader hears as the game goes (#tavern-announce, aria-live polite): the other
   * seats' newest log lines, and "Your move" when the table comes to wait on this seat. One
   * short message at a time, never the whole log again; the newest lines when many arrive at
   * once (a page that caught up after a while). */
  let announced = "";
  let wasMine = null;
  let yourMoveDue = false; // said after the lines of the move that made it so (loadLog)
  function announce(lines) {
    const box = document.getElementById("tavern-announce");
    if (!box) return;
    const text = lines.slice(-4).join(" ");
    // the same words twice in a row are not read again unless they change: add a space
    box.textContent = text === announced ? `${text} ` : text;
    announced = box.textContent;
  }
  function announceTurn(payload) {
    const mine = !payload.finished && payload.seat !== null && (payload.waiting_on || []).includes(payload.seat);
    if (wasMine !== null && mine && !wasMine) yourMoveDue = true;
    wasMine = mine;
  }

  /* A redraw replaces the board's buttons: a keyboard player's focus, on one of them, would
   * fall back to the page's start. Which one had it (its words and classes), to put it back on
   * the same place after the redraw, or else on the first place that holds a move. */
  const PLAYABLE = "button[data-move], button[data-moves], button[data-opens]";
  function focusBefore() {
    const active = document.activeElement;
    if (!active || !(board.contains(active) || movesBox.contains(active))) return null;
    if (!active.matches(":focus-visible")) return null; // a tap or a click: nothing to keep
    return `${active.className}|${active.textContent}`;
  }
  function focusAfter(before) {
    if (before === null) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const places = [...board.querySelectorAll("button"), ...movesBox.querySelectorAll("button")];
    const same = places.find((b) => `${b.className}|${b.textContent}` === before);
    const next = same || board.querySelector(PLAYABLE) || movesBox.querySelector(PLAYABLE);
    if (next) next.focus({ preventScroll: false });
  }

  function draw(payload) {
    summaryBox.textContent = payload.summary;
    markSeats(payload);
    announceTurn(payload);
    root.dataset.version = String(payload.version);
    const focus = focusBefore();
    movesBox.replaceChildren();
    let drawn = renderer(payload);
    try {
      drawn.render(board, payload, api);
    } catch (err) {
      statusBox.textContent = gettext("This table could not be drawn; here are your moves.");
      drawn = genericRenderer;
      genericRenderer.render(board, payload, api);
    }
    showResult(payload, Boolean(drawn.drawsResult));
    focusAfter(focus);
  }

  const api = {
    play(action) { return client.send(action); },
    fallbackButtons,
    seatName,
    you: null,
  };

  /* Resign and Abandon ask first: site.js closes their question ("Keep playing", Escape).
   * The table menu closes on Escape too (its question first, when open), the focus back on its
   * button, and when the focus or a tap leaves it. */
  const menu = document.getElementById("tavern-menu");
  if (menu) {
    menu.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !menu.open) return;
      // site.js closes an open question first (this listener runs before its, on the way down)
      if (menu.querySelector("details.ask-first[open]")) return;
      menu.open = false;
      menu.querySelector("summary").focus();
    }, true);
    document.addEventListener("click", (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  }

  // A lobby form being sent (Sit here, Start) navigates by itself: a reload now would lose it.
  let submitting = false;
  document.addEventListener("submit", () => { submitting = true; }, true);

  const client = new window.TableClient({
    stateUrl: root.dataset.stateUrl,
    actionUrl: root.dataset.actionUrl,
    pollMs: Number(root.dataset.pollMs) || 1000,
    socketPath: root.dataset.socketPath,
    onPresence: (people) => window.WRPush.showPresence(document.getElementById("tavern-presence"), people),
    onState(payload) {
      const status = payload.table ? payload.table.status : null;
      // In the lobby only a newer version means a change (a seat taken, the game started): a
      // second answer at the same version (two polls crossing on a slow server) is no reason
      // to reload, and reloading would reset the deck or character the player is choosing.
      // The first answer is compared with the version the page was drawn at: a seat taken
      // between the page and that answer is a change too.
      const seen = current !== null ? current.version : Number(root.dataset.drawnVersion ?? payload.version);
      const changed = payload.version > seen;
      if (status !== startedStatus || (status === "setup" && changed)) {
        if (!submitting) window.location.reload();
        return;
      }
      current = payload;
      advice = null; // the last version's, until loadAdvice brings this one's (before draw: the
      // observer would mark the new buttons with the old estimates)
      api.you = payload.seat;
      // A refused stale move reloads the table at once: its explanation outlives that redraw
      // (and is cleared by the next), or the player's tap seems to do nothing.
      statusBox.textContent = staleNote ? STALE : "";
      staleNote = false;
      draw(payload);
      loadLog();
      loadAdvice(payload);
    },
    onStale() {
      statusBox.textContent = STALE;
      staleNote = true;
    },
    onError(message) { statusBox.textContent = message; },
    onLive(text) { document.getElementById("tavern-live").textContent = text; },
  });
  client.start();
})();
