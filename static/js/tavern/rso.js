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
    focused: gettext("Focused Movement"),
    unfocused: gettext("Unfocused Movement"),
    protection: gettext("Protection"),
    faith: gettext("Faith"),
    guided: gettext("Guided Bullets"),
    penetration: gettext("Penetration"),
  };
  const FLAG_BASICS = new Set(["guided", "penetration"]);
  const SHOT_WORDS = { spread: gettext("Spread"), concentration: gettext("Concentration"), normal: gettext("Normal") };
  const STAT_WORDS = { av: gettext("AV"), iv: gettext("IV"), hv: gettext("HV"), ev: gettext("EV"), bv: gettext("BV") };
  const RESULT_WORDS = { hit: "hit", miss: "evades", tie: gettext("tie (Border Value)") };
  const DETAIL_ID = "rso-detail";
  const { el } = window.TavernKit;

  function basicsWords(basic) {
    return Object.entries(basic || {})
      .filter(([, power]) => power)
      .map(([name, power]) =>
        FLAG_BASICS.has(name) || power === true
          ? BASIC_WORDS[name] || gettext("an ability")
          : `${BASIC_WORDS[name] || gettext("an ability")} (${power})`,
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
    return this.cards[card.number] || { name: card.name, kind: card.kind, kind_label: gettext("Card"), lines: [] };
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
    const kind = el("span", "rso-card__kind", info.kind_label || gettext("Card"));
    button.append(kind);
    (face || []).forEach((line) => button.append(el("span", "rso-card__line", line)));
    const moves = this.movesByKey.get(card.id) || [];
    const key = card.id;
    if (key && !this.entries.has(key)) this.entries.set(key, { button, card, zone });
    if (key && moves.length) {
      button.classList.add("rso-card--playable");
      button.dataset.opens = moves.join(" ");
      button.append(
        el("span", "rso-card__moves", interpolate(ngettext("%(count)s move", "%(count)s moves", moves.length), { count: moves.length }, true)),
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
    const lines = [interpolate(gettext("AV %(av)s · IV %(iv)s · HV %(hv)s"), { av: spell.av, iv: spell.iv, hv: spell.hv }, true)];
    lines.push(interpolate(gettext("%(shot)s shot"), { shot: SHOT_WORDS[spell.shot] || gettext("Normal") }, true));
    const basics = basicsWords(spell.basic);
    if (basics.length) lines.push(basics.join(", "));
    return lines;
  };

  Board.prototype.spellSlot = function (spell, zone) {
    const slot = el("div", "rso-slot");
    slot.append(this.cardButton(spell, zone, this.spellFace(spell)));
    if (spell.support) {
      const sup = this.cardButton(spell.support, gettext("spell support"), [gettext("Equipped to ") + spell.name]);
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
    else row.append(el("p", "rso-empty", empty || gettext("None")));
    section.append(row);
    return section;
  };

  Board.prototype.roleOf = function (seat) {
    const attacker = this.view.attacker;
    if (this.payload.finished) return null;
    if (attacker === null || attacker === undefined) return null;
    return seat === attacker ? gettext("Attacks") : gettext("Intercepts");
  };

  Board.prototype.side = function (seat) {
    const player = (this.view.players || [])[seat] || {};
    const mine = seat === this.me;
    const side = el("section", `rso-side ${seat === this.bottom ? "rso-side--near" : "rso-side--far"}`);
    side.setAttribute("aria-label", interpolate(gettext("%(seat)s's side of the table"), { seat: this.who(seat) }, true));

    const head = el("div", "rso-side__head");
    head.append(el("h3", "rso-side__name", this.who(seat)));
    const role = this.roleOf(seat);
    if (role) {
      head.append(el("span", `rso-badge rso-badge--${role === gettext("Attacks") ? "attack" : "intercept"}`, role));
    }
    if ((this.view.waiting_on || []).includes(seat) && !this.payload.finished) {
      head.append(el("span", "rso-badge rso-badge--turn", mine ? gettext("Your move") : gettext("To move")));
    }
    if (this.view.first === seat && this.view.phase !== "leader" && this.view.phase !== "mulligan") {
      head.append(el("span", "rso-badge", gettext("Went first")));
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
    const hpBox = add(gettext("HP"), player.leader ? `${hp} / ${player.max_hp}` : "—", "rso-stat--hp");
    if (player.leader) {
      const meter = el("meter", "rso-meter");
      meter.min = 0;
      meter.max = maxHp;
      meter.low = Math.ceil(maxHp / 3);
      meter.high = Math.ceil((2 * maxHp) / 3);
      meter.optimum = maxHp;
      meter.value = Math.max(0, hp);
      meter.setAttribute("aria-label", interpolate(gettext("HP %(hp)s of %(max_hp)s"), { hp, max_hp: player.max_hp }, true));
      hpBox.append(meter);
    }
    add(gettext("SP"), player.sp);
    add(gettext("Hand"), player.hand_count || 0);
    add(gettext("Deck"), player.deck_count || 0);
    side.append(stats);

    // the Leader and her Supports, or the Leader choice
    const leaderItems = [];
    if (player.leader) {
      const lead = player.leader;
      leaderItems.push(
        this.cardButton(lead, "leader", [interpolate(gettext("EV %(ev)s · Border Value %(bv)s"), { ev: lead.ev, bv: lead.bv }, true)]),
      );
      (player.supports || []).forEach((sup) =>
        leaderItems.push(this.cardButton(sup, gettext("leader support"), [gettext("Equipped to the Leader")])),
      );
      side.append(this.zone(gettext("Leader"), "rso-zone--leader", leaderItems));
    } else {
      let note;
      if (this.payload.finished) {
        note = gettext("The game ended before the Leaders were chosen.");
      } else if (mine && player.my_leader_choice) {
        note = interpolate(gettext("You chose %(name)s; both choices are shown together."), { name: player.my_leader_choice.name }, true);
      } else if (player.leader_chosen) {
        note = interpolate(gettext("%(seat)s has chosen a Leader (hidden until both have chosen)."), { seat: this.who(seat) }, true);
      } else {
        note = interpolate(gettext("%(seat)s is choosing a Leader."), { seat: this.who(seat) }, true);
      }
      const chars = (player.characters || []).map((c) => {
        const info = this.text(c);
        return this.cardButton(c, "character", (info.lines || []).slice(1, 2));
      });
      const zone = this.zone(this.payload.finished ? gettext("Characters") : gettext("Characters: choose a Leader"), "rso-zone--leader", chars);
      zone.append(el("p", "rso-note", note));
      side.append(zone);
    }
    if (player.leader && (player.characters || []).length) {
      side.append(
        el(
          "p",
          "rso-note",
          gettext("Characters: ") + player.characters.map((c) => c.name).join(", ") + ".",
        ),
      );
    }

    side.append(
      this.zone(
        gettext("Active spells"),
        "rso-zone--active",
        (player.active || []).map((s) => this.spellSlot(s, "active")),
        gettext("No Active spells"),
      ),
    );
    side.append(
      this.zone(
        gettext("Reserve"),
        "rso-zone--reserve",
        (player.reserve || []).map((s) => this.spellSlot(s, "reserve")),
        gettext("No spells in the Reserve"),
      ),
    );

    // the hand: face up for its owner, a count of backs for everyone else
    if (mine && Array.isArray(player.hand)) {
      const hand = player.hand.map((c) => this.cardButton(c, gettext("your hand"), this.printedFace(c)));
      const limit = this.view.hand_limit;
      side.append(
        this.zone(
          (limit ? interpolate(ngettext("Your hand (%(count)s card, limit %(limit)s)", "Your hand (%(count)s cards, limit %(limit)s)", player.hand.length), { count: player.hand.length, limit }, true) : interpolate(ngettext("Your hand (%(count)s card)", "Your hand (%(count)s cards)", player.hand.length), { count: player.hand.length }, true)),
          "rso-zone--hand",
          hand,
          gettext("Your hand is empty"),
        ),
      );
    } else {
      const zone = el("section", "rso-zone rso-zone--hand");
      zone.setAttribute("aria-label", interpolate(gettext("%(seat)s's hand"), { seat: this.who(seat) }, true));
      zone.append(el("h4", "rso-zone__title", interpolate(ngettext("Hand: %(count)s card, face down", "Hand: %(count)s cards, face down", player.hand_count || 0), { count: player.hand_count || 0 }, true)));
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
      el("summary", "rso-pile__summary", interpolate(ngettext("Discard pile (%(count)s card)", "Discard pile (%(count)s cards)", (player.discard || []).length), { count: (player.discard || []).length }, true)),
    );
    const pileRow = el("div", "rso-row");
    (player.discard || []).forEach((c) => {
      pileRow.append(this.cardButton(c, interpolate(gettext("%(seat)s discard pile"), { seat: this.whose(seat).toLowerCase() }, true), this.printedFace(c)));
    });
    if (!(player.discard || []).length) pileRow.append(el("p", "rso-empty", gettext("Empty")));
    piles.append(pileRow);
    if (piles.querySelector(".rso-card--selected")) piles.open = true;
    side.append(piles);
    if ((player.deck_bottom || []).length) {
      side.append(
        el(
          "p",
          "rso-note",
          interpolate(gettext("Known at the bottom of the deck (put there by Doctrine): %(deck_bottom)s."), { deck_bottom: player.deck_bottom.join(", ") }, true),
        ),
      );
    }
    return side;
  };

  Board.prototype.phaseBar = function () {
    const v = this.view;
    const bar = el("section", "rso-phase");
    bar.setAttribute("aria-label", gettext("Phase and turn"));
    const line = el("p", "rso-phase__line");
    const bits = [];
    if (v.turn) bits.push(interpolate(gettext("Turn %(turn)s"), { turn: v.turn }, true));
    // a table that ended before its game did says so, not the phase it stopped in
    const early = this.payload.finished && v.phase !== "over";
    bits.push(early ? ((this.payload.result || {}).abandoned ? gettext("Abandoned") : gettext("Game over")) : (v.phase_name && v.phase_name.text) || gettext("Setting up"));
    line.append(el("strong", "rso-phase__name", bits.join(" · ")));
    bar.append(line);
    if (v.attacker !== null && v.attacker !== undefined && !this.payload.finished) {
      bar.append(
        el(
          "p",
          "rso-phase__roles",
          interpolate(gettext("%(attacker)s attacks; %(attacker2)s intercepts."), { attacker: this.who(v.attacker), attacker2: this.who(1 - v.attacker) }, true),
        ),
      );
    }
    const steps = ["replenish", "battle", "preparation", "end"];
    if (!early && steps.includes(v.phase)) {
      const list = el("ol", "rso-steps");
      list.setAttribute("aria-label", gettext("Phases of the turn"));
      steps.forEach((step) => {
        const item = el("li", "rso-steps__item", step[0].toUpperCase() + step.slice(1));
        if (step === v.phase) {
          item.classList.add("rso-steps__item--now");
          item.setAttribute("aria-current", "step");
          item.textContent += gettext(" (now)");
        }
        list.append(item);
      });
      bar.append(list);
    }
    if (!this.payload.finished) bar.append(el("p", "rso-prompt", this.prompt()));
    (v.modifiers || []).forEach((m) => {
      let what = "";
      if (m.stat) what = `${STAT_WORDS[m.stat] || gettext("a value")} ${m.amount > 0 ? "+" : "−"}${Math.abs(m.amount)}`;
      else if (m.ability) {
        const ability = BASIC_WORDS[m.ability] || gettext("an ability");
        what = m.amount > 1
          ? interpolate(gettext("gains %(ability)s (%(amount)s)"), { ability, amount: m.amount }, true)
          : interpolate(gettext("gains %(ability)s"), { ability }, true);
      }
      if (what) bar.append(el("p", "rso-note", interpolate(gettext("This turn: %(name)s %(what)s."), { name: m.name, what }, true)));
    });
    return bar;
  };

  Board.prototype.prompt = function () {
    const v = this.view;
    const waiting = v.waiting_on || [];
    const mine = this.me !== null && waiting.includes(this.me);
    const others = waiting.filter((s) => s !== this.me).map((s) => this.who(s));
    const ask = {
      leader: gettext("choose your Leader from your characters"),
      mulligan: gettext("keep your opening hand or mulligan"),
      window: gettext("play an Event or use a Special (tap a card), or pass"),
      declare: gettext("attack with one of your Active spells, or do not attack"),
      intercept: gettext("intercept with one of your Active spells, or do not"),
      border: gettext("pay the Border Value to escape, or take the hit"),
      act: gettext("reserve a spell, activate spells, equip Supports, then end the phase"),
      discard: interpolate(gettext("discard down to %(hand_limit)s cards"), { hand_limit: v.hand_limit || 7 }, true),
    }[v.step];
    if (mine) return interpolate(gettext("Your move: %(move)s."), { move: ask || gettext("choose a move") }, true);
    if (others.length && ask) return interpolate(gettext("Waiting for %(names)s to %(move)s."), { names: others.join(gettext(" and ")), move: ask.replace(/\byour\b/g, "their") }, true);
    if (others.length) return interpolate(gettext("Waiting for %(names)s."), { names: others.join(gettext(" and ")) }, true);
    return "";
  };

  Board.prototype.actionBar = function (status) {
    const bar = el("div", "rso-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", gettext("Moves"));
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
    zone.setAttribute("aria-label", gettext("The Boundary and the battle"));
    zone.append(el("h3", "rso-boundary__title", gettext("Boundary")));
    const sceneRow = el("div", "rso-row");
    if (v.scene) sceneRow.append(this.cardButton(v.scene, "scene", [gettext("Scene on the Boundary")]));
    else sceneRow.append(el("p", "rso-empty", gettext("No Scene on the Boundary")));
    zone.append(sceneRow);
    const b = v.battle;
    if (b) {
      const attacker = v.attacker;
      const fight = el("div", "rso-battle");
      fight.append(el("h4", "rso-zone__title", gettext("Battle in progress")));
      const sides = [
        { seat: attacker, spell: b.attack, role: gettext("Attacking spell"), power: "AV" },
        { seat: 1 - attacker, spell: b.intercept, role: gettext("Intercepting spell"), power: "IV" },
      ];
      const grid = el("div", "rso-battle__grid");
      sides.forEach((s) => {
        const box = el("div", "rso-battle__side");
        box.append(el("p", "rso-battle__role", interpolate(gettext("%(role)s of %(who)s"), { role: s.role, who: this.who(s.seat) }, true)));
        if (s.spell) {
          box.append(this.spellSlot(s.spell, "battle"));
          const value = s.power === "AV" ? s.spell.av : s.spell.iv;
          box.append(el("p", "rso-note", interpolate(gettext("Deals %(power)s %(value)s if it hits; HV %(hv)s."), { power: s.power, value, hv: s.spell.hv }, true)));
        } else {
          box.append(el("p", "rso-empty", b.attack && s.power === "IV" ? gettext("No intercept (yet)") : gettext("None")));
        }
        grid.append(box);
      });
      fight.append(grid);
      const judged = b.judged || {};
      [0, 1].forEach((seat) => {
        const verdict = judged[String(seat)];
        if (!verdict) return;
        const escaped = (b.escaped || {})[String(seat)];
        const word = escaped ? gettext("escaped by paying the Border Value") : RESULT_WORDS[verdict.result] || verdict.result;
        fight.append(
          el(
            "p",
            `rso-verdict rso-verdict--${verdict.result}`,
            interpolate(gettext("%(seat)s Leader: HV %(hv)s against EV %(ev)s: %(word)s."), { seat: this.whose(seat), hv: verdict.hv, ev: verdict.ev, word }, true),
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
                interpolate(gettext("%(seat)s Leader: HV %(hv)s against EV %(ev)s (before Movement)."), { seat: this.whose(seat), hv: incoming.hv, ev: lead.ev }, true),
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
    box.setAttribute("aria-label", gettext("Final result"));
    const winners = result.winners || (v.winner === null || v.winner === undefined ? [] : [v.winner]);
    let head;
    if (result.abandoned) head = gettext("The table was abandoned: nobody won.");
    else if (!winners.length) head = gettext("The game is a draw.");
    else if (winners.includes(this.me)) head = gettext("You win!");
    else head = interpolate(gettext("%(name)s wins."), { name: winners.map((s) => this.name(s)).join(", ") }, true);
    box.append(el("h3", "rso-result__head", head));
    box.append(el("p", "rso-result__reason", result.text || result.reason || (v.reason && v.reason.text) || p.summary || ""));
    const table = el("table", "rso-result__table");
    const thead = el("thead");
    const hr = el("tr");
    [gettext("Player"), gettext("HP"), gettext("Cards left in deck")].forEach((h) => hr.append(el("th", null, h)));
    thead.append(hr);
    const tbody = el("tbody");
    (result.scores || []).forEach((s) => {
      const row = el("tr");
      const mark = winners.includes(s.seat) ? gettext(" (winner)") : "";
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
    box.append(el("p", "rso-detail__where", interpolate(gettext("Where: %(zone)s."), { zone: entry.zone }, true)));
    const lines = el("ul", "rso-detail__lines");
    (info.lines || []).forEach((line) => lines.append(el("li", null, line)));
    if (card.kind === "spell" && card.av !== undefined) {
      const now = [interpolate(gettext("Now: AV %(av)s, IV %(iv)s, HV %(hv)s"), { av: card.av, iv: card.iv, hv: card.hv }, true)];
      const basics = basicsWords(card.basic);
      if (basics.length) now.push(basics.join(", "));
      lines.append(el("li", "rso-detail__now", now.join("; ") + "."));
    }
    if (card.ev !== undefined) {
      lines.append(el("li", "rso-detail__now", interpolate(gettext("Now: EV %(ev)s, Border Value %(bv)s."), { ev: card.ev, bv: card.bv }, true)));
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
