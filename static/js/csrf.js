// The page's CSRF token (app/csrf.py): every form a script builds posts it, every fetch that
// changes something sends it as the X-CSRF-Token header. base.html puts it in
// <meta name="csrf-token">; it is bound to this browser's identity when the page was served.

/** The token of this page ("" when the page has none). */
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") || "" : "";
}

/** A hidden form field carrying the token, for a form built in JS. */
export function csrfField() {
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "csrf_token";
  input.value = csrfToken();
  return input;
}
