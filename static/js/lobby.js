// The lobby: touching a game's settings chooses that game (the radio buttons are easy to miss).
for (const fs of document.querySelectorAll("fieldset.game-choice")) {
  fs.addEventListener("change", (ev) => {
    if (ev.target.name !== "game") fs.querySelector("input[name=game]").checked = true;
  });
}
