/* Spirit War at the tavern table: draws the table for the viewing seat and offers her moves.
 *
 * The renderer contract is in the tavern's shared notes (W1 calls `render` on every payload).
 * Everything drawn comes from `payload.view`, the engine's view for this seat: her own hand face
 * up, other hands as counts, face-down summons and Support cards as backs until revealed. Every
 * clickable move is one of `payload.moves`, sent back unchanged through `api.play(move.action)`;
 * the renderer never builds an action and never decides what is legal or who wins a battle.
 *
 * Where moves go: a card in your hand holds the moves that play it (summon, Support, discard),
 * a player's seat holds "attack her", and the prompt box holds answers with no place (draw, no
 * Support card, the vote...). Tapping a card or a seat opens a sheet with its words and its
 * moves, so nothing is hover-only. Whatever found no place goes to `api.fallbackButtons`. Card
 * ids stay in JavaScript: the DOM never holds one.
 */
(function () {
  "use strict";

  const ELEMENTS = {
    fire: { word: "Fire", mark: "▲" },
    earth: { word: "Earth", mark: "■" },
    water: { word: "Water", mark: "●" },
  };
  const KINDS = { spirit: "Spirit", spell: "Spell", attack: "Attack", fortune: "Fortune", disaster: "Disaster" };
  const SUPPORTS = { disintegrate: "Disintegrate", imbue: "Imbue", swap: "Swap", safeguard: "Safeguard" };
  const TARGETS = {
    next: "the next player",
    previous: "the previous player",
    any: "any player",
    most_cards: "the player with the most cards",
    fewest_cards: "the player with the fewest cards",
  };
  const OUTCOMES = {
    spirit_king: "A Spirit King is crowned",
    shared: "The survivors share the end of the war",
    mini_war: "Decided by a Mini Spirit War",
  };
  const PROMPT_TYPES = ["draw", "skip_attack", "no_spirit", "pass_support", "vote"];

  const { el, plural, seatName, rove } = window.TavernKit;

  function ordinal(n) {
    const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
    return `${n}${s}`;
  }

  function placeKey(action) {
    switch (action.type) {
      case "summon":
      case "support":
      case "discard":
        return `card:${action.card}`;
      case "attack":
        return `player:${action.target}`;
      default:
        return PROMPT_TYPES.includes(action.type) ? "prompt" : "other";
    }
  }

  /* "Fire Spirit", "Spell: Imbue (Water)", "Attack: the next player" */
  function kindWords(card) {
    const kind = KINDS[card.kind] || "Card";
    if (card.kind === "spirit" && ELEMENTS[card.element]) return `${ELEMENTS[card.element].word} Spirit`;
    if (card.kind === "spell") {
      const support = SUPPORTS[card.support] || "Support";
      const element = ELEMENTS[card.element] ? ` (${ELEMENTS[card.element].word})` : "";
      return `Spell: ${support}${element}`;
    }
    if (card.kind === "attack" && TARGETS[card.target]) return `Attack: ${TARGETS[card.target]}`;
    return kind;
  }

  class Table {
    constructor(root, payload, api) {
      this.root = root;
      this.payload = payload;
      this.view = payload.view || {};
      this.api = api || {};
      this.you = typeof payload.seat === "number" ? payload.seat : null;
      this.finished = Boolean(payload.finished || this.view.phase === "over");
      this.resigned = window.TavernKit.resignedSeats(payload);
      this.moves = Array.isArray(payload.moves) && !this.finished ? payload.moves : [];
      this.byKey = new Map();
      this.placed = new Set();
      this.moves.forEach((move, index) => {
        const key = placeKey(move.action || {});
        if (!this.byKey.has(key)) this.byKey.set(key, []);
        this.byKey.get(key).push(index);
      });
      this.busy = false;
    }

    name(seat) {
      return seatName(this.api, this.payload, this.view, seat);
    }

    who(seat) {
      return seat === this.you ? `${this.name(seat)} (you)` : this.name(seat);
    }

    movesAt(key) {
      return this.byKey.get(key) || [];
    }

    /* ---------------------------------------------------------------- places (play, setError and
     * moveButton come from TavernKit.sheetBoard) */

    /* A tappable place: opens the sheet with its details and its moves. */
    tappable(node, key, details) {
      const indexes = key ? this.movesAt(key) : [];
      if (!indexes.length && !details) return node;
      const button = el("button", `${node.className} spirit-war-place`);
      button.type = "button";
      while (node.firstChild) button.append(node.firstChild);
      if (indexes.length) {
        button.classList.add("spirit-war-playable");
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
      const head = el("div", "spirit-war-sheet-head");
      head.append(el("strong", null, (details && details.title) || "Choose a move"));
      const close = el("button", "spirit-war-sheet-close", "Close");
      close.type = "button";
      close.addEventListener("click", () => this.closeSheet(opener));
      head.append(close);
      sheet.append(head);
      for (const line of (details && details.lines) || []) sheet.append(el("p", "spirit-war-sheet-text", line));
      if (indexes.length) {
        const list = el("div", "spirit-war-sheet-moves");
        for (const i of indexes) list.append(this.moveButton(i));
        sheet.append(list);
      }
      sheet.hidden = false;
      sheet.setAttribute("aria-label", (details && details.title) || "Choose a move");
      (sheet.querySelector(".spirit-war-move") || close).focus({ preventScroll: true });
    }

    closeSheet(opener) {
      if (!this.sheet) return;
      this.sheet.hidden = true;
      if (opener && opener.focus) opener.focus({ preventScroll: true });
    }

    /* ---------------------------------------------------------------- cards */

    /* A face-up card: name, kind (and element by word and shape), tap for its text. */
    card(card, opts) {
      const o = opts || {};
      const node = el("div", `spirit-war-card spirit-war-kind-${card.kind || "card"}`);
      if (card.kind === "spirit" && ELEMENTS[card.element]) node.classList.add(`spirit-war-element-${card.element}`);
      if (card.kind === "spell" && ELEMENTS[card.element]) node.classList.add(`spirit-war-element-${card.element}`);
      const element = ELEMENTS[card.element];
      const top = el("span", "spirit-war-card-top");
      if (element) top.append(el("span", "spirit-war-mark", element.mark));
      top.append(el("span", "spirit-war-card-kind", kindWords(card)));
      node.append(top);
      node.append(el("span", "spirit-war-card-name", card.name));
      if (o.text) node.append(el("span", "spirit-war-card-text", card.text));
      const details = { title: card.name, lines: [kindWords(card), card.text].filter(Boolean) };
      if (o.where) details.lines.unshift(o.where);
      return this.tappable(node, o.key || null, details);
    }

    back(words, small) {
      const node = el("div", `spirit-war-card spirit-war-back${small ? " spirit-war-back-small" : ""}`);
      node.append(el("span", "spirit-war-back-mark", "✧"));
      node.append(el("span", "spirit-war-back-words", words));
      return node;
    }

    /* A row of cards, one stop of Tab named `label` (its cards by the arrow keys). */
    cardRow(cards, opts, label) {
      const row = el("div", "spirit-war-cards");
      for (const c of cards) row.append(this.card(c, opts));
      rove(row, label);
      return row;
    }

    /* ---------------------------------------------------------------- drawing */

    draw() {
      const board = el("div", "spirit-war");
      board.append(this.status());
      board.append(this.promptBox());
      if (this.finished) board.append(this.finalScoring());
      if (this.view.battle) board.append(this.battle(this.view.battle));
      if (this.view.mini_war) board.append(this.miniWar(this.view.mini_war));
      board.append(this.hand());
      board.append(this.players());
      board.append(this.piles());
      board.append(this.cycle());
      if (Array.isArray(this.view.setup) && this.view.setup.length) board.append(this.setupNotes());
      this.sheet = el("div", "spirit-war-sheet");
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
      const box = el("section", "spirit-war-status");
      box.setAttribute("aria-label", "Game status");
      if (!this.finished) {
        const line = el("p", "spirit-war-status-line");
        line.append(el("strong", null, `Turn ${v.turn_number}`));
        line.append(document.createTextNode(v.turn === this.you ? " · your turn" : ` · ${this.name(v.turn)}'s turn`));
        box.append(line);
      }
      if (this.finished) {
        // The final result below says who won (and the page's summary line above says it
        // too): a third copy here only pushed the table down. A war that ended before its
        // end (a resignation) says so, which the result does not.
        const early = v.phase !== "over" && !(this.payload.result || {}).abandoned;
        if (early) box.append(el("p", "spirit-war-status-text", "The war ended early."));
        else box.hidden = true;
        return box;
      }
      box.append(el("p", "spirit-war-status-text", v.phase_text || this.payload.summary || ""));
      if (v.attack && Array.isArray(v.attack.candidates) && v.attack.candidates.length) {
        box.append(el("p", "spirit-war-muted", `${this.who(v.attack.attacker)} may attack: ${v.attack.candidates.map((s) => this.who(s)).join(", ")}.`));
      }
      if (v.discard && typeof v.discard.seat === "number") {
        box.append(el("p", "spirit-war-muted", `${this.who(v.discard.seat)} must discard ${plural(v.discard.left, "more card", "more cards")}.`));
      }
      if (Array.isArray(v.votes) && v.phase === "rare_outcome") {
        const done = v.votes.map((vote, s) => (vote === null || vote === undefined ? null : this.name(s))).filter(Boolean);
        box.append(el("p", "spirit-war-muted", done.length ? `Voted so far: ${done.join(", ")}.` : "Nobody has voted yet."));
      }
      return box;
    }

    promptText() {
      const v = this.view;
      switch (v.phase) {
        case "turn":
          return "Your turn: draw a Preparation card and an Encounter card.";
        case "attack":
          return "Choose whom to attack: tap a player below.";
        case "summon":
          // an attacked player without a Spirit is offered only "Show your hand"
          return this.moves.some((m) => (m.action || {}).type === "summon")
            ? "Summon a Spirit face down: tap it in your hand."
            : "You hold no Spirit to summon: show your hand.";
        case "support":
          return "Support card: tap a card in your hand to put it face down, or use none.";
        case "discard":
          return `Discard: tap a card in your hand (${plural((v.discard || {}).left || 1, "card", "cards")} to go).`;
        case "rare_outcome":
          return "Vote: how should the war end?";
        default:
          return "Your move:";
      }
    }

    promptBox() {
      const box = el("section", "spirit-war-prompt");
      box.setAttribute("aria-label", "Your move");
      this.errorBox = el("p", "spirit-war-error");
      this.errorBox.setAttribute("role", "alert");
      this.errorBox.hidden = true;
      if (!this.moves.length) {
        box.hidden = true;
        box.append(this.errorBox);
        return box;
      }
      box.classList.add("spirit-war-prompt-active");
      box.append(el("p", "spirit-war-prompt-text", this.promptText()));
      const direct = this.movesAt("prompt");
      if (direct.length) {
        const row = el("div", "spirit-war-prompt-moves");
        for (const i of direct) row.append(this.moveButton(i));
        box.append(row);
      }
      box.append(this.errorBox);
      return box;
    }

    slot(slot, role, side) {
      const wrap = el("div", "spirit-war-slot");
      wrap.append(el("span", "spirit-war-label-small", role));
      const whose = side === this.you ? "your" : `${this.name(side)}'s`;
      if (slot === null || slot === undefined) {
        const node = el("div", "spirit-war-card spirit-war-empty");
        node.append(el("span", null, "choosing…"));
        wrap.append(node);
      } else if (slot.face_down) {
        wrap.append(this.back(`${role} face down`));
      } else if (slot.chosen) {
        // chosen at the same time as the other side: a card face down or none, unseen
        const node = el("div", "spirit-war-card spirit-war-empty");
        node.append(el("span", null, "Chosen: a card face down, or none"));
        wrap.append(node);
      } else if (slot.none) {
        const node = el("div", "spirit-war-card spirit-war-empty");
        node.append(el("span", null, role === "Spirit" ? "No Spirit" : "No Support card"));
        wrap.append(node);
      } else {
        wrap.append(this.card(slot, { where: `${whose} ${role}`, text: false }));
      }
      return wrap;
    }

    battle(b) {
      const box = el("section", "spirit-war-battle");
      box.setAttribute("aria-label", "The battle");
      box.append(el("h2", "spirit-war-heading", `Battle: ${this.who(b.attacker)} attacks ${this.who(b.defender)}`));
      const sides = el("div", "spirit-war-sides");
      [b.attacker, b.defender].forEach((seat, i) => {
        const side = el("div", `spirit-war-side${seat === this.you ? " spirit-war-side-mine" : ""}`);
        side.append(el("h3", "spirit-war-side-name", `${i === 0 ? "Attacker" : "Defender"}: ${this.who(seat)}`));
        const slots = el("div", "spirit-war-slots");
        slots.append(this.slot((b.summons || [])[i], "Spirit", seat));
        if (b.revealed || (b.supports || [])[i]) slots.append(this.slot((b.supports || [])[i], "Support", seat));
        side.append(slots);
        sides.append(side);
        if (i === 0) sides.append(el("span", "spirit-war-versus", "vs"));
      });
      box.append(sides);
      const notes = [];
      if (!b.revealed) notes.push("The Spirits stay face down until both are chosen, then turn over together.");
      else notes.push("The Spirits are revealed. Support cards stay face down until both sides have decided.");
      if (b.no_spirit) notes.push("The defender had no Spirit to summon.");
      for (const n of notes) box.append(el("p", "spirit-war-muted", n));
      return box;
    }

    miniWar(m) {
      const box = el("section", "spirit-war-mini");
      box.setAttribute("aria-label", "Mini Spirit War");
      box.append(el("h2", "spirit-war-heading", `Mini Spirit War · round ${m.round}`));
      box.append(el("p", "spirit-war-muted", `Between ${(m.players || []).map((s) => this.who(s)).join(", ")}; ${plural(m.deck, "card", "cards")} left in its deck.`));
      if ((m.table || []).length) box.append(this.cardRow(m.table, { where: "On the Mini Spirit War's table" }, "The Mini Spirit War's table"));
      return box;
    }

    hand() {
      const box = el("section", "spirit-war-hand");
      box.setAttribute("aria-label", "Your hand");
      if (this.you === null) {
        box.append(el("h2", "spirit-war-heading", "Hands"));
        box.append(el("p", "spirit-war-muted", "You are watching: hands stay hidden from spectators."));
        return box;
      }
      if (this.payload.public_view) {
        // she resigned and a bot plays her seat on: its hand is no longer hers to see
        box.append(el("h2", "spirit-war-heading", "Your hand"));
        box.append(el("p", "spirit-war-muted", "You resigned: a bot plays your seat now, and its hand stays hidden from you."));
        return box;
      }
      const cards = Array.isArray(this.view.hand) ? this.view.hand : [];
      box.append(el("h2", "spirit-war-heading", `Your hand (${plural(cards.length, "card", "cards")})`));
      if (!cards.length) box.append(el("p", "spirit-war-muted", "Your hand is empty."));
      const row = el("div", "spirit-war-cards spirit-war-hand-cards");
      for (const c of cards) row.append(this.card(c, { key: `card:${c.id}`, where: "In your hand" }));
      rove(row, "Your hand");
      box.append(row);
      return box;
    }

    players() {
      const v = this.view;
      const box = el("section", "spirit-war-players");
      box.setAttribute("aria-label", "Players");
      const winners = (this.payload.result || v.result || {}).winners || [];
      const waiting = this.payload.waiting_on || v.waiting_on || [];
      for (const p of v.players || []) {
        const seat = p.seat;
        const node = el("div", `spirit-war-player${seat === this.you ? " spirit-war-player-mine" : ""}${p.out ? " spirit-war-player-out" : ""}`);
        const head = el("div", "spirit-war-player-head");
        head.append(el("span", "spirit-war-player-name", this.who(seat)));
        if (this.finished && winners.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-king", "♛ Spirit King"));
        if (!this.finished && v.turn === seat) head.append(el("span", "spirit-war-badge spirit-war-turn", "◆ turn"));
        if (!this.finished && waiting.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-waiting", "▶ to act"));
        if (p.out) head.append(el("span", "spirit-war-badge spirit-war-out", "✕ out of the war"));
        if (this.resigned.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-out", "resigned"));
        if (p.misses_next_turn) head.append(el("span", "spirit-war-badge", "misses the next turn"));
        node.append(head);
        const count = el("div", "spirit-war-count");
        const fan = el("span", "spirit-war-fan");
        fan.setAttribute("aria-hidden", "true");
        for (let i = 0; i < Math.min(p.cards_in_hand, 8); i++) fan.append(el("span", "spirit-war-fan-card"));
        count.append(fan);
        count.append(el("span", null, plural(p.cards_in_hand, "card in hand", "cards in hand")));
        node.append(count);
        const record = p.support_record || { could_help: 0, could_not_help: 0 };
        if (record.could_help + record.could_not_help > 0) {
          // public: Support cards she put down before the other side chose, once revealed
          node.append(el("div", "spirit-war-record",
            `Support cards put down first: ${record.could_help} could help, ${record.could_not_help} could not`));
        }
        if ((p.shown_cards || []).length) {
          // a shown card she may have put face down stays listed until the reveal
          const b = v.battle;
          const fighting = b && (b.attacker === seat || b.defender === seat);
          const where = fighting ? "in her hand or face down in the battle" : "in her hand";
          node.append(el("span", "spirit-war-label-small", `Shown to everyone, ${where}:`));
          node.append(this.cardRow(p.shown_cards, { where: `${this.name(seat)}'s, shown to everyone, ${where}` }, `${this.name(seat)}'s cards shown to everyone`));
        }
        const attack = this.movesAt(`player:${seat}`);
        if (attack.length) {
          node.classList.add("spirit-war-target");
          const row = el("div", "spirit-war-target-moves");
          for (const i of attack) row.append(this.moveButton(i));
          node.append(row);
        }
        box.append(node);
      }
      return box;
    }

    pile(title, cards, open) {
      const box = el("div", "spirit-war-pile");
      box.append(el("span", "spirit-war-label", `${title}: ${plural(cards.length, "card", "cards")}`));
      const top = cards.length ? cards[cards.length - 1] : null;
      if (top) box.append(this.card(top, { where: `On top of ${title}` }));
      else box.append(el("div", "spirit-war-card spirit-war-empty", "empty"));
      if (cards.length > 1) {
        const details = el("details");
        details.open = Boolean(open);
        details.append(el("summary", null, `Show all ${cards.length}`));
        const list = el("ol", "spirit-war-pile-list");
        for (const c of cards.slice().reverse()) list.append(el("li", null, `${c.name} (${kindWords(c)})`));
        details.append(el("p", "spirit-war-muted", "Newest first:"));
        details.append(list);
        box.append(details);
      }
      return box;
    }

    piles() {
      const v = this.view;
      const box = el("section", "spirit-war-piles");
      box.setAttribute("aria-label", "Decks and piles");
      const decks = el("div", "spirit-war-decks");
      const prep = el("div", "spirit-war-pile");
      prep.append(el("span", "spirit-war-label", "Preparation deck"));
      prep.append(this.back(plural(v.preparation_deck, "card", "cards"), true));
      decks.append(prep);
      const enc = el("div", "spirit-war-pile");
      enc.append(el("span", "spirit-war-label", "Encounter deck"));
      enc.append(this.back(plural(v.encounter_deck, "card", "cards"), true));
      decks.append(enc);
      if ((v.encounter || []).length) {
        const now = el("div", "spirit-war-pile spirit-war-encounter");
        now.append(el("span", "spirit-war-label", "Being resolved"));
        now.append(this.cardRow(v.encounter, { where: "The Encounter card being resolved", text: true }, "Being resolved"));
        decks.append(now);
      }
      box.append(decks);
      const spent = el("div", "spirit-war-decks");
      spent.append(this.pile("Abyss", v.abyss || []));
      spent.append(this.pile("History", v.history || []));
      box.append(spent);
      return box;
    }

    cycle() {
      const box = el("section", "spirit-war-cycle");
      box.setAttribute("aria-label", "The element chart");
      const line = el("p", "spirit-war-cycle-line");
      const order = ["fire", "earth", "water", "fire"];
      order.forEach((e, i) => {
        const chip = el("span", `spirit-war-chip spirit-war-element-${e}`);
        chip.append(el("span", "spirit-war-mark", ELEMENTS[e].mark));
        chip.append(document.createTextNode(` ${ELEMENTS[e].word}`));
        line.append(chip);
        if (i < order.length - 1) line.append(el("span", "spirit-war-beats", " beats "));
      });
      box.append(el("span", "spirit-war-label", "Element chart"));
      box.append(line);
      box.append(el("p", "spirit-war-muted", "The same element is a draw. An Element buff on one side only wins against any other element."));
      return box;
    }

    setupNotes() {
      const box = el("section", "spirit-war-setup");
      const details = el("details");
      details.append(el("summary", "spirit-war-label", "How the cards were dealt"));
      const list = el("ul");
      for (const note of this.view.setup) list.append(el("li", null, typeof note === "string" ? note : (note && note.text) || ""));
      details.append(list);
      box.append(details);
      return box;
    }

    finalScoring() {
      const r = this.payload.result || this.view.result || {};
      const box = el("section", "spirit-war-final");
      box.setAttribute("aria-label", "Final result");
      if (r.abandoned) {
        // nobody won an abandoned war: no table of results, only who ended it
        box.append(el("h2", "spirit-war-heading", "The table was abandoned"));
        box.append(el("p", "spirit-war-final-text", r.text || "The table was abandoned."));
        box.append(el("p", "spirit-war-muted", "The war was left unfinished: nobody won."));
        return box;
      }
      box.append(el("h2", "spirit-war-heading", "The war is over"));
      if (r.text) box.append(el("p", "spirit-war-final-text", r.text));
      if (OUTCOMES[r.outcome]) box.append(el("p", "spirit-war-muted", `${OUTCOMES[r.outcome]}.`));
      const winners = r.winners || [];
      const out = r.eliminated_order || [];
      const table = el("table", "spirit-war-final-table");
      const thead = el("thead");
      const head = el("tr");
      ["Player", "Result"].forEach((h) => head.append(el("th", null, h)));
      thead.append(head);
      table.append(thead);
      const tbody = el("tbody");
      const n = (this.view.players || []).length;
      for (let seat = 0; seat < n; seat++) {
        const row = el("tr");
        row.append(el("td", null, this.who(seat)));
        let words;
        if (winners.includes(seat)) words = r.outcome === "shared" ? "★ shares the end of the war" : "♛ Spirit King";
        else if (out.includes(seat)) words = `✕ out ${ordinal(out.indexOf(seat) + 1)}`;
        else if (r.outcome === "mini_war" && ((this.view.mini_war || {}).players || []).includes(seat)) words = "lost the Mini Spirit War";
        else words = "in the war to the end";
        if (this.resigned.includes(seat)) words = words === "in the war to the end" ? "resigned" : `${words} (resigned)`;
        if (winners.includes(seat)) row.className = "spirit-war-final-winner";
        row.append(el("td", null, words));
        tbody.append(row);
      }
      table.append(tbody);
      box.append(table);
      if ((r.breakdown || []).length) {
        box.append(el("h3", null, "In order"));
        const list = el("ol", "spirit-war-final-list");
        for (const line of r.breakdown) list.append(el("li", null, typeof line === "string" ? line : (line && line.text) || ""));
        box.append(list);
      }
      return box;
    }
  }

  window.TavernKit.sheetBoard(Table, "spirit-war");
  window.TavernGames = window.TavernGames || {};
  window.TavernGames.spirit_war = {
    drawsResult: true,
    render(root, payload, api) {
      new Table(root, payload || {}, api || {}).draw();
    },
  };
})();
