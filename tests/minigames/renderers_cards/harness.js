/* The renderer tests' stand-in for W1's table page: a stub `api` that records what the
 * renderer asks for (plays, fallback buttons) and helpers the tests call from Playwright. */
(function () {
  "use strict";
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
    }
    return JSON.stringify(value);
  }
  const harness = {
    plays: [],
    fallbacks: [],
    payload: null,
    refuse: null, // a sentence: the stub server refuses every move with it
    root() {
      return document.getElementById("board");
    },
    api(payload) {
      return {
        you: payload.seat,
        play(action) {
          harness.plays.push(action);
          if (harness.refuse) return Promise.reject(new Error(harness.refuse));
          return Promise.resolve({ ok: true });
        },
        fallbackButtons(moves) {
          harness.fallbacks.push(moves);
          const box = document.getElementById("fallback");
          box.replaceChildren();
          moves.forEach((move) => {
            const b = document.createElement("button");
            b.type = "button";
            b.textContent = move.label;
            b.addEventListener("click", () => harness.plays.push(move.action));
            box.append(b);
          });
        },
        seatName(seat) {
          return payload.names[seat];
        },
      };
    },
    render(payload) {
      harness.payload = payload;
      harness.plays = [];
      harness.fallbacks = [];
      const root = harness.root();
      window.TavernGames[payload.game].render(root, payload, harness.api(payload));
    },
    /* A new empty board, as a freshly loaded page has (nothing selected). */
    fresh() {
      const old = harness.root();
      const board = document.createElement("div");
      board.className = "tavern-board";
      board.id = "board";
      old.replaceWith(board);
    },
    visible(node) {
      return !!node && node.getClientRects().length > 0 && !node.closest("[hidden]");
    },
    /* Every move: placed (found, visible after opening its card, clicking plays exactly its
     * action) or passed to fallbackButtons. Returns the problems in words. */
    checkMoves(payload) {
      const problems = [];
      const counts = { placed: 0, fallback: 0 };
      payload.moves.forEach((move, index) => {
        harness.render(payload);
        const root = harness.root();
        const fallback = harness.fallbacks.length ? harness.fallbacks[harness.fallbacks.length - 1] : [];
        let button = root.querySelector(`[data-move="${index}"]`);
        if (!harness.visible(button)) {
          const opener = root.querySelector(`[data-opens~="${index}"]`);
          if (opener) {
            const pile = opener.closest("details");
            if (pile) pile.open = true;
            opener.click();
            button = root.querySelector(`[data-move="${index}"]`);
          }
        }
        if (harness.visible(button)) {
          counts.placed += 1;
          harness.plays = [];
          button.click();
          if (harness.plays.length !== 1 || canonical(harness.plays[0]) !== canonical(move.action)) {
            problems.push(`move ${index} (${move.label}) played ${canonical(harness.plays)}`);
          }
          if (button.textContent.trim() === "") problems.push(`move ${index} has an empty button`);
        } else if (fallback.some((m) => canonical(m.action) === canonical(move.action))) {
          counts.fallback += 1;
        } else {
          problems.push(`move ${index} (${move.label}) cannot be reached`);
        }
      });
      harness.render(payload);
      return { problems, counts };
    },
    /* The details of every card on the board, as tapping each one shows them. */
    cardTexts(payload) {
      harness.fresh();
      harness.render(payload);
      const texts = [];
      harness.root().querySelectorAll("button[aria-controls]").forEach((card) => {
        card.click();
        const detail = document.getElementById(card.getAttribute("aria-controls"));
        const name = card.querySelector("[class$='card__name']");
        texts.push({
          face: name ? name.textContent : card.textContent,
          detail: harness.visible(detail) ? detail.innerText : "",
        });
      });
      harness.fresh();
      harness.render(payload);
      return texts;
    },
    overflow() {
      const doc = document.documentElement;
      return { scroll: doc.scrollWidth, client: doc.clientWidth };
    },
  };
  window.harness = harness;
})();
