// The waiting room: stays live by reloading when seats change or the match starts.
const root = document.getElementById("waiting");
let delay = 500;
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}${root.dataset.wsPath}`);
  let first = true;
  ws.onopen = () => { document.body.dataset.ws = "open"; delay = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "reload" || msg.type === "view") { location.reload(); return; }
    if (msg.type === "lobby") {
      if (first) { first = false; return; }  // the page already shows this state
      location.reload();
    }
  };
  ws.onclose = () => {
    document.body.dataset.ws = "closed";
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();
