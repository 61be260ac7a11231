// The player this browser plays as (docs/players.md): a name and the seats it holds, found again on
// every device it signs in on. The server keeps the browser signed in with an HttpOnly cookie
// (`ludoteca_player`) that no script reads, sent by the browser with every request and socket; the
// page keeps only who it is (`ludoteca.player`: id and name) so that it knows without asking, and
// so that every other tab of this browser follows when it changes (the storage event). The token
// a sign-in answers is never kept by the page: the cookie is its only home.

import { API, get, post, call, keepSeat, ApiError } from "./api.js";
import { entropyFor, newEntropy, keepEntropy } from "./deal.js";

const KEY = "ludoteca.player";
const LANGUAGES = ["pt", "gl", "es", "en"];

// The words of this module a person reads, by language (kept together for translation). Kept by
// hand rather than with words.js `byLanguage`: words.js reads `readerLanguage` from here, and this
// module, imported before it, may not import it back.
export const WORDS = {
  en: { defaultName: (n) => `Player ${n}` },
  pt: { defaultName: (n) => `Jogador ${n}` },
  gl: { defaultName: (n) => `Xogador ${n}` },
  es: { defaultName: (n) => `Jugador ${n}` },
};
const words = () => WORDS[readerLanguage()] || WORDS.en;

let current = stored();
const listeners = new Set();

function stored() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

// The player as the page knows it ({player_id, name, public, lang}), or null: nobody signed in.
export function player() {
  return current;
}

// `fn(player, elsewhere)` whenever the player changes: in this tab (`elsewhere` false: the screen that
// changed it goes on by itself), or in another tab of this browser, whose cookie this one shares.
export function onPlayerChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function told(elsewhere = false) {
  for (const fn of [...listeners]) fn(current, elsewhere);
}

function keep(p) {
  const next = p ? { player_id: p.player_id, name: p.name, public: !!p.public, lang: p.lang || null } : null;
  const changed = JSON.stringify(next) !== JSON.stringify(current);
  current = next;
  if (next) localStorage.setItem(KEY, JSON.stringify(next));
  else localStorage.removeItem(KEY);
  if (changed) told();
  return next;
}

// Another tab signed in, out, or renamed: this one follows.
window.addEventListener("storage", (e) => {
  if (e.key !== KEY && e.key !== null) return;
  const next = stored();
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  current = next;
  told(true);
});

// The player the cookie signs in now, asked of the server (a cookie gone, or signed out on every
// device, leaves nobody). `always`: ask even when the page knows of none (back from the identity
// provider, which set the cookie on its own).
export async function refresh(always = false) {
  if (!current && !always) return null;
  try {
    return keep(await get("/players/me"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return keep(null);
    throw err;
  }
}

// A name for a newcomer who typed none: the one typed before players existed, else "Player 4821"
// (in the reader's language: "Jogador 4821").
export function defaultName() {
  const typed = localStorage.getItem("ludoteca.name");
  if (typed) return typed;
  let n = Number(sessionStorage.getItem("ludoteca.number"));
  if (!n) {
    n = 1000 + Math.floor(Math.random() * 9000);
    sessionStorage.setItem("ludoteca.number", String(n));
  }
  return words().defaultName(n);
}

// The browser's language when the server speaks it (pt, gl, es, en), else none.
function language() {
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const lang = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(lang)) return lang;
  }
  return null;
}

// The language the person reads: the player's own (its settings), else the browser's when the
// server speaks it, else English; the order the server writes its `message` in (docs/i18n.md).
export function readerLanguage() {
  const own = current && current.lang;
  return (own && LANGUAGES.includes(own) ? own : language()) || "en";
}

// Make a player of this browser (the answer sets the cookie).
export async function makePlayer(name) {
  const body = { name: (name || "").trim() || defaultName() };
  const lang = language();
  if (lang) body.lang = lang;
  const made = await post("/players", body);
  return keep(made.player);
}

// The player, made first if this browser has none: what sitting down needs. The page asks the
// server first, so that a cookie gone meanwhile makes a player again rather than a seat nobody keeps.
export async function ensurePlayer(name) {
  if (current && (await refresh())) return current;
  return makePlayer(name);
}

// A sign-in's answer ({player, token}): the cookie is set; the page keeps who it is.
export function signedIn(answer) {
  return keep(answer.player);
}

export async function signInWithCode(code) {
  return signedIn(await post("/players/sign-in", { code }));
}

// Passkeys (docs/players.md, "Passkeys"): the browser's own WebAuthn, no library.
export function passkeysHere() {
  const P = window.PublicKeyCredential;
  return !!(P && P.parseCreationOptionsFromJSON && P.parseRequestOptionsFromJSON && navigator.credentials);
}

export async function signInWithPasskey() {
  const asked = await post("/players/passkeys/options");
  const answer = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(asked.options) });
  return signedIn(await post("/players/passkeys/sign-in", { credential: answer.toJSON() }));
}

export async function addPasskey(name) {
  const { options } = await post("/players/me/passkeys/options");
  const made = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  const body = { credential: made.toJSON() };
  if (name) body.name = name;
  return post("/players/me/passkeys", body);
}

export async function change(changes) {
  return keep(await call("PATCH", "/players/me", { body: changes }));
}

export async function signOut(everywhere = false) {
  await post(everywhere ? "/players/me/sign-out-everywhere" : "/players/me/sign-out");
  keep(null);
}

export async function erase() {
  await call("DELETE", "/players/me");
  keep(null);
}

// The player's tables, those awaiting it first (GET /players/me/tables).
export async function myTables(limit = 50) {
  return (await get("/players/me/tables", { params: { limit } })).tables;
}

// Which ways in this server offers ({codes, passkeys, oidc}), asked once.
let methods = null;
export async function signInMethods() {
  if (!methods) methods = await get("/players/sign-in").catch(() => ({ codes: true, passkeys: false, oidc: false }));
  return methods;
}

// Where the identity provider's sign-in starts; it comes back to the page, which then asks who it is.
export const OIDC_START = API + "/players/oidc/start?then=" + encodeURIComponent("/?signed-in=1");

// Quick play (POST /games/quick-play): a seat at the oldest open table like `wanted`, or at a new
// one, as the player (made first if need be), or as a stranger whose token this browser keeps.
export async function quickPlay(wanted, name) {
  let me = null;
  try {
    me = await ensurePlayer(name);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 429)) throw err;
  }
  const entropy = newEntropy(); // the table is not known yet: kept under its id once it is
  const asked = { ...wanted, entropy };
  const typed = (name || "").trim();
  if (!me && typed) asked.name = typed;
  const seat = await post("/games/quick-play", asked);
  keepEntropy(seat.game_id, entropy);
  if (seat.creator_token) localStorage.setItem(`ludoteca.creator.${seat.game_id}`, seat.creator_token);
  if (!me && seat.token) keepSeat(seat.game_id, { seat: seat.seat, token: seat.token, game: wanted.game });
  return seat;
}

// Sit down at a table as the player, made first if need be (its cookie holds the seat, on every
// device; no token is kept here). A server that makes no more players from this address (429)
// seats a stranger instead, whose token this browser keeps, as before players.
export async function sit(gameId, game, name, body = {}) {
  let me = null;
  try {
    me = await ensurePlayer(name);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 429)) throw err;
  }
  const asked = body.invite ? { ...body } : { entropy: entropyFor(gameId), ...body }; // a takeover adds no entropy: the deal is done
  const typed = (name || "").trim();
  if (!me && typed) asked.name = typed;
  const seat = await post(`/games/${gameId}/seats`, asked);
  if (!me) keepSeat(gameId, { seat: seat.seat, token: seat.token, game });
  return seat;
}
