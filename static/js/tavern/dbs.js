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
  const BEAD_WORDS = { full: gettext("full"), empty: gettext("empty"), broken: gettext("broken") };
  const BEAD_MARKS = { full: "●", empty: "○", broken: "✕" };
  const STATUS_SHORT = { support: gettext("Support · tapped"), center: gettext("Center · upright"), hyper: gettext("Hyper") };
  const PHASES = [
    ["pick", gettext("Pick")],
    ["change", gettext("Change")],
    ["set", gettext("Set")],
    ["battle", gettext("Battle")],
    ["discard", gettext("End")],
  ];

  const { el } = window.TavernKit;

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
    return this.cards[number] || { name: fallbackName || gettext("A card"), kind_label: gettext("Card"), lines: [] };
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
      lines.push(interpolate(gettext("Level %(level)s · attack %(attack)s"), { level: info.level, attack: info.attack }, true));
      lines.push(info.character ? interpolate(gettext("%(cost)s SP · %(character)s"), { cost: info.cost, character: info.character }, true) : interpolate(gettext("%(cost)s SP"), { cost: info.cost }, true));
      if (info.limit && info.limit !== "none") {
        lines.push(info.limit === "hyper" ? gettext("Hyper only") : gettext("Center or Hyper only"));
      }
    } else if (info.cost !== null && info.cost !== undefined) {
      lines.push(interpolate(gettext("%(cost)s SP"), { cost: info.cost }, true));
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
    button.append(el("span", "dbs-card__kind", info.kind_label || gettext("Card")));
    this.faceLines(info)
      .concat(extra || [])
      .forEach((line) => button.append(el("span", "dbs-card__line", line)));
    const moves = (key && this.movesByKey.get(key)) || [];
    if (key && !this.entries.has(key)) this.entries.set(key, { button, card, zone, info });
    if (moves.length) {
      button.classList.add("dbs-card--playable");
      button.dataset.opens = moves.join(" ");
      button.append(
        el("span", "dbs-card__moves", interpolate(ngettext("%(count)s move", "%(count)s moves", moves.length), { count: moves.length }, true)),
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
    else row.append(el("p", "dbs-empty", empty || gettext("None")));
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
    box.append(el("span", "dbs-beads__words", words || gettext("none")));
    return box;
  };

  Board.prototype.side = function (seat) {
    const v = this.view;
    const player = (v.players || [])[seat] || {};
    const mine = seat === this.me;
    const setup = String(v.phase || "").startsWith("setup");
    const side = el("section", `dbs-side ${seat === this.bottom ? "dbs-side--near" : "dbs-side--far"}`);
    side.setAttribute("aria-label", interpolate(gettext("%(seat)s's side of the table"), { seat: this.who(seat) }, true));

    const head = el("div", "dbs-side__head");
    head.append(el("h3", "dbs-side__name", this.who(seat)));
    if (!setup && !this.payload.finished) {
      const attacks = v.active === seat;
      head.append(
        el("span", `dbs-badge dbs-badge--${attacks ? "attack" : "defend"}`, attacks ? gettext("Attacks") : gettext("Defends")),
      );
    }
    if ((v.waiting_on || []).includes(seat) && !this.payload.finished) {
      head.append(el("span", "dbs-badge dbs-badge--turn", mine ? gettext("Your move") : gettext("To move")));
    }
    if (!setup && v.first === seat) head.append(el("span", "dbs-badge", gettext("First player")));
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
    const lpBox = add(gettext("LP"), player.lp, "dbs-stat--lp");
    const meter = el("meter", "dbs-meter");
    meter.min = 0;
    meter.max = START_LP;
    meter.low = 3000;
    meter.high = 6000;
    meter.optimum = START_LP;
    meter.value = Math.max(0, Math.min(START_LP, Number(player.lp) || 0));
    meter.setAttribute("aria-label", interpolate(gettext("%(lp)s LP"), { lp: player.lp }, true));
    lpBox.append(meter);
    add(gettext("SP beads"), this.beads(player.beads), "dbs-stat--beads");
    add(gettext("SP to spend"), player.available_sp);
    add(gettext("Extra SP"), `${player.extra_sp_count || 0} / 5`);
    add(gettext("Hand"), player.hand_count || 0);
    add(gettext("Deck"), player.deck_count || 0);
    add(gettext("Chain Level"), player.chain_level || 0);
    side.append(stats);

    if (setup) {
      let note;
      if (this.payload.finished) {
        note = gettext("The game ended before it began.");
      } else if (mine && player.pending) {
        note = interpolate(gettext("You chose %(name)s; both choices are shown together."), { name: player.pending.name }, true);
      } else if (mine && !player.ready) {
        note = gettext("Your choice: tap one of the cards just below.");
      } else if (player.ready) {
        note = interpolate(gettext("%(seat)s has chosen."), { seat: this.who(seat) }, true);
      } else {
        note = interpolate(gettext("%(seat)s is choosing."), { seat: this.who(seat) }, true);
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
            v.phase === "setup_character" ? gettext("Your characters (choose one)") : gettext("Your deck (take one card)"),
            "dbs-zone--deck",
            numbers.map((n) => this.cardButton({ number: n, name: this.info(n).name }, gettext("your deck"), "deck " + n)),
          ),
        );
      }
    }

    // Character Area (a Hyper character stands in the Duel Zone; she stays listed here)
    const chars = (player.characters || []).map((c) =>
      c.status === "hyper"
        ? this.idCard(c, gettext("Duel Zone (Hyper)"), [gettext("Hyper: in the Duel Zone")])
        : this.idCard(c, interpolate(gettext("Character Area, %(status_label)s"), { status_label: c.status_label }, true), [STATUS_SHORT[c.status] || c.status_label]),
    );
    chars.forEach((b, i) => b.classList.add(`dbs-card--${(player.characters[i] || {}).status || "support"}`));
    side.append(this.zone(gettext("Character Area"), "dbs-zone--characters", chars, gettext("No character yet")));

    // Item Area: face-down Traps are backs to everyone but their owner
    const items = (player.items || []).map((item) =>
      item.face_down && !item.id
        ? this.back(gettext("Face-down item"))
        : this.idCard(item, gettext("Item Area"), [item.face_down ? gettext("Set face down") : gettext("Face up")]),
    );
    side.append(this.zone(gettext("Item Area (2 places)"), "dbs-zone--items", items, gettext("Empty")));

    // Spell Chain, bottom first, with each card's Level
    const chain = (player.chain || []).map((c, i, all) => {
      const info = this.info(c.number, c.name);
      const button = this.idCard(c, gettext("Spell Chain"), i === all.length - 1 ? [gettext("Top of the chain")] : []);
      button.classList.add("dbs-card--chain");
      button.setAttribute("data-level", String(info.level || ""));
      return button;
    });
    side.append(
      this.zone(
        interpolate(gettext("Spell Chain (total Level %(chain_level)s)"), { chain_level: player.chain_level || 0 }, true),
        "dbs-zone--chain",
        chain,
        gettext("No Spellcard has hit yet"),
      ),
    );

    // Extra SP: face down; their owner sees which cards
    if (mine && (player.extra_sp || []).length) {
      side.append(
        this.zone(
          interpolate(gettext("Extra SP (%(extra_sp)s of 5, face down)"), { extra_sp: player.extra_sp.length }, true),
          "dbs-zone--extra",
          player.extra_sp.map((c) => this.idCard(c, gettext("Extra SP (face down)"))),
        ),
      );
    } else {
      const zone = el("section", "dbs-zone dbs-zone--extra");
      zone.setAttribute("aria-label", gettext("Extra SP"));
      zone.append(el("h4", "dbs-zone__title", interpolate(gettext("Extra SP: %(extra_sp_count)s of 5, face down"), { extra_sp_count: player.extra_sp_count || 0 }, true)));
      side.append(zone);
    }

    // the hand: her own face up; someone else's as backs, plus the cards shown to all
    if (mine) {
      side.append(
        this.zone(
          interpolate(ngettext("Your hand (%(count)s card, limit %(limit)s)", "Your hand (%(count)s cards, limit %(limit)s)", (player.hand || []).length), { count: (player.hand || []).length, limit: player.hand_limit }, true),
          "dbs-zone--hand",
          (player.hand || []).map((c) => this.idCard(c, gettext("your hand"))),
          gettext("Your hand is empty"),
        ),
      );
    } else {
      const shown = player.hand || [];
      const zone = el("section", "dbs-zone dbs-zone--hand");
      zone.setAttribute("aria-label", interpolate(gettext("%(seat)s's hand"), { seat: this.who(seat) }, true));
      const hiddenCount = Math.max(0, (player.hand_count || 0) - shown.length);
      zone.append(
        el(
          "h4",
          "dbs-zone__title",
          // a shown card she put face down since stays listed: the table cannot tell which
          interpolate(ngettext("Hand: %(count)s card", "Hand: %(count)s cards", player.hand_count || 0), { count: player.hand_count || 0 }, true) +
            (shown.length ? interpolate(ngettext("; %(count)s card shown to everyone, in her hand or face down", "; %(count)s cards shown to everyone, in her hand or face down", shown.length), { count: shown.length }, true) : gettext(", face down")),
        ),
      );
      const row = el("div", "dbs-row");
      shown.forEach((c) => row.append(this.idCard(c, interpolate(gettext("%(seat)s hand, shown"), { seat: this.whose(seat).toLowerCase() }, true))));
      const backs = el("div", "dbs-backs");
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(hiddenCount, 12); i += 1) backs.append(el("span", "dbs-backs__one"));
      row.append(backs);
      zone.append(row);
      side.append(zone);
    }

    const grave = el("details", "dbs-pile");
    grave.append(el("summary", "dbs-pile__summary", interpolate(ngettext("Grave (%(count)s card)", "Grave (%(count)s cards)", (player.grave || []).length), { count: (player.grave || []).length }, true)));
    const graveRow = el("div", "dbs-row");
    (player.grave || []).forEach((c) => graveRow.append(this.idCard(c, "grave")));
    if (!(player.grave || []).length) graveRow.append(el("p", "dbs-empty", gettext("Empty")));
    grave.append(graveRow);
    if (grave.querySelector(".dbs-card--selected")) grave.open = true;
    side.append(grave);
    return side;
  };

  Board.prototype.duelZone = function () {
    const v = this.view;
    const zone = el("section", "dbs-duel");
    zone.setAttribute("aria-label", gettext("The Duel Zone"));
    zone.append(el("h3", "dbs-duel__title", gettext("Duel Zone")));
    const clash = v.clash;
    const players = v.players || [];
    const hyper = [];
    [this.top, this.bottom].forEach((seat) => {
      (players[seat] && players[seat].characters ? players[seat].characters : [])
        .filter((c) => c.status === "hyper")
        .forEach((c) => hyper.push(interpolate(gettext("%(seat)s %(name)s is Hyper here."), { seat: this.whose(seat), name: c.name }, true)));
    });
    hyper.forEach((line) => zone.append(el("p", "dbs-note", line)));
    if (!clash) {
      zone.append(el("p", "dbs-empty", gettext("No Spellcard has been declared.")));
      return zone;
    }
    const attacker = clash.attacker;
    const grid = el("div", "dbs-duel__grid");
    const attackBox = el("div", "dbs-duel__side");
    attackBox.append(el("p", "dbs-duel__role", interpolate(gettext("Declared by %(attacker)s"), { attacker: this.who(attacker) }, true)));
    attackBox.append(this.idCard(clash.attack, gettext("Duel Zone, attacking"), [interpolate(gettext("Attack now: %(attack_value)s"), { attack_value: clash.attack_value }, true)]));
    grid.append(attackBox);
    const counterBox = el("div", "dbs-duel__side");
    counterBox.append(el("p", "dbs-duel__role", interpolate(gettext("Answer of %(defender)s"), { defender: this.who(1 - attacker) }, true)));
    if (clash.counter) {
      counterBox.append(this.idCard(clash.counter, gettext("Duel Zone, counter-attacking"), [gettext("Counter-attack")]));
    } else {
      counterBox.append(
        el(
          "p",
          "dbs-empty",
          clash.reacted ? gettext("Traps or Instants used; no counter-attack.") : gettext("No counter-attack (yet)."),
        ),
      );
    }
    grid.append(counterBox);
    zone.append(grid);
    zone.append(
      el(
        "p",
        "dbs-note",
        gettext("The higher attack hits: the defender loses the difference in LP and the Spellcard joins the Spell Chain."),
      ),
    );
    return zone;
  };

  Board.prototype.phaseBar = function () {
    const v = this.view;
    const bar = el("section", "dbs-phase");
    bar.setAttribute("aria-label", gettext("Phase and turn"));
    const bits = [];
    if (v.turn) bits.push(interpolate(gettext("Turn %(turn)s"), { turn: v.turn }, true));
    // a table that ended before its game did says so, not the phase it stopped in
    const early = this.payload.finished && v.phase !== "over";
    bits.push(early ? ((this.payload.result || {}).abandoned ? gettext("Abandoned") : gettext("Game over")) : (v.phase_text && v.phase_text.text) || v.phase_label || gettext("Setting up"));
    bar.append(el("p", "dbs-phase__line", bits.join(" · ")));
    const now = v.phase === "reaction" ? "battle" : v.phase;
    if (!early && PHASES.some(([key]) => key === now)) {
      const list = el("ol", "dbs-steps");
      list.setAttribute("aria-label", gettext("Phases of the turn"));
      PHASES.forEach(([key, label]) => {
        const item = el("li", "dbs-steps__item", label);
        if (key === now) {
          item.classList.add("dbs-steps__item--now");
          item.setAttribute("aria-current", "step");
          item.textContent += gettext(" (now)");
        }
        list.append(item);
      });
      bar.append(list);
    }
    if (!this.payload.finished && !String(v.phase || "").startsWith("setup")) {
      bar.append(el("p", "dbs-phase__roles", interpolate(gettext("%(attacker)s attacks; %(defender)s defends."), { attacker: this.who(v.active), defender: this.who(1 - v.active) }, true)));
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
      setup_character: gettext("choose the character to start with"),
      setup_retrieve: gettext("take one card from the deck into the hand"),
      change: gettext("call, stand up or send a character into the Duel Zone, or change nothing"),
      set: gettext("put cards into Extra SP or set Traps, then go to battle"),
      battle: gettext("declare a Spellcard, play a Buff, Instant or Constant, or end the turn"),
      reaction: gettext("counter-attack, spring Traps or use Instants, or let the attack through"),
      discard: gettext("discard down to the hand limit"),
    }[v.phase];
    if (mine) return interpolate(gettext("Your move: %(move)s."), { move: ask || gettext("choose a move") }, true);
    if (others.length) return interpolate(gettext("Waiting for %(names)s."), { names: others.join(gettext(" and ")) }, true);
    return "";
  };

  Board.prototype.actionBar = function (status) {
    const bar = el("div", "dbs-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", gettext("Moves"));
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
    box.setAttribute("aria-label", gettext("Final result"));
    let winners = result.winners;
    if (!winners) winners = v.result && v.result.winner !== null && v.result.winner !== undefined ? [v.result.winner] : [];
    let head;
    if (result.abandoned) head = gettext("The table was abandoned: nobody won.");
    else if (!winners.length) head = gettext("The game is a draw.");
    else if (winners.includes(this.me)) head = gettext("You win!");
    else head = interpolate(gettext("%(names)s wins."), { names: winners.map((s) => this.name(s)).join(gettext(" and ")) }, true);
    box.append(el("h3", "dbs-result__head", head));
    box.append(el("p", "dbs-result__reason", result.text || (v.result && v.result.text) || p.summary || ""));
    const scores = result.scores || [];
    if (scores.length) {
      const table = el("table", "dbs-result__table");
      const thead = el("thead");
      const hr = el("tr");
      [gettext("Player"), gettext("LP"), gettext("Spell Chain Level")].forEach((h) => hr.append(el("th", null, h)));
      thead.append(hr);
      const tbody = el("tbody");
      scores.forEach((s) => {
        const row = el("tr");
        const mark = winners.includes(s.seat) ? gettext(" (winner)") : "";
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
    box.append(el("p", "dbs-detail__where", interpolate(gettext("%(kind)s · where: %(zone)s."), { kind: info.kind_label || gettext("Card"), zone: entry.zone }, true)));
    if (entry.card.status_label) box.append(el("p", "dbs-detail__now", interpolate(gettext("Status: %(status_label)s."), { status_label: entry.card.status_label }, true)));
    box.append(el("p", "dbs-detail__text", (info.lines || []).join(" ") || title));
    const status = el("p", "dbs-status");
    status.setAttribute("role", "status");
    this.detailMoves(box, title, key, status);
    box.append(status);
  };

  Board.prototype.middle = Board.prototype.duelZone;

  window.TavernKit.cardBoard(Board, "dbs", ".dbs-zone, .dbs-pile, .dbs-duel", "dbs");
})();
