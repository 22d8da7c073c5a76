// Short messages above the prompt text: errors stay until dismissed, the rest fade after 8 s.

import {el} from "../dom.js";
import {dom} from "./state.js";

const KEEP = 3;

/** Show `text` as a toast of `kind` ("info", "warn", "error"); `code` names it for tests and
 *  for replacing an older one of the same code. Returns the toast's element. */
export function toast(text, kind = "info", code = null) {
  const t = el("div", {class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status",
                       dataset: {kind, code: code || ""}},
    el("span", {class: "toast-text"}, text),
    el("button", {type: "button", class: "toast-close", "aria-label": "Dismiss", onclick: () => t.remove()}, "×"));
  dom.toasts.append(t);
  while (dom.toasts.children.length > KEEP) dom.toasts.firstElementChild.remove();
  if (kind !== "error") setTimeout(() => t.remove(), 8000);
  return t;
}

export function clearToasts(kind) {
  for (const t of dom.toasts.querySelectorAll(`.toast-${kind}`)) t.remove();
}

/** Remove the toasts of `code`. */
export function clearCode(code) {
  for (const old of dom.toasts.querySelectorAll(`.toast[data-code="${code}"]`)) old.remove();
}

// Escape closes the newest toast, unless the board uses it (e.g. to drop a pick).
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || ev.defaultPrevented || dom.board.contains(document.activeElement)) return;
  if (dom.toasts.lastElementChild) dom.toasts.lastElementChild.remove();
});
