(arg) => {
  // `arg`: the phrases allowed in Latin letters, or {allowed, bodies}, where `bodies` are long
  // texts people wrote (posts, notes, descriptions): a visible run of three or more words
  // found in one of them is user content, not the interface.
  const allowed = Array.isArray(arg) ? arg : arg.allowed;
  // (markdown's marks and a shortened text's "…" left out)
  const squash = (s) => s.replace(/[\s*_#>`~\[\]()]+/g, " ").replace(/ ?(…|\.\.\.)$/, "").trim();
  const bodies = Array.isArray(arg) ? "" : arg.bodies.map(squash).join("\n");
  const written = (text) => {
    const t = squash(text);
    return bodies && t.split(" ").length >= 3 && bodies.includes(t);
  };
  // What tests/browser/test_i18n.py reads from a page in Japanese or Chinese: the words of the
  // interface left in English, the characters drawn without a glyph (tofu), and what sticks out
  // sideways. `allowed`: phrases that stay in Latin letters in every language (names).
  const visible = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };
  // ---- the interface's words: visible text and the names read aloud, not user content
  // (anything inside translate="no": names of people, campaigns, zones)
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    if (el.closest("script, style, noscript, template, [translate=no], select")) continue;
    if (!visible(el)) continue;
    if (written(node.textContent)) continue;
    texts.push(node.textContent);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[translate=no], script, style, template")) continue;
    if (!visible(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
    if (el.tagName === "SELECT" && el.selectedOptions.length) texts.push(el.selectedOptions[0].text);
    if (el.tagName === "INPUT" && ["submit", "button"].includes(el.type)) texts.push(el.value);
  }
  const english = new Set();
  for (const raw of texts) {
    let text = raw.replace(/https?:\/\/\S+/g, " ");
    for (const phrase of allowed) text = text.split(phrase).join(" ");
    for (const word of text.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) || []) english.add(word);
  }
  // ---- glyphs: each character drawn in the page's font beside a character no font has
  // (U+0378 is unassigned: every font draws its "missing" box); a character drawn the same,
  // pixel for pixel, has no glyph in any installed font.
  const canvas = document.createElement("canvas");
  canvas.width = 48;
  canvas.height = 48;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.font = `32px ${getComputedStyle(document.body).fontFamily}`;
  ctx.textBaseline = "middle";
  const draw = (ch) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.fillText(ch, 4, 24);
    return ctx.getImageData(0, 0, 48, 48).data;
  };
  const tofu = draw("\u0378");
  const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const chars = new Set();
  for (const text of texts.concat([document.title])) {
    for (const ch of text) if (ch.codePointAt(0) > 0x7f && ch.trim()) chars.add(ch);
  }
  const missing = [...chars].filter((ch) => same(draw(ch), tofu));
  // ---- sideways: the page's width, and elements past the right edge that no box scrolls
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    if (!visible(el)) return false;
    const r = el.getBoundingClientRect();
    if (r.right <= innerWidth + 1) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === "auto" || o === "scroll" || o === "hidden") && p.getBoundingClientRect().right <= innerWidth + 1) return false;
    }
    return true;
  }).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`);
  // the header's links and switcher fit beside the brand and the bell (they overlap the bell
  // when they do not: the row never wraps)
  const menu = document.querySelector(".topbar__menu");
  const headerFits = !menu || !visible(menu) || menu.scrollWidth <= menu.clientWidth + 1;
  return {
    headerFits,
    lang: document.documentElement.lang,
    english: [...english].sort(),
    checkedChars: chars.size,
    missing,
    tofuIsCaught: same(draw("\u0379"), tofu) && !same(draw("日"), tofu) && !same(draw("A"), tofu),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    wide,
  };
}
