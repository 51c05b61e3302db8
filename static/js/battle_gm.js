// The GM's panel on the battle screen (loaded only for GMs; the API checks it again).
// Setup: arena size, painting blocking/difficult squares, placing characters and NPCs, moving
// and removing pieces. During the battle: overrides (HP/SP, statuses, moving a piece, target
// numbers), undo, reinforcements and ending the battle. The GM acts for NPCs with the same
// action buttons players use (her view lists the current combatant's options).
(function () {
  "use strict";
  const B = window.BattleScreen;
  if (!B) return;
  const { config } = B;
  const $ = (id) => document.getElementById(id);
  const urls = config.urls;

  function option(value, label) { const o = document.createElement("option"); o.value = value; o.textContent = label; return o; }
  function fill(select, rows, keep) {
    const before = keep ? select.value : "";
    const signature = JSON.stringify(rows);
    if (select.dataset.signature === signature) return;
    select.dataset.signature = signature;
    select.innerHTML = "";
    rows.forEach(([v, l]) => select.append(option(v, l)));
    if (before && rows.some(([v]) => v === before)) select.value = before;
  }

  // static choices
  (config.elements || []).forEach((e) => $("npc-element").append(option(e, e)));
  (config.weapons || []).forEach(([slug, name]) => $("npc-weapon").append(option(slug, name)));
  fill($("ov-status"), config.statuses || [], false);
  const TARGET_WORDS = {
    dodge: "Dodge", graze: "Graze", spellcard_to_hit: "Spellcard to hit", undodged_physical: "Undodged physical attack",
    status_save: "Status save", will: "Will", insight: "Insight", thaw: "Thaw", wake: "Wake up", consciousness: "Stay conscious",
  };
  fill($("ov-target-name"), (config.targets || []).map((t) => [t, TARGET_WORDS[t] || t.replaceAll("_", " ")]), false);

  function version() { return B.state.version; }
  function squareMode(label, onSquare, cancel) {
    B.setMode({ kind: "gm", onSquare, cancel });
    B.setStatus(label, "");
  }

  // ------------------------------------------------------------------ setup
  $("arena-form").addEventListener("submit", (event) => {
    event.preventDefault();
    B.send("PATCH", urls.detail, {
      name: $("arena-name").value,
      width: parseInt($("arena-width").value, 10),
      height: parseInt($("arena-height").value, 10),
      expected_version: version(),
    }, "Arena saved.");
  });

  document.querySelectorAll("#terrain-tools input[name=terrain]").forEach((radio) => {
    radio.addEventListener("change", () => {
      const terrain = radio.value;
      if (!terrain) { B.setMode(null); return; }
      // Painting stays on until the tool is switched off (each render re-enters it).
      squareMode(`Click squares to make them ${terrain}.`, (sq) => {
        B.send("POST", urls.squares, { square: sq, terrain, expected_version: version() });
      }, () => { document.querySelector("#terrain-tools input[value='']").checked = true; });
    });
  });

  $("place-character-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = parseInt($("place-character").value, 10);
    if (!id) {
      B.setStatus((config.characters || []).length ? "Every character is on the board." : "This campaign has no characters yet.", "bad");
      return;
    }
    const side = $("place-character-side").value;
    const controller = $("place-character-controller").value;
    squareMode("Click the square to place the character on.", (sq) => {
      B.send("POST", urls.combatants, { character: id, side, controller, position: sq, expected_version: version() }, "Placed.");
    });
  });

  $("npc-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const num = (id) => parseInt($(id).value, 10);
    const weapon = $("npc-weapon").value;
    const npc = {
      name: $("npc-name").value,
      pwr: num("npc-pwr"), cha: num("npc-cha"), int: num("npc-int"), ins: num("npc-ins"),
      hp: num("npc-hp"), speed: num("npc-speed"), range: num("npc-range"),
      element: $("npc-element").value,
      weapons: weapon ? [weapon] : [],
    };
    const side = $("npc-side").value;
    squareMode("Click the square to place the NPC on.", (sq) => {
      B.send("POST", urls.combatants, { npc, side, position: sq, expected_version: version() }, `${npc.name} placed.`);
    });
  });

  $("gm-piece-move").addEventListener("click", () => {
    const cid = B.state.selected;
    if (!cid) return;
    squareMode(`Click where ${B.nameOf(cid)} should stand.`, (sq) => {
      B.send("PATCH", `${urls.combatants}${encodeURIComponent(cid)}/`, { position: sq, expected_version: version() }, "Moved.");
    });
  });
  $("gm-piece-remove").addEventListener("click", () => {
    const cid = B.state.selected;
    if (!cid) return;
    B.send("DELETE", `${urls.combatants}${encodeURIComponent(cid)}/?expected_version=${version()}`, undefined, "Removed.");
    B.state.selected = null;
  });

  // ------------------------------------------------------------------ overrides
  const chosen = () => $("ov-combatant").value;
  $("ov-adjust").addEventListener("click", () => {
    const hp = parseInt($("ov-hp").value, 10) || 0;
    const sp = parseInt($("ov-sp").value, 10) || 0;
    const action = { type: "gm_adjust", combatant: chosen() };
    if (hp) action.hp = hp;
    if (sp) action.spell_power = sp;
    B.act(action, "Adjusted.");
  });
  $("ov-add-status").addEventListener("click", () => {
    const action = { type: "gm_add_status", combatant: chosen(), status: $("ov-status").value, turns: parseInt($("ov-turns").value, 10) || 1 };
    if ($("ov-source").value) action.source = $("ov-source").value;  // fear needs its source
    B.act(action, "Status added.");
  });
  $("ov-remove-status").addEventListener("click", () => {
    const effect = $("ov-effect").value;
    if (!effect) return;
    B.act({ type: "gm_remove_status", combatant: chosen(), effect }, "Status removed.");
  });
  $("ov-move").addEventListener("click", () => {
    const cid = chosen();
    squareMode(`Click where ${B.nameOf(cid)} should stand.`, (sq) => B.act({ type: "gm_move", combatant: cid, to: sq }, "Moved."));
  });
  $("ov-set-target").addEventListener("click", () => {
    B.act({ type: "gm_set_target", name: $("ov-target-name").value, target: parseInt($("ov-target").value, 10) }, "Target set.");
  });
  $("gm-undo").addEventListener("click", () => B.act({ type: "gm_undo" }, "Undone."));
  $("gm-end").addEventListener("click", () => {
    const winner = $("end-winner").value;
    B.act({ type: "gm_end_battle", winner: winner || null }, "The battle is over.");
  });
  $("ov-combatant").addEventListener("change", () => B.render());

  // ------------------------------------------------------------------ every render
  B.onRender((view) => {
    const setup = view.phase === "setup";
    $("gm-setup").hidden = !setup;
    $("gm-overrides").hidden = setup || view.phase === "ended";
    $("npc-form").hidden = view.phase === "ended";
    if (document.activeElement !== $("arena-width")) $("arena-width").value = view.arena.width;
    if (document.activeElement !== $("arena-height")) $("arena-height").value = view.arena.height;
    const present = new Set(Object.keys(view.combatants));
    const placeable = (config.characters || []).filter((c) => !present.has(c.engine_id));
    fill($("place-character"), placeable
      .map((c) => [String(c.id), `${c.name} (${c.is_npc ? "NPC" : c.owner})`]), true);
    // say why there is nothing to place: no characters at all, or all of them on the board
    const none = !(config.characters || []).length;
    $("place-character-none").hidden = !none;
    $("place-character-all").hidden = none || placeable.length > 0;
    $("place-character-fields").hidden = !placeable.length;
    $("place-character-button").hidden = !placeable.length;
    const fighters = Object.values(view.combatants);
    fill($("ov-combatant"), fighters.map((c) => [c.id, `${c.name} (${c.side})`]), true);
    fill($("ov-source"), [["", "nobody"]].concat(fighters.map((c) => [c.id, `${c.name} (${c.side})`])), true);
    const current = view.combatants[$("ov-combatant").value];
    fill($("ov-effect"), current ? current.effects.map((e) => [e.id, e.label || e.kind]) : [], false);
    const sides = [...new Set(fighters.map((c) => c.side))];
    fill($("end-winner"), [["", "no winner"]].concat(sides.map((s) => [s, `${s} won`])), true);
    const selected = B.state.selected && view.combatants[B.state.selected];
    $("gm-piece").hidden = !(setup && selected && selected.kind !== "doll");
    $("gm-piece-name").textContent = selected ? selected.name : "";
    const painting = document.querySelector("#terrain-tools input[name=terrain]:checked");
    if (setup && painting && painting.value && !B.state.mode) painting.dispatchEvent(new Event("change"));
  });
})();
