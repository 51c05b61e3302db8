// The invite link's Copy button (templates/minigames/_invite.html): copies the link and says
// so in the status line; where the clipboard is refused, selects the link for a manual copy.
(() => {
  "use strict";
  const button = document.getElementById("tavern-invite-copy");
  const status = document.getElementById("tavern-invite-status");
  if (!button || !status) return;
  const field = document.getElementById(button.dataset.copy);
  let clear = null;
  const say = (text) => {
    status.textContent = text;
    clearTimeout(clear);
    clear = setTimeout(() => { status.textContent = ""; }, 4000);
  };
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      say(gettext("Copied: send the link to whoever you invite."));
    } catch (error) {
      field.focus();
      field.select();
      say(gettext("Your browser did not let the page copy: the link is selected, copy it with Ctrl+C (or Cmd+C)."));
    }
  });
})();
