// Replay: steps through a match's action log with the game's renderer (read-only table).
const root = document.getElementById("replay");
const replayApi = root.dataset.replayApi || `/matches/${root.dataset.matchId}/replay`;
const watch = root.dataset.watch;
let steps = Number(root.dataset.steps);
let step = 0;
let renderer = null;
let current = null;

const palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
const table = {
  act() {}, actions: () => [], label: () => "", find: () => [], claim() {},
  showInPromptBar() {},
  seatColor: (s) => palette[s % palette.length],
  seatName: (s) => (current && current.seats[s] && current.seats[s].name) || `Seat ${s + 1}`,
};

function text(el, value) { el.textContent = value; return el; }

/** A log line; an event addressed to some seats says whose it was, since a finished match's
 * replay shows every seat's events ("only Ana: You drew …", "all but Ana: Ana drew 2 tiles"). */
function logLine(e) {
  const li = document.createElement("li");
  if (Array.isArray(e.to)) {
    const n = current && Array.isArray(current.seats) ? current.seats.length : 0;
    const names = (seats) => seats.map((s) => table.seatName(s)).join(", ");
    const left = [...Array(n).keys()].filter((s) => !e.to.includes(s));
    const tag = document.createElement("span");
    tag.className = "log-tag";
    tag.textContent = e.others && left.length ? `all but ${names(left)}` : `only ${names(e.to)}`;
    tag.title = `Seen by ${names(e.to)}`;
    li.append(tag, " ");
  }
  li.append(document.createTextNode(e.text));
  return li;
}

function drawLog(view) {
  const log = document.getElementById("log");
  log.replaceChildren(...view.log.map(logLine));
  log.scrollTop = log.scrollHeight;
}

function drawResult(view) {
  const panel = document.getElementById("result");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const h = text(document.createElement("h2"), "Final result");
  const ol = document.createElement("ol");
  for (const group of view.result.ranks) {
    const li = document.createElement("li");
    li.textContent = group.map((s) => `${table.seatName(s)}: ${view.result.scores[s]}`).join(" = ");
    const bd = view.result.breakdown && group.map((s) => view.result.breakdown[s]).filter(Boolean);
    if (bd && bd.length) {
      const small = document.createElement("small");
      small.textContent = " (" + bd.map((b) => Object.entries(b).map(([k, v]) => `${k} ${v}`).join(", ")).join(" | ") + ")";
      li.append(small);
    }
    ol.append(li);
  }
  panel.replaceChildren(h, ol);
  if (view.result.reason) panel.append(text(document.createElement("p"), view.result.reason));
}

// Clicks move the target at once; requests run one at a time and the latest target wins, so
// fast clicking never loses steps.
let target = null;
let loading = false;
function go(n) {
  target = Math.max(0, Math.min(steps, n));
  text(document.getElementById("step"), `${target} / ${steps}`);
  if (!loading) pump();
}
async function pump() {
  loading = true;
  try {
    while (target !== null && target !== step) {
      const before = step;
      await show(target);
      if (step === before) break;  // the server refused: stay where we are
    }
  } finally {
    loading = false;
  }
}
const cur = () => (target === null ? step : target);

async function show(n) {
  const q = new URLSearchParams({ step: String(n) });
  if (watch) q.set("watch", watch);
  const res = await fetch(`${replayApi}?${q}`);
  if (!res.ok) { text(document.getElementById("replay-note"), await res.text()); return; }
  const data = await res.json();
  step = data.step; steps = data.steps; current = data.view;
  const slider = document.getElementById("slider");
  slider.max = String(steps);
  slider.value = String(step);
  text(document.getElementById("replay-note"), current.match.status === "finished"
    ? "The match is over: all hidden information is revealed."
    : "The match is still running: you see only what your seat may know.");
  if (!renderer) {
    renderer = await import(root.dataset.rendererUrl);
    renderer.mount(document.getElementById("board"), table);
  }
  renderer.update(current);
  drawLog(current);
  drawResult(current);
  // Only now is the step fully drawn: the counter (and data-shown, for tests) say so.
  text(document.getElementById("step"), `${cur()} / ${steps}`);
  root.dataset.shown = String(step);
}

document.getElementById("first").onclick = () => go(0);
// The slider shows the step while dragging and loads it when released (one request, not fifty).
document.getElementById("slider").addEventListener("input", (e) => {
  text(document.getElementById("step"), `${e.target.value} / ${steps}`);
});
document.getElementById("slider").addEventListener("change", (e) => go(Number(e.target.value)));
document.getElementById("prev").onclick = () => go(cur() - 1);
document.getElementById("next").onclick = () => go(cur() + 1);
document.getElementById("last").onclick = () => go(steps);
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;  // the slider handles its own arrows
  if (e.key === "ArrowLeft") go(cur() - 1);
  if (e.key === "ArrowRight") go(cur() + 1);
});
show(steps);
