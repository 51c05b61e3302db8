// Live odds on the dice page: re-render the server's odds fragment as the form changes.
// Without JavaScript the "Show odds" button does the same with a page load.
(function () {
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
      .then((html) => { if (mine === seq) target.innerHTML = html; })
      .catch(() => {});
  }
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 150); });
})();
