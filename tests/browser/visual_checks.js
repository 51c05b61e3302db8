() => {
  // What tests/browser/test_visual.py reads from each page (one evaluate per page and scheme).
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.display !== "none" && s.visibility !== "hidden" && (r.width > 0 || r.height > 0);
  };
  const unlabelled = [];
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || !visible(el)) continue;
    // a submit, button or reset input is named by its value (HTML-AAM), like a <button>
    const named = (el.labels && el.labels.length) || el.getAttribute("aria-label")
      || el.getAttribute("aria-labelledby") || el.getAttribute("title")
      || (["submit", "button", "reset"].includes(el.type) && el.value.trim());
    if (!named) unlabelled.push(el.outerHTML.slice(0, 120));
  }
  // a tick box or radio too small to hit with a finger: a box under 18 px whose label (if
  // any) is under 32 px tall too
  const smallTargets = [...document.querySelectorAll("input[type=checkbox], input[type=radio]")]
    .filter((el) => visible(el)).filter((el) => {
      const r = el.getBoundingClientRect();
      if (Math.min(r.width, r.height) >= 18) return false;
      const label = el.labels && el.labels[0];
      return !label || label.getBoundingClientRect().height < 32;
    }).slice(0, 5).map((el) => el.outerHTML.slice(0, 120));
  // WCAG 2.2's target size (2.5.8): a control a finger taps is at least 24 by 24 px. A link
  // inside a sentence is exempt there (words beside it in its parent), so links are measured
  // only where they stand alone: navigation, headers, lists of links.
  // (words: two Latin letters, or one kana or CJK character: a Japanese or Chinese sentence)
  const inSentence = (el) => el.tagName === "A" && /[A-Za-z]{2}|[\u3040-\u30ff\u3400-\u9fff]/.test(
    [...el.parentElement.childNodes].filter((n) => n !== el).map((n) => n.textContent).join(""));
  const tinyControls = [...document.querySelectorAll(
    "button, summary, select, [role=button], input[type=submit], a.button, nav a, header a",
  )].filter((el) => visible(el) && !inSentence(el)).filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width < 24 || r.height < 24;
  }).slice(0, 5).map((el) => {
    const r = el.getBoundingClientRect();
    return `${el.tagName.toLowerCase()}.${el.className} "${(el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`;
  });
  const noAlt = [...document.querySelectorAll("img:not([alt])")].map((i) => i.outerHTML.slice(0, 120));
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    if (!visible(el)) return false;
    const r = el.getBoundingClientRect();
    if (r.right <= innerWidth + 1) return false;
    // inside a box that scrolls sideways (a table, the battle board) is fine
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === "auto" || o === "scroll" || o === "hidden") && p.getBoundingClientRect().right <= innerWidth + 1) return false;
    }
    return true;
  }).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`);
  const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    unlabelled, noAlt, wide, smallTargets, tinyControls,
    luminance: (0.2126 * bg[0] + 0.7152 * bg[1] + 0.0722 * bg[2]) / 255,
    text: document.body.innerText,
  };
}
