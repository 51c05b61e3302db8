/* Dream Battle of SpellCard at the tavern table: draws one seat's view of the duel.
 *
 * The renderer contract (the tavern wave's brief; W1's static/js/tavern/table.js calls it):
 *   window.TavernGames.dbs.render(root, payload, api)
 * `payload` is minigames/payload.py's JSON (view, moves with labels, finished, result);
 * `api.play(action)` sends one of `payload.moves` (never an action built here);
 * `api.fallbackButtons(moves)` offers the moves this drawing has no place for.
 *
 * Every card is a button: tapping (or Enter on) a card opens its details below the board,
 * the card in words (from the view's `cards`) and one button per legal move with it (declare
 * it, counter with it, set it, spring it...). Moves that concern no card (end the turn, let
 * the attack through, change nothing) sit in the action bar at the top. Nothing is shown only
 * on hover, and no card id is ever written into the page.
 */
(function () {
  "use strict";

  const DETAIL_ID = "dbs-detail";
  const START_LP = 10000;
  const BEAD_WORDS = { full: "full", empty: "empty", broken: "broken" };
  const BEAD_MARKS = { full: "●", empty: "○", broken: "✕" };
  const STATUS_SHORT = { support: "Support · tapped", center: "Center · upright", hyper: "Hyper" };
  const PHASES = [
    ["pick", "Pick"],
    ["change", "Change"],
    ["set", "Set"],
    ["battle", "Battle"],
    ["discard", "End"],
  ];

  const { el, plural } = window.TavernKit;

  function Board(root, payload, api) {
    this.root = root;
    this.payload = payload;
    this.api = api || {};
    this.view = payload.view || {};
    this.cards = this.view.cards || {};
    this.me = payload.seat === null || payload.seat === undefined ? null : payload.seat;
    this.bottom = this.me === null ? 0 : this.me;
    this.top = 1 - this.bottom;
    this.entries = new Map(); // key -> {button, card, zone}
    this.movesByKey = new Map(); // key -> [move index]
    this.placed = new Set();
    this.selected = root.__dbsSelected || null;
  }

  Board.prototype.info = function (number, fallbackName) {
    return this.cards[number] || { name: fallbackName || "A card", kind_label: "Card", lines: [] };
  };

  /* The key a move concerns: a card in play or in hand by id; a deck choice by number. */
  function moveKey(action) {
    if (typeof action.card !== "string") return null;
    if (action.type === "choose_character" || action.type === "retrieve") return "deck " + action.card;
    return "card " + action.card;
  }

  Board.prototype.moveKey = moveKey;

  /* The words on a card's face: Level, attack and cost for a Spellcard, cost for an item. */
  Board.prototype.faceLines = function (info) {
    const lines = [];
    if (info.kind === "battle") {
      lines.push(`Level ${info.level} · attack ${info.attack}`);
      lines.push(`${info.cost} SP${info.character ? " · " + info.character : ""}`);
      if (info.limit && info.limit !== "none") {
        lines.push(info.limit === "hyper" ? "Hyper only" : "Center or Hyper only");
      }
    } else if (info.cost !== null && info.cost !== undefined) {
      lines.push(`${info.cost} SP`);
    }
    return lines;
  };

  /* A card as a button. `card` has a number and a name (a view card) and maybe an id. */
  Board.prototype.cardButton = function (card, zone, key, extra) {
    const info = this.info(card.number, card.name);
    const kind = info.kind || card.kind || "card";
    const button = el("button", `dbs-card dbs-card--${kind}`);
    button.type = "button";
    button.setAttribute("aria-controls", DETAIL_ID);
    button.append(el("span", "dbs-card__name", card.name || info.name));
    button.append(el("span", "dbs-card__kind", info.kind_label || "Card"));
    this.faceLines(info)
      .concat(extra || [])
      .forEach((line) => button.append(el("span", "dbs-card__line", line)));
    const moves = (key && this.movesByKey.get(key)) || [];
    if (key && !this.entries.has(key)) this.entries.set(key, { button, card, zone, info });
    if (moves.length) {
      button.classList.add("dbs-card--playable");
      button.dataset.opens = moves.join(" ");
      button.append(
        el("span", "dbs-card__moves", moves.length === 1 ? "1 move" : `${moves.length} moves`),
      );
    }
    const selected = key && this.selected === key;
    button.setAttribute("aria-expanded", selected ? "true" : "false");
    if (selected) button.classList.add("dbs-card--selected");
    if (key) {
      button.addEventListener("click", () =>
        this.select(key === this.selected ? null : key, button),
      );
    }
    else {
      // a card without an id (never happens for cards in play) still opens its words
      this.anonymous = (this.anonymous || 0) + 1;
      const own = "shown " + this.anonymous;
      this.entries.set(own, { button, card, zone, info });
      button.addEventListener("click", () =>
        this.select(own === this.selected ? null : own, button),
      );
    }
    return button;
  };

  Board.prototype.idCard = function (card, zone, extra) {
    return this.cardButton(card, zone, card.id ? "card " + card.id : null, extra);
  };

  Board.prototype.back = function (label) {
    const back = el("div", "dbs-back");
    back.append(el("span", "dbs-back__label", label));
    return back;
  };

  Board.prototype.zone = function (label, cls, items, empty) {
    const section = el("section", `dbs-zone ${cls || ""}`.trim());
    section.setAttribute("aria-label", label);
    section.append(el("h4", "dbs-zone__title", label));
    const row = el("div", "dbs-row");
    if (items.length) items.forEach((item) => row.append(item));
    else row.append(el("p", "dbs-empty", empty || "None"));
    section.append(row);
    return section;
  };

  Board.prototype.beads = function (beads) {
    const box = el("div", "dbs-beads");
    const counts = { full: 0, empty: 0, broken: 0 };
    const list = el("ol", "dbs-beads__list");
    list.setAttribute("aria-hidden", "true");
    (beads || []).forEach((bead) => {
      counts[bead] = (counts[bead] || 0) + 1;
      list.append(el("li", `dbs-bead dbs-bead--${bead}`, BEAD_MARKS[bead] || "?"));
    });
    box.append(list);
    const words = ["full", "empty", "broken"]
      .filter((k) => counts[k])
      .map((k) => `${counts[k]} ${BEAD_WORDS[k]}`)
      .join(", ");
    box.append(el("span", "dbs-beads__words", words || "none"));
    return box;
  };

  Board.prototype.side = function (seat) {
    const v = this.view;
    const player = (v.players || [])[seat] || {};
    const mine = seat === this.me;
    const setup = String(v.phase || "").startsWith("setup");
    const side = el("section", `dbs-side ${seat === this.bottom ? "dbs-side--near" : "dbs-side--far"}`);
    side.setAttribute("aria-label", `${this.who(seat)}'s side of the table`);

    const head = el("div", "dbs-side__head");
    head.append(el("h3", "dbs-side__name", this.who(seat)));
    if (!setup && !this.payload.finished) {
      const attacks = v.active === seat;
      head.append(
        el("span", `dbs-badge dbs-badge--${attacks ? "attack" : "defend"}`, attacks ? "Attacks" : "Defends"),
      );
    }
    if ((v.waiting_on || []).includes(seat) && !this.payload.finished) {
      head.append(el("span", "dbs-badge dbs-badge--turn", mine ? "Your move" : "To move"));
    }
    if (!setup && v.first === seat) head.append(el("span", "dbs-badge", "First player"));
    side.append(head);

    const stats = el("dl", "dbs-stats");
    const add = (term, value, cls) => {
      const box = el("div", `dbs-stat ${cls || ""}`.trim());
      box.append(el("dt", "dbs-stat__term", term));
      const dd = el("dd", "dbs-stat__value");
      if (value instanceof Node) dd.append(value);
      else dd.textContent = String(value);
      box.append(dd);
      stats.append(box);
      return box;
    };
    const lpBox = add("LP", player.lp, "dbs-stat--lp");
    const meter = el("meter", "dbs-meter");
    meter.min = 0;
    meter.max = START_LP;
    meter.low = 3000;
    meter.high = 6000;
    meter.optimum = START_LP;
    meter.value = Math.max(0, Math.min(START_LP, Number(player.lp) || 0));
    meter.setAttribute("aria-label", `${player.lp} LP`);
    lpBox.append(meter);
    add("SP beads", this.beads(player.beads), "dbs-stat--beads");
    add("SP to spend", player.available_sp);
    add("Extra SP", `${player.extra_sp_count || 0} / 5`);
    add("Hand", player.hand_count || 0);
    add("Deck", player.deck_count || 0);
    add("Chain Level", player.chain_level || 0);
    side.append(stats);

    if (setup) {
      let note;
      if (this.payload.finished) {
        note = "The game ended before it began.";
      } else if (mine && player.pending) {
        note = `You chose ${player.pending.name}; both choices are shown together.`;
      } else if (mine && !player.ready) {
        note = "Your choice: tap one of the cards just below.";
      } else if (player.ready) {
        note = `${this.who(seat)} has chosen.`;
      } else {
        note = `${this.who(seat)} is choosing.`;
      }
      side.append(el("p", "dbs-note", note));
    }

    // opening choices from her own deck list
    if (mine && Array.isArray(player.deck_list) && !this.payload.finished) {
      const wanted = v.phase === "setup_character" ? "character" : null;
      const numbers = player.deck_list.filter(
        (n) => this.movesByKey.has("deck " + n) || (wanted && (this.cards[n] || {}).kind === wanted),
      );
      if (numbers.length) {
        side.append(
          this.zone(
            v.phase === "setup_character" ? "Your characters (choose one)" : "Your deck (take one card)",
            "dbs-zone--deck",
            numbers.map((n) => this.cardButton({ number: n, name: this.info(n).name }, "your deck", "deck " + n)),
          ),
        );
      }
    }

    // Character Area (a Hyper character stands in the Duel Zone; she stays listed here)
    const chars = (player.characters || []).map((c) =>
      c.status === "hyper"
        ? this.idCard(c, "Duel Zone (Hyper)", ["Hyper: in the Duel Zone"])
        : this.idCard(c, `Character Area, ${c.status_label}`, [STATUS_SHORT[c.status] || c.status_label]),
    );
    chars.forEach((b, i) => b.classList.add(`dbs-card--${(player.characters[i] || {}).status || "support"}`));
    side.append(this.zone("Character Area", "dbs-zone--characters", chars, "No character yet"));

    // Item Area: face-down Traps are backs to everyone but their owner
    const items = (player.items || []).map((item) =>
      item.face_down && !item.id
        ? this.back("Face-down item")
        : this.idCard(item, "Item Area", [item.face_down ? "Set face down" : "Face up"]),
    );
    side.append(this.zone("Item Area (2 places)", "dbs-zone--items", items, "Empty"));

    // Spell Chain, bottom first, with each card's Level
    const chain = (player.chain || []).map((c, i, all) => {
      const info = this.info(c.number, c.name);
      const button = this.idCard(c, "Spell Chain", i === all.length - 1 ? ["Top of the chain"] : []);
      button.classList.add("dbs-card--chain");
      button.setAttribute("data-level", String(info.level || ""));
      return button;
    });
    side.append(
      this.zone(
        `Spell Chain (total Level ${player.chain_level || 0})`,
        "dbs-zone--chain",
        chain,
        "No Spellcard has hit yet",
      ),
    );

    // Extra SP: face down; their owner sees which cards
    if (mine && (player.extra_sp || []).length) {
      side.append(
        this.zone(
          `Extra SP (${player.extra_sp.length} of 5, face down)`,
          "dbs-zone--extra",
          player.extra_sp.map((c) => this.idCard(c, "Extra SP (face down)")),
        ),
      );
    } else {
      const zone = el("section", "dbs-zone dbs-zone--extra");
      zone.setAttribute("aria-label", "Extra SP");
      zone.append(el("h4", "dbs-zone__title", `Extra SP: ${player.extra_sp_count || 0} of 5, face down`));
      side.append(zone);
    }

    // the hand: her own face up; someone else's as backs, plus the cards shown to all
    if (mine) {
      side.append(
        this.zone(
          `Your hand (${plural((player.hand || []).length, "card")}, limit ${player.hand_limit})`,
          "dbs-zone--hand",
          (player.hand || []).map((c) => this.idCard(c, "your hand")),
          "Your hand is empty",
        ),
      );
    } else {
      const shown = player.hand || [];
      const zone = el("section", "dbs-zone dbs-zone--hand");
      zone.setAttribute("aria-label", `${this.who(seat)}'s hand`);
      const hiddenCount = Math.max(0, (player.hand_count || 0) - shown.length);
      zone.append(
        el(
          "h4",
          "dbs-zone__title",
          // a shown card she put face down since stays listed: the table cannot tell which
          `Hand: ${plural(player.hand_count || 0, "card")}` +
            (shown.length ? `; ${plural(shown.length, "card")} shown to everyone, in her hand or face down` : ", face down"),
        ),
      );
      const row = el("div", "dbs-row");
      shown.forEach((c) => row.append(this.idCard(c, `${this.whose(seat).toLowerCase()} hand, shown`)));
      const backs = el("div", "dbs-backs");
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(hiddenCount, 12); i += 1) backs.append(el("span", "dbs-backs__one"));
      row.append(backs);
      zone.append(row);
      side.append(zone);
    }

    const grave = el("details", "dbs-pile");
    grave.append(el("summary", "dbs-pile__summary", `Grave (${plural((player.grave || []).length, "card")})`));
    const graveRow = el("div", "dbs-row");
    (player.grave || []).forEach((c) => graveRow.append(this.idCard(c, "grave")));
    if (!(player.grave || []).length) graveRow.append(el("p", "dbs-empty", "Empty"));
    grave.append(graveRow);
    if (grave.querySelector(".dbs-card--selected")) grave.open = true;
    side.append(grave);
    return side;
  };

  Board.prototype.duelZone = function () {
    const v = this.view;
    const zone = el("section", "dbs-duel");
    zone.setAttribute("aria-label", "The Duel Zone");
    zone.append(el("h3", "dbs-duel__title", "Duel Zone"));
    const clash = v.clash;
    const players = v.players || [];
    const hyper = [];
    [this.top, this.bottom].forEach((seat) => {
      (players[seat] && players[seat].characters ? players[seat].characters : [])
        .filter((c) => c.status === "hyper")
        .forEach((c) => hyper.push(`${this.whose(seat)} ${c.name} is Hyper here.`));
    });
    hyper.forEach((line) => zone.append(el("p", "dbs-note", line)));
    if (!clash) {
      zone.append(el("p", "dbs-empty", "No Spellcard has been declared."));
      return zone;
    }
    const attacker = clash.attacker;
    const grid = el("div", "dbs-duel__grid");
    const attackBox = el("div", "dbs-duel__side");
    attackBox.append(el("p", "dbs-duel__role", `Declared by ${this.who(attacker)}`));
    attackBox.append(this.idCard(clash.attack, "Duel Zone, attacking", [`Attack now: ${clash.attack_value}`]));
    grid.append(attackBox);
    const counterBox = el("div", "dbs-duel__side");
    counterBox.append(el("p", "dbs-duel__role", `Answer of ${this.who(1 - attacker)}`));
    if (clash.counter) {
      counterBox.append(this.idCard(clash.counter, "Duel Zone, counter-attacking", ["Counter-attack"]));
    } else {
      counterBox.append(
        el(
          "p",
          "dbs-empty",
          clash.reacted ? "Traps or Instants used; no counter-attack." : "No counter-attack (yet).",
        ),
      );
    }
    grid.append(counterBox);
    zone.append(grid);
    zone.append(
      el(
        "p",
        "dbs-note",
        "The higher attack hits: the defender loses the difference in LP and the Spellcard joins the Spell Chain.",
      ),
    );
    return zone;
  };

  Board.prototype.phaseBar = function () {
    const v = this.view;
    const bar = el("section", "dbs-phase");
    bar.setAttribute("aria-label", "Phase and turn");
    const bits = [];
    if (v.turn) bits.push(`Turn ${v.turn}`);
    // a table that ended before its game did says so, not the phase it stopped in
    const early = this.payload.finished && v.phase !== "over";
    bits.push(early ? ((this.payload.result || {}).abandoned ? "Abandoned" : "Game over") : v.phase_label || "Setting up");
    bar.append(el("p", "dbs-phase__line", bits.join(" · ")));
    const now = v.phase === "reaction" ? "battle" : v.phase;
    if (!early && PHASES.some(([key]) => key === now)) {
      const list = el("ol", "dbs-steps");
      list.setAttribute("aria-label", "Phases of the turn");
      PHASES.forEach(([key, label]) => {
        const item = el("li", "dbs-steps__item", label);
        if (key === now) {
          item.classList.add("dbs-steps__item--now");
          item.setAttribute("aria-current", "step");
          item.textContent += " (now)";
        }
        list.append(item);
      });
      bar.append(list);
    }
    if (!this.payload.finished && !String(v.phase || "").startsWith("setup")) {
      bar.append(el("p", "dbs-phase__roles", `${this.who(v.active)} attacks; ${this.who(1 - v.active)} defends.`));
    }
    if (!this.payload.finished) bar.append(el("p", "dbs-prompt", this.prompt()));
    return bar;
  };

  Board.prototype.prompt = function () {
    const v = this.view;
    const waiting = v.waiting_on || [];
    const mine = this.me !== null && waiting.includes(this.me);
    const others = waiting.filter((s) => s !== this.me).map((s) => this.who(s));
    const ask = {
      setup_character: "choose the character to start with",
      setup_retrieve: "take one card from the deck into the hand",
      change: "call, stand up or send a character into the Duel Zone, or change nothing",
      set: "put cards into Extra SP or set Traps, then go to battle",
      battle: "declare a Spellcard, play a Buff, Instant or Constant, or end the turn",
      reaction: "counter-attack, spring Traps or use Instants, or let the attack through",
      discard: "discard down to the hand limit",
    }[v.phase];
    if (mine) return `Your move: ${ask || "choose a move"}.`;
    if (others.length) return `Waiting for ${others.join(" and ")}.`;
    return "";
  };

  Board.prototype.actionBar = function (status) {
    const bar = el("div", "dbs-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Moves");
    (this.payload.moves || []).forEach((move, index) => {
      if (moveKey(move.action || {})) return;
      bar.append(this.moveButton(index, status, "dbs-move--secondary"));
    });
    return bar;
  };

  Board.prototype.result = function () {
    const p = this.payload;
    const result = p.result || {};
    const v = this.view;
    const box = el("section", "dbs-result");
    box.setAttribute("aria-label", "Final result");
    let winners = result.winners;
    if (!winners) winners = v.result && v.result.winner !== null && v.result.winner !== undefined ? [v.result.winner] : [];
    let head;
    if (result.abandoned) head = "The table was abandoned: nobody won.";
    else if (!winners.length) head = "The game is a draw.";
    else if (winners.includes(this.me)) head = "You win!";
    else head = `${winners.map((s) => this.name(s)).join(" and ")} wins.`;
    box.append(el("h3", "dbs-result__head", head));
    box.append(el("p", "dbs-result__reason", result.text || (v.result && v.result.text) || p.summary || ""));
    const scores = result.scores || [];
    if (scores.length) {
      const table = el("table", "dbs-result__table");
      const thead = el("thead");
      const hr = el("tr");
      ["Player", "LP", "Spell Chain Level"].forEach((h) => hr.append(el("th", null, h)));
      thead.append(hr);
      const tbody = el("tbody");
      scores.forEach((s) => {
        const row = el("tr");
        const mark = winners.includes(s.seat) ? " (winner)" : "";
        row.append(el("td", null, this.name(s.seat) + mark), el("td", null, s.lp), el("td", null, s.chain_level));
        tbody.append(row);
      });
      table.append(thead, tbody);
      box.append(table);
    }
    return box;
  };

  Board.prototype.fillDetail = function (entry, key) {
    const box = this.detail;
    box.replaceChildren();
    if (!entry) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const info = entry.info;
    const title = entry.card.name || info.name;
    box.append(this.detailHead(title, entry));
    box.append(el("p", "dbs-detail__where", `${info.kind_label || "Card"} · where: ${entry.zone}.`));
    if (entry.card.status_label) box.append(el("p", "dbs-detail__now", `Status: ${entry.card.status_label}.`));
    box.append(el("p", "dbs-detail__text", (info.lines || []).join(" ") || title));
    const status = el("p", "dbs-status");
    status.setAttribute("role", "status");
    this.detailMoves(box, title, key, status);
    box.append(status);
  };

  Board.prototype.middle = Board.prototype.duelZone;

  window.TavernKit.cardBoard(Board, "dbs", ".dbs-zone, .dbs-pile, .dbs-duel", "dbs");
})();
