/* The in-page half of harness.py: a stub `api` and the checks run on every payload. */
"use strict";
window.__plays = [];
window.__fallback = [];
window.__fallbackCalls = 0;
function makeApi(payload) {
  return {
    you: payload.seat,
    play(action) { window.__plays.push(JSON.parse(JSON.stringify(action))); return Promise.resolve(); },
    fallbackButtons(moves) {
      window.__fallbackCalls += 1;
      window.__fallback = moves.slice();
      const box = document.getElementById("fallback");
      box.replaceChildren();
      for (const m of moves) { const b = document.createElement("button"); b.textContent = m.label; box.append(b); }
    },
    seatName(seat) { return payload.names[seat]; },
  };
}
window.__render = function (slug, payload) {
  const old = document.getElementById("board");
  const root = document.createElement("div");
  root.className = "tavern-board";
  root.id = "board";
  old.replaceWith(root);
  window.__plays = [];
  window.__fallback = [];
  window.__fallbackCalls = 0;
  window.TavernGames[slug].render(root, payload, makeApi(payload));
  return root;
};
function canon(value) {
  if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canon(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}
/* Hidden ids found anywhere in the page's markup (text, attributes, option values). */
window.__hiddenIn = function (hidden) {
  const html = document.body.innerHTML;
  return hidden.filter((id) => new RegExp(id.replace(/[-]/g, "\\-") + "(?!\\d)").test(html));
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
window.__check = async function (slug, payload, hidden) {
  const problems = [];
  let root = window.__render(slug, payload);
  if (window.__fallbackCalls !== 1) problems.push("fallbackButtons called " + window.__fallbackCalls + " times");
  const text = root.innerText;
  for (const id of window.__hiddenIn(hidden)) problems.push("hidden id in the DOM: " + id);
  const bad = text.match(/\b[a-z]+_[a-z_]+\b|undefined|\bnull\b|NaN|\[object|[{}]/);
  if (bad) problems.push("identifier or code in the visible text: " + bad[0]);
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push("horizontal overflow: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
  }
  if (document.querySelector("[title]")) problems.push("a title attribute (hover-only words)");
  const clickable = root.querySelectorAll("[data-move], [data-moves]");
  if (!payload.moves.length && clickable.length) problems.push("a move is offered to a seat with none");
  for (const node of clickable) {
    const ids = (node.dataset.move || node.dataset.moves).split(" ").map(Number);
    if (ids.some((i) => !(i >= 0 && i < payload.moves.length))) problems.push("a button for a move not in payload.moves");
  }
  for (const button of root.querySelectorAll("button")) {
    if (!button.textContent.trim() && !button.getAttribute("aria-label")) problems.push("a button without words");
  }
  const fallback = new Set(window.__fallback.map((m) => canon(m.action)));
  const counts = { placed: 0, fallback: 0 };
  for (let i = 0; i < payload.moves.length; i++) {
    const want = canon(payload.moves[i].action);
    if (fallback.has(want)) { counts.fallback += 1; continue; }
    root = window.__render(slug, payload);
    let button = root.querySelector('[data-move="' + i + '"]');
    if (!button) {
      const action = payload.moves[i].action;
      const chooser = root.querySelector('[data-chooser]');
      if (chooser && root.querySelector('[data-chooses~="' + action.type + '"]')) {
        for (const select of root.querySelectorAll("select[data-field]")) {
          const value = action[select.dataset.field];
          select.value = value === null || value === undefined ? "" : String(value);
          select.dispatchEvent(new Event("change"));
        }
        button = root.querySelector('[data-move="' + i + '"]');
      }
    }
    if (!button) {
      const anchor = root.querySelector('[data-moves~="' + i + '"]');
      if (anchor) { anchor.click(); button = root.querySelector('[data-move="' + i + '"]'); }
    }
    if (!button) { problems.push("move not reachable: " + payload.moves[i].label); continue; }
    if (!button.textContent.includes(payload.moves[i].label)) problems.push("button words differ from the move's label: " + payload.moves[i].label);
    window.__plays = [];
    button.click();
    await tick();
    if (window.__plays.length !== 1 || canon(window.__plays[0]) !== want) {
      problems.push("clicking '" + payload.moves[i].label + "' played " + JSON.stringify(window.__plays));
    }
    counts.placed += 1;
  }
  window.__render(slug, payload);
  return { problems, counts };
};
