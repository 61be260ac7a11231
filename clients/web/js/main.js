// The web table's entry point: a hash router over the lobby, a table, the replays.
//   #/                 the lobby
//   #/game/<id>        play (with the seat this browser holds) or watch
//   #/watch/<id>       watch as a spectator
//   #/replay/<id>      the replay viewer
//   #/replays          finished games

import { showLobby, showReplays } from "./lobby.js";
import { TableScreen } from "./table.js";
import { ReplayScreen } from "./replay.js";
import { setStatus } from "./ui.js";

const root = document.getElementById("app");
let current = null;

// Hooks for tests and curious people: the current screen, and cutting its socket.
window.__ludoteca = {
  get screen() { return current; },
  dropSocket(holdMs = 0) { if (current && current.live) current.live.drop(holdMs); },
};

async function route() {
  if (current && current.stop) current.stop();
  current = null;
  setStatus("");
  const hash = location.hash.replace(/^#/, "") || "/";
  let m;
  if ((m = /^\/game\/([0-9a-f]{16})$/.exec(hash))) {
    current = new TableScreen(root, m[1]);
    await current.start();
  } else if ((m = /^\/watch\/([0-9a-f]{16})$/.exec(hash))) {
    current = new TableScreen(root, m[1], { spectate: true });
    await current.start();
  } else if ((m = /^\/replay\/([0-9a-f]{16})$/.exec(hash))) {
    current = new ReplayScreen(root, m[1]);
    await current.start();
  } else if (hash === "/replays") {
    await showReplays(root);
  } else {
    await showLobby(root);
  }
}

// Countdowns (answer and reaction windows) tick by themselves.
setInterval(() => {
  for (const el of document.querySelectorAll("[data-due]")) {
    const left = Math.max(0, Math.round((Number(el.getAttribute("data-due")) - Date.now()) / 1000));
    el.textContent = ` · closes in about ${left} s`;
  }
}, 1000);

window.addEventListener("hashchange", route);
route();
