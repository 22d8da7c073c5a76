// The waiting room: reloads when the seats change (someone joins, leaves or a bot is added) or
// when the match starts or is cancelled. The page embeds the seats it was rendered with, so the
// page of the person who made the change does not reload a second time.
const root = document.getElementById("waiting");
// Compared without the "connected" flags and independently of key order.
const seatsKey = (seats) => JSON.stringify(seats.map((s) =>
  Object.keys(s).filter((k) => k !== "connected").sort().map((k) => [k, s[k]])));
const shown = seatsKey(JSON.parse(root.dataset.seats || "[]"));
let delay = 500;
let leaving = false;
window.addEventListener("beforeunload", () => { leaving = true; });

function reload() {
  if (!leaving) { leaving = true; location.reload(); }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}${root.dataset.wsPath}`);
  ws.onopen = () => { document.body.dataset.ws = "open"; delay = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "reload" || msg.type === "view") reload();
    else if (msg.type === "lobby" && seatsKey(msg.seats) !== shown) reload();
    else if (msg.type === "lobby" && msg.pace !== undefined && msg.pace !== root.dataset.pace) reload();
  };
  ws.onclose = () => {
    document.body.dataset.ws = "closed";
    if (leaving) return;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();

// Cancelling asks first (a native modal dialog; "Keep the match" closes it).
{
  const button = document.getElementById("cancel");
  const dialog = document.getElementById("cancel-dialog");
  if (button && dialog && dialog.showModal) button.addEventListener("click", () => dialog.showModal());
}
