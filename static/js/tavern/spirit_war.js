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
    fire: { word: gettext("Fire"), mark: "▲" },
    earth: { word: gettext("Earth"), mark: "■" },
    water: { word: gettext("Water"), mark: "●" },
  };
  const KINDS = { spirit: gettext("Spirit"), spell: gettext("Spell"), attack: gettext("Attack"), fortune: gettext("Fortune"), disaster: gettext("Disaster") };
  const SUPPORTS = { disintegrate: gettext("Disintegrate"), imbue: gettext("Imbue"), swap: gettext("Swap"), safeguard: gettext("Safeguard") };
  const TARGETS = {
    next: gettext("the next player"),
    previous: gettext("the previous player"),
    any: gettext("any player"),
    most_cards: gettext("the player with the most cards"),
    fewest_cards: gettext("the player with the fewest cards"),
  };
  const OUTCOMES = {
    spirit_king: gettext("A Spirit King is crowned"),
    shared: gettext("The survivors share the end of the war"),
    mini_war: gettext("Decided by a Mini Spirit War"),
  };
  const PROMPT_TYPES = ["draw", "skip_attack", "no_spirit", "pass_support", "vote"];

  const { el, seatName, rove } = window.TavernKit;

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
    const kind = KINDS[card.kind] || gettext("Card");
    if (card.kind === "spirit" && ELEMENTS[card.element]) return interpolate(gettext("%(element)s Spirit"), { element: ELEMENTS[card.element].word }, true);
    if (card.kind === "spell") {
      const support = SUPPORTS[card.support] || gettext("Support");
      const element = ELEMENTS[card.element] ? ` (${ELEMENTS[card.element].word})` : "";
      return interpolate(gettext("Spell: %(support)s%(element)s"), { support, element }, true);
    }
    if (card.kind === "attack" && TARGETS[card.target]) return interpolate(gettext("Attack: %(name)s"), { name: TARGETS[card.target] }, true);
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
      return seat === this.you ? interpolate(gettext("%(name)s (you)"), { name: this.name(seat) }, true) : this.name(seat);
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
      head.append(el("strong", null, (details && details.title) || gettext("Choose a move")));
      const close = el("button", "spirit-war-sheet-close", gettext("Close"));
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
      sheet.setAttribute("aria-label", (details && details.title) || gettext("Choose a move"));
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
      box.setAttribute("aria-label", gettext("Game status"));
      if (!this.finished) {
        const line = el("p", "spirit-war-status-line");
        line.append(el("strong", null, interpolate(gettext("Turn %(turn_number)s"), { turn_number: v.turn_number }, true)));
        line.append(document.createTextNode(v.turn === this.you ? gettext(" · your turn") : interpolate(gettext(" · %(turn)s's turn"), { turn: this.name(v.turn) }, true)));
        box.append(line);
      }
      if (this.finished) {
        // The final result below says who won (and the page's summary line above says it
        // too): a third copy here only pushed the table down. A war that ended before its
        // end (a resignation) says so, which the result does not.
        const early = v.phase !== "over" && !(this.payload.result || {}).abandoned;
        if (early) box.append(el("p", "spirit-war-status-text", gettext("The war ended early.")));
        else box.hidden = true;
        return box;
      }
      // the situation in a sentence: the view keeps it with its words, rendered in her language
      const phase = typeof v.phase_text === "string" ? v.phase_text : (v.phase_text || {}).text;
      box.append(el("p", "spirit-war-status-text", phase || this.payload.summary || ""));
      if (v.attack && Array.isArray(v.attack.candidates) && v.attack.candidates.length) {
        box.append(el("p", "spirit-war-muted", interpolate(gettext("%(attacker)s may attack: %(names)s."), { attacker: this.who(v.attack.attacker), names: v.attack.candidates.map((s) => this.who(s)).join(", ") }, true)));
      }
      if (v.discard && typeof v.discard.seat === "number") {
        box.append(el("p", "spirit-war-muted", interpolate(ngettext("%(seat)s must discard %(count)s more card.", "%(seat)s must discard %(count)s more cards.", v.discard.left), { seat: this.who(v.discard.seat), count: v.discard.left }, true)));
      }
      if (Array.isArray(v.votes) && v.phase === "rare_outcome") {
        const done = v.votes.map((vote, s) => (vote === null || vote === undefined ? null : this.name(s))).filter(Boolean);
        box.append(el("p", "spirit-war-muted", done.length ? interpolate(gettext("Voted so far: %(names)s."), { names: done.join(", ") }, true) : gettext("Nobody has voted yet.")));
      }
      return box;
    }

    promptText() {
      const v = this.view;
      switch (v.phase) {
        case "turn":
          return gettext("Your turn: draw a Preparation card and an Encounter card.");
        case "attack":
          return gettext("Choose whom to attack: tap a player below.");
        case "summon":
          // an attacked player without a Spirit is offered only "Show your hand"
          return this.moves.some((m) => (m.action || {}).type === "summon")
            ? gettext("Summon a Spirit face down: tap it in your hand.")
            : gettext("You hold no Spirit to summon: show your hand.");
        case "support":
          return gettext("Support card: tap a card in your hand to put it face down, or use none.");
        case "discard":
          return interpolate(ngettext("Discard: tap a card in your hand (%(count)s card to go).", "Discard: tap a card in your hand (%(count)s cards to go).", (v.discard || {}).left || 1), { count: (v.discard || {}).left || 1 }, true);
        case "rare_outcome":
          return gettext("Vote: how should the war end?");
        default:
          return gettext("Your move:");
      }
    }

    promptBox() {
      const box = el("section", "spirit-war-prompt");
      box.setAttribute("aria-label", gettext("Your move"));
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
        wrap.append(this.back(interpolate(gettext("%(role)s face down"), { role }, true)));
      } else if (slot.chosen) {
        // chosen at the same time as the other side: a card face down or none, unseen
        const node = el("div", "spirit-war-card spirit-war-empty");
        node.append(el("span", null, gettext("Chosen: a card face down, or none")));
        wrap.append(node);
      } else if (slot.none) {
        const node = el("div", "spirit-war-card spirit-war-empty");
        node.append(el("span", null, role === gettext("Spirit") ? gettext("No Spirit") : gettext("No Support card")));
        wrap.append(node);
      } else {
        wrap.append(this.card(slot, { where: `${whose} ${role}`, text: false }));
      }
      return wrap;
    }

    battle(b) {
      const box = el("section", "spirit-war-battle");
      box.setAttribute("aria-label", gettext("The battle"));
      box.append(el("h2", "spirit-war-heading", interpolate(gettext("Battle: %(attacker)s attacks %(defender)s"), { attacker: this.who(b.attacker), defender: this.who(b.defender) }, true)));
      const sides = el("div", "spirit-war-sides");
      [b.attacker, b.defender].forEach((seat, i) => {
        const side = el("div", `spirit-war-side${seat === this.you ? " spirit-war-side-mine" : ""}`);
        side.append(el("h3", "spirit-war-side-name", (i === 0 ? interpolate(gettext("Attacker: %(name)s"), { name: this.who(seat) }, true) : interpolate(gettext("Defender: %(name)s"), { name: this.who(seat) }, true))));
        const slots = el("div", "spirit-war-slots");
        slots.append(this.slot((b.summons || [])[i], gettext("Spirit"), seat));
        if (b.revealed || (b.supports || [])[i]) slots.append(this.slot((b.supports || [])[i], gettext("Support"), seat));
        side.append(slots);
        sides.append(side);
        if (i === 0) sides.append(el("span", "spirit-war-versus", "vs"));
      });
      box.append(sides);
      const notes = [];
      if (!b.revealed) notes.push(gettext("The Spirits stay face down until both are chosen, then turn over together."));
      else notes.push(gettext("The Spirits are revealed. Support cards stay face down until both sides have decided."));
      if (b.no_spirit) notes.push(gettext("The defender had no Spirit to summon."));
      for (const n of notes) box.append(el("p", "spirit-war-muted", n));
      return box;
    }

    miniWar(m) {
      const box = el("section", "spirit-war-mini");
      box.setAttribute("aria-label", gettext("Mini Spirit War"));
      box.append(el("h2", "spirit-war-heading", interpolate(gettext("Mini Spirit War · round %(round)s"), { round: m.round }, true)));
      box.append(el("p", "spirit-war-muted", interpolate(ngettext("Between %(names)s; %(count)s card left in its deck.", "Between %(names)s; %(count)s cards left in its deck.", m.deck), { names: (m.players || []).map((s) => this.who(s)).join(", "), count: m.deck }, true)));
      if ((m.table || []).length) box.append(this.cardRow(m.table, { where: gettext("On the Mini Spirit War's table") }, gettext("The Mini Spirit War's table")));
      return box;
    }

    hand() {
      const box = el("section", "spirit-war-hand");
      box.setAttribute("aria-label", gettext("Your hand"));
      if (this.you === null) {
        box.append(el("h2", "spirit-war-heading", gettext("Hands")));
        box.append(el("p", "spirit-war-muted", gettext("You are watching: hands stay hidden from spectators.")));
        return box;
      }
      if (this.payload.public_view) {
        // she resigned and a bot plays her seat on: its hand is no longer hers to see
        box.append(el("h2", "spirit-war-heading", gettext("Your hand")));
        box.append(el("p", "spirit-war-muted", gettext("You resigned: a bot plays your seat now, and its hand stays hidden from you.")));
        return box;
      }
      const cards = Array.isArray(this.view.hand) ? this.view.hand : [];
      box.append(el("h2", "spirit-war-heading", interpolate(ngettext("Your hand (%(count)s card)", "Your hand (%(count)s cards)", cards.length), { count: cards.length }, true)));
      if (!cards.length) box.append(el("p", "spirit-war-muted", gettext("Your hand is empty.")));
      const row = el("div", "spirit-war-cards spirit-war-hand-cards");
      for (const c of cards) row.append(this.card(c, { key: `card:${c.id}`, where: gettext("In your hand") }));
      rove(row, gettext("Your hand"));
      box.append(row);
      return box;
    }

    players() {
      const v = this.view;
      const box = el("section", "spirit-war-players");
      box.setAttribute("aria-label", gettext("Players"));
      const winners = (this.payload.result || v.result || {}).winners || [];
      const waiting = this.payload.waiting_on || v.waiting_on || [];
      for (const p of v.players || []) {
        const seat = p.seat;
        const node = el("div", `spirit-war-player${seat === this.you ? " spirit-war-player-mine" : ""}${p.out ? " spirit-war-player-out" : ""}`);
        const head = el("div", "spirit-war-player-head");
        head.append(el("span", "spirit-war-player-name", this.who(seat)));
        if (this.finished && winners.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-king", gettext("♛ Spirit King")));
        if (!this.finished && v.turn === seat) head.append(el("span", "spirit-war-badge spirit-war-turn", gettext("◆ turn")));
        if (!this.finished && waiting.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-waiting", gettext("▶ to act")));
        if (p.out) head.append(el("span", "spirit-war-badge spirit-war-out", gettext("✕ out of the war")));
        if (this.resigned.includes(seat)) head.append(el("span", "spirit-war-badge spirit-war-out", gettext("resigned")));
        if (p.misses_next_turn) head.append(el("span", "spirit-war-badge", gettext("misses the next turn")));
        node.append(head);
        const count = el("div", "spirit-war-count");
        const fan = el("span", "spirit-war-fan");
        fan.setAttribute("aria-hidden", "true");
        for (let i = 0; i < Math.min(p.cards_in_hand, 8); i++) fan.append(el("span", "spirit-war-fan-card"));
        count.append(fan);
        count.append(el("span", null, interpolate(ngettext("%(count)s card in hand", "%(count)s cards in hand", p.cards_in_hand), { count: p.cards_in_hand }, true)));
        node.append(count);
        const record = p.support_record || { could_help: 0, could_not_help: 0 };
        if (record.could_help + record.could_not_help > 0) {
          // public: Support cards she put down before the other side chose, once revealed
          node.append(el("div", "spirit-war-record",
            interpolate(gettext("Support cards put down first: %(could_help)s could help, %(could_not_help)s could not"), { could_help: record.could_help, could_not_help: record.could_not_help }, true)));
        }
        if ((p.shown_cards || []).length) {
          // a shown card she may have put face down stays listed until the reveal
          const b = v.battle;
          const fighting = b && (b.attacker === seat || b.defender === seat);
          const where = fighting ? gettext("in her hand or face down in the battle") : gettext("in her hand");
          node.append(el("span", "spirit-war-label-small", interpolate(gettext("Shown to everyone, %(where)s:"), { where }, true)));
          node.append(this.cardRow(p.shown_cards, { where: interpolate(gettext("%(seat)s's, shown to everyone, %(where)s"), { seat: this.name(seat), where }, true) }, interpolate(gettext("%(seat)s's cards shown to everyone"), { seat: this.name(seat) }, true)));
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
      box.append(el("span", "spirit-war-label", interpolate(ngettext("%(title)s: %(count)s card", "%(title)s: %(count)s cards", cards.length), { title, count: cards.length }, true)));
      const top = cards.length ? cards[cards.length - 1] : null;
      if (top) box.append(this.card(top, { where: interpolate(gettext("On top of %(title)s"), { title }, true) }));
      else box.append(el("div", "spirit-war-card spirit-war-empty", gettext("empty")));
      if (cards.length > 1) {
        const details = el("details");
        details.open = Boolean(open);
        details.append(el("summary", null, interpolate(gettext("Show all %(cards)s"), { cards: cards.length }, true)));
        const list = el("ol", "spirit-war-pile-list");
        for (const c of cards.slice().reverse()) list.append(el("li", null, `${c.name} (${kindWords(c)})`));
        details.append(el("p", "spirit-war-muted", gettext("Newest first:")));
        details.append(list);
        box.append(details);
      }
      return box;
    }

    piles() {
      const v = this.view;
      const box = el("section", "spirit-war-piles");
      box.setAttribute("aria-label", gettext("Decks and piles"));
      const decks = el("div", "spirit-war-decks");
      const prep = el("div", "spirit-war-pile");
      prep.append(el("span", "spirit-war-label", gettext("Preparation deck")));
      prep.append(this.back(interpolate(ngettext("%(count)s card", "%(count)s cards", v.preparation_deck), { count: v.preparation_deck }, true), true));
      decks.append(prep);
      const enc = el("div", "spirit-war-pile");
      enc.append(el("span", "spirit-war-label", gettext("Encounter deck")));
      enc.append(this.back(interpolate(ngettext("%(count)s card", "%(count)s cards", v.encounter_deck), { count: v.encounter_deck }, true), true));
      decks.append(enc);
      if ((v.encounter || []).length) {
        const now = el("div", "spirit-war-pile spirit-war-encounter");
        now.append(el("span", "spirit-war-label", gettext("Being resolved")));
        now.append(this.cardRow(v.encounter, { where: gettext("The Encounter card being resolved"), text: true }, gettext("Being resolved")));
        decks.append(now);
      }
      box.append(decks);
      const spent = el("div", "spirit-war-decks");
      spent.append(this.pile(gettext("Abyss"), v.abyss || []));
      spent.append(this.pile(gettext("History"), v.history || []));
      box.append(spent);
      return box;
    }

    cycle() {
      const box = el("section", "spirit-war-cycle");
      box.setAttribute("aria-label", gettext("The element chart"));
      const line = el("p", "spirit-war-cycle-line");
      const order = ["fire", "earth", "water", "fire"];
      order.forEach((e, i) => {
        const chip = el("span", `spirit-war-chip spirit-war-element-${e}`);
        chip.append(el("span", "spirit-war-mark", ELEMENTS[e].mark));
        chip.append(document.createTextNode(` ${ELEMENTS[e].word}`));
        line.append(chip);
        if (i < order.length - 1) line.append(el("span", "spirit-war-beats", ` ${pgettext("Spirit War element chart", "beats")} `));
      });
      box.append(el("span", "spirit-war-label", gettext("Element chart")));
      box.append(line);
      box.append(el("p", "spirit-war-muted", gettext("The same element is a draw. An Element buff on one side only wins against any other element.")));
      return box;
    }

    setupNotes() {
      const box = el("section", "spirit-war-setup");
      const details = el("details");
      details.append(el("summary", "spirit-war-label", gettext("How the cards were dealt")));
      const list = el("ul");
      for (const note of this.view.setup) list.append(el("li", null, typeof note === "string" ? note : (note && note.text) || ""));
      details.append(list);
      box.append(details);
      return box;
    }

    finalScoring() {
      const r = this.payload.result || this.view.result || {};
      const box = el("section", "spirit-war-final");
      box.setAttribute("aria-label", gettext("Final result"));
      if (r.abandoned) {
        // nobody won an abandoned war: no table of results, only who ended it
        box.append(el("h2", "spirit-war-heading", gettext("The table was abandoned")));
        box.append(el("p", "spirit-war-final-text", r.text || gettext("The table was abandoned.")));
        box.append(el("p", "spirit-war-muted", gettext("The war was left unfinished: nobody won.")));
        return box;
      }
      box.append(el("h2", "spirit-war-heading", gettext("The war is over")));
      if (r.text) box.append(el("p", "spirit-war-final-text", r.text));
      if (OUTCOMES[r.outcome]) box.append(el("p", "spirit-war-muted", `${OUTCOMES[r.outcome]}.`));
      const winners = r.winners || [];
      const out = r.eliminated_order || [];
      const table = el("table", "spirit-war-final-table");
      const thead = el("thead");
      const head = el("tr");
      [gettext("Player"), gettext("Result")].forEach((h) => head.append(el("th", null, h)));
      thead.append(head);
      table.append(thead);
      const tbody = el("tbody");
      const n = (this.view.players || []).length;
      for (let seat = 0; seat < n; seat++) {
        const row = el("tr");
        row.append(el("td", null, this.who(seat)));
        let words;
        if (winners.includes(seat)) words = r.outcome === "shared" ? gettext("★ shares the end of the war") : gettext("♛ Spirit King");
        else if (out.includes(seat)) words = interpolate(gettext("✕ out %(place)s"), { place: ordinal(out.indexOf(seat) + 1) }, true);
        else if (r.outcome === "mini_war" && ((this.view.mini_war || {}).players || []).includes(seat)) words = gettext("lost the Mini Spirit War");
        else words = gettext("in the war to the end");
        if (this.resigned.includes(seat)) words = words === gettext("in the war to the end") ? gettext("resigned") : interpolate(gettext("%(words)s (resigned)"), { words }, true);
        if (winners.includes(seat)) row.className = "spirit-war-final-winner";
        row.append(el("td", null, words));
        tbody.append(row);
      }
      table.append(tbody);
      box.append(table);
      if ((r.breakdown || []).length) {
        box.append(el("h3", null, gettext("In order")));
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
