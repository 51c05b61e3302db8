// Who watches the table (templates/minigames/_spectators.html): when the people at the table
// change (push.js's "wr:presence" event), ask the spectators endpoint again and redraw.
(() => {
  "use strict";
  const box = document.getElementById("tavern-spectators");
  if (!box) return;
  let timer = null;
  const draw = (spectators) => {
    const names = spectators.map((s) => s.name);
    box.textContent = names.length ? interpolate(gettext("Watching: %(names)s."), { names: names.join(", ") }, true) : gettext("Nobody else is watching.");
  };
  const refresh = async () => {
    try {
      const response = await fetch(box.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) draw((await response.json()).spectators);
    } catch (error) {
      // presence is a courtesy: the list stays as it was
    }
  };
  document.addEventListener("wr:presence", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
})();
