/* The new-table form: show only the chosen game's house rules and deck (the server reads only
 * those too, so the form works without this script). */
(function () {
  "use strict";
  const select = document.getElementById("game");
  if (!select) return;
  function show() {
    document.querySelectorAll(".tavern-rules").forEach((fieldset) => {
      const on = fieldset.dataset.game === select.value;
      fieldset.hidden = !on;
      fieldset.querySelectorAll("input, select").forEach((el) => { el.disabled = !on; });
    });
  }
  select.addEventListener("change", show);
  show();
})();
