// A thread page (templates/threads/detail.html): when its socket says "changed" (a post, an
// edit, a reaction), fetch the posts as this reader may see them and swap them in. Without a
// socket (push off, Redis away) it asks every 20 s while the tab is visible.
(function () {
  "use strict";
  const box = document.getElementById("thread-posts");
  if (!box) return;
  const url = box.dataset.postsUrl;
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok) {
        const html = await response.text();
        const focused = document.activeElement && box.contains(document.activeElement);
        if (!focused) box.innerHTML = html;
      }
    } catch (e) { /* offline: the next note or poll tries again */ }
    busy = false;
    if (again) { again = false; refresh(); }
  }
  let timer = null;
  const poll = () => { clearInterval(timer); timer = setInterval(() => { if (!document.hidden) refresh(); }, 20000); };
  if (window.WRPush && window.WRPush.enabled()) {
    window.WRPush.subscribe(box.dataset.socket, {
      onMessage: (data) => { if (data && data.type === "changed") refresh(); },
      onOpen: () => { clearInterval(timer); },
      onDown: poll,
    });
  } else {
    poll();
  }
})();
