/* RAIGO at the tavern table: draws the table for the viewing seat and offers her legal moves.
 *
 * The renderer contract is in the tavern's shared notes (W1 calls `render` on every payload):
 * everything drawn comes from `payload.view` (the engine's view for this seat, so face-down
 * tokens arrive as {hidden: true} and never carry an id), and every clickable move is one of
 * `payload.moves`, sent back unchanged through `api.play(move.action)`. The renderer never
 * builds an action and never decides what is legal.
 *
 * How moves find a place: each move is given a "place key" (a token, a space of a board, a
 * tower, or the prompt box). While the table is drawn, every place whose key has moves becomes a
 * button; tapping it opens a sheet listing those moves with their words (and what the token
 * is), so nothing is hover-only. The prompt box holds the moves that are answers rather than
 * places (draw one or two, stop fetching, let a spell happen, block it...). Whatever found no
 * place goes to `api.fallbackButtons`. Token ids stay in JavaScript: the DOM never holds one.
 */
(function () {
  "use strict";

  const HANDS = ["left", "right"];
  const BODY_SPACES = 3;
  const TOWER_LIMIT = 6;
  const ORDINALS = [gettext("first"), gettext("second"), gettext("third")];
  const HAND_WORDS = { left: gettext("left"), right: gettext("right") };
  const EFFECTS = {
    discharge: gettext("Thunder (Discharge)"),
    charge: gettext("Thunder (Charge)"),
    snake: gettext("Snake"),
    katana: gettext("Katana"),
    shield: gettext("Shield"),
    roar: gettext("Roar"),
    switch: gettext("Switch"),
    purify: gettext("Purify"),
    destroy: gettext("Destroy"),
  };
  /* A token's name in the reader's language: the view keeps the engine's English name, and
   * "Switch" here is the token, not the language switcher's button (hence the context). */
  const TOKEN_NAMES = {
    Thunder: pgettext("RAIGO token", "Thunder"),
    Snake: pgettext("RAIGO token", "Snake"),
    Katana: pgettext("RAIGO token", "Katana"),
    Shield: pgettext("RAIGO token", "Shield"),
    Roar: pgettext("RAIGO token", "Roar"),
    Mist: pgettext("RAIGO token", "Mist"),
    Switch: pgettext("RAIGO token", "Switch"),
    Purify: pgettext("RAIGO token", "Purify"),
    Destroy: pgettext("RAIGO token", "Destroy"),
    One: pgettext("RAIGO token", "One"),
    Two: pgettext("RAIGO token", "Two"),
    Three: pgettext("RAIGO token", "Three"),
    Four: pgettext("RAIGO token", "Four"),
    Five: pgettext("RAIGO token", "Five"),
    Six: pgettext("RAIGO token", "Six"),
    Seven: pgettext("RAIGO token", "Seven"),
    Eight: pgettext("RAIGO token", "Eight"),
  };
  const tokenName = (token) => TOKEN_NAMES[token.name] || token.name;
  /* Headings of the move sheet, so a long list of chants reads in parts. */
  const GROUPS = {
    pile: gettext("Pile it on a tower"),
    chant: gettext("Chant it"),
    keep: gettext("Keep it"),
    fetch: gettext("Fetch it"),
    place: gettext("Place it"),
    discard: gettext("Discard it"),
    purify_discard: gettext("Discard it"),
    switch_pick: gettext("Switch"),
  };
  const SPACE_WORDS = [gettext("bottom Body space"), gettext("middle Body space"), gettext("top Body space")];
  /* Moves answered in the prompt box rather than at a place on the table. */
  const PROMPT_TYPES = ["end_fetch", "select", "decline", "shield", "roar", "purify_done"];

  const { el, seatName, rove } = window.TavernKit;

  function spaceWords(space) {
    if (HANDS.includes(space)) return interpolate(gettext("%(hand)s hand"), { hand: HAND_WORDS[space] }, true);
    const i = Number(String(space).slice(4));
    return SPACE_WORDS[i] || gettext("Body");
  }

  /* The places a move belongs to on the drawing: where it starts (the token, the hand) and,
   * for a move with a target, the target too (a tower, a space), so either tap finds it. */
  function placeKeys(action, you, victim) {
    switch (action.type) {
      case "fetch":
      case "discard":
      case "purify_discard":
      case "place":
        return [`tok:${action.token}`];
      case "pile":
        return [`space:${you}:${action.hand}`, `tower:${you}:${action.tower}`];
      case "keep":
        return [`space:${you}:${action.hand}`];
      case "chant":
        if (typeof action.tower === "number") return [`space:${you}:${action.hand}`, `tower:${action.seat}:${action.tower}`];
        if (action.space !== undefined) return [`space:${you}:${action.hand}`, `space:${action.seat}:${action.space}`];
        return [`space:${you}:${action.hand}`];
      case "roar":
        return ["prompt", `tower:${you}:${action.tower}`];
      case "switch_pick":
        if (action.canyon !== undefined) return [`tok:${action.canyon}`];
        return [`space:${action.seat}:${action.space}`];
      case "destroy":
        return [`tower:${victim}:${action.tower}`];
      case "arrange":
        return ["arrange"];
      default:
        return [PROMPT_TYPES.includes(action.type) ? "prompt" : "other"];
    }
  }

  class Table {
    constructor(root, payload, api) {
      this.root = root;
      this.payload = payload;
      this.view = payload.view || {};
      this.api = api || {};
      this.you = typeof payload.seat === "number" ? payload.seat : null;
      this.moves = Array.isArray(payload.moves) && !payload.finished ? payload.moves : [];
      this.byKey = new Map();
      this.placed = new Set();
      this.moves.forEach((move, index) => {
        const victim = this.view.destroy ? this.view.destroy.victim : null;
        for (const key of placeKeys(move.action || {}, this.you, victim)) {
          if (!this.byKey.has(key)) this.byKey.set(key, []);
          this.byKey.get(key).push(index);
        }
      });
      this.busy = false;
    }

    name(seat) {
      return seatName(this.api, this.payload, this.view, seat);
    }

    who(seat) {
      return seat === this.you ? interpolate(gettext("%(name)s (you)"), { name: this.name(seat) }, true) : this.name(seat);
    }

    towerWords(seat, tower) {
      return interpolate(gettext("%(seat)s's %(ordinal)s tower"), { seat: this.name(seat), ordinal: ORDINALS[tower] || gettext("next") }, true);
    }

    movesAt(keys) {
      const out = new Set();
      for (const key of keys) for (const i of this.byKey.get(key) || []) out.add(i);
      return [...out].sort((x, y) => x - y);
    }

    /* ---------------------------------------------------------------- places (play, setError and
     * moveButton come from TavernKit.sheetBoard) */

    /* A place on the table: a button opening the sheet when it has moves (or details to show),
     * a plain element otherwise. */
    place(tag, cls, keys, details) {
      const indexes = this.movesAt(keys);
      if (!indexes.length && !details) return el(tag, cls);
      const button = el("button", `${cls} raigo-place`);
      button.type = "button";
      if (indexes.length) {
        button.classList.add("raigo-playable");
        button.setAttribute("aria-haspopup", "dialog");
        button.dataset.moves = indexes.join(" ");
        indexes.forEach((i) => this.placed.add(i));
      }
      button.addEventListener("click", () => this.openSheet(details, indexes, button));
      return button;
    }

    openSheet(details, indexes, opener) {
      const sheet = this.sheet;
      this.opener = opener; // Escape gives the focus back to it
      sheet.replaceChildren();
      const head = el("div", "raigo-sheet-head");
      head.append(el("strong", "raigo-sheet-title", (details && details.title) || gettext("Choose a move")));
      const close = el("button", "raigo-sheet-close", gettext("Close"));
      close.type = "button";
      close.addEventListener("click", () => this.closeSheet(opener));
      head.append(close);
      sheet.append(head);
      for (const line of (details && details.lines) || []) sheet.append(el("p", "raigo-sheet-text", line));
      const groups = new Map();
      for (const i of indexes) {
        const heading = GROUPS[this.moves[i].action.type] || "";
        if (!groups.has(heading)) groups.set(heading, []);
        groups.get(heading).push(i);
      }
      for (const [heading, group] of groups) {
        if (heading && groups.size > 1) sheet.append(el("h4", "raigo-sheet-group", heading));
        const list = el("div", "raigo-sheet-moves");
        for (const i of group) list.append(this.moveButton(i));
        sheet.append(list);
      }
      sheet.hidden = false;
      sheet.setAttribute("aria-label", (details && details.title) || gettext("Choose a move"));
      const first = sheet.querySelector(".raigo-move") || close;
      first.focus({ preventScroll: true });
    }

    closeSheet(opener) {
      if (!this.sheet) return;
      this.sheet.hidden = true;
      if (opener && opener.focus) opener.focus({ preventScroll: true });
    }

    /* ---------------------------------------------------------------- tokens */

    tokenFace(node, token, where) {
      node.classList.add("raigo-token");
      if (!token || token.hidden) {
        node.classList.add("raigo-token-back");
        node.append(el("span", "raigo-token-mark", "?"));
        node.append(el("span", "raigo-visually-hidden", (where ? interpolate(gettext("face-down token %(where)s"), { where }, true) : gettext("face-down token"))));
        return node;
      }
      node.classList.add(token.spell ? "raigo-token-spell" : "raigo-token-silent");
      node.append(el("span", "raigo-token-weight", token.spell ? `✦${token.weight}` : token.weight));
      node.append(el("span", "raigo-token-name", tokenName(token)));
      if (where) node.append(el("span", "raigo-visually-hidden", ` ${where}`));
      return node;
    }

    tokenDetails(token, where) {
      if (!token || token.hidden) return { title: where ? interpolate(gettext("A face-down token %(where)s"), { where }, true) : gettext("A face-down token"), lines: [] };
      const kind = token.spell ? gettext("a Spell token") : gettext("a Silent token");
      return {
        title: `${tokenName(token)}${where ? ` ${where}` : ""}`,
        lines: [interpolate(gettext("%(name)s is %(kind)s of weight %(weight)s."), { name: tokenName(token), kind, weight: token.weight }, true)],
      };
    }

    /* A token at a place: `keys` are the place keys it answers to. Visible tokens always open
     * their details on tap; face-down ones only when they carry moves. */
    token(token, keys, where, extraCls) {
      const visible = token && !token.hidden;
      const node = this.place("span", `raigo-slot ${extraCls || ""}`.trim(), keys, visible || this.movesAt(keys).length ? this.tokenDetails(token, where) : null);
      return this.tokenFace(node, token, where);
    }

    emptySpace(keys, words, cls) {
      const node = this.place("span", `raigo-slot raigo-empty ${cls || ""}`.trim(), keys, this.movesAt(keys).length ? { title: interpolate(gettext("The empty %(space)s"), { space: words }, true), lines: [] } : null);
      node.append(el("span", "raigo-empty-text", gettext("empty")));
      node.append(el("span", "raigo-visually-hidden", ` ${words}`));
      return node;
    }

    /* A row of tokens, one stop of Tab named `label` (its tokens by the arrow keys). */
    tokenRow(tokens, cls, label) {
      const row = el("div", `raigo-row ${cls || ""}`.trim());
      for (const t of tokens) row.append(this.token(t, t && !t.hidden ? [`tok:${t.id}`] : [], ""));
      if (!tokens.length) row.append(el("span", "raigo-muted", gettext("none")));
      rove(row, label);
      return row;
    }

    /* ---------------------------------------------------------------- drawing */

    draw() {
      const v = this.view;
      const board = el("div", "raigo");
      board.append(this.status());
      board.append(this.promptBox());
      if (this.payload.finished || v.over) board.append(this.finalScoring());
      // A seated player's own board (her Hands first) comes before Raizan and the Canyon, so it
      // is in the first screen with her moves; a spectator sees the centre first.
      const centre = this.centre();
      if (this.you === null) board.append(centre);
      const order = [];
      const n = Array.isArray(v.players) ? v.players.length : 0;
      const start = this.you === null ? 0 : this.you;
      for (let k = 0; k < n; k++) order.push((start + k) % n);
      const boards = el("div", "raigo-boards");
      for (const seat of order) boards.append(this.playerBoard(v.players[seat]));
      if (this.you !== null && boards.firstChild) {
        board.append(boards.firstChild, centre);
        if (boards.childNodes.length) board.append(boards);
      } else board.append(boards);
      if (Array.isArray(v.scoring_log) && v.scoring_log.some((row) => row.kind !== "penalty") && !(this.payload.finished || v.over)) {
        board.append(this.resolvedTowers());
      }
      this.sheet = el("div", "raigo-sheet");
      this.sheet.setAttribute("role", "dialog");
      this.sheet.hidden = true;
      this.sheet.addEventListener("keydown", (e) => {
        if (e.key === "Escape") this.closeSheet(this.opener);
      });
      board.append(this.sheet);
      this.root.replaceChildren(board);
      const rest = this.moves.filter((_, i) => !this.placed.has(i));
      if (typeof this.api.fallbackButtons === "function") this.api.fallbackButtons(rest);
    }

    status() {
      const v = this.view;
      const box = el("section", "raigo-status");
      box.setAttribute("aria-label", gettext("Game status"));
      const line = el("p", "raigo-status-line");
      if (this.payload.finished || v.over) {
        line.textContent = (this.payload.result || {}).abandoned ? gettext("The table was abandoned.") : gettext("The game is over.");
      } else {
        line.append(el("strong", null, interpolate(gettext("Turn %(turn)s"), { turn: v.turn }, true)));
        line.append(document.createTextNode(" · " + interpolate(gettext("%(seat)s holds the Dong token and plays."), { seat: this.who(v.dong) }, true)));
      }
      box.append(line);
      if (v.prompt && v.prompt.text && !(this.payload.finished || v.over)) box.append(el("p", "raigo-status-wait", v.prompt.text));
      if (typeof v.end_after_turn === "number" && !v.over && !this.payload.finished) {
        box.append(el("p", "raigo-status-end", interpolate(gettext("Raizan is empty: the game ends after turn %(end_after_turn)s."), { end_after_turn: v.end_after_turn }, true)));
      }
      return box;
    }

    promptText() {
      const p = this.view.prompt || {};
      switch (p.kind) {
        case "fetch":
          return gettext("Fetch: tap a token on your Body to move it into an empty Hand, or stop fetching.");
        case "select":
          return gettext("Select: how many tokens do you draw from Raizan?");
        case "discard":
          return gettext("Forbiddance: all five spaces are full. Tap one of your tokens to discard it to the Canyon.");
        case "place":
          return gettext("Tap a drawn token to choose the space it goes to.");
        case "act":
          return gettext("Tap a token in your Hands (or the tower or space it would go to) to pile it, chant it or keep it.");
        case "react":
          return interpolate(gettext("%(caster)s chants %(spell)s%(target)s. Your answer:"), { caster: this.name(p.caster), spell: EFFECTS[p.effect] || gettext("a spell"), target: this.targetWords(p.target, p.effect) }, true);
        case "switch":
          return p.first ? gettext("Switch: tap the second token to switch.") : gettext("Switch: tap the first token to switch (an Inner Token or one in the Canyon).");
        case "purify":
          return p.stage === "discard"
            ? gettext("Purify: tap Inner Tokens to discard them, then draw as many from Raizan.")
            : gettext("Purify: choose the token for each Hand; the rest go on your Body.");
        case "destroy":
          return gettext("Destroy: tap the tower that is destroyed.");
        default:
          return gettext("Your move:");
      }
    }

    targetWords(target, effect) {
      if (!target || typeof target.seat !== "number") return "";
      if (typeof target.tower === "number") {
        const end = target.end ? interpolate(gettext(" (its %(end)s token)"), { end: target.end }, true) : "";
        return interpolate(gettext(" on %(tower)s%(end)s"), { tower: this.towerWords(target.seat, target.tower), end }, true);
      }
      if (target.space !== undefined) return interpolate(gettext(" on %(seat)s's %(space)s"), { seat: this.name(target.seat), space: spaceWords(target.space) }, true);
      return effect ? interpolate(gettext(" on %(seat)s"), { seat: this.name(target.seat) }, true) : "";
    }

    promptBox() {
      const box = el("section", "raigo-prompt");
      box.setAttribute("aria-label", gettext("Your move"));
      this.errorBox = el("p", "raigo-error");
      this.errorBox.setAttribute("role", "alert");
      this.errorBox.hidden = true;
      const p = this.view.prompt;
      if (p && p.kind === "react" && p.your_answer) {
        box.append(el("p", "raigo-prompt-note", gettext("Your answer is given; waiting for the others.")));
      }
      if (!this.moves.length) {
        box.hidden = !(p && p.kind === "react" && p.your_answer);
        box.append(this.errorBox);
        return box;
      }
      box.classList.add("raigo-prompt-active");
      box.append(el("p", "raigo-prompt-text", this.promptText()));
      if (p && p.kind === "purify" && Array.isArray(p.discarded) && p.discarded.length) {
        box.append(el("p", "raigo-muted", interpolate(gettext("Discarded for Purify so far: %(tokens)s."), { tokens: p.discarded.map(tokenName).join(", ") }, true)));
      }
      const direct = this.movesAt(["prompt"]);
      if (direct.length) {
        const row = el("div", "raigo-prompt-moves");
        for (const i of direct) row.append(this.moveButton(i));
        box.append(row);
      }
      const arrange = this.movesAt(["arrange"]);
      if (arrange.length) box.append(this.arrangeForm(arrange));
      box.append(this.errorBox);
      return box;
    }

    /* Purify's last step: the moves list every (left, right) pair; two choosers pick one. */
    arrangeForm(indexes) {
      const form = el("div", "raigo-arrange");
      form.dataset.chooser = "";
      form.dataset.chooses = "arrange";
      const names = new Map();
      const collect = (id) => {
        if (!id || names.has(id)) return;
        names.set(id, id);
      };
      indexes.forEach((i) => {
        collect(this.moves[i].action.left);
        collect(this.moves[i].action.right);
      });
      const known = this.knownTokens();
      const choosers = {};
      for (const hand of HANDS) {
        const label = el("label", "raigo-arrange-field");
        label.append(el("span", null, interpolate(gettext("Your %(hand)s hand"), { hand: HAND_WORDS[hand] }, true)));
        const select = el("select", `raigo-arrange-${hand}`);
        select.dataset.field = hand;
        const none = el("option", null, gettext("Nothing"));
        none.value = "";
        select.append(none);
        const seen = new Set();
        indexes.forEach((i) => {
          const id = this.moves[i].action[hand];
          if (!id || seen.has(id)) return;
          seen.add(id);
          const t = known.get(id);
          const opt = el("option", null, t ? `${tokenName(t)} (${t.weight})` : gettext("A token"));
          opt.value = id;
          select.append(opt);
        });
        choosers[hand] = select;
        label.append(select);
        form.append(label);
      }
      const slot = el("div", "raigo-arrange-go");
      const refresh = () => {
        slot.replaceChildren();
        const left = choosers.left.value || null;
        const right = choosers.right.value || null;
        const match = indexes.find((i) => (this.moves[i].action.left || null) === left && (this.moves[i].action.right || null) === right);
        if (match === undefined) {
          slot.append(el("p", "raigo-muted", gettext("That arrangement is not possible (one token cannot be in both Hands, and at most three stay on the Body).")));
        } else {
          slot.append(this.moveButton(match, "raigo-arrange-play"));
        }
      };
      choosers.left.addEventListener("change", refresh);
      choosers.right.addEventListener("change", refresh);
      const first = this.moves[indexes[0]].action;
      choosers.left.value = first.left || "";
      choosers.right.value = first.right || "";
      refresh();
      indexes.forEach((i) => this.placed.add(i));
      form.append(slot);
      return form;
    }

    /* Every visible token of the viewer (for the arrange choosers' words). */
    knownTokens() {
      const out = new Map();
      const add = (t) => {
        if (t && !t.hidden && t.id) out.set(t.id, t);
      };
      const me = this.you === null ? null : (this.view.players || [])[this.you];
      if (me) {
        if (Array.isArray(me.body)) me.body.forEach(add);
        HANDS.forEach((h) => add(me.hands && me.hands[h]));
      }
      if (Array.isArray(this.view.drawn)) this.view.drawn.forEach(add);
      return out;
    }

    centre() {
      const v = this.view;
      const box = el("section", "raigo-centre");
      box.setAttribute("aria-label", gettext("The middle of the table"));

      const bonus = el("div", "raigo-pile raigo-bonus");
      bonus.append(el("h3", "raigo-label", gettext("Bonus Token")));
      if (v.bonus) bonus.append(this.token(v.bonus, [], gettext("(the Bonus Token)")));
      box.append(bonus);

      const raizan = el("div", "raigo-pile raigo-raizan");
      raizan.append(el("h3", "raigo-label", interpolate(ngettext("Raizan: %(count)s token", "Raizan: %(count)s tokens", v.raizan_total || 0), { count: v.raizan_total || 0 }, true)));
      const piles = el("div", "raigo-row");
      (v.raizan || []).forEach((count, i) => {
        const pile = el("span", "raigo-raizan-pile");
        pile.style.setProperty("--raigo-pile", String(Math.min(count, 17)));
        pile.append(el("span", "raigo-raizan-count", count));
        pile.append(el("span", "raigo-visually-hidden", " " + interpolate(gettext("tokens in pile %(number)s"), { number: i + 1 }, true)));
        piles.append(pile);
      });
      raizan.append(piles);
      if (v.box) raizan.append(el("p", "raigo-muted", interpolate(ngettext("%(count)s token left in the box unseen.", "%(count)s tokens left in the box unseen.", v.box), { count: v.box }, true)));
      box.append(raizan);

      const canyon = el("details", "raigo-pile raigo-canyon");
      const spent = v.canyon || [];
      const picks = spent.some((t) => this.movesAt([`tok:${t.id}`]).length);
      canyon.open = picks || spent.length <= 8;
      canyon.append(el("summary", "raigo-label", (spent.length ? interpolate(ngettext("Canyon: %(count)s token (tap to show or hide)", "Canyon: %(count)s tokens (tap to show or hide)", spent.length), { count: spent.length }, true) : gettext("Canyon: 0 tokens"))));
      canyon.append(this.tokenRow(spent, "raigo-canyon-row", gettext("The Canyon")));
      box.append(canyon);

      if (Array.isArray(v.in_play) && v.in_play.length) {
        const play = el("div", "raigo-pile raigo-in-play");
        play.append(el("h3", "raigo-label", gettext("Spells being chanted")));
        play.append(this.tokenRow(v.in_play, "", gettext("Spells being chanted")));
        box.append(play);
      }
      if (v.destroy) box.append(this.destroyBox(v.destroy));
      if (Array.isArray(v.drawn) || (v.drawn && v.drawn.count)) box.append(this.drawnBox());
      return box;
    }

    destroyBox(d) {
      const box = el("div", "raigo-pile raigo-destroy");
      box.append(el("h3", "raigo-label", interpolate(gettext("%(owner)s's Destroy"), { owner: this.name(d.owner) }, true)));
      const threshold = (this.view.options || {}).destroy_threshold;
      box.append(
        el("p", "raigo-muted", interpolate(gettext("Spells beside it weigh %(weight)s; it strikes when they weigh more than %(threshold)s."), { weight: d.weight, threshold }, true)),
      );
      box.append(this.tokenRow(d.row || [], "", interpolate(gettext("%(owner)s's Destroy"), { owner: this.name(d.owner) }, true)));
      if (typeof d.victim === "number") {
        box.append(el("p", "raigo-warning", interpolate(gettext("At the end of this turn it destroys one of %(victim)s's towers."), { victim: this.who(d.victim) }, true)));
      }
      return box;
    }

    drawnBox() {
      const v = this.view;
      const box = el("div", "raigo-pile raigo-drawn");
      if (Array.isArray(v.drawn)) {
        if (!v.drawn.length) return el("span");
        box.append(el("h3", "raigo-label", v.dong === this.you ? gettext("You drew") : gettext("Drawn")));
        const row = el("div", "raigo-row");
        for (const t of v.drawn) row.append(this.token(t, [`tok:${t.id}`], gettext("(drawn from Raizan)")));
        rove(row, v.dong === this.you ? gettext("You drew") : gettext("Drawn"));
        box.append(row);
      } else {
        box.append(el("h3", "raigo-label", gettext("Drawn")));
        box.append(el("p", "raigo-muted", interpolate(ngettext("%(seat)s drew %(count)s token and is placing them.", "%(seat)s drew %(count)s tokens and is placing them.", v.drawn.count), { seat: this.name(v.dong), count: v.drawn.count }, true)));
      }
      return box;
    }

    playerBoard(p) {
      const v = this.view;
      const seat = p.seat;
      const mine = seat === this.you;
      const box = el("section", `raigo-board${mine ? " raigo-board-mine" : ""}${p.out ? " raigo-board-out" : ""}`);
      box.setAttribute("aria-label", interpolate(gettext("%(seat)s's board"), { seat: this.who(seat) }, true));

      const head = el("div", "raigo-board-head");
      head.append(el("h3", "raigo-board-name", this.who(seat)));
      if (v.dong === seat && !v.over && !this.payload.finished) head.append(el("span", "raigo-badge raigo-dong", gettext("◉ Dong token")));
      if ((this.payload.waiting_on || []).includes(seat)) head.append(el("span", "raigo-badge raigo-waiting", gettext("▶ to act")));
      if (p.out) head.append(el("span", "raigo-badge raigo-out", gettext("✕ out of Yang balls")));
      box.append(head);

      const facts = el("div", "raigo-facts");
      const balls = el("span", "raigo-balls");
      balls.append(el("span", "raigo-ball-dots", "●".repeat(Math.min(p.balls, 12))));
      balls.append(el("span", "raigo-ball-count", interpolate(ngettext("%(count)s Yang ball", "%(count)s Yang balls", p.balls), { count: p.balls }, true)));
      facts.append(balls);
      if (v.seats === 4 && Array.isArray(p.team)) {
        facts.append(el("span", "raigo-team", interpolate(gettext("Team: %(names)s"), { names: p.team.map((s) => this.name(s)).join(gettext(" and ")) }, true)));
      }
      const used = (v.used || [])[seat] || [];
      if (used.length) facts.append(el("span", "raigo-used", interpolate(gettext("Used this turn: %(spell)s"), { spell: used.map((e) => EFFECTS[e] || gettext("a spell")).join(", ") }, true)));
      box.append(facts);

      const inner = el("div", "raigo-inner");
      inner.append(this.handsAndBody(p, mine));
      box.append(inner);

      const towers = el("div", "raigo-towers");
      towers.setAttribute("aria-label", gettext("Towers"));
      (p.towers || []).forEach((tower, i) => towers.append(this.towerEl(p, tower, i)));
      // a board's towers, and its Hands and Body, are a stop of Tab each (TavernKit.rove)
      rove(towers, mine ? gettext("Your towers") : interpolate(gettext("%(seat)s's towers"), { seat: this.name(seat) }, true));
      box.append(towers);
      return box;
    }

    handsAndBody(p, mine) {
      const seat = p.seat;
      const wrap = el("div", "raigo-spaces");
      const hands = el("div", "raigo-hands");
      for (const hand of HANDS) {
        const cell = el("div", `raigo-hand raigo-hand-${hand}`);
        cell.append(el("span", "raigo-label-small", hand === "left" ? gettext("Left hand") : gettext("Right hand")));
        const t = p.hands ? p.hands[hand] : null;
        const keys = [`space:${seat}:${hand}`];
        if (t && !t.hidden) keys.push(`tok:${t.id}`);
        const where = mine ? interpolate(gettext("in your %(hand)s hand"), { hand: HAND_WORDS[hand] }, true) : interpolate(gettext("in %(seat)s's %(hand)s hand"), { seat: this.name(seat), hand: HAND_WORDS[hand] }, true);
        cell.append(t ? this.token(t, keys, where) : this.emptySpace(keys, interpolate(gettext("%(hand)s hand"), { hand: HAND_WORDS[hand] }, true)));
        hands.append(cell);
      }
      wrap.append(hands);

      const body = el("div", "raigo-body");
      body.append(el("span", "raigo-label-small", gettext("Body (top to bottom)")));
      const spaces = el("div", "raigo-body-spaces");
      if (Array.isArray(p.body)) {
        const cells = [];
        for (let i = 0; i < BODY_SPACES; i++) {
          const t = p.body[i];
          const keys = [`space:${seat}:body${i}`];
          if (t) keys.push(`tok:${t.id}`);
          cells.push(t ? this.token(t, keys, interpolate(gettext("on your %(space)s"), { space: SPACE_WORDS[i] }, true)) : this.emptySpace(keys, SPACE_WORDS[i]));
        }
        cells.reverse().forEach((c) => spaces.append(c));
      } else {
        const count = p.body ? p.body.count : 0;
        const cells = [];
        for (let i = 0; i < BODY_SPACES; i++) {
          const keys = [`space:${seat}:body${i}`];
          cells.push(i < count ? this.token({ hidden: true }, keys, interpolate(gettext("on %(seat)s's %(space)s"), { seat: this.name(seat), space: SPACE_WORDS[i] }, true)) : this.emptySpace(keys, SPACE_WORDS[i]));
        }
        cells.reverse().forEach((c) => spaces.append(c));
      }
      body.append(spaces);
      if (!Array.isArray(p.body) && p.body && p.body.known && p.body.known.length) {
        const known = el("p", "raigo-known");
        known.textContent = interpolate(ngettext("You know this token is on the Body: %(tokens)s.", "You know these tokens are on the Body: %(tokens)s.", p.body.known.length), { tokens: p.body.known.map(tokenName).join(", ") }, true);
        body.append(known);
      }
      wrap.append(body);
      rove(wrap, mine ? gettext("Your Hands and Body") : interpolate(gettext("%(seat)s's Hands and Body"), { seat: this.name(seat) }, true));
      return wrap;
    }

    towerEl(p, tower, i) {
      const seat = p.seat;
      const v = this.view;
      const seal = (v.seals || []).find((s) => s.seat === seat && s.tower === i);
      const box = el("div", `raigo-tower${tower.sealed ? " raigo-tower-sealed" : ""}`);
      const title = ORDINALS[i] ? interpolate(gettext("%(ordinal)s tower"), { ordinal: ORDINALS[i][0].toUpperCase() + ORDINALS[i].slice(1) }, true) : gettext("A tower");
      const towerKeys = [`tower:${seat}:${i}`];
      const lines = [interpolate(ngettext("%(count)s token of %(limit)s; read from the bottom.", "%(count)s tokens of %(limit)s; read from the bottom.", tower.height), { count: tower.height, limit: TOWER_LIMIT }, true)];
      if (seal) lines.push(interpolate(gettext("Sealed by %(name)s until the end of turn %(until_turn)s: it counts as not there."), { name: tokenName(seal.token), until_turn: seal.until_turn }, true));
      const stack = this.place("div", "raigo-stack", towerKeys, this.movesAt(towerKeys).length ? { title: this.towerWords(seat, i), lines } : null);
      stack.setAttribute("aria-label", interpolate(ngettext("%(tower)s: %(count)s token", "%(tower)s: %(count)s tokens", tower.height), { tower: this.towerWords(seat, i), count: tower.height }, true));
      const tokens = tower.tokens || [];
      if (!tokens.length) stack.append(el("span", "raigo-circle", gettext("Sakura Circle")));
      tokens.forEach((t, k) => {
        const node = el("span", "raigo-tower-token");
        this.tokenFace(node, t, k === 0 ? gettext("(bottom)") : interpolate(gettext("(story %(story)s)"), { story: k + 1 }, true));
        stack.append(node);
      });
      box.append(stack);
      const foot = el("div", "raigo-tower-foot");
      foot.append(el("span", "raigo-tower-name", title));
      foot.append(el("span", "raigo-tower-height", `${tower.height}/${TOWER_LIMIT}`));
      box.append(foot);
      if (seal) box.append(el("span", "raigo-badge raigo-sealed", interpolate(gettext("Sealed by %(spell)s to the end of turn %(until_turn)s"), { spell: seal.token && seal.token.name ? tokenName(seal.token) : gettext("a spell"), until_turn: seal.until_turn }, true)));
      return box;
    }

    resolvedTowers() {
      const box = el("section", "raigo-log");
      box.setAttribute("aria-label", gettext("Towers resolved"));
      const details = el("details");
      // the log also holds the balls paid for Forbiddance: the final scoring lists those
      const towers = this.view.scoring_log.filter((row) => row.kind !== "penalty");
      details.append(el("summary", null, interpolate(gettext("Towers resolved so far (%(towers)s)"), { towers: towers.length }, true)));
      const list = el("ul");
      for (const row of towers) list.append(el("li", null, row.text));
      details.append(list);
      box.append(details);
      return box;
    }

    finalScoring() {
      const result = this.payload.result || this.view.result || {};
      const box = el("section", "raigo-final");
      box.setAttribute("aria-label", gettext("Final scoring"));
      if (!this.view.over) return this.endedEarly(box, result);
      box.append(el("h2", "raigo-final-title", gettext("Final scoring")));
      if (result.text) box.append(el("p", "raigo-final-text", result.text));
      const winners = result.winners || [];
      const sides = result.sides || [];
      if (sides.length) {
        const table = el("table", "raigo-final-table");
        const head = el("tr");
        [gettext("Side"), gettext("Yang balls"), gettext("Inner Tokens"), ""].forEach((h) => head.append(el("th", null, h)));
        const thead = el("thead");
        thead.append(head);
        table.append(thead);
        const tbody = el("tbody");
        for (const side of sides) {
          const row = el("tr");
          const won = side.seats.every((s) => winners.includes(s)) && winners.length > 0;
          if (won) row.className = "raigo-final-winner";
          row.append(el("td", null, side.seats.map((s) => this.who(s)).join(" and ")));
          row.append(el("td", null, side.balls));
          row.append(el("td", null, side.inner_tokens));
          row.append(el("td", null, won ? gettext("★ wins") : side.out ? gettext("✕ ran out") : ""));
          tbody.append(row);
        }
        table.append(tbody);
        box.append(table);
      }
      const breakdown = result.breakdown || this.view.scoring_log || [];
      const n = Array.isArray(this.view.players) ? this.view.players.length : 0;
      for (let seat = 0; seat < n; seat++) {
        const rows = breakdown.filter((r) => r.seat === seat);
        const part = el("div", "raigo-final-seat");
        const score = (result.scores || [])[seat];
        const balls = typeof score === "number" ? interpolate(ngettext("%(count)s Yang ball", "%(count)s Yang balls", score), { count: score }, true) : gettext("no score");
        const player = (this.view.players || [])[seat] || {};
        part.append(el("h3", null, player.out ? interpolate(gettext("%(seat)s: out of the game (%(balls)s at the end)"), { seat: this.who(seat), balls }, true) : interpolate(gettext("%(seat)s: %(balls)s at the end"), { seat: this.who(seat), balls }, true)));
        if (typeof result.starting_balls === "number") {
          part.append(el("p", "raigo-muted", interpolate(ngettext("Began with %(count)s Yang ball.", "Began with %(count)s Yang balls.", result.starting_balls), { count: result.starting_balls }, true)));
        }
        if (!rows.length) {
          part.append(el("p", "raigo-muted", gettext("No tower was resolved.")));
        } else {
          // Towers resolved during play, then those resolved at the end (older games' rows
          // carry no "when": one list, as they were logged).
          const groups = rows.some((r) => r.when) ? [["play", gettext("During play")], ["end", gettext("At the end, with the Bonus Token")]] : [[null, null]];
          for (const [when, heading] of groups) {
            const shown = when ? rows.filter((r) => r.when === when) : rows;
            if (!shown.length) continue;
            if (heading) part.append(el("p", "raigo-final-when", heading));
            const list = el("ul", "raigo-final-list");
            for (const r of shown) {
              const li = el("li");
              li.append(el("span", `raigo-points ${r.points > 0 ? "raigo-plus" : r.points < 0 ? "raigo-minus" : ""}`.trim(), `${r.points > 0 ? "+" : r.points < 0 ? "−" : "±"}${Math.abs(r.points)}`));
              li.append(document.createTextNode(` ${r.text}`));
              list.append(li);
            }
            part.append(list);
          }
        }
        box.append(part);
      }
      return box;
    }
  }

  /* A table that ended before its game did (a resignation, an abandon): no scoring, only how
   * it ended and who won (nobody, when abandoned). */
  Table.prototype.endedEarly = function (box, result) {
    const abandoned = Boolean(result.abandoned);
    box.append(el("h2", "raigo-final-title", abandoned ? gettext("The table was abandoned") : gettext("The game ended early")));
    if (result.text) box.append(el("p", "raigo-final-text", result.text));
    if (abandoned) {
      box.append(el("p", "raigo-muted", gettext("The game was left unfinished: nobody won.")));
      return box;
    }
    const winners = result.winners || [];
    const resigned = window.TavernKit.resignedSeats(this.payload);
    const list = el("ul", "raigo-final-list");
    const n = Array.isArray(this.view.players) ? this.view.players.length : 0;
    for (let seat = 0; seat < n; seat++) {
      let words = "lost";
      if (winners.includes(seat)) words = gettext("★ wins");
      if (resigned.includes(seat)) words = winners.includes(seat) ? interpolate(gettext("%(words)s (resigned)"), { words }, true) : gettext("resigned");
      list.append(el("li", null, `${this.who(seat)}: ${words}`));
    }
    box.append(list);
    return box;
  };

  window.TavernKit.sheetBoard(Table, "raigo");
  window.TavernGames = window.TavernGames || {};
  window.TavernGames.raigo = {
    drawsResult: true,
    render(root, payload, api) {
      new Table(root, payload || {}, api || {}).draw();
    },
  };
})();
