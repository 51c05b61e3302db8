// Character wizard: one step at a time, conditional inputs, and a live panel of derived stats.
// The server does all the rules: every change posts the whole form to the preview URL, which
// answers {valid, errors: {slot: [messages]}, html}. Without JavaScript the form is one long
// page and a plain POST saves it (the server validates the same way).
(function () {
  "use strict";
  // words in the reader's language (Django's JavaScriptCatalog, /jsi18n/, loaded by base.html)
  const gettext = window.gettext || ((text) => text);
  const form = document.getElementById("character-form");
  const panel = document.getElementById("live-panel");
  if (!form || !panel) return;

  const steps = Array.from(form.querySelectorAll("fieldset.step"));
  const nav = document.getElementById("step-list");
  let current = 0;

  // ---------------------------------------------------------------- steps
  function show(index) {
    current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((step, i) => {
      step.hidden = i !== current;
      if (i === current) step.classList.add("visited");
    });
    if (nav) {
      nav.querySelectorAll("a[data-step]").forEach((link, i) => {
        link.classList.toggle("current", i === current);
        link.setAttribute("aria-current", i === current ? "step" : "false");
      });
    }
    prev.disabled = current === 0;
    next.hidden = current === steps.length - 1;
    markNav();
  }

  // A step's link turns red when a step the player has seen has an error.
  function markNav() {
    if (!nav) return;
    nav.querySelectorAll("a[data-step]").forEach((link) => {
      const step = steps.find((s) => s.dataset.step === link.dataset.step);
      const bad = step && step.classList.contains("visited") &&
        step.querySelector(".field-errors .error");
      link.classList.toggle("has-error", Boolean(bad));
    });
  }

  const bar = document.createElement("div");
  bar.className = "step-buttons";
  const prev = document.createElement("button");
  prev.type = "button";
  prev.className = "secondary";
  prev.id = "step-back";
  prev.textContent = gettext("Back");
  const next = document.createElement("button");
  next.type = "button";
  next.id = "step-next";
  next.textContent = gettext("Next");
  bar.append(prev, next);
  form.querySelector(".wizard-actions").before(bar);
  prev.addEventListener("click", () => show(current - 1));
  next.addEventListener("click", () => show(current + 1));
  if (nav) {
    nav.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-step]");
      if (!link) return;
      event.preventDefault();
      show(steps.findIndex((s) => s.dataset.step === link.dataset.step));
    });
  }
  form.classList.add("js-steps");
  // Errors show only in steps the player has seen. After a refused save (or when editing)
  // every step counts as seen, and the first step with an error opens.
  if (document.getElementById("save-errors") || form.dataset.mode === "edit") {
    steps.forEach((s) => s.classList.add("visited"));
  }
  const firstError = steps.findIndex((s) => s.querySelector(".field-errors .error"));
  show(document.getElementById("save-errors") && firstError >= 0 ? firstError : 0);

  // ---------------------------------------------------------------- conditional inputs
  function valueOf(name) {
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    return checked ? checked.value : "";
  }
  function toggleConditionals() {
    form.querySelectorAll("[data-show-for]").forEach((el) => {
      const values = el.dataset.values.trim().split(/\s+/).filter(Boolean);
      const value = valueOf(el.dataset.showFor);
      el.hidden = values.length ? !values.includes(value) : value !== "";
    });
    form.querySelectorAll("[data-show-when-checked]").forEach((el) => {
      const box = form.querySelector(`input[name="abilities"][value="${el.dataset.showWhenChecked}"]`);
      el.hidden = !(box && box.checked);
    });
  }

  // ---------------------------------------------------------------- live preview
  let timer = null;
  let seq = 0;
  function placeErrors(errors) {
    form.querySelectorAll("[data-error-for]").forEach((slot) => { slot.textContent = ""; });
    Object.entries(errors).forEach(([field, messages]) => {
      const slot = form.querySelector(`[data-error-for="${CSS.escape(field)}"]`) ||
        form.querySelector('[data-error-for="general"]');
      messages.forEach((message) => {
        const small = document.createElement("small");
        small.className = "error";
        small.textContent = message;
        slot.append(small);
      });
    });
    markNav();
  }
  // Each skill's base from the stats chosen so far, computed by the server's engine.
  function showSkillBases(bases) {
    form.querySelectorAll("[data-skill-base]").forEach((span) => {
      const base = bases[span.dataset.skillBase];
      span.textContent = base === undefined ? "" : ` = ${base}`;
    });
    const pending = form.querySelector("[data-skill-bases-pending]");
    if (pending) pending.hidden = Object.keys(bases).length > 0;
  }
  function settle(mine) {
    if (mine === seq && timer === null) panel.removeAttribute("aria-busy");
  }
  function refresh() {
    timer = null;
    const mine = ++seq;
    fetch(form.dataset.previewUrl, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((data) => {
        if (mine !== seq) return;
        panel.innerHTML = data.html;
        placeErrors(data.errors);
        showSkillBases(data.skill_bases || {});
        form.dataset.valid = data.valid ? "yes" : "no";
        panel.dataset.seq = String(mine);
        settle(mine);
      })
      .catch(() => settle(mine));
  }
  // The panel is busy from a change until the answer to the last one is drawn (assistive
  // technology waits for it, and so can a test before its next click).
  function changed() {
    panel.setAttribute("aria-busy", "true");
    toggleConditionals();
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  toggleConditionals();
})();
