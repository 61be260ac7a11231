// The web table's entry point: a hash router over the lobby, a table, the replays, the player's own
// screens and the ratings.
//   #/                     the lobby (a newcomer's welcome, my tables)
//   #/game/<id>            play (with the player's seat, or a seat this browser holds) or watch
//   #/watch/<id>           watch as a spectator
//   #/replay/<id>          the replay viewer
//   #/replays              finished games
//   #/invite/<invitation>  take over a vacated seat
//   #/sign-in              sign in as the player of another device
//   #/me                   the player's settings
//   #/leaderboard/<game>   a game's leaderboard (#/leaderboards: the first game's)
//   #/player/<id>          a player's page
//   #/admin                the operator's console (the admin token)

import { showLobby, showReplays } from "./lobby.js";
import { TableScreen } from "./table.js";
import { ReplayScreen } from "./replay.js";
import { showSignIn, showSettings } from "./account.js";
import { showLeaderboard, showPlayer } from "./ratings.js";
import { showInvite } from "./invite.js";
import { showAdmin } from "./admin.js";
import { catalog } from "./api.js";
import { setStatus, errorMessage } from "./ui.js";
import { player, refresh, onPlayerChange } from "./player.js";
import { showTitle } from "./notify.js";
import { byLanguage, loadWords } from "./words.js";

// The words of the page's frame a person reads (kept together for translation).
const WORDS = byLanguage({
  en: {
    frame: { lobby: "Lobby", replays: "Replays", leaderboards: "Leaderboards", api: "API" },
    site: "site",
    signIn: "Sign in",
    you: (name) => `${name} (settings)`,
    closesIn: (seconds) => ` · closes in about ${seconds} s`,
    player: "Reading your player",
  },
  pt: {
    frame: { lobby: "Entrada", replays: "Repetições", leaderboards: "Classificações", api: "API" },
    site: "site",
    signIn: "Entrar",
    you: (name) => `${name} (definições)`,
    closesIn: (seconds) => ` · fecha dentro de cerca de ${seconds} s`,
    player: "A ler o seu jogador",
  },
  gl: {
    frame: { lobby: "Entrada", replays: "Repeticións", leaderboards: "Clasificacións", api: "API" },
    site: "sitio",
    signIn: "Entrar",
    you: (name) => `${name} (axustes)`,
    closesIn: (seconds) => ` · pecha en arredor de ${seconds} s`,
    player: "Lendo o teu xogador",
  },
  es: {
    frame: { lobby: "Entrada", replays: "Repeticiones", leaderboards: "Clasificaciones", api: "API" },
    site: "sitio",
    signIn: "Entrar",
    you: (name) => `${name} (ajustes)`,
    closesIn: (seconds) => ` · se cierra en unos ${seconds} s`,
    player: "Leyendo tu jugador",
  },
});

const root = document.getElementById("app");
let current = null;
let routed = 0;

// Hooks for tests and curious people: the current screen, and cutting its socket.
window.__ludoteca = {
  get screen() { return current; },
  dropSocket(holdMs = 0) { if (current && current.live) current.live.drop(holdMs); },
};

// Each route draws into a fresh element of its own: a route overtaken by the next (the person
// clicked on, the player changed) finishes into an element no longer on the page.
async function route() {
  if (current && current.stop) current.stop();
  current = null;
  setStatus("");
  showTitle();
  const mine = ++routed;
  await loadWords(); // the server's catalogs in the reader's language, once (again if it changed)
  if (mine !== routed) return;
  showFrame();
  const here = document.createElement("div");
  root.replaceChildren(here);
  const hash = location.hash.replace(/^#/, "") || "/";
  let m;
  let screen = null;
  if ((m = /^\/game\/([0-9a-f]{16})$/.exec(hash))) {
    screen = current = new TableScreen(here, m[1]);
    await screen.start();
  } else if ((m = /^\/watch\/([0-9a-f]{16})$/.exec(hash))) {
    screen = current = new TableScreen(here, m[1], { spectate: true });
    await screen.start();
  } else if ((m = /^\/replay\/([0-9a-f]{16})$/.exec(hash))) {
    screen = current = new ReplayScreen(here, m[1]);
    await screen.start();
  } else if ((m = /^\/invite\/([0-9a-f]{16}\.[A-Za-z0-9_-]+)$/.exec(hash))) {
    await showInvite(here, m[1]);
  } else if (hash === "/replays") {
    await showReplays(here);
  } else if (hash === "/sign-in") {
    await showSignIn(here);
  } else if (hash === "/me") {
    await showSettings(here);
  } else if ((m = /^\/leaderboard\/([a-z0-9-]+)$/.exec(hash))) {
    await showLeaderboard(here, m[1]);
  } else if (hash === "/leaderboards") {
    const first = (await catalog().catch(() => []))[0];
    if (first) location.replace(`#/leaderboard/${first.game}`);
  } else if ((m = /^\/player\/(p[0-9a-f]{16})$/.exec(hash))) {
    await showPlayer(here, m[1]);
  } else if (hash === "/admin") {
    await showAdmin(here);
  } else {
    screen = await showLobby(here, route);
    if (mine === routed) current = screen;
    else if (screen) screen.stop();
  }
}

// The page's head in the reader's language: its links, and what the navigation is to a screen reader.
function showFrame() {
  for (const link of document.querySelectorAll("[data-frame]")) link.textContent = WORDS.frame[link.dataset.frame];
  const nav = document.getElementById("site");
  if (nav) nav.setAttribute("aria-label", WORDS.site);
}

// The player in the page's head: its name (to its settings), or the way to sign in.
function showPlayerLink(p) {
  const link = document.getElementById("me");
  if (!link) return;
  link.textContent = p ? WORDS.you(p.name) : WORDS.signIn;
  link.setAttribute("href", p ? "#/me" : "#/sign-in");
}

// Another tab signed in, out, or as someone else: this one follows (its screen drawn again as the
// new player); a change made here only renames the head, the screen that made it goes on.
onPlayerChange((p, elsewhere) => {
  showPlayerLink(p);
  if (elsewhere) route();
});

// Countdowns (answer and reaction windows) tick by themselves.
setInterval(() => {
  for (const el of document.querySelectorAll("[data-due]")) {
    const left = Math.max(0, Math.round((Number(el.getAttribute("data-due")) - Date.now()) / 1000));
    el.textContent = WORDS.closesIn(left);
  }
}, 1000);

async function begin() {
  // Back from the identity provider (docs/players.md, OpenID Connect): the cookie is set; ask who.
  const back = new URLSearchParams(location.search).has("signed-in");
  if (back) history.replaceState(null, "", location.pathname + location.hash);
  try {
    await refresh(back);
  } catch (err) {
    errorMessage(err, WORDS.player);
  }
  showPlayerLink(player());
  window.addEventListener("hashchange", route);
  await route();
}

begin();
