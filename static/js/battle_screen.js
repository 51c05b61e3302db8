// The battle screen: a live board for the GM and the players (campaign/battles).
// Everything shown comes from the table core's state API ({version, seat, view}: engine.view
// for this user). Every second the page asks for changes since the version it has (204:
// nothing new); a change re-renders the grid, the HP/SP bars, statuses, the hand, the turn
// tracker with its timer, and the log. Actions POST {action, expected_version} to the core's
// actions API: 409 means someone moved first (the page refetches), 400 carries the rules'
// reason. A setup change (squares, combatants, the map) answers the same {version, seat, view}. The GM's extra panel lives in battle_gm.js and plugs in via
// window.BattleScreen.
(function () {
  "use strict";
  const root = document.getElementById("battle");
  const configNode = document.getElementById("battle-config");
  if (!root || !configNode) return;
  const config = JSON.parse(configNode.textContent);

  const S = {
    view: null,
    // the version the page was drawn at, until the first view: a write sent before that view
    // arrives (the GM's "Use it" under a slow first load) names a real version, never -1
    version: typeof config.version === "number" ? config.version : -1,
    log: [],
    mode: null, // {kind, option, chosen, onSquare}
    hover: null,
    selected: null, // a combatant id the user clicked
    busy: false,
    renderHooks: [],
    cells: [],
    size: "",
    // the board's camera, tools and the table around it
    zoom: 1, panX: 0, panY: 0, fitted: true, stageW: 0, stageH: 0,
    tool: null, measure: null, drag: null, gesture: null, cursor: null, tip: null,
    suppressClick: false, lastPointer: "mouse", armed: null,
    portraits: {}, portraitIds: "",
    pings: [], pingsAfter: 0,
    chat: [], chatAfter: 0, chatLoaded: false, chatOlder: false, chatMuted: [],
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
  // one the view does not hold (hidden in fog, or gone) is never named by an engine id
  function nameOf(id) { const c = combatant(id); return c ? c.name : "someone"; }
  // A spellcard's type, targets and element (westernroses/spellcards/card.py, elements.py).
  const CARD_TYPE_WORDS = { attack: pgettext("a spellcard's type", "attack"), defensive: pgettext("a spellcard's type", "defensive"), special: pgettext("a spellcard's type", "special") };
  const TARGET_WORDS = { self: pgettext("a spellcard's targets", "self"), single: pgettext("a spellcard's targets", "single"), two: pgettext("a spellcard's targets", "two"), three: pgettext("a spellcard's targets", "three"), four: pgettext("a spellcard's targets", "four") };
  const ELEMENT_WORDS = { fire: pgettext("element", "fire"), water: pgettext("element", "water"), wood: pgettext("element", "wood"), metal: pgettext("element", "metal"), wind: pgettext("element", "wind"), light: pgettext("element", "light"), darkness: pgettext("element", "darkness"), spirit: pgettext("element", "spirit") };
  function elementName(element) { return ELEMENT_WORDS[element] || String(element).replaceAll("_", " "); }
  // The battle engine's own attack (westernroses/characters/attacks.py): a weapon's or a card's
  // name comes as the data or its author wrote it, an ability's in the reader's language.
  const MOVE_NAMES = { Danmaku: pgettext("an attack", "Danmaku") };
  function moveName(name) { return MOVE_NAMES[name] || name; }
  function playerName(p) { return (config.members && config.members[p]) || (p === "gm" ? gettext("the GM") : interpolate(gettext("player %(number)s"), { number: p }, true)); }
  function initials(name) {
    // a numbered duplicate ("Fairy Maid 2") keeps its number on the token: "FM2"
    const numbered = /^(.*\S)\s+(\d+)$/.exec(name.trim());
    if (numbered) return initials(numbered[1]) + numbered[2];
    const parts = name.replace(/[^\p{L}\p{N} ]/gu, "").split(/\s+/).filter(Boolean);
    const text = parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] || "?").slice(0, 2);
    return text.toUpperCase();
  }
  function setStatus(text, kind) {
    const node = $("battle-status");
    node.textContent = text || "";
    node.className = "battle-status" + (kind ? " " + kind : "");
    if (kind === "bad") sayAlert(text);
  }
  function firstError(data) {
    if (!data) return gettext("Something went wrong.");
    if (data.errors) {
      for (const [field, messages] of Object.entries(data.errors)) {
        const list = Array.isArray(messages) ? messages : [JSON.stringify(messages)];
        if (list.length) return list[0];
      }
    }
    return data.detail || gettext("Something went wrong.");
  }

  // ------------------------------------------------------------------ server
  // Polling, sending and the reload on 409 are the table core's one client
  // (static/js/table_client.js); the battle only says how to draw what comes back.
  function accept(view, full) {
    if (!view) return;
    if (!full && view.version < S.version) return; // a slow poll answered after a newer move
    // someone left this view (fog, or removed): the log already shown may name them, so take
    // the whole log again, filtered by the server as a reload would be (westernroses/battle/fog.py)
    if (!full && S.view && Object.keys(S.view.combatants).some((id) => !(id in view.combatants))) {
      S.view = view;
      refresh(true);
      return;
    }
    if (full) {
      S.log = [];
      // a first view holds the whole log while the battle is short: nothing earlier to show
      S.logComplete = view.version <= (config.log_tail || 100);
    }
    const last = S.log.length ? S.log[S.log.length - 1].n : 0;
    view.log.forEach((entry) => { if (entry.n > last) S.log.push(entry); });
    if (S.log.length > 1000) S.log = S.log.slice(-1000);
    S.view = view;
    S.version = view.version;
    client.version = view.version;
    if (S.mode && !modeStillLegal()) S.mode = null;
    render();
  }

  let said = "";
  const client = new window.TableClient({
    stateUrl: config.urls.state,
    actionUrl: config.urls.actions,
    version: S.version,
    pollMs: config.poll_ms || 1000,
    socketPath: config.urls.socket,
    onPresence: (people) => window.WRPush.showPresence($("table-presence"), people),
    onState: (data, full) => accept(data.view, full),
    onWritten: (data) => {
      S.mode = null;
      $("drag-info").textContent = "";
      accept(data.view, false);
      setStatus(said || "", "ok");
    },
    onStale: () => {
      S.mode = null;
      setStatus(gettext("Someone else moved first: the board has been refreshed."), "bad");
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
    if (S.drag && !S.drag.snapping) {
      S.drag.option.reach.forEach((r) => add(r.square, "reach"));
      if (S.drag.over) add(S.drag.over, reachOf(S.drag.option, S.drag.over) ? "drop-ok" : "drop-bad");
    }
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
    if (S.suppressClick) { S.suppressClick = false; return; }
    const m = S.mode;
    const sq = [x, y];
    S.cursor = sq;
    if (toolClicked(sq)) return;
    if (m && m.onSquare) { m.onSquare(sq); return; }
    if (m && m.kind === "move") {
      if (m.option.reach.some((r) => sameSquare(r.square, sq))) {
        act({ type: "move", combatant: m.option.combatant, to: sq, free: m.option.free }, interpolate(gettext("%(name)s moved."), { name: nameOf(m.option.combatant) }, true));
      }
      return;
    }
    const standing = pieceAt(sq);
    if (m && m.kind === "attack") {
      if (standing && m.option.targets.includes(standing)) {
        // a tap shows the odds first; a second tap (or a click, after hovering) attacks
        if (S.lastPointer === "touch" && S.armed !== standing) { S.armed = standing; showOdds(standing); return; }
        attack(m.option, standing);
      }
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
    showSquare(x, y);
    // click-to-move: your own piece, then a highlighted square (keyboard: Enter, arrows, Enter)
    const mover = !m && dragCandidate(sq);
    if (mover) { setMode({ kind: "move", option: mover.option }); return; }
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
      interpolate(gettext("%(attacker)s attacks %(target)s."), { attacker: nameOf(option.combatant), target: nameOf(target) }, true));
  }
  function cast(option, targets) {
    const action = { type: "use_spellcard", combatant: option.combatant, card: option.card, targets };
    if (option.amount) {
      const input = $("card-amount");
      action.amount = parseInt(input ? input.value : option.amount.min, 10);
    }
    act(action, interpolate(gettext("%(name)s uses %(card)s."), { name: nameOf(option.combatant), card: option.name }, true));
  }

  // ------------------------------------------------------------------ rendering: board
  // The board is layers inside one stage that zooms and pans as a whole (CSS transform):
  // the map image (its grid scaled onto ours) or the drawn grid, the squares (buttons: click,
  // tap, keyboard) with the tokens in them, and an overlay for pings, measuring and dragging.
  // Stage units are unscaled pixels: a square is CELL wide.
  const CELL = 56;
  const viewport = $("board-viewport");
  const stage = $("board-stage");

  function buildBoard(arena) {
    const board = $("board");
    board.innerHTML = "";
    board.style.setProperty("--cols", arena.width);
    board.style.setProperty("--cell", `${CELL}px`);
    S.cells = [];
    for (let y = 0; y < arena.height; y++) {
      for (let x = 0; x < arena.width; x++) {
        const cell = el("button", {
          type: "button",
          class: "battle-square",
          dataset: { x: String(x), y: String(y) },
          "aria-label": interpolate(gettext("square %(x)s, %(y)s"), { x, y }, true),
          tabindex: x === 0 && y === 0 ? "0" : "-1",
          onclick: () => squareClicked(x, y),
          onmouseenter: () => hoverSquare([x, y]),
          onfocus: () => { S.cursor = [x, y]; hoverSquare([x, y]); keepInView(x, y); },
        });
        board.append(cell);
        S.cells.push(cell);
      }
    }
    board.onmouseleave = () => hoverSquare(null);
    S.size = `${arena.width}x${arena.height}`;
    S.stageW = arena.width * CELL;
    S.stageH = arena.height * CELL;
    stage.style.width = `${S.stageW}px`;
    stage.style.height = `${S.stageH}px`;
    fit();
  }

  function hoverSquare(sq) {
    S.hover = sq;
    if (S.tool === "measure" && S.measure && S.measure.from && !S.measure.fixed && sq) {
      S.measure.to = sq;
      measureWords();
    }
    if (S.mode && S.mode.kind === "attack" && sq) {
      const id = pieceAt(sq);
      if (id && S.mode.option.targets.includes(id)) showOdds(id);
    }
    if (S.mode && S.mode.kind === "card" && sq && inList(S.mode.option.target_squares, sq)) showCardOdds(sq);
    if (S.mode || S.tool) { paintBoard(); renderOverlay(); }
  }

  // ---- zoom and pan: wheel, pinch, drag on the board's empty ground, and the buttons
  function applyTransform() {
    stage.style.transform = `translate(${S.panX}px, ${S.panY}px) scale(${S.zoom})`;
    root.dataset.zoom = S.zoom.toFixed(3);
    // labels on the board keep a readable size whatever the zoom
    stage.style.setProperty("--battle-unzoom", String(Math.max(0.6, Math.min(2.5, 1 / S.zoom))));
  }
  function fit() {
    if (!S.stageW) return;
    const width = viewport.clientWidth || S.stageW;
    const maxHeight = boardRoom();
    const zoom = Math.min(width / S.stageW, maxHeight / S.stageH, 2.5);
    S.zoom = zoom;
    S.panX = Math.max(0, (width - S.stageW * zoom) / 2);
    S.panY = 0;
    S.fitted = true;
    viewport.style.height = `${Math.ceil(S.stageH * zoom)}px`;
    applyTransform();
  }
  function zoomAt(factor, cx, cy) {
    const zoom = Math.max(0.25, Math.min(4, S.zoom * factor));
    S.panX = cx - ((cx - S.panX) * zoom) / S.zoom;
    S.panY = cy - ((cy - S.panY) * zoom) / S.zoom;
    S.zoom = zoom;
    S.fitted = false;
    applyTransform();
  }
  function zoomCentre(factor) { zoomAt(factor, viewport.clientWidth / 2, viewport.clientHeight / 2); }
  // a square focused by the keyboard is panned into view
  function keepInView(x, y) {
    if (S.fitted) return;
    const w = viewport.clientWidth, h = viewport.clientHeight, size = CELL * S.zoom;
    const left = S.panX + x * size, top = S.panY + y * size;
    if (left < 0) S.panX -= left; else if (left + size > w) S.panX -= left + size - w;
    if (top < 0) S.panY -= top; else if (top + size > h) S.panY -= top + size - h;
    applyTransform();
  }
  // the square under a point of the screen, or null off the board
  function squareAt(clientX, clientY) {
    const rect = viewport.getBoundingClientRect();
    const sx = (clientX - rect.left - S.panX) / S.zoom;
    const sy = (clientY - rect.top - S.panY) / S.zoom;
    const x = Math.floor(sx / CELL), y = Math.floor(sy / CELL);
    if (!S.view || x < 0 || y < 0 || x >= S.view.arena.width || y >= S.view.arena.height) return null;
    return [x, y];
  }
  function stagePoint(clientX, clientY) {
    const rect = viewport.getBoundingClientRect();
    return [(clientX - rect.left - S.panX) / S.zoom, (clientY - rect.top - S.panY) / S.zoom];
  }

  // ---- pointer gestures: drag your token, pan, pinch
  const pointers = new Map();
  function dragCandidate(sq) {
    if (!sq || S.tool || S.busy || (S.mode && S.mode.kind !== "move")) return null;
    const id = pieceAt(sq);
    if (!id) return null;
    const moves = legal().filter((o) => o.type === "move" && o.combatant === id);
    const option = moves.find((o) => !o.free) || moves[0];
    return option ? { id, option, from: sq } : null;
  }
  function onPointerDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    S.lastPointer = e.pointerType;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      if (S.drag) cancelDrag();
      S.gesture = { kind: "pinch", dist: Math.hypot(a[0] - b[0], a[1] - b[1]), zoom: S.zoom };
      return;
    }
    const sq = squareAt(e.clientX, e.clientY);
    const mover = dragCandidate(sq);
    S.gesture = { kind: mover ? "maybe-drag" : "maybe-pan", x: e.clientX, y: e.clientY, panX: S.panX, panY: S.panY, mover };
  }
  function onPointerMove(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const g = S.gesture;
    if (!g) return;
    if (g.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const rect = viewport.getBoundingClientRect();
      const factor = (g.zoom * Math.hypot(a[0] - b[0], a[1] - b[1])) / g.dist / S.zoom;
      zoomAt(factor, (a[0] + b[0]) / 2 - rect.left, (a[1] + b[1]) / 2 - rect.top);
      return;
    }
    const moved = Math.hypot(e.clientX - g.x, e.clientY - g.y);
    if (g.kind === "maybe-drag" && moved > 6) { g.kind = "drag"; startDrag(g.mover); }
    if (g.kind === "maybe-pan" && moved > 6) g.kind = "pan";
    if (g.kind === "drag") { moveDrag(e.clientX, e.clientY); e.preventDefault(); }
    if (g.kind === "pan") {
      S.panX = g.panX + e.clientX - g.x;
      S.panY = g.panY + e.clientY - g.y;
      S.fitted = false;
      applyTransform();
    }
  }
  function onPointerUp(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    const g = S.gesture;
    if (!g) return;
    if (g.kind === "drag") dropDrag(e.clientX, e.clientY, e.type === "pointercancel");
    if (g.kind === "drag" || g.kind === "pan" || g.kind === "pinch") {
      // the click this gesture may end in is not a tap on a square (it comes before any timer)
      S.suppressClick = true;
      setTimeout(() => { S.suppressClick = false; }, 0);
    }
    if (!pointers.size) S.gesture = null;
  }

  // ---- dragging a token: reachable squares light up, the cost shows, a bad drop snaps back
  function startDrag(mover) {
    const c = combatant(mover.id);
    S.drag = { ...mover, over: mover.from, point: null, name: c ? c.name : mover.id };
    S.selected = mover.id;
    root.dataset.dragging = "1";
    $("drag-info").textContent = interpolate(gettext("Dragging %(name)s: the green squares are in reach."), { name: S.drag.name }, true);
    paintBoard();
    renderOverlay();
  }
  function moveDrag(clientX, clientY) {
    S.drag.point = stagePoint(clientX, clientY);
    const sq = squareAt(clientX, clientY);
    if (!sameSquare(sq, S.drag.over)) {
      S.drag.over = sq;
      const found = sq && reachOf(S.drag.option, sq);
      $("drag-info").textContent = !sq ? gettext("Off the board.") : found
        ? `${sq[0]}, ${sq[1]}: ${spaces(found.cost)}.` : `${sq[0]}, ${sq[1]}: ${refusal(sq, S.drag)}`;
      paintBoard();
    }
    renderOverlay();
  }
  function reachOf(option, sq) { return option.reach.find((r) => sameSquare(r.square, sq)) || null; }
  function spaces(n) { return interpolate(ngettext("%(count)s space of movement", "%(count)s spaces of movement", n), { count: n }, true); }
  function inList(list, sq) { return (list || []).some((s) => sameSquare(s, sq)); }
  // Why a square is not in the engine's reach list, in words (the list itself is the rule).
  function refusal(sq, drag) {
    const v = S.view;
    if (!sq) return gettext("that is off the board.");
    if (inList(v.arena.blocked, sq)) return gettext("that square is blocking terrain: nobody can enter it.");
    if (inList(v.fog, sq) && v.you.player !== "gm") return gettext("you cannot see that square.");
    const other = pieceAt(sq);
    if (other && other !== drag.id) return interpolate(gettext("%(name)s stands there: a move cannot end on an occupied square."), { name: nameOf(other) }, true);
    const c = combatant(drag.id);
    const budget = c ? c.speed : null;
    return budget === null
      ? interpolate(gettext("out of reach: %(name)s can move only so far this turn (difficult ground costs 2, enemies block the way)."), { name: drag.name }, true)
      : interpolate(ngettext("out of reach: %(name)s can move %(count)s space this turn (difficult ground costs 2, enemies block the way).", "out of reach: %(name)s can move %(count)s spaces this turn (difficult ground costs 2, enemies block the way).", budget), { name: drag.name, count: budget }, true);
  }
  function cancelDrag() {
    S.drag = null;
    root.dataset.dragging = "0";
    paintBoard();
    renderOverlay();
  }
  function dropDrag(clientX, clientY, cancelled) {
    const drag = S.drag;
    if (!drag) return;
    const sq = cancelled ? null : squareAt(clientX, clientY);
    const found = sq && reachOf(drag.option, sq);
    if (sameSquare(sq, drag.from)) { $("drag-info").textContent = ""; cancelDrag(); return; }
    if (found) {
      S.drag = null;
      root.dataset.dragging = "0";
      root.dataset.dropped = "moved";
      $("drag-info").textContent = "";
      act({ type: "move", combatant: drag.id, to: sq, free: drag.option.free }, interpolate(gettext("%(name)s moved (%(spaces)s)."), { name: drag.name, spaces: spaces(found.cost) }, true));
      return;
    }
    // snap back: the ghost glides home, and the reason is said
    const reason = interpolate(gettext("%(name)s cannot move there: %(reason)s"), { name: drag.name, reason: refusal(sq, drag) }, true);
    root.dataset.dropped = "refused";
    setStatus(reason, "bad");
    $("drag-info").textContent = reason;
    S.drag = { ...drag, snapping: true, point: [(drag.from[0] + 0.5) * CELL, (drag.from[1] + 0.5) * CELL] };
    renderOverlay();
    setTimeout(() => { if (S.drag && S.drag.snapping) cancelDrag(); }, 250);
  }

  // ---- the overlay: measuring line, pings, the dragged token, a token's statuses on tap
  const centre = (sq) => [(sq[0] + 0.5) * CELL, (sq[1] + 0.5) * CELL];
  function segment(a, b) {
    const left = Math.min(a[0], b[0]), top = Math.min(a[1], b[1]);
    return el("span", {
      class: "battle-board__measure-line",
      style: `left:${left - 2}px;top:${top - 2}px;width:${Math.abs(a[0] - b[0]) + 4}px;height:${Math.abs(a[1] - b[1]) + 4}px`,
    });
  }
  function renderOverlay() {
    const overlay = $("board-overlay");
    if (!overlay || !S.view) return;
    overlay.replaceChildren();
    const m = S.measure;
    if (S.tool === "measure" && m && m.from) {
      const to = m.to || m.from;
      const a = centre(m.from), b = centre(to), corner = [b[0], a[1]];
      overlay.append(segment(a, corner), segment(corner, b));
      overlay.append(el("span", { class: "battle-board__measure-end", style: `left:${a[0]}px;top:${a[1]}px` }));
      const squares = dist(m.from, to);
      overlay.append(el("span", {
        class: "battle-board__label", id: "measure-label", style: `left:${b[0]}px;top:${b[1]}px`,
      }, interpolate(ngettext("%(count)s square", "%(count)s squares", squares), { count: squares }, true)));
    }
    const now = Date.now();
    S.pings.filter((p) => p.until > now).forEach((p) => {
      const [px, py] = centre(p.square);
      overlay.append(el("span", {
        class: "battle-board__ping", style: `left:${px}px;top:${py}px`,
        dataset: { x: String(p.square[0]), y: String(p.square[1]), pingId: String(p.id) },
        role: "img", "aria-label": interpolate(gettext("%(name)s pings square %(x)s, %(y)s"), { name: p.author, x: p.square[0], y: p.square[1] }, true),
      }, el("span", { class: "battle-board__ping-ring" }), el("span", { class: "battle-board__ping-name" }, p.author)));
    });
    const d = S.drag;
    if (d && d.point) {
      const c = combatant(d.id);
      if (c) {
        const ghost = pieceNode(c);
        ghost.classList.add("battle-token--ghost");
        if (d.snapping) ghost.classList.add("battle-token--snap");
        overlay.append(el("span", {
          class: "battle-board__ghost" + (d.snapping ? " battle-board__ghost--snap" : ""),
          style: `left:${d.point[0]}px;top:${d.point[1]}px;width:${CELL}px;height:${CELL}px`,
        }, ghost));
      }
      if (d.over && !d.snapping) {
        const found = reachOf(d.option, d.over);
        const [lx, ly] = centre(d.over);
        overlay.append(el("span", {
          class: "battle-board__label" + (found ? "" : " battle-board__label--bad"), id: "drag-cost",
          style: `left:${lx}px;top:${ly - CELL * 0.55}px`,
        }, found ? `${found.cost}` : gettext("out of reach")));
      }
    }
    if (S.tip) {
      const c = combatant(S.tip);
      if (c && c.position && c.effects.length) {
        const [tx, ty] = centre(c.position);
        overlay.append(el("span", { class: "battle-board__tip", role: "tooltip", id: "token-tip", style: `left:${tx}px;top:${ty - CELL / 2}px` },
          c.effects.map((e) => e.label || statusWords(e.kind)).join(", ")));
      }
    }
  }
  function measureWords() {
    const m = S.measure;
    if (!m || !m.from) return;
    const to = m.to || m.from;
    $("square-info").textContent = interpolate(gettext("From %(x1)s, %(y1)s to %(x2)s, %(y2)s: %(count)s squares, counted in straight steps (no diagonals), as range and areas are."), { x1: m.from[0], y1: m.from[1], x2: to[0], y2: to[1], count: dist(m.from, to) }, true);
  }

  // ---- tools: measure and ping
  function setTool(tool) {
    S.tool = S.tool === tool ? null : tool;
    S.measure = S.tool === "measure" ? { from: null, to: null, fixed: false } : null;
    $("tool-measure").setAttribute("aria-pressed", S.tool === "measure" ? "true" : "false");
    $("tool-ping").setAttribute("aria-pressed", S.tool === "ping" ? "true" : "false");
    root.dataset.tool = S.tool || "";
    $("square-info").textContent = S.tool === "measure" ? gettext("Measure: pick the first square, then the second.")
      : S.tool === "ping" ? gettext("Ping: pick a square to show everyone.") : gettext("Tap or click a square or a piece for its details.");
    renderOverlay();
  }
  function toolClicked(sq) {
    if (S.tool === "measure") {
      const m = S.measure;
      if (!m.from || m.fixed) { S.measure = { from: sq, to: null, fixed: false }; }
      else { m.to = sq; m.fixed = true; }
      measureWords();
      renderOverlay();
      return true;
    }
    if (S.tool === "ping") { sendPing(sq); setTool(null); return true; }
    return false;
  }
  async function sendPing(sq) {
    const { status, data } = await client.request("POST", config.urls.pings, { square: sq });
    if (status === 201) {
      addPings([{ ...data, author: gettext("You") }]);
      setStatus(interpolate(gettext("You pinged square %(x)s, %(y)s."), { x: sq[0], y: sq[1] }, true), "ok");
    } else setStatus(firstError(data), "bad");
  }
  function addPings(list) {
    const now = Date.now();
    list.forEach((p) => {
      if (S.pings.some((q) => q.id === p.id)) return;
      S.pings.push({ ...p, until: now + 6000 });
      S.pingsAfter = Math.max(S.pingsAfter, p.id);
    });
    renderOverlay();
  }
  setInterval(() => {
    const before = S.pings.length;
    S.pings = S.pings.filter((p) => p.until > Date.now());
    if (S.pings.length !== before) renderOverlay();
  }, 500);

  // A piece of hers that the fog walls in (the view's you.fogbound, worked out by the engine
  // from public things: the fog, the terrain, her square): say why Move and aiming are missing.
  function fogbound(id) { return ((S.view && S.view.you.fogbound) || []).includes(id); }
  function fogboundWords(c) {
    return interpolate(gettext("Every square around %(name)s is in the fog: she cannot move or target into it until the GM reveals it."), { name: c.name }, true);
  }

  // What a tapped square holds, in words: nothing on the board needs a mouse to hover.
  function showSquare(x, y) {
    S.inspected = [x, y];
    const id = pieceAt([x, y]);
    const c = id && combatant(id);
    const v = S.view;
    const terrain = v && v.arena.blocked.some((sq) => sameSquare(sq, [x, y])) ? gettext("blocking terrain")
      : v && v.arena.difficult.some((sq) => sameSquare(sq, [x, y])) ? gettext("difficult terrain") : gettext("open ground");
    const statuses = c && c.effects.length ? " " + interpolate(gettext("Statuses: %(statuses)s."), { statuses: c.effects.map((e) => e.label || statusWords(e.kind)).join(", ") }, true) : "";
    const walled = c && fogbound(c.id) ? ` ${fogboundWords(c)}` : "";
    $("square-info").textContent = c
      ? interpolate(gettext("%(name)s (%(side)s) at %(x)s, %(y)s: HP %(hp)s of %(max)s, SP %(sp)s, %(condition)s."), { name: c.name, side: sideWords(c.side), x, y, hp: c.hp, max: c.hp_max, sp: c.spell_power, condition: conditionWords(c) }, true) + statuses + walled
      : interpolate(gettext("Square %(x)s, %(y)s: %(terrain)s."), { x, y, terrain }, true);
    S.tip = c && c.effects.length ? c.id : null;
    renderOverlay();
  }

  function bar(kind, value, max, extra) {
    const pct = max > 0 ? Math.max(0, Math.min(100, (100 * value) / max)) : 0;
    return el("span", { class: `battle-meter battle-meter--${kind}${extra ? " " + extra : ""}`, title: interpolate(gettext("%(meter)s %(value)s of %(max)s"), { meter: kind === "sp" ? gettext("SP") : kind.toUpperCase(), value, max }, true) },
      el("span", { class: "battle-meter__fill", style: `width:${pct}%` }));
  }

  const STATUS_SIGNS = {
    stun: "★", blind: "◌", fear: "!", knockdown: "↓", knockback: "→", freeze: "❄", insanity: "?",
    berserk: "✷", taunted: "⚑", unconscious: "z", drunk: "♨", shield: "⛨", buff: "+",
    card: "♦", stat: "±", returning: "↺", thawing: "≈", thrown: "↗", familiar: "✧",
  };
  function statusBadges(c) {
    return c.effects.map((e) => el("span", {
      class: "battle-chip", title: e.label || statusWords(e.kind), "aria-label": e.label || statusWords(e.kind), dataset: { status: e.kind },
    }, STATUS_SIGNS[e.kind] || "•"));
  }

  function pieceNode(c) {
    const classes = ["battle-token", `side-${sideIndex(c.side)}`, `cond-${c.condition}`];
    if (S.view.turn.current === c.id) classes.push("current");
    if (S.selected === c.id) classes.push("selected");
    if (S.view.you.player !== "gm" && S.view.you.controls.includes(c.id)) classes.push("mine");
    if (S.drag && S.drag.id === c.id && !S.drag.snapping) classes.push("battle-token--lifted");
    const portrait = S.portraits[c.id];
    return el("span", {
      class: classes.join(" "),
      dataset: { combatant: c.id, side: c.side },
      title: interpolate(gettext("%(name)s · %(side)s · HP %(hp)s/%(max)s · SP %(sp)s"), { name: c.name, side: sideWords(c.side), hp: c.hp, max: c.hp_max, sp: c.spell_power }, true),
    },
    portrait
      ? el("img", { class: "battle-token__portrait", src: portrait, alt: "", draggable: "false" })
      : el("span", { class: "battle-token__initials", translate: "no" }, initials(c.name)),
    bar("hp", c.hp, c.hp_max, "battle-token__hp"),
    bar("sp", c.spell_power, Math.max(c.spell_power, 100), "battle-token__sp"),
    el("span", { class: "battle-token__statuses" }, statusBadges(c)));
  }

  // ------------------------------------------------------------------ words for people
  // Nothing a player reads is an engine key: conditions, statuses, actions and events all have words.
  const CONDITION_WORDS = {
    healthy: gettext("standing"), mortally_wounded: gettext("mortally wounded (below zero HP, still fighting)"),
    unconscious: gettext("unconscious"), dead: gettext("dead"), destroyed: gettext("destroyed"), incapacitated: gettext("out of the fight"),
    fled: gettext("fled"),
  };
  function conditionWords(c) {
    const words = CONDITION_WORDS[c.condition] || String(c.condition).replaceAll("_", " ");
    if (c.hp < 0 && c.condition === "healthy") return gettext("below zero HP");
    return words;
  }
  // the sides a GM picks from when she places an NPC (a battle's other sides are hers, as written)
  const SIDE_WORDS = { heroes: gettext("heroes"), enemies: gettext("enemies"), neutral: gettext("neutral") };
  function sideWords(side) { return SIDE_WORDS[side] || side; }
  const STATUS_WORDS = {
    stun: gettext("stunned"), blind: gettext("blinded"), fear: gettext("afraid"), knockdown: gettext("knocked down"), knockback: gettext("knocked back"),
    freeze: gettext("frozen"), insanity: gettext("insane"), berserk: gettext("berserk"), taunted: gettext("taunted"), unconscious: gettext("unconscious"),
    drunk: gettext("drunk"), shield: gettext("shielded"), buff: gettext("card buff"), card: gettext("under a spellcard's effect"),
    stat: gettext("stat changed by a card"), returning: gettext("returning"), thawing: gettext("thawing"),
  };
  // Why something happened, as the engine writes it (westernroses/battle: spell_power.py,
  // status.py, turn_order.py): the fixed reasons in the reader's language, anything else as is.
  const REASON_WORDS = {
    "start of turn": gettext("start of turn"), concentrate: gettext("concentrate"), graze: gettext("graze"),
    "collected dropped power": gettext("collected dropped power"), GM: gettext("GM"),
    "knocked down": gettext("knocked down"), stunned: gettext("stunned"), frozen: gettext("frozen"),
    thawing: gettext("thawing"), "paralysed by fear": gettext("paralysed by fear"),
    "attacks an inanimate object": gettext("attacks an inanimate object"), unconscious: gettext("unconscious"),
    "dolls are not alive": gettext("dolls are not alive"), fear: gettext("fear"),
  };
  function reasonWords(reason) {
    const text = String(reason || "");
    if (REASON_WORDS[text]) return REASON_WORDS[text];
    let m = /^turn order: speed (-?\d+) tie$/.exec(text);
    if (m) return interpolate(gettext("turn order: speed %(speed)s tie"), { speed: m[1] }, true);
    m = /^joining the turn order: speed (-?\d+) tie$/.exec(text);
    if (m) return interpolate(gettext("joining the turn order: speed %(speed)s tie"), { speed: m[1] }, true);
    m = /^(.+): PWR vs CHA$/.exec(text);
    if (m) return interpolate(gettext("%(attack)s: PWR vs CHA"), { attack: m[1] }, true);
    return text.replaceAll("_", " ");
  }
  // A status as the log names it: "stunned (1 turn)" from the engine's label, in words.
  function effectWords(e) {
    const m = /\((\d+) turns?\)$/.exec(e.label || "");
    if (STATUS_WORDS[e.kind] && m) return interpolate(ngettext("%(status)s (%(count)s turn)", "%(status)s (%(count)s turns)", Number(m[1])), { status: statusWords(e.kind), count: m[1] }, true);
    if (STATUS_WORDS[e.kind]) return statusWords(e.kind);
    return e.label ? e.label.toLowerCase() : statusWords(e.kind);
  }
  function statusWords(kind) { return STATUS_WORDS[kind] || String(kind || "status").replaceAll("_", " "); }
  const ACTION_WORDS = {
    start: gettext("starts the battle"), move: gettext("moves"), attack: gettext("attacks"), use_spellcard: gettext("uses a spellcard"),
    use_ability: gettext("uses an ability"), react: gettext("reacts"), collect_power: gettext("collects power"),
    recover_weapons: gettext("recovers thrown weapons"), do_nothing: gettext("does nothing"), concentrate: gettext("concentrates"),
    end_turn: gettext("ends the turn"), gm_adjust: gettext("adjusts HP or SP"), gm_add_status: gettext("adds a status"),
    gm_remove_status: gettext("removes a status"), gm_set_drunkenness: gettext("sets drunkenness"), gm_move: gettext("moves a piece"),
    gm_set_target: gettext("changes a target number"), gm_add_combatant: gettext("adds a combatant"),
    gm_remove_combatant: gettext("removes a combatant"), gm_end_battle: gettext("ends the battle"), gm_undo: gettext("undoes the last action"),
    gm_fog: gettext("hides part of the board in fog"), gm_reveal: gettext("clears fog from part of the board"),
    gm_show: gettext("shows or hides a piece off the board"),
    // what a player sees of an action that names someone hidden in the fog (westernroses/battle/fog.py)
    fogged: gettext("acts unseen in the fog"),
  };
  function actionWords(type) { return ACTION_WORDS[type] || String(type).replaceAll("_", " "); }
  function rollWords(r) {
    if (!r || r.total === undefined) return "";
    let text = `${r.total}`;
    const hasTarget = r.target !== null && r.target !== undefined;
    if (hasTarget) text = interpolate(gettext("%(total)s against %(target)s"), { total: text, target: r.target }, true);
    if (r.critical === "success" && hasTarget && r.total <= r.target && r.success) {
      return interpolate(gettext("%(roll)s: a critical success (the dice alone were high enough), so it succeeds despite the lower total"), { roll: text }, true);
    }
    if (r.critical === "failure" && hasTarget && r.total >= r.target && r.success === false) {
      return interpolate(gettext("%(roll)s: a critical failure (the dice alone were low enough), so it fails despite the total"), { roll: text }, true);
    }
    if (r.critical === "success") text = interpolate(gettext("%(roll)s, a critical success"), { roll: text }, true);
    if (r.critical === "failure") text = interpolate(gettext("%(roll)s, a critical failure"), { roll: text }, true);
    if (r.success === true) text = interpolate(gettext("%(roll)s: success"), { roll: text }, true);
    else if (r.success === false) text = interpolate(gettext("%(roll)s: failure"), { roll: text }, true);
    return text;
  }
  const sq = (p) => (p ? interpolate(gettext("square %(x)s, %(y)s"), { x: p[0], y: p[1] }, true) : gettext("off the board"));

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
    const fog = new Set((v.fog || []).map(([x, y]) => key(x, y)));
    const drops = new Set(v.drops.map((d) => key(d.square[0], d.square[1])));
    const fields = new Set();
    v.field_effects.forEach((f) => (f.squares || []).forEach(([x, y]) => fields.add(key(x, y))));
    S.cells.forEach((cell) => {
      const x = +cell.dataset.x;
      const y = +cell.dataset.y;
      const k = key(x, y);
      const cls = ["battle-square"];
      if (blocked.has(k)) cls.push("blocked");
      if (difficult.has(k)) cls.push("difficult");
      if (fog.has(k)) cls.push("fogged");
      if (drops.has(k)) cls.push("drop");
      if (fields.has(k)) cls.push("field");
      (marks.get(k) || []).forEach((c) => cls.push(c));
      if (S.inspected && S.inspected[0] === x && S.inspected[1] === y) cls.push("inspected");
      const name = cls.join(" ");
      if (cell.className !== name) cell.className = name;
    });
  }

  // The map layer (14a's battle maps): the image scaled so its grid squares (square_px image
  // pixels, starting at offset_x, offset_y) land on ours; no map: the drawn grid.
  function renderMap() {
    const map = S.view.map || null;
    const img = $("board-map");
    const signature = map ? JSON.stringify(map) : "";
    if (img.dataset.signature === signature) return;
    img.dataset.signature = signature;
    $("board").classList.toggle("battle-board--mapped", Boolean(map));
    if (!map || !map.url || !(map.square_px > 0)) { img.hidden = true; img.removeAttribute("src"); return; }
    const scale = CELL / map.square_px;
    // sized from the payload, not the loaded file: the layer is right before the image arrives
    if (map.width_px && map.height_px) { img.width = map.width_px; img.height = map.height_px; }
    img.style.transform = `translate(${-(map.offset_x || 0) * scale}px, ${-(map.offset_y || 0) * scale}px) scale(${scale})`;
    img.alt = map.name ? interpolate(gettext("Map: %(name)s"), { name: map.name }, true) : gettext("Battle map");
    img.src = map.url;
    img.hidden = false;
  }

  function renderBoard() {
    const v = S.view;
    if (S.size !== `${v.arena.width}x${v.arena.height}`) buildBoard(v.arena);
    renderMap();
    S.cells.forEach((cell) => {
      if (cell.firstChild) cell.replaceChildren();
      // a square's name says who stands on it, with the initials its token shows (WCAG 2.5.3:
      // the visible text is part of the name)
      const named = interpolate(gettext("square %(x)s, %(y)s"), { x: cell.dataset.x, y: cell.dataset.y }, true);
      if (cell.getAttribute("aria-label") !== named) cell.setAttribute("aria-label", named);
    });
    const width = v.arena.width;
    Object.values(v.combatants).forEach((c) => {
      if (!c.position) return;
      const cell = S.cells[c.position[1] * width + c.position[0]];
      if (!cell) return;
      // the initials its token shows, then the name (WCAG 2.5.3: the visible text is part of
      // the name); the initials are a name's letters, kept out of translation (translate="no")
      const shown = S.portraits[c.id] ? "" : `${initials(c.name)}, `;
      cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}: ${shown}${c.name}`);
      // the standing one on top: fallen pieces lie underneath
      if (c.condition === "healthy" || c.condition === "mortally_wounded") cell.prepend(pieceNode(c));
      else cell.append(pieceNode(c));
    });
    paintBoard();
    renderOverlay();
    loadPortraits();
  }

  // Portraits of the combatants this view shows (asked again when that set changes).
  async function loadPortraits() {
    const ids = Object.keys(S.view.combatants).sort().join(",");
    if (ids === S.portraitIds) return;
    S.portraitIds = ids;
    const { status, data } = await client.request("GET", config.urls.portraits);
    if (status === 200 && data && JSON.stringify(data) !== JSON.stringify(S.portraits)) {
      S.portraits = data;
      renderBoard();
    }
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
    node.textContent = interpolate(gettext("turn time %(time)s"), { time: fmtTime(seconds) }, true);
  }

  // Whose move the battle waits for: the combatants who may react while a hit waits for a
  // decision, else the one whose turn it is (none the view hides). "Your turn" means one of
  // them is the viewer's: the GM may act for anyone (her legal actions are never empty while
  // the battle runs), so having a legal action does not make it her turn.
  function turnOwners(v) {
    if (v.phase !== "active") return [];
    const ids = v.pending ? v.pending.waiting_for : [v.turn.current];
    return ids.map(combatant).filter(Boolean);
  }
  // The pill beside the phase: "Your turn" for the viewer's own combatants; for the GM,
  // whose turn it is in words while a player's combatant is up (the GM's own NPCs say "Your
  // turn"); nothing for a player waiting on someone else (the turn label names them).
  function renderTurnFlag(v, owners, mine) {
    const flag = $("your-turn-flag");
    let text = "";
    if (mine) text = v.pending ? gettext("React") : gettext("Your turn"); // a hit waits on her decision, not her turn
    else if (config.is_gm && owners.length) {
      const names = owners.map((c) => c.name).join(", ");
      text = v.pending ? interpolate(gettext("%(names)s to react"), { names }, true) : interpolate(gettext("%(names)s's turn"), { names }, true);
    }
    flag.textContent = text;
    flag.hidden = !text;
    flag.classList.toggle("your-turn-flag--theirs", Boolean(text) && !mine);
  }

  function renderHead() {
    const v = S.view;
    const current = v.turn.current;
    const phase = { setup: gettext("Setting up"), active: gettext("In progress"), ended: gettext("Ended") }[v.phase];
    $("phase-label").textContent = phase;
    $("round-label").textContent = v.phase === "active" ? interpolate(gettext("Round %(round)s"), { round: v.turn.round }, true) : "";
    let turn = "";
    if (v.phase === "ended") turn = v.winner ? interpolate(gettext("%(winner)s won."), { winner: v.winner }, true) : gettext("The battle is over.");
    else if (v.pending) turn = interpolate(gettext("Waiting for %(names)s to react."), { names: v.pending.waiting_for.map(nameOf).join(", ") }, true);
    else if (v.turn.current_hidden) turn = gettext("The GM is acting.");
    else if (current) {
      const c = combatant(current);
      turn = interpolate(gettext("%(name)s's turn (%(player)s)"), { name: c.name, player: playerName(c.controller) }, true);
    } else if (v.phase === "setup") turn = config.is_gm ? gettext("Place the pieces, then start.") : gettext("The GM is setting up the arena.");
    $("turn-label").textContent = turn;
    const owners = turnOwners(v);
    const mine = owners.some((c) => c.controller === v.you.player);
    renderTurnFlag(v, owners, mine);
    root.dataset.version = String(v.version);
    root.dataset.gm = config.is_gm ? "1" : "0";
    root.dataset.phase = v.phase;
    root.dataset.myTurn = mine ? "1" : "0";
    root.dataset.current = current || "";
    root.dataset.currentSide = current ? combatant(current).side : "";
    root.dataset.pending = v.pending ? "1" : "0";
    root.dataset.waiting = v.pending ? v.pending.waiting_for.join(",") : "";
    root.dataset.winner = v.winner || "";
    root.classList.toggle("my-turn", mine);
    // the page title, the favicon's badge and (if she opted in) a sound and a browser notice
    if (window.WR && !config.replay) window.WR.setTurnAlert(mine && v.phase === "active" ? (v.pending ? interpolate(gettext("React in %(battle)s"), { battle: config.battle_name || document.querySelector("h1").textContent.trim() }, true) : interpolate(gettext("Your turn in %(battle)s"), { battle: config.battle_name || document.querySelector("h1").textContent.trim() }, true)) : null);
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
      el("span", { class: `battle-dot side-${sideIndex(c.side)}` }),
      // the name and "acted" share the row's second column: every name starts at one edge
      el("span", { class: "tracker-name" }, el("strong", {}, c.name),
        v.turn.acted_this_round.includes(id) ? el("span", { class: "muted tracker-acted" }, " · " + gettext("acted")) : null),
      el("small", { class: "muted" }, " " + (c.position ? interpolate(gettext("%(side)s · %(player)s"), { side: sideWords(c.side), player: playerName(c.controller) }, true) : interpolate(gettext("%(side)s · %(player)s · off the board"), { side: sideWords(c.side), player: playerName(c.controller) }, true))),
      el("span", { class: "tracker-bars" },
        el("span", { class: "num" }, interpolate(gettext("HP %(hp)s/%(max)s"), { hp: c.hp, max: c.hp_max }, true)), bar("hp", c.hp, c.hp_max),
        el("span", { class: "num" }, interpolate(gettext("SP %(sp)s"), { sp: c.spell_power }, true)), bar("sp", c.spell_power, Math.max(c.spell_power, 100))),
      el("span", { class: "battle-chips" }, statusBadges(c),
        c.condition !== "healthy" ? el("span", { class: "condition" }, conditionWords(c)) : null),
      el("small", { class: "muted cards-count" }, interpolate(gettext("hand %(hand)s · pile %(pile)s"), { hand: c.hand_count, pile: c.draw_pile_count }, true)));
      list.append(li);
    });
    // someone hidden in the fog has the turn: the player is told only that the GM is acting
    if (v.turn.current_hidden) {
      list.append(el("li", { class: "tracker-row current", dataset: { hidden: "1" } },
        el("strong", {}, gettext("The GM is acting")), el("small", { class: "muted" }, " " + gettext("(someone you cannot see)"))));
    }
  }

  // Ruleset "Duration": "single_space_3" stays 3 rounds on its square; "homing_3" follows its target
  function durationWords(duration) {
    const m = /^(single_space|homing)_(\d+)$/.exec(duration || "");
    if (!m) return String(duration).replaceAll("_", " ");
    return m[1] === "homing" ? interpolate(gettext("follows its target for %(rounds)s rounds"), { rounds: m[2] }, true) : interpolate(gettext("stays on its square for %(rounds)s rounds"), { rounds: m[2] }, true);
  }

  function cardText(card) {
    if (!card) return "";
    const bits = [CARD_TYPE_WORDS[card.type] || card.type];
    if (card.attack_power) bits.push(`${card.attack_power.dice}d${card.attack_power.modifier ? "+" + card.attack_power.modifier : ""}`);
    if (card.targets) bits.push(interpolate(gettext("targets: %(targets)s"), { targets: TARGET_WORDS[card.targets] || String(card.targets).replaceAll("_", " ") }, true));
    if (card.aoe) bits.push(interpolate(gettext("area %(radius)s"), { radius: card.aoe }, true));
    if (card.duration && card.duration !== "instantaneous") bits.push(durationWords(card.duration));
    if (card.bomb) bits.push(gettext("bomb"));
    if (card.element) bits.push(elementName(card.element));
    return bits.join(" · ");
  }

  function renderHand() {
    const box = $("hand");
    box.innerHTML = "";
    const mine = S.view.you.controls.map(combatant).filter((c) => c && c.hand && c.hand.length);
    if (!mine.length) { box.append(el("p", { class: "muted" }, gettext("No cards in hand."))); return; }
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
          }, interpolate(gettext("Use (%(cost)s SP)"), { cost: option.cost }, true)) : null));
      });
      box.append(ul);
    });
  }

  function chooseCard(option) {
    if (!option.targeting.count) { cast(option, []); return; }
    setMode({ kind: "card", option, chosen: [] });
  }

  const REACTIONS = {
    take: gettext("Take it"), bomb: gettext("Bomb"), body_shield: gettext("Body-shield"), pass: gettext("Pass"), lucky: gettext("Lucky re-roll"),
    graze: gettext("Graze"), no_graze: gettext("Don't graze"), accept: gettext("Accept"),
  };

  // What each choice risks, beside its button (docs/rulings.md, battles: grazing; the graze
  // target is a house rule, 12 by default).
  function choiceHelp(choice, p) {
    const dmg = p.damage !== null && p.damage !== undefined ? p.damage : null;
    const half = dmg === null ? gettext("half the damage") : interpolate(gettext("%(damage)s damage (half, rounded up)"), { damage: Math.ceil(dmg / 2) }, true);
    const full = dmg === null ? gettext("all of it") : interpolate(gettext("all %(damage)s"), { damage: dmg }, true);
    return {
      graze: interpolate(gettext("Graze: roll insight against the graze target. Succeed and you gain spell power from the attack you dodged; fail and you take %(half)s, or %(full)s on a critical failure."), { half, full }, true),
      no_graze: gettext("Don't graze: keep the clean dodge. You take no damage and gain no spell power."),
      take: gettext("Take it: the hit lands as rolled."),
    }[choice] || null;
  }

  function renderPending() {
    const v = S.view;
    const panel = $("pending-panel");
    if (!v.pending) { panel.hidden = true; return; }
    panel.hidden = false;
    const p = v.pending;
    $("pending-text").textContent =
      `${nameOf(p.attacker)} → ${nameOf(p.defender)}: ${p.name}` +
      (p.damage !== null && p.damage !== undefined ? interpolate(gettext(" (%(damage)s damage%(steps)s)"), { damage: p.damage, steps: damageSteps(p.raw, p.steps, elementWords(p.element, p.defender)).replace(/^ \(/, ": ").replace(/\)$/, "") }, true) : "") +
      ". " + interpolate(gettext("Waiting for %(names)s."), { names: p.waiting_for.map(nameOf).join(", ") }, true);
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
    const help = $("pending-help");
    help.innerHTML = "";
    const shown = new Set();
    legal().filter((o) => o.type === "react").forEach((o) => {
      const text = choiceHelp(o.choice, p);
      if (text && !shown.has(o.choice)) { shown.add(o.choice); help.append(el("li", { dataset: { help: o.choice } }, text)); }
    });
  }

  function button(label, onclick, data) {
    return el("button", { type: "button", dataset: data || {}, onclick }, label);
  }

  // The engine's exact odds for the attack on one target (legal action "odds"): the chance
  // to hit and the damage distribution, drawn as bars; nothing here is computed.
  function showOdds(target) {
    const m = S.mode;
    const box = $("target-odds");
    if (!box || !m || m.kind !== "attack") return;
    const o = m.option.odds && m.option.odds[target];
    box.replaceChildren();
    box.dataset.target = target;
    S.oddsTarget = target;
    if (!o) { box.append(el("p", {}, gettext("No odds for this target."))); return; }
    const hit = o.hit ? interpolate(gettext("%(percent)s% chance to hit"), { percent: o.hit.percent }, true) : gettext("the chance to hit is not worked out for several dodge rolls");
    box.append(el("p", { class: "battle-odds__head" }, el("strong", {}, nameOf(target)), ": " + interpolate(gettext("%(hit)s; damage %(notation)s, %(low)s to %(high)s, %(average)s on average (before damage reduction and the defender's reactions)."), { hit, notation: o.damage.notation, low: o.damage.totals[0][0], high: o.damage.totals[o.damage.totals.length - 1][0], average: o.damage.average }, true)));
    box.append(damageChart(o.damage));
  }

  function damageChart(damage) {
    const top = Math.max(...damage.totals.map(([, p]) => p.percent), 0.0001);
    const chart = el("div", { class: "battle-odds__chart", role: "img",
      "aria-label": interpolate(gettext("Damage chances: %(chances)s"), { chances: damage.totals.map(([t, p]) => `${t}: ${p.percent}%`).join(", ") }, true) });
    damage.totals.forEach(([total, p]) => chart.append(el("span", {
      class: "battle-odds__bar", title: interpolate(gettext("%(total)s damage: %(percent)s%"), { total, percent: p.percent }, true), style: `height:${Math.max(2, (100 * p.percent) / top)}%`,
    })));
    return chart;
  }
  // A card aimed at a square: who its area would catch and the chance it lands on each (the
  // engine's card odds), and the damage of one trigger.
  function showCardOdds(sq) {
    const m = S.mode;
    const box = $("target-odds");
    const o = m && m.option.odds;
    if (!box || !o) return;
    const caught = new Set((m.option.area || [[0, 0]]).map(([dx, dy]) => key(sq[0] + dx, sq[1] + dy)));
    const who = Object.keys(o.hit).filter((id) => { const c = combatant(id); return c && c.position && caught.has(key(c.position[0], c.position[1])); });
    box.replaceChildren(el("p", { class: "battle-odds__head" },
      who.length ? who.map((id) => interpolate(gettext("%(name)s: %(percent)s% to be hit"), { name: nameOf(id), percent: o.hit[id].percent }, true)).join("; ") : gettext("Nobody stands in that area."),
      ". " + (o.to_hit.percent < 100
        ? interpolate(gettext("Damage %(notation)s, %(average)s on average; your to-hit roll succeeds %(percent)s% of the time."), { notation: o.damage.notation, average: o.damage.average, percent: o.to_hit.percent }, true)
        : interpolate(gettext("Damage %(notation)s, %(average)s on average."), { notation: o.damage.notation, average: o.damage.average }, true))),
    damageChart(o.damage));
  }

  function renderActions() {
    const box = $("actions");
    box.innerHTML = "";
    const options = legal().filter((o) => o.type !== "react");
    const v = S.view;
    if (v.phase === "setup" && !options.length) {
      box.append(el("p", { class: "muted" }, config.is_gm ? gettext("Place pieces of two sides in the GM panel: the battle can start once both are on the board.") : gettext("The GM is setting up the arena.")));
      return;
    }
    if (!options.length) {
      box.append(el("p", { class: "muted", id: "waiting-note" }, v.phase === "ended" ? gettext("The battle is over.") : gettext("Not your move: waiting for the others.")));
      return;
    }
    const m = S.mode;
    const walled = !m && v.turn.current && fogbound(v.turn.current) && combatant(v.turn.current);
    if (walled) box.append(el("p", { class: "battle-fog-note", id: "fog-note" }, fogboundWords(walled)));
    if (m && m.kind === "gm") {
      box.append(el("p", { class: "mode-help" }, gettext("Click a square on the board (Esc cancels).")),
        button(gettext("Cancel"), cancelMode, { cancel: "1" }));
    } else if (m) {
      const help = {
        move: gettext("Click a highlighted square to move there, or drag your piece (arrow keys and Enter work too)."),
        attack: interpolate(ngettext("Range %(range)s square. Point at a target (or tap it once) for the odds; click it, or choose below, to attack.", "Range %(range)s squares. Point at a target (or tap it once) for the odds; click it, or choose below, to attack.", m.option && m.option.range === 1 ? 1 : 2), { range: m.option && m.option.range !== undefined ? m.option.range : "?" }, true),
        card: interpolate(gettext("Pick %(count)s target square(s); the shaded area is what the card covers."), { count: m.option && m.option.targeting ? m.option.targeting.count : 1 }, true),
        ability: gettext("Click a target square."),
      }[m.kind] || "";
      box.append(el("p", { class: "mode-help" }, help));
      if (m.kind === "attack") {
        const list = el("div", { class: "target-list" });
        const mine = combatant(m.option.combatant);
        m.option.targets.forEach((t) => {
          const c = combatant(t);
          const o = m.option.odds && m.option.odds[t];
          const b = button(`${mine && c.side === mine.side ? interpolate(gettext("%(name)s (ally)"), { name: c.name }, true) : c.name}${o && o.hit ? " · " + interpolate(gettext("%(percent)s% to hit"), { percent: o.hit.percent }, true) : ""}`, () => attack(m.option, t),
            { target: t, side: c.side });
          b.addEventListener("mouseenter", () => showOdds(t));
          b.addEventListener("focus", () => showOdds(t));
          list.append(b);
        });
        box.append(list, el("div", { id: "target-odds", class: "battle-odds", "aria-live": "polite" }));
        if ((m.option.goddess || []).includes(true)) {
          box.append(el("label", { class: "inline-check" }, el("input", { type: "checkbox", id: "goddess-toggle" }), " goddess element"));
        }
      }
      if (m.kind === "card") {
        const aim = m.option.targeting || {};
        box.append(el("p", { class: "muted", id: "card-reach" },
          interpolate(ngettext("%(count)s square in range (shaded blue)", "%(count)s squares in range (shaded blue)", (m.option.target_squares || []).length), { count: (m.option.target_squares || []).length }, true) +
          (aim.aoe ? interpolate(ngettext("; it covers every square within %(count)s step of the one you pick (shaded red).", "; it covers every square within %(count)s steps of the one you pick (shaded red).", aim.aoe), { count: aim.aoe }, true) : gettext("; it covers the square you pick."))));
        if (m.option.odds) box.append(el("div", { id: "target-odds", class: "battle-odds", "aria-live": "polite" }, gettext("Point at a square for the odds.")));
      }
      if (m.kind === "card" && m.option.amount) {
        box.append(el("label", {}, gettext("Amount") + " ", el("input", {
          type: "number", id: "card-amount", min: m.option.amount.min, max: m.option.amount.max, value: m.option.amount.min,
        })));
      }
      box.append(button(gettext("Cancel"), cancelMode, { cancel: "1" }));
      return;
    }
    const groups = {};
    options.forEach((o) => { const k = o.combatant || ""; (groups[k] = groups[k] || []).push(o); });
    Object.entries(groups).forEach(([cid, opts]) => {
      const c = cid ? combatant(cid) : null;
      const group = el("div", { class: "action-group", dataset: { combatant: cid } });
      if (c) group.append(el("h3", {}, c.name, el("small", { class: "muted" }, " · " + interpolate(ngettext("%(count)s action left", "%(count)s actions left", c.actions_left), { count: c.actions_left }, true))));
      opts.forEach((o) => {
        if (o.type === "start") group.append(button(gettext("Start the battle"), () => act({ type: "start" }, gettext("The battle has begun.")), { action: "start" }));
        else if (o.type === "move") group.append(button(o.free ? gettext("Free move") : gettext("Move"), () => setMode({ kind: "move", option: o }), { action: "move", free: o.free ? "1" : "0" }));
        else if (o.type === "attack") group.append(button(o.free ? interpolate(gettext("Quick Strike: %(name)s"), { name: moveName(o.name) }, true) : interpolate(gettext("Attack: %(name)s"), { name: moveName(o.name) }, true), () => setMode({ kind: "attack", option: o }), { action: "attack", attack: o.attack }));
        else if (o.type === "use_spellcard") group.append(button(interpolate(gettext("Card: %(name)s (%(cost)s SP)"), { name: o.name, cost: o.cost }, true), () => chooseCard(o), { action: "use_spellcard", card: o.card }));
        else if (o.type === "use_ability") {
          group.append(button(interpolate(gettext("Ability: %(name)s"), { name: moveName(o.name) }, true), () => {
            if (o.target_squares) setMode({ kind: "ability", option: o, chosen: [] });
            else act({ type: "use_ability", combatant: o.combatant, ability: o.ability, target: null }, `${o.name}.`);
          }, { action: "use_ability", ability: o.ability }));
        } else if (o.type === "collect_power") group.append(button(interpolate(gettext("Collect %(amount)s power"), { amount: o.amount }, true), () => act({ type: "collect_power", combatant: o.combatant, drop: o.drop }, gettext("Power collected.")), { action: "collect_power" }));
        else if (o.type === "recover_weapons") group.append(button(gettext("Recover thrown weapons"), () => act({ type: "recover_weapons", combatant: o.combatant }, gettext("Weapons searched for.")), { action: "recover_weapons" }));
        else {
          const labels = { do_nothing: gettext("Do nothing"), concentrate: gettext("Concentrate"), end_turn: gettext("End turn") };
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
      interpolate(gettext("%(kind)s · %(side)s · played by %(player)s · speed %(speed)s · range %(range)s"), { kind: c.kind, side: sideWords(c.side), player: playerName(c.controller), speed: c.speed, range: c.range }, true) +
      (c.element ? ` · ${elementName(c.element)}` : "") + ` · ${String(c.drunkenness).replaceAll("_", " ")}`),
    el("p", {}, interpolate(gettext("HP %(hp)s of %(max)s · SP %(sp)s · meter %(meter)s of 5 · %(condition)s"), { hp: c.hp, max: c.hp_max, sp: c.spell_power, meter: c.meter, condition: conditionWords(c) }, true)));
    if (c.effects.length) box.append(el("ul", { class: "compact" }, c.effects.map((e) => el("li", {}, e.label || statusWords(e.kind)))));
    if (c.discard.length) box.append(el("p", { class: "muted" }, interpolate(gettext("Used cards: %(cards)s"), { cards: c.discard.map((id) => (c.cards[id] || {}).name || id).join(", ") }, true)));
  }

  // ------------------------------------------------------------------ the log

  // How a hit's damage came to be, in words, from the engine's steps (westernroses/battle/
  // damage.py: the element, a Shield, each reduction by name, the minimum of 1).
  function elementWords(element, defender) {
    const against = (combatant(defender) || {}).element;
    return element && against ? interpolate(gettext("%(element)s against %(against)s"), { element: elementName(element), against: elementName(against) }, true) : gettext("element");
  }
  const FACTOR_WORDS = { "2": "×2", "1/2": "×½" };
  function damageSteps(raw, steps, elements) {
    if (raw === null || raw === undefined || !steps || !steps.length) return "";
    const words = [interpolate(gettext("rolled %(raw)s"), { raw }, true)];
    for (const st of steps) {
      if (st.step === "element") words.push(interpolate(gettext("%(elements)s %(factor)s (rounded up) → %(damage)s"), { elements: elements || gettext("element"), factor: FACTOR_WORDS[st.factor] || `×${st.factor}`, damage: st.damage }, true));
      else if (st.step === "shield") words.push(interpolate(gettext("Shield ×½ (rounded up) → %(damage)s"), { damage: st.damage }, true));
      else if (st.step === "reduction") words.push(interpolate(gettext("%(label)s −%(amount)s → %(damage)s"), { label: st.label || gettext("damage reduction"), amount: Math.abs(st.amount), damage: st.damage }, true));
      else if (st.step === "minimum") words.push(interpolate(gettext("at least 1 from a hit → %(damage)s"), { damage: st.damage }, true));
    }
    return ` (${words.join("; ")})`;
  }
  function describeEvent(e) {
    const n = nameOf;
    const r = e.result || {};
    switch (e.type) {
      case "battle_started": return gettext("The battle begins.");
      case "round_started": return interpolate(gettext("Round %(round)s."), { round: e.round }, true);
      case "turn_order": return interpolate(gettext("Turn order: %(order)s."), { order: e.order.map(n).join(", ") }, true);
      case "turn_started": return interpolate(gettext("%(combatant)s's turn."), { combatant: n(e.combatant) }, true);
      case "turn_ended": return null;
      case "turn_lost": return interpolate(gettext("%(combatant)s loses the turn (%(reason)s)."), { combatant: n(e.combatant), reason: reasonWords(e.reason) }, true);
      case "moved": return !e.to ? interpolate(gettext("%(combatant)s leaves the board."), { combatant: n(e.combatant) }, true)
        : e.reason === "knockback" ? interpolate(gettext("%(combatant)s moves to %(square)s (knocked back)."), { combatant: n(e.combatant), square: sq(e.to) }, true)
        : interpolate(gettext("%(combatant)s moves to %(square)s."), { combatant: n(e.combatant), square: sq(e.to) }, true);
      // off the board a piece is hidden from the players like one in fog, unless the GM shows her
      case "shown": return interpolate(gettext("%(combatant)s is shown to the players, off the board."), { combatant: n(e.combatant) }, true);
      case "unshown": return interpolate(gettext("%(combatant)s is hidden from the players while off the board."), { combatant: n(e.combatant) }, true);
      case "attack": return interpolate(gettext("%(attacker)s attacks %(defender)s (%(name)s)."), { attacker: n(e.attacker), defender: n(e.defender), name: e.name }, true);
      case "roll": return interpolate(gettext("%(combatant)s rolls to %(purpose)s: %(result)s."), { combatant: n(e.combatant), purpose: e.purpose, result: rollWords(r) }, true);
      case "versus": return interpolate(gettext("An opposed roll (%(purpose)s)."), { purpose: reasonWords(e.purpose) }, true);
      case "damage_roll": return interpolate(gettext("%(combatant)s rolls damage: %(total)s."), { combatant: n(e.combatant), total: (e.roll && e.roll.total) ?? "?" }, true);
      case "die": return interpolate(gettext("%(combatant)s rolls a d%(sides)s (%(purpose)s): %(value)s."), { combatant: n(e.combatant), sides: e.sides, purpose: e.purpose, value: e.value }, true);
      case "hit": return interpolate(gettext("%(defender)s is hit by %(name)s: %(damage)s damage%(steps)s."), { defender: n(e.defender), name: e.name, damage: e.damage, steps: damageSteps(e.raw, e.steps, elementWords(e.element, e.defender)) }, true);
      case "damage_reduced": return interpolate(gettext("%(combatant)s's %(raw)s damage is reduced%(steps)s."), { combatant: n(e.combatant), raw: e.raw, steps: damageSteps(e.raw, e.steps) }, true);
      case "damage": return e.hp < 0 ? interpolate(gettext("%(combatant)s takes %(amount)s damage (HP now %(hp)s, below zero)."), { combatant: n(e.combatant), amount: e.amount, hp: e.hp }, true)
        : interpolate(gettext("%(combatant)s takes %(amount)s damage (HP now %(hp)s)."), { combatant: n(e.combatant), amount: e.amount, hp: e.hp }, true);
      case "damage_remembered": return interpolate(gettext("%(combatant)s will remember %(amount)s damage."), { combatant: n(e.combatant), amount: e.amount }, true);
      case "dodged": return interpolate(gettext("%(defender)s dodges %(name)s."), { defender: n(e.defender), name: e.name }, true);
      case "missed": return interpolate(gettext("%(name)s misses %(defender)s."), { name: e.name, defender: n(e.defender) }, true);
      case "cannot_dodge": return interpolate(gettext("%(combatant)s cannot dodge."), { combatant: n(e.combatant) }, true);
      case "grazed": return interpolate(gettext("%(defender)s grazes."), { defender: n(e.defender) }, true);
      case "heal": return interpolate(gettext("%(combatant)s heals %(amount)s (HP %(hp)s)."), { combatant: n(e.combatant), amount: e.amount, hp: e.hp }, true);
      case "spell_power": return !e.change ? null : interpolate(gettext("%(combatant)s %(change)s spell power (%(reason)s)."), { combatant: n(e.combatant), change: interpolate(e.change > 0 ? gettext("gains %(amount)s") : gettext("loses %(amount)s"), { amount: Math.abs(e.change) }, true), reason: reasonWords(e.reason) }, true);
      case "meter": return null;
      case "draw": return !e.cards ? interpolate(ngettext("%(combatant)s draws %(count)s card.", "%(combatant)s draws %(count)s cards.", e.count), { combatant: n(e.combatant), count: e.count }, true)
        : e.cards.length ? interpolate(gettext("%(combatant)s draws %(cards)s."), { combatant: n(e.combatant), cards: e.cards.map((id) => (combatant(e.combatant) && combatant(e.combatant).cards[id] || {}).name || id).join(", ") }, true)
        : interpolate(gettext("%(combatant)s draws nothing."), { combatant: n(e.combatant) }, true);
      case "card_used": return interpolate(gettext("%(combatant)s uses %(name)s (%(cost)s SP)."), { combatant: n(e.combatant), name: e.name, cost: e.cost }, true);
      case "spellcard": return interpolate(gettext("%(card)s lands on %(squares)s."), { card: e.name, squares: e.targets.map(sq).join(gettext(" and ")) }, true);
      case "fell": return interpolate(gettext("%(combatant)s falls: %(state)s at %(hp)s HP."), { combatant: n(e.combatant), state: CONDITION_WORDS[e.state] || String(e.state).replaceAll("_", " "), hp: e.hp }, true);
      case "mortally_wounded": return interpolate(gettext("%(combatant)s is mortally wounded: %(hp)s HP, below zero; one more hit past %(below)s and they die."), { combatant: n(e.combatant), hp: e.hp, below: e.below }, true);
      case "destroyed": return interpolate(gettext("%(combatant)s is destroyed."), { combatant: n(e.combatant) }, true);
      case "revived": return interpolate(gettext("%(combatant)s is back on their feet with %(hp)s HP."), { combatant: n(e.combatant), hp: e.hp }, true);
      case "meter_cleared": return interpolate(gettext("%(combatant)s's meter (%(points)s of 5) is cleared at the end of the battle."), { combatant: n(e.combatant), points: e.points }, true);
      case "power_dissipated": return interpolate(gettext("%(amount)s power left on the ground fades away."), { amount: e.amount }, true);
      case "power_dropped": return interpolate(gettext("%(combatant)s drops %(amount)s power on the ground."), { combatant: n(e.combatant), amount: e.amount }, true);
      case "heal_failed": return interpolate(gettext("%(combatant)s cannot be healed (%(reason)s)."), { combatant: n(e.combatant), reason: String(e.reason).replaceAll("_", " ") }, true);
      case "hp_capped": return interpolate(gettext("%(combatant)s's HP is capped at %(hp)s."), { combatant: n(e.combatant), hp: e.hp }, true);
      case "immune": return interpolate(gettext("%(combatant)s is immune to being %(status)s (%(reason)s)."), { combatant: n(e.combatant), status: statusWords(e.kind), reason: reasonWords(e.reason) }, true);
      case "effect_extended": return interpolate(gettext("%(combatant)s's effect lasts longer (%(count)s more)."), { combatant: n(e.combatant), count: e.count }, true);
      case "knockback_blocked": return interpolate(gettext("%(combatant)s cannot be knocked back onto %(square)s."), { combatant: n(e.combatant), square: sq(e.square) }, true);
      case "no_one_hit": return interpolate(gettext("%(name)s hits no one."), { name: e.name }, true);
      case "card_missed": return interpolate(gettext("%(combatant)s's %(name)s misses."), { combatant: n(e.combatant), name: e.name }, true);
      case "bomb_fizzled": return interpolate(gettext("%(combatant)s's bomb fizzles: %(reason)s."), { combatant: n(e.combatant), reason: e.reason }, true);
      case "fleeing": return interpolate(gettext("%(combatant)s flees in fear."), { combatant: n(e.combatant) }, true);
      case "stays_conscious": return interpolate(gettext("%(combatant)s stays conscious (%(reason)s)."), { combatant: n(e.combatant), reason: e.reason }, true);
      case "drunkenness": return e.reason ? interpolate(gettext("%(combatant)s is now %(level)s (%(reason)s)."), { combatant: n(e.combatant), level: String(e.level).replaceAll("_", " "), reason: e.reason }, true)
        : interpolate(gettext("%(combatant)s is now %(level)s."), { combatant: n(e.combatant), level: String(e.level).replaceAll("_", " ") }, true);
      case "lucky": return interpolate(gettext("%(combatant)s uses Lucky to re-roll."), { combatant: n(e.combatant) }, true);
      case "unconscious": return interpolate(gettext("%(combatant)s is unconscious."), { combatant: n(e.combatant) }, true);
      case "woke": return interpolate(gettext("%(combatant)s wakes up."), { combatant: n(e.combatant) }, true);
      case "effect_added": return interpolate(gettext("%(combatant)s is %(status)s."), { combatant: n(e.combatant), status: effectWords(e) }, true);
      case "effect_ended": return interpolate(gettext("%(combatant)s is no longer %(status)s."), { combatant: n(e.combatant), status: statusWords(e.kind) }, true);
      case "power_collected": return interpolate(gettext("%(combatant)s collects %(share)s power."), { combatant: n(e.combatant), share: e.share }, true);
      case "battle_ended": return e.winner ? interpolate(gettext("The battle is over: %(winner)s won."), { winner: e.winner }, true) : gettext("The battle is over.");
      case "gm_override": return interpolate(gettext("The GM %(action)s."), { action: actionWords(e.action) }, true);
      case "undone": return interpolate(gettext("The GM took back the last action (%(action)s)."), { action: actionWords(e.action && e.action.type) }, true);
      case "concentrated": return interpolate(gettext("%(combatant)s concentrates."), { combatant: n(e.combatant) }, true);
      case "did_nothing": return interpolate(gettext("%(combatant)s does nothing."), { combatant: n(e.combatant) }, true);
      case "bombed": return interpolate(gettext("%(defender)s bombs!"), { defender: n(e.defender) }, true);
      case "combatant_added": return interpolate(gettext("%(name)s joins the battle."), { name: e.name }, true);
      case "combatant_removed": return interpolate(gettext("%(combatant)s leaves the battle."), { combatant: n(e.combatant) }, true);
      case "target_set": return interpolate(gettext("Target number %(name)s is now %(target)s."), { name: e.name, target: e.target }, true);
      case "fog_changed": {
        const count = interpolate(ngettext("%(count)s square", "%(count)s squares", e.squares), { count: e.squares }, true);
        const where = e.frm && e.to ? " " + interpolate(gettext("(%(from)s to %(to)s)"), { from: sq(e.frm), to: sq(e.to) }, true) : "";
        return e.fogged ? interpolate(gettext("Fog covers %(count)s%(where)s."), { count, where }, true) : interpolate(gettext("The fog lifts from %(count)s%(where)s."), { count, where }, true);
      }
      // the engine's record of who stood in fog (the GM's log only): the board already shows it
      case "in_fog": return null;
      default: {
        const words = String(e.type).replaceAll("_", " ");
        const sentence = words.charAt(0).toUpperCase() + words.slice(1);
        return e.combatant ? interpolate(gettext("%(combatant)s: %(event)s."), { combatant: n(e.combatant), event: words }, true) : `${sentence}.`;
      }
    }
  }

  // ------------------------------------------------------------------ the table log
  // One list, oldest at the top: the engine's log entries (moves, rolls with every die and the
  // odds the roller faced) and the table's chat lines, each placed after the move it followed.
  function dice(values) {
    return el("span", { class: "battle-log__dice" }, (values || []).map((v) =>
      el("span", { class: "battle-log__die", title: interpolate(gettext("a %(value)s"), { value: v }, true) }, String(v))));
  }
  function pct(share) { return share ? `${share.percent}%` : "?"; }
  function rollDetail(e) {
    if (e.type === "roll" && e.result && e.result.roll) {
      const r = e.result;
      const mod = r.modifier ? ` ${r.modifier > 0 ? "+" : "−"} ${Math.abs(r.modifier)}` : "";
      const odds = e.odds ? " · " + interpolate(gettext("the chance to succeed was %(success)s (critical success %(critical_success)s, critical failure %(critical_failure)s)"), { success: pct(e.odds.success), critical_success: pct(e.odds.critical_success), critical_failure: pct(e.odds.critical_failure) }, true) : "";
      return el("div", { class: "battle-log__roll" }, dice(r.roll.dice), `${mod} = ${r.target !== null && r.target !== undefined ? interpolate(gettext("%(total)s against %(target)s"), { total: r.total, target: r.target }, true) : r.total}${odds}`);
    }
    if (e.type === "versus" && e.result && e.result.rounds) {
      const rows = [];
      e.result.rounds.forEach((round, i) => round.results.forEach((p) => {
        const [base, n] = String(p.participant).split("#");
        const who = nameOf(base) + (n ? " " + interpolate(gettext("(roll %(number)s)"), { number: n }, true) : "");
        const chance = e.odds && e.odds.wins && e.odds.wins[p.participant] ? " · " + interpolate(gettext("chance to win was %(percent)s"), { percent: pct(e.odds.wins[p.participant]) }, true) : "";
        // one die and no modifier: the die is the total ("Reimu: [2]", not "Reimu: [2] = 2")
        const r = p.result, m = r.modifier || 0;
        const mod = m ? ` ${m > 0 ? "+" : "−"} ${Math.abs(m)}` : "";
        const total = r.roll.dice.length === 1 && !m ? "" : `${mod} = ${r.total}`;
        rows.push(el("div", { class: "battle-log__roll" }, `${i ? gettext("re-roll:") + " " : ""}${who}: `, dice(r.roll.dice), `${total}${i ? "" : chance}`));
      }));
      if (e.result.winner) rows.push(el("div", { class: "battle-log__roll" }, interpolate(gettext("%(name)s wins."), { name: nameOf(String(e.result.winner).split("#")[0]) }, true)));
      return rows;
    }
    if (e.type === "damage_roll" && e.roll) {
      const mods = (e.modifiers || []).map((m) => `${m.label} ${m.amount > 0 ? "+" : ""}${m.amount}`).join(", ");
      return el("div", { class: "battle-log__roll" }, dice(e.roll.dice), ` = ${e.roll.total}${mods ? ` (${mods})` : ""}`);
    }
    return null;
  }

  function logItems() {
    const items = S.log.map((entry) => ({ order: [entry.n, 0, 0], entry }));
    S.chat.forEach((line) => items.push({ order: [line.version, 1, line.id], line }));
    items.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
    return items;
  }
  function chatNode(line) {
    const mine = line.author_id === config.me;
    // a GM mutes a player from her line (the table core's chat: tables/chat)
    const mayMute = config.is_gm && !mine && !line.gm && !S.chatMuted.some((m) => m.user_id === line.author_id);
    return el("li", { class: "battle-log__chat" + (line.whisper ? " battle-log__chat--whisper" : ""), dataset: { chat: String(line.id) } },
      el("strong", {}, mine ? gettext("You") : line.author), line.gm ? el("span", { class: "battle-log__gm" }, " " + gettext("(GM)")) : null,
      line.whisper ? el("em", { class: "battle-log__whisper" }, " " + (line.recipient_id === config.me ? gettext("whispers to you") : interpolate(gettext("whispers %(name)s"), { name: line.whisper }, true))) : null,
      ": ", el("span", { class: "battle-log__text" }, line.text),
      mayMute ? el("button", { type: "button", class: "secondary small battle-log__mute", onclick: () => setMuted(line.author_id, true) }, interpolate(gettext("Mute %(name)s"), { name: line.author }, true)) : null);
  }
  async function setMuted(user, muted) {
    const { status, data } = await client.request("POST", `${config.urls.chat}mutes/`, { user, muted });
    if (status === 200) { S.chatMuted = data.muted; showMuted(); $("log").dataset.signature = ""; renderLog(); }
    else $("chat-error").textContent = firstError(data);
  }
  function showMuted() {
    const box = $("chat-muted");
    if (!box) return;
    box.replaceChildren(...S.chatMuted.map((m) => el("li", {}, interpolate(gettext("%(name)s is muted."), { name: m.name }, true) + " ",
      el("button", { type: "button", class: "secondary small", onclick: () => setMuted(m.user_id, false) }, interpolate(gettext("Let %(name)s speak again"), { name: m.name }, true)))));
    box.hidden = S.chatMuted.length === 0;
  }
  function renderLog() {
    const list = $("log");
    const first = S.log.length ? S.log[0].n : 0;
    const last = S.log.length ? S.log[S.log.length - 1].n : 0;
    const lastChat = S.chat.length ? S.chat[S.chat.length - 1].id : 0;
    const signature = `${first}:${last}:${S.log.length}:${S.chat.length}:${lastChat}`;
    if (list.dataset.signature === signature) return;
    list.dataset.signature = signature;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40 || !list.dataset.shown;
    const oldHeight = list.scrollHeight, oldTop = list.scrollTop;
    list.innerHTML = "";
    logItems().forEach((item) => {
      if (item.line) { list.append(chatNode(item.line)); return; }
      const entry = item.entry;
      const who = entry.action.player === "gm" ? "GM" : playerName(entry.action.player);
      const lines = entry.events.map((e) => {
        const text = describeEvent(e);
        if (!text) return null;
        const detail = rollDetail(e);
        return el("li", { dataset: { event: e.type } }, text, detail);
      }).filter(Boolean);
      list.append(el("li", { dataset: { n: String(entry.n) } },
        el("span", { class: "log-head" }, `#${entry.n} ${who} ${actionWords(entry.action.type)}`),
        lines.length ? el("ul", {}, lines) : null));
    });
    if (atBottom && !S.prepending) list.scrollTop = list.scrollHeight;
    else if (S.prepending) list.scrollTop = oldTop + (list.scrollHeight - oldHeight);
    S.prepending = false;
    list.dataset.shown = "1";
    $("log-earlier").hidden = !((S.log.length && S.log[0].n > 1 && !S.logComplete) || S.chatOlder);
  }

  // Scroll back: the page of log entries before the first one shown (the log API), and the
  // chat lines before the first one shown.
  async function loadEarlier() {
    const button = $("log-earlier");
    button.disabled = true;
    try {
      const first = S.log.length ? S.log[0].n : (S.version + 1);
      if (first > 1) {
        const after = Math.max(0, first - 1 - 50);
        const { status, data } = await client.request("GET", `${config.urls.log}?after=${after}&limit=${first - 1 - after}`);
        if (status === 200) {
          const older = data.results.filter((e) => e.n < first);
          S.log = older.concat(S.log);
          if (after === 0) S.logComplete = true;
        }
      }
      if (S.chatOlder && S.chat.length) {
        const { status, data } = await client.request("GET", `${config.urls.table}?chat_before=${S.chat[0].id}&pings_after=${S.pingsAfter}`);
        if (status === 200) { S.chat = data.chat.concat(S.chat); S.chatOlder = data.chat_older; }
      }
      S.prepending = true;
      renderLog();
    } finally { button.disabled = false; }
  }

  // The table feed: new chat lines and pings, asked for beside every view poll.
  async function pollFeed() {
    if (S.feedBusy) return;
    S.feedBusy = true;
    try {
      const chat = S.chatLoaded ? `chat_after=${S.chatAfter}&` : "";
      const { status, data } = await client.request("GET", `${config.urls.table}?${chat}pings_after=${S.pingsAfter}`);
      if (status !== 200 || !data) return;
      if (!S.chatLoaded) { S.chatLoaded = true; S.chatOlder = data.chat_older; }
      const muted = data.chat_muted || [];
      if (JSON.stringify(muted) !== JSON.stringify(S.chatMuted)) {
        S.chatMuted = muted; showMuted(); $("log").dataset.signature = ""; renderLog();
      }
      addChat(data.chat);
      if (data.pings.length) addPings(data.pings);
      // the turn clock set or paused bumps no version either: the clock panel
      // (static/js/tables/clock_undo.js) reads it again when the feed's differs
      const clock = JSON.stringify(data.clock === undefined ? null : data.clock);
      if (clock !== S.clockSeen) {
        S.clockSeen = clock;
        root.dataset.clock = String((Number(root.dataset.clock) || 0) + 1);
      }
      // a map laid or re-aligned under a running battle bumps no version: the feed says so
      if (S.view && data.map !== undefined && JSON.stringify(data.map) !== JSON.stringify(S.view.map || null)) refresh(true);
    } catch (err) {
      // offline or a broken answer: the next poll (a second later) retries, and the view's
      // poll already says "Offline; retrying." on the screen
    } finally { S.feedBusy = false; }
  }
  function addChat(lines) {
    let added = false;
    lines.forEach((line) => {
      if (S.chat.some((m) => m.id === line.id)) return;
      S.chat.push(line);
      S.chatAfter = Math.max(S.chatAfter, line.id);
      added = true;
    });
    if (added) { S.chat.sort((a, b) => a.id - b.id); renderLog(); }
  }
  function setupChat() {
    const select = $("chat-to");
    select.append(el("option", { value: "" }, gettext("Everyone")));
    if (config.is_gm) (config.players || []).forEach(([id, name]) => select.append(el("option", { value: String(id) }, interpolate(gettext("%(name)s only (whisper)"), { name }, true))));
    else select.append(el("option", { value: "gm" }, gettext("The GM only (whisper)")));
    $("chat-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("chat-text");
      const errors = $("chat-error");
      errors.textContent = "";
      if (!input.value.trim()) { errors.textContent = gettext("Write something first."); input.focus(); return; }
      const { status, data } = await client.request("POST", config.urls.chat, { text: input.value, whisper_to: select.value });
      if (status === 201) { input.value = ""; addChat([data]); return; }
      errors.textContent = data && data.errors ? Object.values(data.errors).flat().join(" ") : firstError(data);
    });
    $("log-earlier").addEventListener("click", loadEarlier);
  }

  function render() {
    if (!S.view) return;
    const focus = focusBefore();
    renderHead();
    renderBoard();
    renderTracker();
    renderPending();
    renderActions();
    renderHand();
    renderSelected();
    renderLog();
    if (S.mode && S.mode.kind === "attack" && S.oddsTarget) showOdds(S.oddsTarget);
    S.renderHooks.forEach((fn) => fn(S.view));
    focusAfter(focus);
    announceNewest();
  }

  // ------------------------------------------------------------------ layout, keyboard, live regions
  // (kept apart from the drawing and the server code above: what fits the window, where the
  // keyboard's focus goes when a redraw replaces the button it was on, what a screen reader hears)

  // The height the board may take. Beside the turn's panel (a wide screen): what is left of the
  // window below the board's top (the head and the toolbar above it), so the board, the turn
  // and its actions fit one window. On a phone the board fits the width, and at most the 60%
  // of the screen above the action bar's most (40%): a fixed share, since the head above it
  // changes height (a notice, a longer turn line) and the board must not change size with it.
  // Never below 200 px (a tiny window scrolls).
  function boardRoom() {
    const bar = $("battle-turn-panel");
    if (bar && getComputedStyle(bar).position === "fixed") return Math.max(200, window.innerHeight * 0.6);
    const top = viewport.getBoundingClientRect().top + window.scrollY;
    return Math.max(200, window.innerHeight - top - 12);
  }

  // The phone's bar is fixed over the page: the page keeps as much room at its end, so its
  // last lines (the log, the chat) can scroll above the bar.
  function setupLayout() {
    const bar = $("battle-turn-panel");
    if (!bar || !window.ResizeObserver) return;
    let last = -1;
    new ResizeObserver(() => {
      const fixed = getComputedStyle(bar).position === "fixed";
      const height = fixed ? bar.offsetHeight : 0;
      if (height === last) return;
      last = height;
      root.style.setProperty("--battle-bar-h", `${height}px`);
    }).observe(bar);
  }

  // A redraw replaces the turn's buttons: the keyboard's focus, on one of them, would fall back
  // to the page's start. Which one had it (its data-* words), to put it back after the redraw.
  function focusBefore() {
    const active = document.activeElement;
    const panel = $("battle-turn-panel");
    // only the keyboard's focus is kept (a tap or a click leaves nothing to put back)
    // the mode the last drawing showed (setMode has already changed S.mode when it redraws)
    if (!active || !panel || !panel.contains(active) || !active.matches(":focus-visible")) return { where: null, mode: S.drawnMode };
    return { where: "panel", key: JSON.stringify(Object.assign({}, active.dataset)), mode: S.drawnMode };
  }
  function focusAfter(before) {
    const was = S.drawnMode;
    S.drawnMode = S.mode;
    // a square chosen (or the choice cancelled) from the keyboard: back to the turn's buttons
    if (was && !S.mode && S.modeFrom) {
      const active = document.activeElement;
      if (!active || active === document.body || active.matches(".battle-square")) focusActions();
      S.modeFrom = null;
      return;
    }
    if (!before.where) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    // a move, an attack or a card just chosen: the focus goes to the board to pick its square
    // (arrows move, Enter picks, Escape cancels), on the piece that acts
    if (S.mode && S.mode !== before.mode && S.mode.kind !== "gm") {
      const c = S.mode.option && combatant(S.mode.option.combatant);
      const sq = (c && c.position) || S.cursor || [0, 0];
      S.modeFrom = before.key;
      focusSquare(sq[0], sq[1]);
      return;
    }
    const panel = $("battle-turn-panel");
    const buttons = [...panel.querySelectorAll("button:not([disabled])")];
    const same = buttons.find((b) => JSON.stringify(Object.assign({}, b.dataset)) === before.key);
    const next = same || buttons[0];
    if (next) next.focus({ preventScroll: true });
  }
  function focusSquare(x, y) {
    const w = S.view.arena.width;
    const cell = S.cells[y * w + x];
    if (!cell) return;
    S.cells.forEach((c) => { if (c.tabIndex === 0) c.tabIndex = -1; });
    cell.tabIndex = 0;
    cell.focus({ preventScroll: true });
    root.dataset.cursor = `${x},${y}`;
  }
  // Escape cancels a choice and gives the focus back to the button that began it (else the
  // turn's first button).
  function focusActions() {
    const buttons = [...$("battle-turn-panel").querySelectorAll("button:not([disabled])")];
    const from = buttons.find((b) => JSON.stringify(Object.assign({}, b.dataset)) === S.modeFrom);
    const next = from || buttons[0];
    if (next) next.focus({ preventScroll: true });
  }

  // A screen reader hears the other players' moves as they come: the newest log entry not
  // made by this user, once (the log itself is no live region: it is drawn again on every
  // change). Nothing is announced for the log the page opened with.
  function announceNewest() {
    const last = S.log.length ? S.log[S.log.length - 1] : null;
    if (!last) return;
    if (S.announcedN === undefined) { S.announcedN = last.n; return; }
    if (last.n <= S.announcedN) return;
    const mine = (e) => String(e.action.player) === String(config.me) || (config.is_gm && e.action.player === "gm");
    const fresh = S.log.filter((e) => e.n > S.announcedN && !mine(e));
    S.announcedN = last.n;
    if (!fresh.length) return;
    const entry = fresh[fresh.length - 1];
    const who = entry.action.player === "gm" ? "The GM" : playerName(entry.action.player);
    const lines = entry.events.map(describeEvent).filter(Boolean).map((t) => (typeof t === "string" ? t : t.textContent));
    const text = `${who} ${actionWords(entry.action.type)}${lines.length ? ": " + lines.slice(0, 4).join(" ") : "."}`;
    const box = $("battle-announce");
    box.textContent = box.textContent === text ? `${text} ` : text;
  }
  function sayAlert(text) {
    const box = $("battle-alert");
    if (!box || !text) return;
    box.textContent = box.textContent === text ? `${text} ` : text;
  }

  // ------------------------------------------------------------------ start
  window.BattleScreen = {
    config, state: S, act, send, request: (m, u, b) => client.request(m, u, b), refresh, render, setMode, setStatus, combatant, nameOf, sideWords,
    onRender(fn) { S.renderHooks.push(fn); if (S.view) fn(S.view); },
    // the words the page writes, for its tests (tests/browser/test_battle_words.py)
    words: { describeEvent, rollDetail, conditionWords, statusWords, actionWords, rollWords, choiceHelp, statusBadges, durationWords },
  };
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (S.drag) cancelDrag();
    if (S.tool) setTool(null);
    if (S.mode) cancelMode(); // the redraw gives the keyboard's focus back (focusAfter)
  });
  // The square cursor: arrow keys move the focus between squares (one tab stop for the
  // board), Enter or Space presses the focused square, P pings it.
  $("board").addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest(".battle-square");
    if (!cell || !S.view) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key === "p" || event.key === "P") { event.preventDefault(); sendPing([+cell.dataset.x, +cell.dataset.y]); return; }
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const x = Math.max(0, Math.min(S.view.arena.width - 1, +cell.dataset.x + step[0]));
    const y = Math.max(0, Math.min(S.view.arena.height - 1, +cell.dataset.y + step[1]));
    const next = S.cells[y * S.view.arena.width + x];
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
    root.dataset.cursor = `${x},${y}`;
  });
  viewport.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = viewport.getBoundingClientRect();
    zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
  }, { passive: false });
  viewport.addEventListener("dragstart", (event) => event.preventDefault());
  $("zoom-in").addEventListener("click", () => zoomCentre(1.25));
  $("zoom-out").addEventListener("click", () => zoomCentre(0.8));
  $("zoom-fit").addEventListener("click", fit);
  $("tool-measure").addEventListener("click", () => setTool("measure"));
  $("tool-ping").addEventListener("click", () => setTool("ping"));
  if (window.ResizeObserver) new ResizeObserver(() => { if (S.fitted) fit(); }).observe(viewport.parentElement);
  // The replay page (templates/battles/_replay_board.html, static/js/replay.js) draws the
  // steps it is given: nothing is polled, pushed or sent.
  if (config.replay) {
    window.BattleScreen.show = (view) => accept(view, true);
    return;
  }
  setupChat();
  setupLayout();
  setInterval(tick, 1000);
  // The view: the table client listens on the table's socket and reads the view on each new
  // version, polling only while no socket is open (static/js/table_client.js). The feed (chat,
  // pings, a map laid under the battle) is read when the socket says something was said or
  // pointed at ({"type": "chat"}), and polled only while no socket is open.
  client.start(true);
  let feedPushed = false;
  document.addEventListener("wr:push", (event) => {
    const detail = event.detail || {};
    if (detail.path !== config.urls.socket) return;
    if (detail.kind === "open") { feedPushed = true; pollFeed(); }
    else if (detail.kind === "down") feedPushed = false;
    else if (detail.kind === "message" && detail.data && detail.data.type === "chat") pollFeed();
  });
  setInterval(() => { if (!document.hidden && !feedPushed) pollFeed(); }, config.poll_ms || 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) pollFeed(); });
  pollFeed();
})();
