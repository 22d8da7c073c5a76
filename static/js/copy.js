// Copy buttons beside the invite, spectator and rejoin links: <button data-copy="<input id>">.

/** Copy `text` to the clipboard: the Clipboard API where the page may use it (https, localhost),
 *  else the older selection copy (a LAN game over plain http). */
async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) {
    // refused (no permission): fall back to the selection below
  }
  if (!input) return false;
  input.focus();
  input.select();
  try {
    return document.execCommand("copy");
  } catch (e) {
    return false;
  }
}

/** Wire every `[data-copy]` button inside `root`: a click copies its input's value and says so
 *  on the button for a moment ("Copied" or, when the browser refused, "Press Ctrl+C"). */
export function wireCopyButtons(root = document) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    if (button.dataset.wired) continue;
    button.dataset.wired = "true";
    const label = button.textContent;
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.copy);
      if (!input) return;
      const ok = await copyText(input.value, input);
      if (!ok) input.select();
      button.textContent = ok ? "Copied ✓" : "Select and press Ctrl+C";
      button.dataset.copied = ok ? "true" : "false";
      clearTimeout(button._copyTimer);
      button._copyTimer = setTimeout(() => {
        button.textContent = label;
        delete button.dataset.copied;
      }, 2500);
    });
  }
}
