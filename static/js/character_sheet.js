// Character sheet: a Print button (the print stylesheet hides navigation and buttons).
// Without JavaScript, the browser's own Print menu gives the same page.
(function () {
  "use strict";
  const button = document.getElementById("print-button");
  if (!button) return;
  button.hidden = false;
  button.addEventListener("click", () => window.print());
})();
