// Live odds on the dice page: re-render the server's odds fragment as the form changes.
// Without JavaScript the "Show odds" button does the same with a page load.
(function () {
  // words in the reader's language (Django's JavaScriptCatalog, /jsi18n/, loaded by base.html)
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, key) => String(obj[key])));
  const form = document.getElementById("dice-form");
  const target = document.getElementById("odds");
  if (!form || !target) return;
  let timer = null;
  let seq = 0;
  function refresh() {
    const params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    params.set("partial", "odds");
    const mine = ++seq;
    fetch(form.dataset.oddsUrl + "?" + params.toString(), { headers: { "X-Requested-With": "fetch" } })
      .then((r) => r.text())
      .then((html) => { if (mine === seq) { target.innerHTML = html; markFields(); } })
      .catch(() => {});
  }
  // the fields the odds' error names are highlighted as the form's own errors are
  function markFields() {
    const box = target.querySelector("[data-fields]");
    const bad = new Set(box ? box.dataset.fields.split(" ").filter(Boolean) : []);
    for (const input of form.querySelectorAll("input[name], select[name]")) {
      const field = input.closest(".field");
      if (!field || input.type === "hidden") continue;
      const wrong = bad.has(input.name);
      field.classList.toggle("has-error", wrong);
      if (wrong) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
  }
  // a mental check the house rule keeps secret says so before it is rolled
  const secretData = document.getElementById("secret-checks");
  const note = document.getElementById("mental-note");
  const check = form.querySelector("select[name=check]");
  if (secretData && note && check) {
    const secret = JSON.parse(secretData.textContent);
    check.addEventListener("change", () => {
      const skill = secret[check.value];
      note.textContent = skill
        ? interpolate(gettext("%(check)s is a mental roll: only the GM sees the result (house rule “Mental rolls are secret”)."), { check: skill }, true)
        : "";
      note.hidden = !skill;
    });
  }
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 150); });
})();
