// Keyboard play: Tab / Shift+Tab walk the board's targets and the prompt bar's buttons, Enter
// plays the focused one; 1–9 press the prompt bar's buttons in order, U presses "Undo", Escape
// closes the prompt bar's open menu, else drops a half-made pick on the board. Keys typed into a text field (the chat) are never taken.

import {closeMenu, openMenu} from "./prompt.js";
import {dom, S, you} from "./state.js";
import {toast} from "./toasts.js";

/** It just became your turn: bring the keyboard to the prompt bar, unless the player is busy
 *  elsewhere (typing in the chat, on a board target, in the header's menus). */
export function focusPromptBar() {
  const a = document.activeElement;
  if (a && a !== document.body) return;
  dom.promptBar.focus({preventScroll: true});
}

function typingIn(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "range"].includes(target.type);
}

// Captured on the document, so it runs before the toasts' Escape handler.
document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat || typingIn(ev.target)) return;
  if (ev.key === "Escape") {
    // An open menu of the prompt bar's choices (a phone's sheet over the board) closes first,
    // the keyboard back on its toggle.
    const menu = openMenu();
    if (menu) {
      ev.preventDefault();
      closeMenu(menu, true);
      return;
    }
    // The renderer drops its pick on Escape while focus is on the board; from anywhere else the
    // key is handed to the board first, and closes a message only if the board had no pick.
    if (!dom.board.contains(ev.target) &&
        !dom.board.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: false, cancelable: true}))) {
      ev.preventDefault();
    }
    return;
  }
  const key = ev.key.length === 1 ? ev.key.toUpperCase() : null;
  if (!key || !/^[1-9U]$/.test(key)) return;
  const b = dom.promptActions.querySelector(`button[data-key="${key}"]`);
  if (!b || b.disabled) {
    // Say why nothing happened rather than nothing at all (number keys may just be typos).
    if (key === "U" && S.view && !S.view.result && you() !== null) {
      toast("Nothing to undo now: only your own latest moves, before anything random or hidden was revealed and before another player acted.", "info");
    }
    return;
  }
  ev.preventDefault();
  b.click();
}, {capture: true});
