/* Rumbling Spell Orchestra at the tavern table: draws one seat's view of the game.
 *
 * The renderer contract (docs: TAVERN.md, W1's static/js/tavern/table.js calls it):
 *   window.TavernGames.rso.render(root, payload, api)
 * `payload` is minigames/payload.py's JSON (view, moves with labels, finished, result);
 * `api.play(action)` sends one of `payload.moves` (never an action built here);
 * `api.fallbackButtons(moves)` offers the moves this drawing has no place for.
 *
 * How moves are offered: every card is a button. Tapping (or focusing and pressing) a card
 * opens its details below the board: the card in words and one button per legal move that
 * concerns it (play it, activate it, attack with it...). Moves that concern no card (pass,
 * keep the hand, end the phase, pay the Border Value) sit in the action bar at the top.
 * Nothing is shown only on hover, and no card id is ever written into the page.
 */
(function () {
  "use strict";

  const BASIC_WORDS = {
    focused: "Focused Movement",
    unfocused: "Unfocused Movement",
    protection: "Protection",
    faith: "Faith",
    guided: "Guided Bullets",
    penetration: "Penetration",
  };
  const FLAG_BASICS = new Set(["guided", "penetration"]);
  const SHOT_WORDS = { spread: "Spread", concentration: "Concentration", normal: "Normal" };
  const STAT_WORDS = { av: "AV", iv: "IV", hv: "HV", ev: "EV", bv: "BV" };
  const RESULT_WORDS = { hit: "hit", miss: "evades", tie: "tie (Border Value)" };
  const DETAIL_ID = "rso-detail";
  const { el, plural } = window.TavernKit;

  function basicsWords(basic) {
    return Object.entries(basic || {})
      .filter(([, power]) => power)
      .map(([name, power]) =>
        FLAG_BASICS.has(name) || power === true
          ? BASIC_WORDS[name] || "an ability"
          : `${BASIC_WORDS[name] || "an ability"} (${power})`,
      );
  }

  /* One drawing: everything render() needs, so helpers need no globals. */
  function Board(root, payload, api) {
    this.root = root;
    this.payload = payload;
    this.api = api || {};
    this.view = payload.view || {};
    this.cards = this.view.cards || {};
    this.me = payload.seat === null || payload.seat === undefined ? null : payload.seat;
    this.bottom = this.me === null ? 0 : this.me;
    this.top = 1 - this.bottom;
    this.entries = new Map(); // card id -> {button, card, zone}
    this.movesByKey = new Map(); // card id -> [move index]
    this.placed = new Set();
    this.selected = root.__rsoSelected || null;
  }

  Board.prototype.text = function (card) {
    return this.cards[card.number] || { name: card.name, kind: card.kind, kind_label: "Card", lines: [] };
  };

  /* The card a move concerns (the card played, the spell that attacks...), by id. */
  Board.prototype.moveKey = function (action) {
    const key = action.card || action.spell;
    return typeof key === "string" ? key : null;
  };

  /* A card as a button; `face` adds the lines shown on its face. */
  Board.prototype.cardButton = function (card, zone, face) {
    const info = this.text(card);
    const button = el("button", `rso-card rso-card--${card.kind || info.kind || "card"}`);
    button.type = "button";
    button.setAttribute("aria-controls", DETAIL_ID);
    const title = el("span", "rso-card__name", card.name || info.name);
    button.append(title);
    const kind = el("span", "rso-card__kind", info.kind_label || "Card");
    button.append(kind);
    (face || []).forEach((line) => button.append(el("span", "rso-card__line", line)));
    const moves = this.movesByKey.get(card.id) || [];
    const key = card.id;
    if (key && !this.entries.has(key)) this.entries.set(key, { button, card, zone });
    if (key && moves.length) {
      button.classList.add("rso-card--playable");
      button.dataset.opens = moves.join(" ");
      button.append(
        el("span", "rso-card__moves", moves.length === 1 ? "1 move" : `${moves.length} moves`),
      );
    }
    const selected = key && this.selected === key;
    button.setAttribute("aria-expanded", selected ? "true" : "false");
    if (selected) button.classList.add("rso-card--selected");
    button.addEventListener("click", () =>
      this.select(key === this.selected ? null : key, button),
    );
    return button;
  };

  /* A card out of play: its cost and needs, and a spell's printed values. */
  Board.prototype.printedFace = function (card) {
    const lines = this.text(card).lines || [];
    return lines.slice(0, 1).concat(lines.slice(1).filter((line) => /\bAV \d/.test(line)));
  };

  Board.prototype.spellFace = function (spell) {
    const lines = [`AV ${spell.av} · IV ${spell.iv} · HV ${spell.hv}`];
    lines.push(`${SHOT_WORDS[spell.shot] || "Normal"} shot`);
    const basics = basicsWords(spell.basic);
    if (basics.length) lines.push(basics.join(", "));
    return lines;
  };

  Board.prototype.spellSlot = function (spell, zone) {
    const slot = el("div", "rso-slot");
    slot.append(this.cardButton(spell, zone, this.spellFace(spell)));
    if (spell.support) {
      const sup = this.cardButton(spell.support, "spell support", ["Equipped to " + spell.name]);
      sup.classList.add("rso-card--attached");
      slot.append(sup);
    }
    return slot;
  };

  Board.prototype.zone = function (label, cls, items, empty) {
    const section = el("section", `rso-zone ${cls || ""}`.trim());
    section.setAttribute("aria-label", label);
    const head = el("h4", "rso-zone__title", label);
    section.append(head);
    const row = el("div", "rso-row");
    if (items.length) items.forEach((item) => row.append(item));
    else row.append(el("p", "rso-empty", empty || "None"));
    section.append(row);
    return section;
  };

  Board.prototype.roleOf = function (seat) {
    const attacker = this.view.attacker;
    if (this.payload.finished) return null;
    if (attacker === null || attacker === undefined) return null;
    return seat === attacker ? "Attacks" : "Intercepts";
  };

  Board.prototype.side = function (seat) {
    const player = (this.view.players || [])[seat] || {};
    const mine = seat === this.me;
    const side = el("section", `rso-side ${seat === this.bottom ? "rso-side--near" : "rso-side--far"}`);
    side.setAttribute("aria-label", `${this.who(seat)}'s side of the table`);

    const head = el("div", "rso-side__head");
    head.append(el("h3", "rso-side__name", this.who(seat)));
    const role = this.roleOf(seat);
    if (role) {
      head.append(el("span", `rso-badge rso-badge--${role === "Attacks" ? "attack" : "intercept"}`, role));
    }
    if ((this.view.waiting_on || []).includes(seat) && !this.payload.finished) {
      head.append(el("span", "rso-badge rso-badge--turn", mine ? "Your move" : "To move"));
    }
    if (this.view.first === seat && this.view.phase !== "leader" && this.view.phase !== "mulligan") {
      head.append(el("span", "rso-badge", "Went first"));
    }
    side.append(head);

    const stats = el("dl", "rso-stats");
    const hp = Number(player.hp) || 0;
    const maxHp = Math.max(1, Number(player.max_hp) || 1);
    const add = (term, value, cls) => {
      const box = el("div", `rso-stat ${cls || ""}`.trim());
      box.append(el("dt", "rso-stat__term", term), el("dd", "rso-stat__value", value));
      stats.append(box);
      return box;
    };
    const hpBox = add("HP", player.leader ? `${hp} / ${player.max_hp}` : "—", "rso-stat--hp");
    if (player.leader) {
      const meter = el("meter", "rso-meter");
      meter.min = 0;
      meter.max = maxHp;
      meter.low = Math.ceil(maxHp / 3);
      meter.high = Math.ceil((2 * maxHp) / 3);
      meter.optimum = maxHp;
      meter.value = Math.max(0, hp);
      meter.setAttribute("aria-label", `HP ${hp} of ${player.max_hp}`);
      hpBox.append(meter);
    }
    add("SP", player.sp);
    add("Hand", player.hand_count || 0);
    add("Deck", player.deck_count || 0);
    side.append(stats);

    // the Leader and her Supports, or the Leader choice
    const leaderItems = [];
    if (player.leader) {
      const lead = player.leader;
      leaderItems.push(
        this.cardButton(lead, "leader", [`EV ${lead.ev} · Border Value ${lead.bv}`]),
      );
      (player.supports || []).forEach((sup) =>
        leaderItems.push(this.cardButton(sup, "leader support", ["Equipped to the Leader"])),
      );
      side.append(this.zone("Leader", "rso-zone--leader", leaderItems));
    } else {
      let note;
      if (this.payload.finished) {
        note = "The game ended before the Leaders were chosen.";
      } else if (mine && player.my_leader_choice) {
        note = `You chose ${player.my_leader_choice.name}; both choices are shown together.`;
      } else if (player.leader_chosen) {
        note = `${this.who(seat)} has chosen a Leader (hidden until both have chosen).`;
      } else {
        note = `${this.who(seat)} is choosing a Leader.`;
      }
      const chars = (player.characters || []).map((c) => {
        const info = this.text(c);
        return this.cardButton(c, "character", (info.lines || []).slice(1, 2));
      });
      const zone = this.zone(this.payload.finished ? "Characters" : "Characters: choose a Leader", "rso-zone--leader", chars);
      zone.append(el("p", "rso-note", note));
      side.append(zone);
    }
    if (player.leader && (player.characters || []).length) {
      side.append(
        el(
          "p",
          "rso-note",
          "Characters: " + player.characters.map((c) => c.name).join(", ") + ".",
        ),
      );
    }

    side.append(
      this.zone(
        "Active spells",
        "rso-zone--active",
        (player.active || []).map((s) => this.spellSlot(s, "active")),
        "No Active spells",
      ),
    );
    side.append(
      this.zone(
        "Reserve",
        "rso-zone--reserve",
        (player.reserve || []).map((s) => this.spellSlot(s, "reserve")),
        "No spells in the Reserve",
      ),
    );

    // the hand: face up for its owner, a count of backs for everyone else
    if (mine && Array.isArray(player.hand)) {
      const hand = player.hand.map((c) => this.cardButton(c, "your hand", this.printedFace(c)));
      const limit = this.view.hand_limit;
      side.append(
        this.zone(
          `Your hand (${plural(player.hand.length, "card")}${limit ? `, limit ${limit}` : ""})`,
          "rso-zone--hand",
          hand,
          "Your hand is empty",
        ),
      );
    } else {
      const zone = el("section", "rso-zone rso-zone--hand");
      zone.setAttribute("aria-label", `${this.who(seat)}'s hand`);
      zone.append(el("h4", "rso-zone__title", `Hand: ${plural(player.hand_count || 0, "card")}, face down`));
      const backs = el("div", "rso-backs");
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(player.hand_count || 0, 12); i += 1) {
        backs.append(el("span", "rso-back"));
      }
      zone.append(backs);
      side.append(zone);
    }

    // piles: the discard pile is public; cards Doctrine put under the deck are known
    const piles = el("details", "rso-pile");
    piles.append(
      el("summary", "rso-pile__summary", `Discard pile (${plural((player.discard || []).length, "card")})`),
    );
    const pileRow = el("div", "rso-row");
    (player.discard || []).forEach((c) => {
      pileRow.append(this.cardButton(c, `${this.whose(seat).toLowerCase()} discard pile`, this.printedFace(c)));
    });
    if (!(player.discard || []).length) pileRow.append(el("p", "rso-empty", "Empty"));
    piles.append(pileRow);
    if (piles.querySelector(".rso-card--selected")) piles.open = true;
    side.append(piles);
    if ((player.deck_bottom || []).length) {
      side.append(
        el(
          "p",
          "rso-note",
          `Known at the bottom of the deck (put there by Doctrine): ${player.deck_bottom.join(", ")}.`,
        ),
      );
    }
    return side;
  };

  Board.prototype.phaseBar = function () {
    const v = this.view;
    const bar = el("section", "rso-phase");
    bar.setAttribute("aria-label", "Phase and turn");
    const line = el("p", "rso-phase__line");
    const bits = [];
    if (v.turn) bits.push(`Turn ${v.turn}`);
    // a table that ended before its game did says so, not the phase it stopped in
    const early = this.payload.finished && v.phase !== "over";
    bits.push(early ? ((this.payload.result || {}).abandoned ? "Abandoned" : "Game over") : v.phase_name || "Setting up");
    line.append(el("strong", "rso-phase__name", bits.join(" · ")));
    bar.append(line);
    if (v.attacker !== null && v.attacker !== undefined && !this.payload.finished) {
      bar.append(
        el(
          "p",
          "rso-phase__roles",
          `${this.who(v.attacker)} attacks; ${this.who(1 - v.attacker)} intercepts.`,
        ),
      );
    }
    const steps = ["replenish", "battle", "preparation", "end"];
    if (!early && steps.includes(v.phase)) {
      const list = el("ol", "rso-steps");
      list.setAttribute("aria-label", "Phases of the turn");
      steps.forEach((step) => {
        const item = el("li", "rso-steps__item", step[0].toUpperCase() + step.slice(1));
        if (step === v.phase) {
          item.classList.add("rso-steps__item--now");
          item.setAttribute("aria-current", "step");
          item.textContent += " (now)";
        }
        list.append(item);
      });
      bar.append(list);
    }
    if (!this.payload.finished) bar.append(el("p", "rso-prompt", this.prompt()));
    (v.modifiers || []).forEach((m) => {
      let what = "";
      if (m.stat) what = `${STAT_WORDS[m.stat] || "a value"} ${m.amount > 0 ? "+" : "−"}${Math.abs(m.amount)}`;
      else if (m.ability) what = `gains ${BASIC_WORDS[m.ability] || "an ability"}${m.amount > 1 ? ` (${m.amount})` : ""}`;
      if (what) bar.append(el("p", "rso-note", `This turn: ${m.name} ${what}.`));
    });
    return bar;
  };

  Board.prototype.prompt = function () {
    const v = this.view;
    const waiting = v.waiting_on || [];
    const mine = this.me !== null && waiting.includes(this.me);
    const others = waiting.filter((s) => s !== this.me).map((s) => this.who(s));
    const ask = {
      leader: "choose your Leader from your characters",
      mulligan: "keep your opening hand or mulligan",
      window: "play an Event or use a Special (tap a card), or pass",
      declare: "attack with one of your Active spells, or do not attack",
      intercept: "intercept with one of your Active spells, or do not",
      border: "pay the Border Value to escape, or take the hit",
      act: "reserve a spell, activate spells, equip Supports, then end the phase",
      discard: `discard down to ${v.hand_limit || 7} cards`,
    }[v.step];
    if (mine) return `Your move: ${ask || "choose a move"}.`;
    if (others.length) return `Waiting for ${others.join(" and ")}${ask ? ` to ${ask.replace(/\byour\b/g, "their")}` : ""}.`;
    return "";
  };

  Board.prototype.actionBar = function (status) {
    const bar = el("div", "rso-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Moves");
    (this.payload.moves || []).forEach((move, index) => {
      const action = move.action || {};
      if (typeof (action.card || action.spell) === "string") return;
      const main = ["pass", "done", "keep", "no_attack", "no_intercept", "take_hit"].includes(action.type);
      bar.append(this.moveButton(index, status, main ? "rso-move--secondary" : ""));
    });
    return bar;
  };

  Board.prototype.battle = function () {
    const v = this.view;
    const zone = el("section", "rso-boundary");
    zone.setAttribute("aria-label", "The Boundary and the battle");
    zone.append(el("h3", "rso-boundary__title", "Boundary"));
    const sceneRow = el("div", "rso-row");
    if (v.scene) sceneRow.append(this.cardButton(v.scene, "scene", ["Scene on the Boundary"]));
    else sceneRow.append(el("p", "rso-empty", "No Scene on the Boundary"));
    zone.append(sceneRow);
    const b = v.battle;
    if (b) {
      const attacker = v.attacker;
      const fight = el("div", "rso-battle");
      fight.append(el("h4", "rso-zone__title", "Battle in progress"));
      const sides = [
        { seat: attacker, spell: b.attack, role: "Attacking spell", power: "AV" },
        { seat: 1 - attacker, spell: b.intercept, role: "Intercepting spell", power: "IV" },
      ];
      const grid = el("div", "rso-battle__grid");
      sides.forEach((s) => {
        const box = el("div", "rso-battle__side");
        box.append(el("p", "rso-battle__role", `${s.role} of ${this.who(s.seat)}`));
        if (s.spell) {
          box.append(this.spellSlot(s.spell, "battle"));
          const value = s.power === "AV" ? s.spell.av : s.spell.iv;
          box.append(el("p", "rso-note", `Deals ${s.power} ${value} if it hits; HV ${s.spell.hv}.`));
        } else {
          box.append(el("p", "rso-empty", b.attack && s.power === "IV" ? "No intercept (yet)" : "None"));
        }
        grid.append(box);
      });
      fight.append(grid);
      const judged = b.judged || {};
      [0, 1].forEach((seat) => {
        const verdict = judged[String(seat)];
        if (!verdict) return;
        const escaped = (b.escaped || {})[String(seat)];
        const word = escaped ? "escaped by paying the Border Value" : RESULT_WORDS[verdict.result] || verdict.result;
        fight.append(
          el(
            "p",
            `rso-verdict rso-verdict--${verdict.result}`,
            `${this.whose(seat)} Leader: HV ${verdict.hv} against EV ${verdict.ev}: ${word}.`,
          ),
        );
      });
      if (!Object.keys(judged).length) {
        const players = v.players || [];
        [0, 1].forEach((seat) => {
          const incoming = seat === attacker ? b.intercept : b.attack;
          const lead = (players[seat] || {}).leader;
          if (incoming && lead) {
            fight.append(
              el(
                "p",
                "rso-verdict",
                `${this.whose(seat)} Leader: HV ${incoming.hv} against EV ${lead.ev} (before Movement).`,
              ),
            );
          }
        });
      }
      zone.append(fight);
    }
    return zone;
  };

  Board.prototype.result = function () {
    const p = this.payload;
    const result = p.result || {};
    const v = this.view;
    const box = el("section", "rso-result");
    box.setAttribute("aria-label", "Final result");
    const winners = result.winners || (v.winner === null || v.winner === undefined ? [] : [v.winner]);
    let head;
    if (result.abandoned) head = "The table was abandoned: nobody won.";
    else if (!winners.length) head = "The game is a draw.";
    else if (winners.includes(this.me)) head = "You win!";
    else head = `${winners.map((s) => this.name(s)).join(" and ")} wins.`;
    box.append(el("h3", "rso-result__head", head));
    box.append(el("p", "rso-result__reason", result.reason || result.text || v.reason || p.summary || ""));
    const table = el("table", "rso-result__table");
    const thead = el("thead");
    const hr = el("tr");
    ["Player", "HP", "Cards left in deck"].forEach((h) => hr.append(el("th", null, h)));
    thead.append(hr);
    const tbody = el("tbody");
    (result.scores || []).forEach((s) => {
      const row = el("tr");
      const mark = winners.includes(s.seat) ? " (winner)" : "";
      row.append(el("td", null, this.name(s.seat) + mark), el("td", null, s.hp), el("td", null, s.deck));
      tbody.append(row);
    });
    table.append(thead, tbody);
    if ((result.scores || []).length) box.append(table);
    return box;
  };

  Board.prototype.fillDetail = function (entry) {
    const box = this.detail;
    box.replaceChildren();
    if (!entry) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const card = entry.card;
    const info = this.text(card);
    box.append(this.detailHead(card.name || info.name, entry));
    box.append(el("p", "rso-detail__where", `Where: ${entry.zone}.`));
    const lines = el("ul", "rso-detail__lines");
    (info.lines || []).forEach((line) => lines.append(el("li", null, line)));
    if (card.kind === "spell" && card.av !== undefined) {
      const now = [`Now: AV ${card.av}, IV ${card.iv}, HV ${card.hv}`];
      const basics = basicsWords(card.basic);
      if (basics.length) now.push(basics.join(", "));
      lines.append(el("li", "rso-detail__now", now.join("; ") + "."));
    }
    if (card.ev !== undefined) {
      lines.append(el("li", "rso-detail__now", `Now: EV ${card.ev}, Border Value ${card.bv}.`));
    }
    box.append(lines);
    const status = el("p", "rso-status");
    status.setAttribute("role", "status");
    this.detailMoves(box, card.name || info.name, card.id, status);
    box.append(status);
  };

  Board.prototype.middle = Board.prototype.battle;

  window.TavernKit.cardBoard(Board, "rso", ".rso-zone, .rso-pile, .rso-boundary", "rso");
})();
