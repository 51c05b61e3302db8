/* The replay page (templates/tables/replay.html): a finished game (or one in play, as your seat
 * saw it) watched again step by step.
 *
 * Every step comes from the table core's replay/ endpoint (tables/replay.py): the engine's view
 * at that step for your seat, rebuilt from the log on the server. It is drawn by the game's own
 * renderer, read-only: a tavern game's window.TavernGames[game].render with no moves and an api
 * whose play refuses, a battle's window.BattleScreen.show (static/js/battle_screen.js in its
 * replay mode) with no legal actions. First, previous, next and last; the arrow keys (left and
 * right; Home and End); the move list jumps to a move; ?step=<n> in the address opens that step,
 * so the address is the link to share with the table's members.
 */
(function () {
  "use strict";

  const root = document.getElementById("replay");
  if (!root) return;
  const config = JSON.parse(document.getElementById("replay-config").textContent);
  const $ = (id) => document.getElementById(id);
  const list = $("replay-moves");
  const position = $("replay-position");
  const errorBox = $("replay-error");
  const buttons = {
    first: $("replay-first"), prev: $("replay-prev"), next: $("replay-next"), last: $("replay-last"),
  };
  let steps = null; // the number of moves, once known
  let shown = -1;
  let asking = 0; // the newest request: an older answer arriving late is dropped

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function seatName(seat) {
    const names = config.names || [];
    return names[seat] || interpolate(gettext("Seat %(number)s"), { number: Number(seat) + 1 }, true);
  }

  /* What the game's renderer is given: a tavern payload with no moves (minigames/payload.py's
   * shape), for the seat whose view it is. */
  function tavernPayload(data) {
    return {
      game: config.game,
      version: data.step,
      seat: data.seat,
      names: config.names || [],
      view: data.view,
      waiting_on: data.waiting_on,
      moves: [],
      summary: data.summary,
      finished: data.result !== null,
      result: data.result,
      table: {},
    };
  }

  const readOnly = {
    play() { return Promise.reject(new Error(gettext("This is a replay: no move can be made."))); },
    fallbackButtons() {},
    seatName,
    you: null,
  };

  function drawTavern(data) {
    const board = $("replay-board");
    const renderer = (window.TavernGames || {})[config.game];
    readOnly.you = data.seat;
    if (!renderer) {
      board.replaceChildren(el("p", { class: "muted" }, data.summary));
      return;
    }
    try {
      renderer.render(board, tavernPayload(data), readOnly);
    } catch (err) {
      board.replaceChildren(el("p", { class: "muted" }, interpolate(gettext("This step could not be drawn: %(summary)s"), { summary: data.summary }, true)));
    }
  }

  function drawBattle(data) {
    const view = Object.assign({}, data.view);
    view.you = Object.assign({}, view.you || {}, { legal_actions: [] });
    if (window.BattleScreen && window.BattleScreen.show) window.BattleScreen.show(view);
  }

  function drawResult(data) {
    const box = $("replay-result");
    if (!box) return;
    const r = data.result;
    box.hidden = !r;
    if (!r) { box.replaceChildren(); return; }
    const winners = Array.isArray(r.winners) ? r.winners.map((w) => (typeof w === "number" ? seatName(w) : String(w))) : [];
    box.replaceChildren(el("h3", {}, gettext("The game is over")));
    if (r.text) box.appendChild(el("p", {}, r.text));
    else if (winners.length) box.appendChild(el("p", {}, interpolate(ngettext("Winner: %(names)s.", "Winners: %(names)s.", winners.length), { names: winners.join(", ") }, true)));
  }

  function markList(step) {
    list.querySelectorAll("button[data-step]").forEach((button) => {
      const here = Number(button.dataset.step) === step;
      button.classList.toggle("replay-move-here", here);
      if (here) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
  }

  function showLink(step) {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    window.history.replaceState(null, "", url.toString());
    $("replay-link").value = url.toString();
  }

  function draw(data) {
    shown = data.step;
    steps = data.steps;
    root.dataset.step = String(data.step);
    position.textContent = data.step === 0
      ? interpolate(ngettext("The start (%(count)s move in all)", "The start (%(count)s moves in all)", data.steps), { count: data.steps }, true)
      : interpolate(gettext("Move %(step)s of %(steps)s"), { step: data.step, steps: data.steps }, true);
    $("replay-move").textContent = data.move ? data.move.words : gettext("The position the game started from.");
    $("replay-summary").textContent = data.summary;
    buttons.first.disabled = buttons.prev.disabled = data.step === 0;
    buttons.next.disabled = buttons.last.disabled = data.step === data.steps;
    errorBox.textContent = "";
    if (config.kind === "battle") drawBattle(data);
    else drawTavern(data);
    drawResult(data);
    markList(data.step);
    showLink(data.step);
  }

  async function ask(query) {
    const response = await fetch(`${root.dataset.api}?${new URLSearchParams(query)}`, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const errors = data && data.errors ? Object.values(data.errors).flat() : [];
      throw new Error(errors[0] || (data && data.detail) || gettext("The replay could not be loaded."));
    }
    return data;
  }

  async function go(step) {
    if (steps !== null) step = Math.max(0, Math.min(steps, step));
    const mine = ++asking;
    try {
      const data = await ask(step === null ? { limit: 1 } : { step, limit: 1 });
      if (mine === asking) draw(data);
    } catch (err) {
      if (mine !== asking) return;
      errorBox.textContent = err.message;
      // a link to a step this replay does not have opens at the end, with the reason above
      if (steps === null && step !== null) {
        const message = err.message;
        await go(null);
        errorBox.textContent = message;
      }
    }
  }

  /* The whole move list, a page at a time (the server bounds each page). */
  async function loadMoves() {
    let after = 0;
    for (;;) {
      const data = await ask({ step: 0, moves_after: after, limit: 500 });
      data.moves.forEach((move) => {
        const item = el("li");
        const button = el("button", { type: "button", class: "secondary replay-jump", "data-step": String(move.n) }, `${move.n}. ${move.words}`);
        button.addEventListener("click", () => go(move.n));
        item.appendChild(button);
        list.appendChild(item);
      });
      if (data.next_after === null || data.next_after === undefined) break;
      after = data.next_after;
    }
    if (!list.children.length) list.appendChild(el("li", { class: "muted" }, gettext("No moves were made.")));
    markList(shown);
  }

  buttons.first.addEventListener("click", () => go(0));
  buttons.prev.addEventListener("click", () => go(shown - 1));
  buttons.next.addEventListener("click", () => go(shown + 1));
  buttons.last.addEventListener("click", () => go(steps === null ? null : steps));
  $("replay-copy").addEventListener("click", async () => {
    const link = $("replay-link");
    try {
      await navigator.clipboard.writeText(link.value);
      $("replay-copied").textContent = gettext("Link copied.");
    } catch (err) {
      link.select();
      $("replay-copied").textContent = gettext("Select the link and copy it.");
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // typing in a field, or the battle board's own square cursor, keeps its arrow keys
    if (target && target.closest && (target.closest("input, textarea, select, [contenteditable]") || target.closest("#board"))) return;
    const moves = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: steps };
    if (!(event.key in moves) || moves[event.key] === null || shown < 0) return;
    event.preventDefault();
    go(moves[event.key]);
  });

  const asked = new URLSearchParams(window.location.search).get("step");
  const first = asked !== null && /^[0-9]+$/.test(asked) ? Number(asked) : null;
  go(first).then(loadMoves).catch(() => {});
})();
