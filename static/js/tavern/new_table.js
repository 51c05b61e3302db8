/* The new-table form: show only the chosen game's house rules and deck, and only as many seats
 * as it seats (the server reads only those too, and refuses too many seats in words, so the
 * form works without this script). */
(function () {
  "use strict";
  const select = document.getElementById("game");
  if (!select) return;
  function show() {
    const chosen = select.options[select.selectedIndex];
    const seats = Number(chosen ? chosen.dataset.maxSeats : NaN);
    document.querySelectorAll(".tavern-form-row[data-seat]").forEach((row) => {
      const on = !(Number(row.dataset.seat) >= seats);
      row.hidden = !on;
      row.querySelectorAll("select").forEach((el) => { el.disabled = !on; });
    });
    document.querySelectorAll(".tavern-rules").forEach((fieldset) => {
      const on = fieldset.dataset.game === select.value;
      fieldset.hidden = !on;
      fieldset.querySelectorAll("input, select").forEach((el) => { el.disabled = !on; });
    });
  }
  select.addEventListener("change", show);
  show();
  // A refused form comes back with its errors at the top of the form, below the tables: on a
  // phone that is a screen or two down, and the page looked as if nothing had happened.
  const errors = document.getElementById("new-table-errors");
  if (errors) {
    errors.scrollIntoView({ block: "start" });
    errors.focus({ preventScroll: true });
  }
})();
