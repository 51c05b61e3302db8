/* What every tavern renderer (rso.js, dbs.js, raigo.js, spirit_war.js) draws with, written once.
 *
 * Loaded before the game's renderer on the table page (templates/minigames/table.html) and in
 * the renderer harnesses; a plain script (the site's CSP allows only its own files), so it
 * publishes window.TavernKit. It names no class: each renderer keeps its classes under its own
 * prefix (rso-, dbs-, raigo-, spirit-war-), and the card games' shared board methods take that
 * prefix as an argument.
 */
(function () {
  "use strict";

  /* An element with a class and text (text, never HTML: nothing a player typed is parsed). */
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /* Outside the site (the renderer harnesses load no /jsi18n/ catalog) the words stay English. */
  if (typeof window.gettext !== "function") {
    window.gettext = (s) => s;
    window.ngettext = (one, many, n) => (n === 1 ? one : many);
    window.pgettext = (context, s) => s;
    window.interpolate = (fmt, obj, named) => (named
      ? fmt.replace(/%\((\w+)\)s/g, (m, k) => String(obj[k]))
      : fmt.replace(/%s/g, ((i) => () => String(obj[i++]))(0)));
  }

  function plural(n, one, many) {
    return `${n} ${n === 1 ? one : many || one + "s"}`;
  }

  /* A seat's name in words: the page's (api.seatName), the payload's, the view's, else
     "Seat 2" (seats count from 1 for people). */
  function seatName(api, payload, view, seat) {
    let text = null;
    if (api && typeof api.seatName === "function") {
      try {
        text = api.seatName(seat);
      } catch (e) {
        text = null;
      }
    }
    if (!text && Array.isArray(payload.names)) text = payload.names[seat];
    if (!text && view && Array.isArray(view.names)) text = view.names[seat];
    const player = ((view && view.players) || [])[seat];
    if (!text && player) text = player.name;
    return text ? String(text) : interpolate(gettext("Seat %(number)s"), { number: Number(seat) + 1 }, true);
  }

  /* The seats that resigned (the result's list once the table ended, else the table's seats). */
  function resignedSeats(payload) {
    const result = payload.result || {};
    if (Array.isArray(result.resigned)) return result.resigned.slice();
    const seats = (payload.table && payload.table.seats) || [];
    return seats.filter((s) => s && s.resigned).map((s) => s.index);
  }

  /* Send one of the payload's moves: api.play's answer as a promise (a throw is a refusal). */
  function send(api, action) {
    try {
      return Promise.resolve(api.play(action));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /* The words of a refusal (an Error's message or a plain string), or "". */
  function refusalWords(error) {
    if (error && error.message) return error.message;
    return typeof error === "string" ? error : "";
  }

  /* Roving focus over one row of places (WAI-ARIA's toolbar pattern; the battle board's squares
     do the same): the row is a single stop of Tab, the arrow keys move among its places and Home
     and End go to its first and last. Why: every card, token and space is a button, so without
     it a player reached the seventh card of her hand past every card before it, forty presses
     of Tab and more on a full table; with it each row costs one press, then arrows inside it.
     The stop is the place whose details are open, else the first that holds a move, else the
     first; a place focused any other way (the page putting the focus back after a redraw,
     Escape from its details) becomes the stop. A row of fewer than two places is left as it is.
     `label` names the toolbar for a screen reader (the zone's words). */
  const ROVE_KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  function rove(row, label) {
    const places = [...row.querySelectorAll("button")];
    if (places.length < 2) return;
    row.setAttribute("role", "toolbar");
    if (label) row.setAttribute("aria-label", label);
    const stop =
      places.find((b) => b.getAttribute("aria-expanded") === "true") ||
      places.find((b) => b.dataset.opens || b.dataset.moves || b.dataset.move) ||
      places[0];
    const make = (chosen) => places.forEach((b) => { b.tabIndex = b === chosen ? 0 : -1; });
    make(stop);
    row.addEventListener("focusin", (event) => {
      if (places.includes(event.target)) make(event.target);
    });
    row.addEventListener("keydown", (event) => {
      const at = places.indexOf(event.target);
      if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
      let to;
      if (event.key in ROVE_KEYS) to = Math.max(0, Math.min(places.length - 1, at + ROVE_KEYS[event.key]));
      else if (event.key === "Home") to = 0;
      else if (event.key === "End") to = places.length - 1;
      else return;
      event.preventDefault();
      places[to].focus();
    });
  }

  /* The words a row's toolbar is named by: its zone's label, or a folded pile's summary. */
  function rowLabel(row) {
    const zone = row.closest("section[aria-label], details, [aria-label]");
    if (!zone) return "";
    if (zone.tagName === "DETAILS") {
      const summary = zone.querySelector("summary");
      return summary ? summary.textContent : "";
    }
    return zone.getAttribute("aria-label") || "";
  }

  /* The card games' boards (rso.js, dbs.js): every card a button keyed by `this.moveKey`,
     its details opening below its zone with one button per move. Installs on a Board whose
     constructor sets root, payload, api, view, me, top, bottom, entries, movesByKey, placed,
     selected, and which defines moveKey(action), fillDetail(entry, key), result(), phaseBar(),
     actionBar(status), side(seat) and middle(); registers it as window.TavernGames[slug]. */
  function cardBoard(Board, prefix, zones, slug) {
    const remembered = `__${prefix}Selected`;
    const P = Board.prototype;

    /* A line that says why the last move sent was refused: an alert (assertive), read out by
       screen readers at once. */
    P.statusLine = function () {
      const status = el("p", `${prefix}-status`);
      status.setAttribute("role", "alert");
      return status;
    };

    /* The whole table: the result when over, the phases, the moves that concern no card, the
       top side, the game's middle (this.middle()), the bottom side, then the details. */
    P.draw = function () {
      const root = this.root;
      root.replaceChildren();
      root.classList.add(`${prefix}-board`);
      this.indexMoves();
      const status = this.statusLine();
      if (this.payload.finished) root.append(this.result());
      root.append(this.phaseBar());
      const actions = this.actionBar(status);
      if (actions.childNodes.length) root.append(actions);
      root.append(status);
      // A seated player's own side comes first, her hand at its head: her hand, her board and
      // her moves are in the first screen (the other side and the middle follow). A spectator
      // sees the table as it lies, the far side on top.
      if (this.me !== null && this.me !== undefined) {
        const near = this.side(this.bottom);
        const hand = near.querySelector(`.${prefix}-zone--hand`);
        const head = near.querySelector(`.${prefix}-side__head`);
        if (hand && head) head.after(hand);
        root.append(near);
        root.append(this.middle());
        root.append(this.side(this.top));
      } else {
        root.append(this.side(this.top));
        root.append(this.middle());
        root.append(this.side(this.bottom));
      }
      this.openDetail(`${prefix}-detail`);
      // each row of cards is one stop of Tab (its cards by the arrow keys)
      root.querySelectorAll(`.${prefix}-row`).forEach((row) => rove(row, rowLabel(row)));
      // every listed move must be reachable: the ones with no place go to the page's buttons
      if (this.api.fallbackButtons) this.api.fallbackButtons(this.unplacedMoves());
    };

    window.TavernGames = window.TavernGames || {};
    window.TavernGames[slug] = {
      drawsResult: true,
      render(root, payload, api) {
        new Board(root, payload, api).draw();
      },
    };

    P.name = function (seat) {
      return seatName(this.api, this.payload, this.view, seat);
    };
    P.who = function (seat) {
      return seat === this.me ? interpolate(gettext("%(name)s (you)"), { name: this.name(seat) }, true) : this.name(seat);
    };
    P.whose = function (seat) {
      return seat === this.me ? gettext("Your") : interpolate(gettext("%(name)s's"), { name: this.name(seat) }, true);
    };

    /* Moves grouped by what they concern (the card played, the spell that attacks...). */
    P.indexMoves = function () {
      (this.payload.moves || []).forEach((move, index) => {
        const key = this.moveKey(move.action || {});
        if (!key) return;
        if (!this.movesByKey.has(key)) this.movesByKey.set(key, []);
        this.movesByKey.get(key).push(index);
      });
    };

    /* Every listed move must be reachable: the ones this drawing has no place for. */
    P.unplacedMoves = function () {
      return (this.payload.moves || []).filter((move, index) => {
        const key = this.moveKey(move.action || {});
        return key ? !this.entries.has(key) : !this.placed.has(index);
      });
    };

    P.setBusy = function (busy) {
      this.root.querySelectorAll(`.${prefix}-move`).forEach((b) => {
        b.disabled = busy;
      });
    };

    P.play = function (index, status) {
      this.setBusy(true);
      send(this.api, this.payload.moves[index].action).then(
        () => this.setBusy(false),
        (error) => {
          this.setBusy(false);
          if (status) {
            status.textContent =
              (error && error.message) || gettext("That move was refused; the table shows why above.");
          }
        },
      );
    };

    P.moveButton = function (index, status, extraClass) {
      const move = this.payload.moves[index];
      const button = el("button", `${prefix}-move${extraClass ? " " + extraClass : ""}`, move.label);
      button.type = "button";
      button.dataset.move = String(index);
      button.addEventListener("click", () => this.play(index, status));
      this.placed.add(index);
      return button;
    };

    P.select = function (key, clicked) {
      this.selected = key;
      this.root[remembered] = key;
      this.root.querySelectorAll(`.${prefix}-card`).forEach((b) => {
        b.classList.remove(`${prefix}-card--selected`);
        b.setAttribute("aria-expanded", "false");
      });
      const entry = key ? this.entries.get(key) : null;
      const shown = entry ? clicked || entry.button : null;
      this.shownButton = shown;
      if (shown) {
        shown.classList.add(`${prefix}-card--selected`);
        shown.setAttribute("aria-expanded", "true");
      }
      this.fillDetail(entry, key);
      this.placeDetail(entry, shown);
      if (entry && this.detail.scrollIntoView) this.detail.scrollIntoView({ block: "nearest" });
    };

    /* The details open just below the zone of the tapped card, so a phone keeps its place. */
    P.placeDetail = function (entry, button) {
      const near = button || (entry && entry.button);
      const zone = near && near.closest(zones);
      if (zone) zone.after(this.detail);
      else this.root.append(this.detail);
    };

    /* The details' head: the card's name and a Close that gives the focus back to the card. */
    P.detailHead = function (title, entry) {
      const head = el("div", `${prefix}-detail__head`);
      head.append(el("h3", `${prefix}-detail__name`, title));
      const close = el("button", `${prefix}-detail__close`, gettext("Close"));
      close.type = "button";
      close.setAttribute("aria-label", interpolate(gettext("Close the details of %(title)s"), { title }, true));
      close.addEventListener("click", () => {
        const button = this.shownButton || entry.button;
        this.select(null);
        if (button && button.focus) button.focus();
      });
      head.append(close);
      return head;
    };

    /* The details' moves, or a note when this card has none now. */
    P.detailMoves = function (box, title, key, status) {
      const moves = (key && this.movesByKey.get(key)) || [];
      if (moves.length) {
        const group = el("div", `${prefix}-detail__moves`);
        group.setAttribute("role", "group");
        group.setAttribute("aria-label", interpolate(gettext("Moves with %(title)s"), { title }, true));
        moves.forEach((i) => group.append(this.moveButton(i, status)));
        box.append(group);
      } else if (this.me !== null && !this.payload.finished) {
        box.append(el("p", `${prefix}-note`, gettext("No move with this card right now.")));
      }
    };

    /* The details' box, empty, at the end of the board; the selection kept from the last
       drawing when its card is still there (else forgotten). */
    P.openDetail = function (id) {
      // Escape closes the open card's details (from the card or from inside them) and gives the
      // focus back to the card: one listener on the page's board box, for whichever drawing
      // is current (the box outlives the drawings).
      this.root.__tavernBoard = this;
      if (!this.root.__escapeCloses) {
        this.root.__escapeCloses = true;
        this.root.addEventListener("keydown", (event) => {
          const board = this.root.__tavernBoard;
          if (event.key !== "Escape" || !board || !board.selected) return;
          const button = board.shownButton || (board.entries.get(board.selected) || {}).button;
          board.select(null);
          if (button && button.focus) button.focus();
        });
      }
      this.detail = el("section", `${prefix}-detail`);
      this.detail.id = id;
      this.detail.setAttribute("aria-label", gettext("Card details"));
      this.detail.setAttribute("aria-live", "polite");
      this.root.append(this.detail);
      if (this.selected && !this.entries.has(this.selected)) {
        this.selected = null;
        this.root[remembered] = null;
      }
      const entry = this.selected ? this.entries.get(this.selected) : null;
      this.fillDetail(entry, this.selected);
      this.placeDetail(entry);
    };
  }

  /* RAIGO's and Spirit War's tables (raigo.js, spirit_war.js): moves in a sheet that opens
     from a tapped place. Installs play (one move at a time, the table marked busy meanwhile),
     setError (a refusal in words in this.errorBox) and moveButton (closing the sheet as it
     plays) on a Table that sets api, moves, placed and errorBox and defines closeSheet(). */
  function sheetBoard(Table, prefix) {
    const P = Table.prototype;
    P.play = function (index) {
      if (this.busy) return;
      const move = this.moves[index];
      if (!move) return;
      this.busy = true;
      this.root.classList.add(`${prefix}-busy`);
      this.setError("");
      send(this.api, move.action)
        .catch((err) => this.setError(refusalWords(err)))
        .finally(() => {
          this.busy = false;
          this.root.classList.remove(`${prefix}-busy`);
        });
    };
    P.setError = function (text) {
      if (!this.errorBox) return;
      this.errorBox.textContent = text ? interpolate(gettext("That move was refused: %(reason)s"), { reason: text }, true) : "";
      this.errorBox.hidden = !text;
    };
    P.moveButton = function (index, cls) {
      const move = this.moves[index];
      const button = el("button", `${prefix}-move ${cls || ""}`.trim(), move.label);
      button.type = "button";
      button.dataset.move = String(index);
      button.addEventListener("click", () => {
        this.closeSheet();
        this.play(index);
      });
      this.placed.add(index);
      return button;
    };
  }

  window.TavernKit = {
    el, plural, seatName, resignedSeats, send, refusalWords, rove, rowLabel, cardBoard, sheetBoard,
  };
})();
