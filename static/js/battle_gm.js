// The GM's panel on the battle screen (loaded only for GMs; the API checks it again).
// Setup: arena size, painting blocking/difficult squares, placing characters and NPCs, moving
// and removing pieces. During the battle: overrides (HP/SP, statuses, moving a piece, target
// numbers), undo, reinforcements and ending the battle. Always: the map under the grid (upload,
// choose, align with a preview) and fog of war (rectangles typed or clicked on the board). The GM acts for NPCs with the same
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
    dodge: gettext("Dodge"), graze: gettext("Graze"), spellcard_to_hit: gettext("Spellcard to hit"), undodged_physical: gettext("Undodged physical attack"),
    status_save: gettext("Status save"), will: gettext("Will"), insight: gettext("Insight"), thaw: gettext("Thaw"), wake: gettext("Wake up"), consciousness: gettext("Stay conscious"),
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
    }, gettext("Arena saved."));
  });

  document.querySelectorAll("#terrain-tools input[name=terrain]").forEach((radio) => {
    radio.addEventListener("change", () => {
      const terrain = radio.value;
      if (!terrain) { B.setMode(null); return; }
      // Painting stays on until the tool is switched off (each render re-enters it).
      squareMode(({ blocked: gettext("Click squares to make them blocking."), difficult: gettext("Click squares to make them difficult."), open: gettext("Click squares to make them open.") })[terrain] || interpolate(gettext("Click squares to make them %(terrain)s."), { terrain }, true), (sq) => {
        B.send("POST", urls.squares, { square: sq, terrain, expected_version: version() });
      }, () => { document.querySelector("#terrain-tools input[value='']").checked = true; });
    });
  });

  $("place-character-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = parseInt($("place-character").value, 10);
    if (!id) {
      B.setStatus((config.characters || []).length ? gettext("Every character is on the board.") : gettext("This campaign has no characters yet."), "bad");
      return;
    }
    const side = $("place-character-side").value;
    if (!side) { // her side is the GM's choice, never a silent default
      B.setStatus(gettext("Choose her side first: heroes, enemies or neutral."), "bad");
      $("place-character-side").focus();
      return;
    }
    const controller = $("place-character-controller").value;
    squareMode(gettext("Click the square to place the character on."), (sq) => {
      B.send("POST", urls.combatants, { character: id, side, controller, position: sq, expected_version: version() }, gettext("Placed."));
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
    squareMode(gettext("Click the square to place the NPC on."), (sq) => {
      B.send("POST", urls.combatants, { npc, side, position: sq, expected_version: version() }, interpolate(gettext("%(name)s placed."), { name: npc.name }, true));
    });
  });

  // NPCs of the campaign's wiki: the stat block's numbers, the side the GM chooses
  const wikiNpcs = config.wiki_npcs || [];
  fill($("wiki-npc"), wikiNpcs.map((n) => [String(n.id), n.title]), false);
  $("wiki-npc-none").hidden = wikiNpcs.length > 0;
  $("wiki-npc-fields").hidden = !wikiNpcs.length;
  $("wiki-npc-place-button").hidden = !wikiNpcs.length;
  function showWikiNumbers() {
    const chosen = wikiNpcs.find((n) => String(n.id) === $("wiki-npc").value);
    $("wiki-npc-numbers").textContent = chosen ? chosen.numbers : "";
  }
  $("wiki-npc").addEventListener("change", showWikiNumbers);
  showWikiNumbers();
  $("wiki-npc-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = parseInt($("wiki-npc").value, 10);
    if (!id) return;
    const side = $("wiki-npc-side").value;
    if (!side) { // its side is the GM's choice, never a silent default
      B.setStatus(gettext("Choose its side first: enemies, heroes or neutral."), "bad");
      $("wiki-npc-side").focus();
      return;
    }
    const title = $("wiki-npc").selectedOptions[0].textContent;
    squareMode(interpolate(gettext("Click the square to place %(name)s on."), { name: title }, true), (sq) => {
      B.send("POST", urls.combatants, { wiki_entry: id, side, position: sq, expected_version: version() }, interpolate(gettext("%(name)s placed."), { name: title }, true));
    });
  });

  $("gm-piece-move").addEventListener("click", () => {
    const cid = B.state.selected;
    if (!cid) return;
    squareMode(interpolate(gettext("Click where %(name)s should stand."), { name: B.nameOf(cid) }, true), (sq) => {
      B.send("PATCH", `${urls.combatants}${encodeURIComponent(cid)}/`, { position: sq, expected_version: version() }, gettext("Moved."));
    });
  });
  $("gm-piece-remove").addEventListener("click", () => {
    const cid = B.state.selected;
    if (!cid) return;
    B.send("DELETE", `${urls.combatants}${encodeURIComponent(cid)}/?expected_version=${version()}`, undefined, gettext("Removed."));
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
    B.act(action, gettext("Adjusted."));
  });
  $("ov-add-status").addEventListener("click", () => {
    const action = { type: "gm_add_status", combatant: chosen(), status: $("ov-status").value, turns: parseInt($("ov-turns").value, 10) || 1 };
    if ($("ov-source").value) action.source = $("ov-source").value;  // fear needs its source
    B.act(action, gettext("Status added."));
  });
  $("ov-remove-status").addEventListener("click", () => {
    const effect = $("ov-effect").value;
    if (!effect) return;
    B.act({ type: "gm_remove_status", combatant: chosen(), effect }, gettext("Status removed."));
  });
  $("ov-move").addEventListener("click", () => {
    const cid = chosen();
    squareMode(interpolate(gettext("Click where %(name)s should stand."), { name: B.nameOf(cid) }, true), (sq) => B.act({ type: "gm_move", combatant: cid, to: sq }, gettext("Moved.")));
  });
  $("ov-off-board").addEventListener("click", () => {
    B.act({ type: "gm_move", combatant: chosen(), to: null }, gettext("Taken off the board: the players no longer see this piece."));
  });
  $("ov-show").addEventListener("click", () => {
    B.act({ type: "gm_show", combatant: chosen(), shown: true }, gettext("Shown to the players while off the board."));
  });
  $("ov-hide").addEventListener("click", () => {
    B.act({ type: "gm_show", combatant: chosen(), shown: false }, gettext("Hidden from the players while off the board."));
  });
  $("ov-set-target").addEventListener("click", () => {
    B.act({ type: "gm_set_target", name: $("ov-target-name").value, target: parseInt($("ov-target").value, 10) }, gettext("Target set."));
  });
  $("gm-undo").addEventListener("click", () => B.act({ type: "gm_undo" }, "Undone."));
  // "End the battle" asks first (a <details> in the panel, like the tavern's Resign): the
  // question says what ending means; "Keep fighting" and Escape close it, "Yes, end it" sends.
  function endQuestion() {
    const winner = $("end-winner").value;
    const rest = gettext("Nobody can act any more; the winners' used cards go back into their decks, every spell meter empties, and winners still standing may look for their thrown weapons. Undo takes it back.");
    return winner
      ? interpolate(gettext("End the battle now, with %(winner)s as the winners? %(rest)s"), { winner, rest }, true)
      : interpolate(gettext("End the battle now, with no winner? %(rest)s"), { rest }, true);
  }
  const endBox = $("gm-end-confirm");
  // "Keep fighting" and Escape close the question (site.js, every .ask-first box)
  endBox.addEventListener("toggle", () => { if (endBox.open) $("gm-end-question").textContent = endQuestion(); });
  $("end-winner").addEventListener("change", () => { $("gm-end-question").textContent = endQuestion(); });
  $("gm-end-yes").addEventListener("click", () => {
    const winner = $("end-winner").value;
    endBox.open = false;
    B.act({ type: "gm_end_battle", winner: winner || null }, gettext("The battle is over."));
  });
  $("ov-combatant").addEventListener("change", () => B.render());

  // ------------------------------------------------------------------ map and fog
  // The campaign's map library (battles/maps.py): upload (checked by content on the server),
  // choose the battle's map, align its grid with a live preview; fog of war by rectangles.
  let maps = [];
  let aligning = null; // the map whose grid the form edits
  function csrf() {
    const field = document.querySelector("#map-upload-form input[name=csrfmiddlewaretoken]");
    const cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return cookie ? decodeURIComponent(cookie[1]) : (field ? field.value : "");
  }
  function firstError(data, fallback) {
    const errors = (data && data.errors) || {};
    for (const key of Object.keys(errors)) {
      const list = errors[key];
      if (Array.isArray(list) && list.length) return String(list[0]);
    }
    return (data && data.detail) || fallback;
  }
  function showError(id, text) { $(id).textContent = text || ""; $(id).hidden = !text; }
  async function loadMaps(select) {
    const { status, data } = await B.request("GET", urls.maps);
    if (status !== 200 || !Array.isArray(data)) return;
    maps = data;
    fill($("map-choice"), [["", gettext("none: a drawn grid")]].concat(maps.map((m) => [String(m.id), `${m.name} (${m.cols}×${m.rows})`])), true);
    if (select !== undefined) $("map-choice").value = String(select);
    else showMapInUse(); // the list came after the first view: it shows the map in use now
  }
  // The selector names the map under the grid (so "Use it" keeps it), unless the GM is
  // choosing another.
  function showMapInUse() {
    const view = B.state.view;
    if (!view || document.activeElement === $("map-choice") || $("map-choice").dataset.touched) return;
    const using = view.map ? maps.find((m) => view.map.url.split("?")[0] === m.url.split("?")[0]) : null;
    $("map-choice").value = using ? String(using.id) : "";
    if (using && !aligning) editAlignment(using);
  }
  function mapById(id) { return maps.find((m) => String(m.id) === String(id)) || null; }
  const ALIGN = { cols: "map-cols", rows: "map-rows", offset_x: "map-offset-x", offset_y: "map-offset-y", square_px: "map-square" };
  function alignValues() {
    const out = {};
    Object.entries(ALIGN).forEach(([k, id]) => { out[k] = parseInt($(id).value, 10); });
    return out;
  }
  function editAlignment(m) {
    aligning = m;
    $("map-align-form").hidden = !m;
    if (!m) return;
    Object.entries(ALIGN).forEach(([k, id]) => { $(id).value = m[k]; });
    const img = $("map-preview-img");
    if (img.dataset.src !== m.url) { img.dataset.src = m.url; img.src = m.url; }
    drawPreview();
  }
  // The grid over the preview, in the image's own pixels scaled to the shown width.
  function drawPreview() {
    const m = aligning;
    const img = $("map-preview-img");
    const grid = $("map-preview-grid");
    if (!m || !img.clientWidth) { grid.hidden = true; return; }
    const a = alignValues();
    if (![a.cols, a.rows, a.offset_x, a.offset_y, a.square_px].every(Number.isFinite) || a.square_px < 1) { grid.hidden = true; return; }
    const scale = img.clientWidth / m.width_px;
    const side = a.square_px * scale;
    grid.hidden = false;
    Object.assign(grid.style, {
      left: `${a.offset_x * scale}px`, top: `${a.offset_y * scale}px`,
      width: `${a.cols * side}px`, height: `${a.rows * side}px`,
      backgroundSize: `${side}px ${side}px`,
    });
    grid.dataset.cols = String(a.cols);
    grid.dataset.rows = String(a.rows);
  }
  $("map-preview-img").addEventListener("load", drawPreview);
  window.addEventListener("resize", drawPreview);
  Object.values(ALIGN).forEach((id) => $(id).addEventListener("input", drawPreview));

  $("map-upload-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("map-file").files[0];
    if (!file) { showError("map-upload-error", gettext("Choose an image file first.")); return; }
    const body = new FormData();
    body.append("image", file);
    body.append("name", $("map-name").value.trim() || file.name.replace(/\.[^.]*$/, "").slice(0, 120) || gettext("Map"));
    body.append("cols", String(B.state.view ? B.state.view.arena.width : 12));
    showError("map-upload-error", "");
    $("map-upload").disabled = true;
    try {
      const response = await fetch(urls.maps, {
        method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      });
      let data = null;
      try { data = await response.json(); } catch (e) { data = null; }
      if (response.status === 201 && data) {
        $("map-upload-form").reset();
        await loadMaps(data.id);
        editAlignment(mapById(data.id));
        B.setStatus(interpolate(gettext("%(name)s uploaded: line its grid up below, then use it."), { name: data.name }, true), "good");
      } else if (response.status === 413) {
        showError("map-upload-error", gettext("The file is far too large: upload at most 8 MB."));
      } else {
        showError("map-upload-error", firstError(data, interpolate(gettext("The upload failed (%(status)s)."), { status: response.status }, true)));
      }
    } catch (err) {
      showError("map-upload-error", gettext("The upload failed: check the connection and try again."));
    } finally {
      $("map-upload").disabled = false;
    }
  });
  $("map-choice").addEventListener("change", () => {
    $("map-choice").dataset.touched = "1"; // the GM's pick stands until she uses it
    editAlignment(mapById($("map-choice").value));
  });
  $("map-use").addEventListener("click", () => {
    const id = $("map-choice").value;
    delete $("map-choice").dataset.touched;
    B.send("PUT", urls.map, { map: id ? parseInt(id, 10) : null, expected_version: version() }, id ? gettext("The map is under the grid.") : gettext("Back to a drawn grid."));
  });
  $("map-align-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!aligning) return;
    showError("map-align-error", "");
    const { status, data } = await B.request("PATCH", urls.map_detail.replace("{id}", aligning.id), alignValues());
    if (status === 200 && data) {
      await loadMaps(data.id);
      editAlignment(mapById(data.id));
      const inUse = B.state.view && B.state.view.map && B.state.view.map.url.split("?")[0] === data.url.split("?")[0];
      if (inUse) {
        // the battle's arena follows its map's size in setup: lay it again to apply it
        await B.send("PUT", urls.map, { map: data.id, expected_version: version() }, gettext("Grid saved."));
      } else {
        B.setStatus(gettext("Grid saved."), "good");
      }
    } else {
      showError("map-align-error", firstError(data, interpolate(gettext("Could not save the grid (%(status)s)."), { status }, true)));
    }
  });

  function fogArea(kind, from, to) {
    B.act({ type: kind, from, to }, kind === "gm_fog" ? gettext("The area is in fog: players no longer see who stands there.") : gettext("The fog over the area has lifted."));
  }
  function typedCorners() {
    const n = (id) => Math.max(0, parseInt($(id).value, 10) || 0);
    return [[n("fog-x1"), n("fog-y1")], [n("fog-x2"), n("fog-y2")]];
  }
  $("fog-add").addEventListener("click", () => fogArea("gm_fog", ...typedCorners()));
  $("fog-clear").addEventListener("click", () => fogArea("gm_reveal", ...typedCorners()));
  function wholeArena() { const a = B.state.view.arena; return [[0, 0], [a.width - 1, a.height - 1]]; }
  $("fog-all").addEventListener("click", () => fogArea("gm_fog", ...wholeArena()));
  $("fog-none").addEventListener("click", () => fogArea("gm_reveal", ...wholeArena()));
  // Two clicks on the board: the rectangle's corners (the board's own square-click mode).
  function paintFog(kind) {
    let first = null;
    squareMode(kind === "gm_fog" ? gettext("Click the first corner of the area to fog.") : gettext("Click the first corner of the area to reveal."), (sq) => {
      if (!first) {
        first = sq;
        $("fog-x1").value = sq[0]; $("fog-y1").value = sq[1];
        B.setStatus(interpolate(gettext("Now click the opposite corner (from %(x)s, %(y)s)."), { x: sq[0], y: sq[1] }, true), "");
        return;
      }
      $("fog-x2").value = sq[0]; $("fog-y2").value = sq[1];
      const from = first;
      first = null;
      B.setMode(null);
      fogArea(kind, from, sq);
    });
  }
  $("fog-paint").addEventListener("click", () => paintFog("gm_fog"));
  $("fog-reveal-paint").addEventListener("click", () => paintFog("gm_reveal"));
  loadMaps();

  // ------------------------------------------------------------------ every render
  B.onRender((view) => {
    const setup = view.phase === "setup";
    $("gm-setup").hidden = !setup;
    $("gm-overrides").hidden = setup || view.phase === "ended";
    // undo stays after the end: an override that ended the battle by mistake can be taken back
    $("gm-undo-box").hidden = setup;
    $("gm-undo-ended").hidden = view.phase !== "ended";
    $("npc-form").hidden = view.phase === "ended";
    $("wiki-npc-form").hidden = view.phase === "ended";
    if (document.activeElement !== $("arena-width")) $("arena-width").value = view.arena.width;
    if (document.activeElement !== $("arena-height")) $("arena-height").value = view.arena.height;
    const present = new Set(Object.keys(view.combatants));
    const placeable = (config.characters || []).filter((c) => !present.has(c.engine_id));
    fill($("place-character"), placeable
      .map((c) => [String(c.id), interpolate(gettext("%(name)s (%(owner)s)"), { name: c.name, owner: c.is_npc ? gettext("NPC") : c.owner }, true)]), true);
    // say why there is nothing to place: no characters at all, or all of them on the board
    const none = !(config.characters || []).length;
    $("place-character-none").hidden = !none;
    $("place-character-all").hidden = none || placeable.length > 0;
    $("place-character-fields").hidden = !placeable.length;
    $("place-character-button").hidden = !placeable.length;
    const fighters = Object.values(view.combatants);
    const named = (c) => [c.id, `${c.name} (${B.sideWords(c.side)})`];
    fill($("ov-combatant"), fighters.map(named), true);
    fill($("ov-source"), [["", gettext("nobody")]].concat(fighters.map(named)), true);
    const current = view.combatants[$("ov-combatant").value];
    fill($("ov-effect"), current ? current.effects.map((e) => [e.id, e.label || e.kind]) : [], false);
    const sides = [...new Set(fighters.map((c) => c.side))];
    fill($("end-winner"), [["", gettext("no winner")]].concat(sides.map((s) => [s, interpolate(gettext("%(side)s won"), { side: B.sideWords(s) }, true)])), true);
    const selected = B.state.selected && view.combatants[B.state.selected];
    $("gm-piece").hidden = !(setup && selected && selected.kind !== "doll");
    $("gm-piece-name").textContent = selected ? selected.name : "";
    const fogged = (view.fog || []).length;
    $("fog-count").textContent = fogged ? interpolate(ngettext("%(count)s square in fog.", "%(count)s squares in fog.", fogged), { count: fogged }, true) : gettext("No fog: players see the whole arena.");
    ["fog-x1", "fog-x2"].forEach((id) => { $(id).max = view.arena.width - 1; });
    ["fog-y1", "fog-y2"].forEach((id) => { $(id).max = view.arena.height - 1; });
    showMapInUse();
    const painting = document.querySelector("#terrain-tools input[name=terrain]:checked");
    if (setup && painting && painting.value && !B.state.mode) painting.dispatchEvent(new Event("change"));
  });
})();
