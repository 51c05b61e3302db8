// The battle screen: a live board for the GM and the players (campaign/battles).
// Everything shown comes from the view API (engine.view for this user). Every second the page
// asks for changes since the version it has (204: nothing new); a change re-renders the grid,
// the HP/SP bars, statuses, the hand, the turn tracker with its timer, and the log.
// Actions POST {action, expected_version}: 409 means someone moved first (the page refetches),
// 400 carries the rules' reason. The GM's extra panel lives in battle_gm.js and plugs in via
// window.BattleScreen.
(function () {
  "use strict";
  const root = document.getElementById("battle");
  const configNode = document.getElementById("battle-config");
  if (!root || !configNode) return;
  const config = JSON.parse(configNode.textContent);

  const S = {
    view: null,
    version: -1,
    log: [],
    mode: null, // {kind, option, chosen, onSquare}
    hover: null,
    selected: null, // a combatant id the user clicked
    busy: false,
    renderHooks: [],
    cells: [],
    size: "",
  };

  // ------------------------------------------------------------------ helpers
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.entries(v).forEach(([dk, dv]) => { node.dataset[dk] = dv; });
      else node.setAttribute(k, v === true ? "" : v);
    });
    children.flat().forEach((c) => {
      if (c === null || c === undefined || c === false) return;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    });
    return node;
  }
  const key = (x, y) => `${x},${y}`;
  const sameSquare = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const dist = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
  function combatant(id) { return (S.view && S.view.combatants[id]) || null; }
  function nameOf(id) { const c = combatant(id); return c ? c.name : String(id); }
  function playerName(p) { return (config.members && config.members[p]) || (p === "gm" ? "the GM" : `player ${p}`); }
  function initials(name) {
    const parts = name.replace(/[^\p{L}\p{N} ]/gu, "").split(/\s+/).filter(Boolean);
    const text = parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] || "?").slice(0, 2);
    return text.toUpperCase();
  }
  function setStatus(text, kind) {
    const node = $("battle-status");
    node.textContent = text || "";
    node.className = "battle-status" + (kind ? " " + kind : "");
  }

  // ------------------------------------------------------------------ server
  // Polling, sending and the reload on 409 are the table core's one client
  // (static/js/table_client.js); the battle only says how to draw what comes back.
  function accept(view, full) {
    if (!view) return;
    if (!full && view.version < S.version) return; // a slow poll answered after a newer move
    if (full) S.log = [];
    const last = S.log.length ? S.log[S.log.length - 1].n : 0;
    view.log.forEach((entry) => { if (entry.n > last) S.log.push(entry); });
    if (S.log.length > 300) S.log = S.log.slice(-300);
    S.view = view;
    S.version = view.version;
    client.version = view.version;
    if (S.mode && !modeStillLegal()) S.mode = null;
    render();
  }

  let said = "";
  const client = new window.TableClient({
    stateUrl: config.urls.view,
    actionUrl: config.urls.actions,
    version: S.version,
    pollMs: config.poll_ms || 1000,
    onState: (view, full) => accept(view, full),
    onWritten: (data) => {
      S.mode = null;
      accept(data.view, false);
      setStatus(said || "", "ok");
    },
    onStale: () => {
      S.mode = null;
      setStatus("Someone else moved first: the board has been refreshed.", "bad");
    },
    onError: (message) => setStatus(message, "bad"),
    onLive: (text) => { $("live-status").textContent = text; },
  });

  function refresh(full) { return client.poll(full); }

  // Send a write (an action, or a GM setup change): the answer carries the new view.
  async function send(method, url, body, what) {
    if (S.busy) return false;
    S.busy = true;
    said = what || "";
    root.dataset.busy = "1";
    try {
      return await client.write(method, url, body);
    } finally {
      S.busy = false;
      root.dataset.busy = "0";
    }
  }

  function act(action, what) {
    return send("POST", config.urls.actions, { action, expected_version: S.version }, what);
  }

  // ------------------------------------------------------------------ modes
  function legal() { return (S.view && S.view.you.legal_actions) || []; }
  function modeStillLegal() {
    if (!S.mode || !S.mode.option) return true;
    const wanted = JSON.stringify([S.mode.option.type, S.mode.option.combatant, S.mode.option.card || S.mode.option.attack || S.mode.option.ability || S.mode.option.free]);
    return legal().some((o) => JSON.stringify([o.type, o.combatant, o.card || o.attack || o.ability || o.free]) === wanted);
  }
  function setMode(mode) {
    S.mode = mode;
    render();
  }
  function cancelMode() {
    if (S.mode && S.mode.cancel) S.mode.cancel();
    setMode(null);
  }

  function highlights() {
    // squares → class names for the current mode and hover (range and AOE previews)
    const marks = new Map();
    const add = (sq, cls) => {
      const k = key(sq[0], sq[1]);
      if (!marks.has(k)) marks.set(k, new Set());
      marks.get(k).add(cls);
    };
    const m = S.mode;
    if (!m || !S.view) return marks;
    if (m.kind === "move") m.option.reach.forEach((r) => add(r.square, "reach"));
    if (m.kind === "attack") {
      const me = combatant(m.option.combatant);
      if (me && me.position && m.option.range !== null && m.option.range !== undefined) {
        const { width, height } = S.view.arena;
        for (let x = 0; x < width; x++) for (let y = 0; y < height; y++) {
          if (dist([x, y], me.position) <= m.option.range) add([x, y], "in-range");
        }
      }
      m.option.targets.forEach((t) => { const c = combatant(t); if (c && c.position) add(c.position, "target"); });
    }
    if (m.kind === "card" || m.kind === "ability") {
      (m.option.target_squares || []).forEach((sq) => add(sq, "in-range"));
      (m.chosen || []).forEach((sq) => {
        add(sq, "chosen");
        (m.option.area || [[0, 0]]).forEach(([dx, dy]) => add([sq[0] + dx, sq[1] + dy], "aoe"));
      });
      if (S.hover && (m.option.target_squares || []).some((sq) => sameSquare(sq, S.hover))) {
        (m.option.area || [[0, 0]]).forEach(([dx, dy]) => add([S.hover[0] + dx, S.hover[1] + dy], "aoe"));
      }
    }
    if (m.highlight) m.highlight(add);
    return marks;
  }

  function squareClicked(x, y) {
    const m = S.mode;
    const sq = [x, y];
    if (m && m.onSquare) { m.onSquare(sq); return; }
    if (m && m.kind === "move") {
      if (m.option.reach.some((r) => sameSquare(r.square, sq))) {
        act({ type: "move", combatant: m.option.combatant, to: sq, free: m.option.free }, `${nameOf(m.option.combatant)} moved.`);
      }
      return;
    }
    const standing = pieceAt(sq);
    if (m && m.kind === "attack") {
      if (standing && m.option.targets.includes(standing)) attack(m.option, standing);
      return;
    }
    if (m && (m.kind === "card" || m.kind === "ability")) {
      if (!(m.option.target_squares || []).some((t) => sameSquare(t, sq))) return;
      if (m.kind === "ability") {
        act({ type: "use_ability", combatant: m.option.combatant, ability: m.option.ability, target: sq }, `${m.option.name}.`);
        return;
      }
      m.chosen = (m.chosen || []).filter((t) => !sameSquare(t, sq)).concat([sq]);
      if (m.chosen.length >= (m.option.targeting.count || 1)) cast(m.option, m.chosen);
      else render();
      return;
    }
    S.selected = standing || null;
    render();
  }

  function pieceAt(sq) {
    if (!S.view) return null;
    const found = Object.values(S.view.combatants)
      .filter((c) => c.position && sameSquare(c.position, sq))
      .sort((a, b) => (a.condition === "healthy" || a.condition === "mortally_wounded" ? -1 : 1));
    return found.length ? found[0].id : null;
  }

  function attack(option, target) {
    const goddess = $("goddess-toggle") && $("goddess-toggle").checked;
    act({ type: "attack", combatant: option.combatant, attack: option.attack, target, free: option.free, goddess: Boolean(goddess) },
      `${nameOf(option.combatant)} attacks ${nameOf(target)}.`);
  }
  function cast(option, targets) {
    const action = { type: "use_spellcard", combatant: option.combatant, card: option.card, targets };
    if (option.amount) {
      const input = $("card-amount");
      action.amount = parseInt(input ? input.value : option.amount.min, 10);
    }
    act(action, `${nameOf(option.combatant)} uses ${option.name}.`);
  }

  // ------------------------------------------------------------------ rendering: board
  function buildBoard(arena) {
    const board = $("board");
    board.innerHTML = "";
    board.style.setProperty("--cols", arena.width);
    S.cells = [];
    for (let y = 0; y < arena.height; y++) {
      for (let x = 0; x < arena.width; x++) {
        const cell = el("button", {
          type: "button",
          class: "sq",
          dataset: { x: String(x), y: String(y) },
          "aria-label": `square ${x}, ${y}`,
          onclick: () => squareClicked(x, y),
          onmouseenter: () => { S.hover = [x, y]; if (S.mode) paintBoard(); showHover(x, y); },
        });
        board.append(cell);
        S.cells.push(cell);
      }
    }
    board.onmouseleave = () => { S.hover = null; if (S.mode) paintBoard(); };
    S.size = `${arena.width}x${arena.height}`;
  }

  function showHover(x, y) {
    const id = pieceAt([x, y]);
    const c = id && combatant(id);
    $("hover-info").textContent = c
      ? `${c.name} (${c.side}) at ${x}, ${y}: HP ${c.hp}/${c.hp_max}, SP ${c.spell_power}, ${c.condition.replace("_", " ")}`
      : `Square ${x}, ${y}`;
  }

  function bar(kind, value, max) {
    const pct = max > 0 ? Math.max(0, Math.min(100, (100 * value) / max)) : 0;
    return el("span", { class: `bar ${kind}`, title: `${kind.toUpperCase()} ${value}/${max}` },
      el("span", { class: "fill", style: `width:${pct}%` }));
  }

  const STATUS_SIGNS = {
    stun: "★", blind: "◌", fear: "!", knockdown: "↓", knockback: "→", freeze: "❄", insanity: "?",
    berserk: "✷", taunted: "⚑", unconscious: "z", drunk: "♨", shield: "⛨", buff: "+",
  };
  function statusBadges(c) {
    return c.effects.map((e) => el("span", {
      class: `status s-${e.kind}`, title: e.label || e.kind, dataset: { status: e.kind },
    }, STATUS_SIGNS[e.kind] || (e.kind || "?").slice(0, 2)));
  }

  function pieceNode(c) {
    const classes = ["piece", `side-${sideIndex(c.side)}`, `cond-${c.condition}`];
    if (S.view.turn.current === c.id) classes.push("current");
    if (S.selected === c.id) classes.push("selected");
    if (S.view.you.player !== "gm" && S.view.you.controls.includes(c.id)) classes.push("mine");
    return el("span", {
      class: classes.join(" "),
      dataset: { combatant: c.id, side: c.side },
      title: `${c.name} · ${c.side} · HP ${c.hp}/${c.hp_max} · SP ${c.spell_power}`,
    },
    el("span", { class: "token" }, initials(c.name)),
    bar("hp", c.hp, c.hp_max),
    bar("sp", c.spell_power, Math.max(c.spell_power, 100)),
    el("span", { class: "statuses" }, statusBadges(c)));
  }

  const sides = [];
  function sideIndex(side) {
    if (!sides.includes(side)) sides.push(side);
    return sides.indexOf(side) % 4;
  }

  function paintBoard() {
    const v = S.view;
    const marks = highlights();
    const blocked = new Set(v.arena.blocked.map(([x, y]) => key(x, y)));
    const difficult = new Set(v.arena.difficult.map(([x, y]) => key(x, y)));
    const drops = new Set(v.drops.map((d) => key(d.square[0], d.square[1])));
    const fields = new Set();
    v.field_effects.forEach((f) => (f.squares || []).forEach(([x, y]) => fields.add(key(x, y))));
    S.cells.forEach((cell) => {
      const x = +cell.dataset.x;
      const y = +cell.dataset.y;
      const k = key(x, y);
      const cls = ["sq"];
      if (blocked.has(k)) cls.push("blocked");
      if (difficult.has(k)) cls.push("difficult");
      if (drops.has(k)) cls.push("drop");
      if (fields.has(k)) cls.push("field");
      (marks.get(k) || []).forEach((c) => cls.push(c));
      const name = cls.join(" ");
      if (cell.className !== name) cell.className = name;
    });
  }

  function renderBoard() {
    const v = S.view;
    if (S.size !== `${v.arena.width}x${v.arena.height}`) buildBoard(v.arena);
    S.cells.forEach((cell) => { if (cell.firstChild) cell.replaceChildren(); });
    const width = v.arena.width;
    Object.values(v.combatants).forEach((c) => {
      if (!c.position) return;
      const cell = S.cells[c.position[1] * width + c.position[0]];
      if (!cell) return;
      // the standing one on top: fallen pieces lie underneath
      if (c.condition === "healthy" || c.condition === "mortally_wounded") cell.prepend(pieceNode(c));
      else cell.append(pieceNode(c));
    });
    paintBoard();
  }

  // ------------------------------------------------------------------ rendering: panels
  function fmtTime(seconds) {
    const m = Math.floor(seconds / 60);
    const s = Math.floor(seconds % 60);
    return `${m}:${String(s).padStart(2, "0")}`;
  }
  function tick() {
    const node = $("turn-timer");
    const started = S.view && S.view.phase === "active" && S.view.turn.started_at;
    if (!started) { node.textContent = ""; return; }
    const seconds = Math.max(0, (Date.now() - Date.parse(started)) / 1000);
    node.textContent = `turn time ${fmtTime(seconds)}`;
  }

  function renderHead() {
    const v = S.view;
    const current = v.turn.current;
    const phase = { setup: "Setting up", active: "In progress", ended: "Ended" }[v.phase];
    $("phase-label").textContent = phase;
    $("round-label").textContent = v.phase === "active" ? `Round ${v.turn.round}` : "";
    let turn = "";
    if (v.phase === "ended") turn = v.winner ? `${v.winner} won.` : "The battle is over.";
    else if (v.pending) turn = `Waiting for ${v.pending.waiting_for.map(nameOf).join(", ")} to react.`;
    else if (current) {
      const c = combatant(current);
      turn = `${c.name}'s turn (${playerName(c.controller)})`;
    } else if (v.phase === "setup") turn = config.is_gm ? "Place the pieces, then start." : "The GM is setting up the arena.";
    $("turn-label").textContent = turn;
    const mine = legal().length > 0 && v.phase !== "setup";
    root.dataset.version = String(v.version);
    root.dataset.phase = v.phase;
    root.dataset.myTurn = mine ? "1" : "0";
    root.dataset.current = current || "";
    root.dataset.currentSide = current ? combatant(current).side : "";
    root.dataset.pending = v.pending ? "1" : "0";
    root.dataset.waiting = v.pending ? v.pending.waiting_for.join(",") : "";
    root.dataset.winner = v.winner || "";
    root.classList.toggle("my-turn", mine);
    tick();
  }

  function renderTracker() {
    const v = S.view;
    const list = $("tracker");
    list.innerHTML = "";
    const ids = v.turn.order.length ? v.turn.order.slice() : [];
    Object.keys(v.combatants).forEach((id) => { if (!ids.includes(id)) ids.push(id); });
    ids.forEach((id) => {
      const c = combatant(id);
      if (!c) return;
      const li = el("li", {
        class: ["tracker-row", id === v.turn.current ? "current" : "", v.turn.acted_this_round.includes(id) ? "acted" : "", `cond-${c.condition}`].join(" "),
        dataset: { combatant: id },
        onclick: () => { S.selected = id; render(); },
      },
      el("span", { class: `dot side-${sideIndex(c.side)}` }),
      el("strong", {}, c.name),
      el("small", { class: "muted" }, ` ${c.side} · ${playerName(c.controller)}${c.position ? "" : " · off the board"}`),
      el("span", { class: "tracker-bars" },
        el("span", { class: "num" }, `HP ${c.hp}/${c.hp_max}`), bar("hp", c.hp, c.hp_max),
        el("span", { class: "num" }, `SP ${c.spell_power}`), bar("sp", c.spell_power, Math.max(c.spell_power, 100))),
      el("span", { class: "statuses" }, statusBadges(c),
        c.condition !== "healthy" ? el("span", { class: "condition" }, c.condition.replace("_", " ")) : null),
      el("small", { class: "muted cards-count" }, `hand ${c.hand_count} · pile ${c.draw_pile_count}`));
      list.append(li);
    });
  }

  function cardText(card) {
    if (!card) return "";
    const bits = [card.type];
    if (card.attack_power) bits.push(`${card.attack_power.dice}d${card.attack_power.modifier ? "+" + card.attack_power.modifier : ""}`);
    if (card.targets) bits.push(`targets: ${card.targets}`);
    if (card.aoe) bits.push(`AOE ${card.aoe}`);
    if (card.duration && card.duration !== "instantaneous") bits.push(card.duration.replaceAll("_", " "));
    if (card.bomb) bits.push("bomb");
    if (card.element) bits.push(card.element);
    return bits.join(" · ");
  }

  function renderHand() {
    const box = $("hand");
    box.innerHTML = "";
    const mine = S.view.you.controls.map(combatant).filter((c) => c && c.hand && c.hand.length);
    if (!mine.length) { box.append(el("p", { class: "muted" }, "No cards in hand.")); return; }
    mine.forEach((c) => {
      if (mine.length > 1 || config.is_gm) box.append(el("h3", {}, c.name));
      const counts = {};
      c.hand.forEach((id) => { counts[id] = (counts[id] || 0) + 1; });
      const ul = el("ul", { class: "hand" });
      Object.entries(counts).forEach(([id, n]) => {
        const card = c.cards[id] || {};
        const option = legal().find((o) => o.type === "use_spellcard" && o.combatant === c.id && o.card === id);
        ul.append(el("li", { class: "card-in-hand" + (option ? " castable" : ""), dataset: { card: id } },
          el("strong", {}, card.name || id), n > 1 ? ` ×${n}` : "",
          el("small", { class: "muted" }, " " + cardText(card)),
          option ? el("button", {
            type: "button", class: "small", dataset: { cast: id },
            onclick: () => chooseCard(option),
          }, `Use (${option.cost} SP)`) : null));
      });
      box.append(ul);
    });
  }

  function chooseCard(option) {
    if (!option.targeting.count) { cast(option, []); return; }
    setMode({ kind: "card", option, chosen: [] });
  }

  const REACTIONS = {
    take: "Take it", bomb: "Bomb", body_shield: "Body-shield", pass: "Pass", lucky: "Lucky re-roll",
    graze: "Graze", no_graze: "Don't graze", accept: "Accept",
  };

  function renderPending() {
    const v = S.view;
    const panel = $("pending-panel");
    if (!v.pending) { panel.hidden = true; return; }
    panel.hidden = false;
    const p = v.pending;
    $("pending-text").textContent =
      `${nameOf(p.attacker)} → ${nameOf(p.defender)}: ${p.name}` +
      (p.damage !== null && p.damage !== undefined ? ` (${p.damage} damage)` : "") +
      `. Waiting for ${p.waiting_for.map(nameOf).join(", ")}.`;
    const box = $("pending-choices");
    box.innerHTML = "";
    legal().filter((o) => o.type === "react").forEach((o) => {
      const c = combatant(o.combatant);
      const cardName = o.card && c && c.cards[o.card] ? ` ${c.cards[o.card].name}` : "";
      box.append(el("button", {
        type: "button", class: o.choice === "take" || o.choice === "no_graze" ? "secondary" : "",
        dataset: { choice: o.choice, combatant: o.combatant },
        onclick: () => act({ type: "react", combatant: o.combatant, hit: o.hit, choice: o.choice, card: o.card || null },
          `${nameOf(o.combatant)}: ${REACTIONS[o.choice] || o.choice}.`),
      }, `${REACTIONS[o.choice] || o.choice}${cardName}${o.cost ? ` (${o.cost} SP)` : ""}`));
    });
  }

  function button(label, onclick, data) {
    return el("button", { type: "button", dataset: data || {}, onclick }, label);
  }

  function renderActions() {
    const box = $("actions");
    box.innerHTML = "";
    const options = legal().filter((o) => o.type !== "react");
    const v = S.view;
    if (v.phase === "setup" && !options.length) {
      box.append(el("p", { class: "muted" }, config.is_gm ? "Place the pieces in the GM panel." : "The GM is setting up the arena."));
      return;
    }
    if (!options.length) {
      box.append(el("p", { class: "muted", id: "waiting-note" }, v.phase === "ended" ? "The battle is over." : "Not your move: waiting for the others."));
      return;
    }
    const m = S.mode;
    if (m && m.kind === "gm") {
      box.append(el("p", { class: "mode-help" }, "Click a square on the board (Esc cancels)."),
        button("Cancel", cancelMode, { cancel: "1" }));
    } else if (m) {
      const help = {
        move: "Click a highlighted square to move there.",
        attack: "Click a target on the board or below.",
        card: `Pick ${m.option && m.option.targeting ? m.option.targeting.count : 1} target square(s); the shaded area is what the card covers.`,
        ability: "Click a target square.",
      }[m.kind] || "";
      box.append(el("p", { class: "mode-help" }, help));
      if (m.kind === "attack") {
        const list = el("div", { class: "target-list" });
        const mine = combatant(m.option.combatant);
        m.option.targets.forEach((t) => {
          const c = combatant(t);
          list.append(button(`${c.name}${mine && c.side === mine.side ? " (ally)" : ""}`, () => attack(m.option, t),
            { target: t, side: c.side }));
        });
        box.append(list);
        if ((m.option.goddess || []).includes(true)) {
          box.append(el("label", { class: "inline-check" }, el("input", { type: "checkbox", id: "goddess-toggle" }), " goddess element"));
        }
      }
      if (m.kind === "card" && m.option.amount) {
        box.append(el("label", {}, "Amount ", el("input", {
          type: "number", id: "card-amount", min: m.option.amount.min, max: m.option.amount.max, value: m.option.amount.min,
        })));
      }
      box.append(button("Cancel", cancelMode, { cancel: "1" }));
      return;
    }
    const groups = {};
    options.forEach((o) => { const k = o.combatant || ""; (groups[k] = groups[k] || []).push(o); });
    Object.entries(groups).forEach(([cid, opts]) => {
      const c = cid ? combatant(cid) : null;
      const group = el("div", { class: "action-group", dataset: { combatant: cid } });
      if (c) group.append(el("h3", {}, c.name, el("small", { class: "muted" }, ` · ${c.actions_left} action${c.actions_left === 1 ? "" : "s"} left`)));
      opts.forEach((o) => {
        if (o.type === "start") group.append(button("Start the battle", () => act({ type: "start" }, "The battle has begun."), { action: "start" }));
        else if (o.type === "move") group.append(button(o.free ? "Free move" : "Move", () => setMode({ kind: "move", option: o }), { action: "move", free: o.free ? "1" : "0" }));
        else if (o.type === "attack") group.append(button(`${o.free ? "Quick Strike: " : "Attack: "}${o.name}`, () => setMode({ kind: "attack", option: o }), { action: "attack", attack: o.attack }));
        else if (o.type === "use_spellcard") group.append(button(`Card: ${o.name} (${o.cost} SP)`, () => chooseCard(o), { action: "use_spellcard", card: o.card }));
        else if (o.type === "use_ability") {
          group.append(button(`Ability: ${o.name}`, () => {
            if (o.target_squares) setMode({ kind: "ability", option: o, chosen: [] });
            else act({ type: "use_ability", combatant: o.combatant, ability: o.ability, target: null }, `${o.name}.`);
          }, { action: "use_ability", ability: o.ability }));
        } else if (o.type === "collect_power") group.append(button(`Collect ${o.amount} power`, () => act({ type: "collect_power", combatant: o.combatant, drop: o.drop }, "Power collected."), { action: "collect_power" }));
        else if (o.type === "recover_weapons") group.append(button("Recover thrown weapons", () => act({ type: "recover_weapons", combatant: o.combatant }, "Weapons searched for."), { action: "recover_weapons" }));
        else {
          const labels = { do_nothing: "Do nothing", concentrate: "Concentrate", end_turn: "End turn" };
          group.append(button(labels[o.type] || o.type, () => act({ type: o.type, combatant: o.combatant }, `${nameOf(o.combatant)}: ${labels[o.type] || o.type}.`), { action: o.type }));
        }
      });
      box.append(group);
    });
  }

  function renderSelected() {
    const box = $("selected");
    const c = S.selected && combatant(S.selected);
    if (!c) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = "";
    box.append(el("h3", {}, c.name), el("p", { class: "muted" },
      `${c.kind} · ${c.side} · played by ${playerName(c.controller)} · speed ${c.speed} · range ${c.range}` +
      (c.element ? ` · ${c.element}` : "") + ` · ${c.drunkenness}`),
    el("p", {}, `HP ${c.hp}/${c.hp_max} · SP ${c.spell_power} · meter ${c.meter}/5 · ${c.condition.replace("_", " ")}`));
    if (c.effects.length) box.append(el("ul", { class: "compact" }, c.effects.map((e) => el("li", {}, e.label || e.kind))));
    if (c.discard.length) box.append(el("p", { class: "muted" }, "Used cards: " + c.discard.map((id) => (c.cards[id] || {}).name || id).join(", ")));
  }

  // ------------------------------------------------------------------ the log
  function describeEvent(e) {
    const n = nameOf;
    const r = e.result || {};
    switch (e.type) {
      case "battle_started": return "The battle begins.";
      case "round_started": return `Round ${e.round}.`;
      case "turn_order": return `Turn order: ${e.order.map(n).join(", ")}.`;
      case "turn_started": return `${n(e.combatant)}'s turn.`;
      case "turn_ended": return null;
      case "turn_lost": return `${n(e.combatant)} loses the turn (${e.reason}).`;
      case "moved": return e.to ? `${n(e.combatant)} moves to ${e.to.join(", ")}.` : `${n(e.combatant)} leaves the board.`;
      case "attack": return `${n(e.attacker)} attacks ${n(e.defender)} (${e.name}).`;
      case "roll": return `${n(e.combatant)} rolls ${e.purpose}: ${r.total}${r.target !== null && r.target !== undefined ? ` vs ${r.target}` : ""}${r.success === true ? " ✓" : r.success === false ? " ✗" : ""}${r.critical ? ` (${r.critical})` : ""}.`;
      case "versus": return `Versus (${e.purpose}).`;
      case "damage_roll": return `${n(e.combatant)} rolls damage: ${(e.roll && e.roll.total) ?? "?"}.`;
      case "die": return `${n(e.combatant)} rolls a d${e.sides} (${e.purpose}): ${e.value}.`;
      case "hit": return `${n(e.defender)} is hit by ${e.name}: ${e.damage} damage.`;
      case "damage": return `${n(e.combatant)} takes ${e.amount} (HP ${e.hp}).`;
      case "damage_remembered": return `${n(e.combatant)} will remember ${e.amount} damage.`;
      case "dodged": return `${n(e.defender)} dodges ${e.name}.`;
      case "missed": return `${e.name} misses ${n(e.defender)}.`;
      case "cannot_dodge": return `${n(e.combatant)} cannot dodge.`;
      case "grazed": return `${n(e.defender)} grazes.`;
      case "heal": return `${n(e.combatant)} heals ${e.amount} (HP ${e.hp}).`;
      case "spell_power": return e.change ? `${n(e.combatant)} ${e.change > 0 ? "gains" : "loses"} ${Math.abs(e.change)} spell power (${e.reason}).` : null;
      case "meter": return null;
      case "draw": return e.cards ? `${n(e.combatant)} draws ${e.cards.length ? e.cards.map((id) => (combatant(e.combatant) && combatant(e.combatant).cards[id] || {}).name || id).join(", ") : "nothing"}.` : `${n(e.combatant)} draws ${e.count} card${e.count === 1 ? "" : "s"}.`;
      case "card_used": return `${n(e.combatant)} uses ${e.name} (${e.cost} SP).`;
      case "spellcard": return `${e.name} lands on ${e.targets.map((t) => t.join(",")).join(" ")}.`;
      case "fell": return `${n(e.combatant)} falls (${e.state}).`;
      case "unconscious": return `${n(e.combatant)} is unconscious.`;
      case "woke": return `${n(e.combatant)} wakes up.`;
      case "effect_added": return `${n(e.combatant)}: ${e.label || e.kind}.`;
      case "effect_ended": return `${n(e.combatant)}: ${e.kind} ends.`;
      case "power_dropped": return `${n(e.combatant)} drops ${e.amount} power.`;
      case "power_collected": return `${n(e.combatant)} collects ${e.share} power.`;
      case "battle_ended": return `The battle is over${e.winner ? `: ${e.winner} won` : ""}.`;
      case "gm_override": return `GM: ${e.action.replace("gm_", "").replace("_", " ")}.`;
      case "undone": return `Undone: ${e.action.type}.`;
      case "concentrated": return `${n(e.combatant)} concentrates.`;
      case "did_nothing": return `${n(e.combatant)} does nothing.`;
      case "bombed": return `${n(e.defender)} bombs!`;
      case "combatant_added": return `${e.name} joins the battle.`;
      case "combatant_removed": return `${n(e.combatant)} leaves the battle.`;
      case "target_set": return `Target number ${e.name} is now ${e.target}.`;
      default: return e.type.replaceAll("_", " ") + (e.combatant ? `: ${n(e.combatant)}` : "") + ".";
    }
  }

  function renderLog() {
    const list = $("log");
    const shown = S.log.slice(-100).reverse();
    const signature = shown.length ? `${shown[0].n}:${shown.length}` : "0";
    if (list.dataset.signature === signature) return;
    list.dataset.signature = signature;
    list.innerHTML = "";
    shown.forEach((entry) => {
      const lines = entry.events.map(describeEvent).filter(Boolean);
      const who = entry.action.player === "gm" ? "GM" : playerName(entry.action.player);
      list.append(el("li", { dataset: { n: String(entry.n) } },
        el("span", { class: "log-head" }, `#${entry.n} ${who}: ${entry.action.type.replaceAll("_", " ")}`),
        lines.length ? el("ul", {}, lines.map((l) => el("li", {}, l))) : null));
    });
  }

  function render() {
    if (!S.view) return;
    renderHead();
    renderBoard();
    renderTracker();
    renderPending();
    renderActions();
    renderHand();
    renderSelected();
    renderLog();
    S.renderHooks.forEach((fn) => fn(S.view));
  }

  // ------------------------------------------------------------------ start
  window.BattleScreen = {
    config, state: S, act, send, request: (m, u, b) => client.request(m, u, b), refresh, render, setMode, setStatus, combatant, nameOf,
    onRender(fn) { S.renderHooks.push(fn); if (S.view) fn(S.view); },
  };
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && S.mode) cancelMode(); });
  setInterval(tick, 1000);
  setInterval(() => { if (!document.hidden && !S.busy) refresh(false); }, config.poll_ms || 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(false); });
  refresh(true);
})();
