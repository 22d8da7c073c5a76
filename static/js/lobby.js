// The lobby: touching a game's settings chooses that game (only the chosen game's settings show,
// lair.css; this keeps a keyboard change of a hidden one honest).
// A game's solo settings show only when 1 player is chosen, and a setting that solo always
// plays one way (Covil's board B) shows that value, fixed, for 1 player (issue 14, item 10); a
// setting of some player counts only (Drops of Evil's small Forest side: 2 players) shows for those.
for (const fs of document.querySelectorAll("fieldset.game-choice")) {
  fs.addEventListener("change", (ev) => {
    if (ev.target.name !== "game") fs.querySelector("input[name=game]").checked = true;
  });
  const players = fs.querySelector("select[name^=players_]");
  if (!players) continue;
  const fixed = new Map();  // a solo-valued select -> the value chosen before solo fixed it
  const sync = () => {
    const solo = players.value === "1";
    for (const label of fs.querySelectorAll("[data-solo-only]")) label.hidden = !solo;
    for (const label of fs.querySelectorAll("[data-players]")) {
      label.hidden = !label.dataset.players.split(" ").includes(players.value);
    }
    for (const label of fs.querySelectorAll("[data-solo-value]")) {
      const select = label.querySelector("select");
      if (!select) continue;
      if (solo && !fixed.has(select)) {
        fixed.set(select, select.value);
        select.value = label.dataset.soloValue;
      } else if (!solo && fixed.has(select)) {
        select.value = fixed.get(select);
        fixed.delete(select);
      }
      select.disabled = solo;  // solo always plays this value (the server fixes it too)
      label.classList.toggle("solo-fixed", solo);
    }
  };
  players.addEventListener("change", sync);
  sync();
}
