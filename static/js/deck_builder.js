// Deck builder: the +/− buttons save a card's count without a page load and swap in the
// server-rendered deck panel (count, every broken rule, the cards). Without JavaScript the
// same forms post and the page reloads; nothing here decides a rule.
// The new-deck form offers only the presets of the game chosen (their values are
// "<game>:<preset>"; the server refuses another game's preset in words either way).
(function () {
  const form = document.getElementById("new-deck-form");
  const game = form && form.querySelector("select[name=game]");
  const start = form && form.querySelector("select[name=start]");
  if (!game || !start) return;
  function offer() {
    for (const option of start.options) {
      const theirs = option.value && !option.value.startsWith(`${game.value}:`);
      option.hidden = option.disabled = Boolean(theirs);
    }
    if (start.selectedOptions[0] && start.selectedOptions[0].disabled) start.value = "";
  }
  game.addEventListener("change", offer);
  offer();
})();

(function () {
  const root = document.getElementById("deck-builder");
  if (!root) return;
  const panel = document.getElementById("deck-panel");

  function setCount(form, count) {
    const out = form.querySelector(".deckb-count__n");
    const minus = form.querySelector(".deckb-count__minus");
    const plus = form.querySelector(".deckb-count__plus");
    if (out) out.textContent = String(count);
    if (minus) {
      minus.value = String(Math.max(0, count - 1));
      minus.disabled = count <= 0;
    }
    if (plus) {
      plus.value = String(count + 1);
      plus.disabled = count >= 9;
    }
  }

  function refreshCounts(counts) {
    document.querySelectorAll("#card-list .deckb-count").forEach((form) => {
      setCount(form, counts[form.dataset.number] || 0);
    });
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("deckb-count")) return;
    if (!root.contains(form)) return;
    event.preventDefault();
    const submitter = event.submitter;
    const data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    root.classList.add("deckb-busy");
    fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    })
      .then((r) => r.json())
      .then((json) => {
        if (json.panel !== undefined) panel.innerHTML = json.panel;
        if (json.counts) refreshCounts(json.counts);
        root.dataset.saved = String(Date.now());
        if (json.error) {
          const note = document.createElement("p");
          note.className = "errors";
          note.setAttribute("role", "alert");
          note.textContent = json.error;
          panel.prepend(note);
        }
      })
      .catch(() => {
        // Fall back to the plain form post (the native submit() fires no submit event).
        const hidden = document.createElement("input");
        hidden.type = "hidden";
        hidden.name = "count";
        hidden.value = submitter ? submitter.value : "0";
        form.appendChild(hidden);
        form.submit();
      })
      .finally(() => root.classList.remove("deckb-busy"));
  });

  // Filters apply as soon as a choice changes (the Filter button stays for typing).
  document.querySelectorAll(".deckb-filters select").forEach((select) => {
    select.addEventListener("change", () => select.form.submit());
  });
})();
