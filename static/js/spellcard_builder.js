// Live spellcard builder: on every change, fetch the server-rendered preview fragment (cost
// breakdown, broken rules, damage chart, chance to hit) and put each error beside its field.
// Without JavaScript the "Show cost" button does the same with a page load.
(function () {
  const form = document.getElementById("spellcard-form");
  const target = document.getElementById("spellcard-preview");
  if (!form || !target) return;
  let timer = null;
  let seq = 0;

  function placeErrors() {
    form.querySelectorAll(".field .error").forEach((el) => el.remove());
    form.querySelectorAll(".field.has-error").forEach((el) => el.classList.remove("has-error"));
    const box = target.querySelector("#field-errors");
    if (!box) return;
    box.querySelectorAll("[data-field]").forEach((item) => {
      const field = form.querySelector('.field[data-field="' + item.dataset.field + '"]');
      if (!field) return;
      const small = document.createElement("small");
      small.className = "error";
      small.setAttribute("role", "alert");
      small.textContent = item.textContent;
      field.appendChild(small);
      field.classList.add("has-error");
    });
  }

  function refresh() {
    const params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    params.delete("action");
    params.set("partial", "preview");
    const mine = ++seq;
    fetch(form.dataset.previewUrl + "?" + params.toString(), {
      headers: { "X-Requested-With": "fetch" },
    })
      .then((r) => r.text())
      .then((html) => {
        if (mine !== seq) return;
        target.innerHTML = html;
        placeErrors();
      })
      .catch(() => {});
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 120);
  }
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
})();
