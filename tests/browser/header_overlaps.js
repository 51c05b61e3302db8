() => {
  // The header's controls side by side, none over another and none past the screen's edge:
  // its row never wraps, so a row too long runs its last controls under the bell. A menu that
  // is open (the phone's, the account's) stands over the page on purpose and is left out.
  // Read by tests/browser/test_visual.py, test_i18n.py and test_theme.py.
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.display !== "none" && s.visibility !== "hidden" && (r.width > 0 || r.height > 0);
  };
  const controls = [...document.querySelectorAll(
    ".topbar a, .topbar button, .topbar select, .topbar input:not([type=hidden])",
  )].filter((el) => visible(el) && !el.closest(".topbar--open .topbar__menu, .account--open .account__menu"));
  const named = (el) => `${el.tagName.toLowerCase()} "${(el.innerText || el.value || el.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
  const overlaps = [];
  controls.forEach((a, i) => {
    const r = a.getBoundingClientRect();
    if (r.right > innerWidth + 1) overlaps.push(`${named(a)} past the screen's edge`);
    for (const b of controls.slice(i + 1)) {
      if (a.contains(b) || b.contains(a)) continue;
      const q = b.getBoundingClientRect();
      const x = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const y = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (x > 1 && y > 1) overlaps.push(`${named(a)} over ${named(b)}`);
    }
  });
  return overlaps.slice(0, 5);
}
