// The public REST API, and the seat tokens this browser holds (localStorage, one per game).

export const API = "/api/v1";

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.error) || "http_error";
    this.details = (body && body.details) || {};
  }
}

// ``lines``: the answer is JSON lines (an export), each parsed.
export async function call(method, path, { token = null, body = undefined, params = null, lines = false } = {}) {
  let url = API + path;
  if (params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
    const s = q.toString();
    if (s) url += "?" + s;
  }
  const headers = {};
  if (token) headers["Authorization"] = `Bearer ${token}`;
  // the server's sentences (a refusal's message) in the page's language (words.js sets it)
  const lang = document.documentElement.lang;
  if (lang) headers["Accept-Language"] = lang;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { error: "network", message: `The server could not be reached (${e.message}).` });
  }
  let data = null;
  const text = await response.text();
  if (lines && response.ok) return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: "http_error", message: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, opts) => call("GET", path, opts);
export const post = (path, body, opts = {}) => call("POST", path, { ...opts, body });

let catalogCache = null;
const componentsCache = new Map();

export async function catalog() {
  if (!catalogCache) catalogCache = (await get("/games/catalog")).games;
  return catalogCache;
}

export async function components(game) {
  if (!componentsCache.has(game)) {
    const answer = await get(`/games/catalog/${encodeURIComponent(game)}`);
    componentsCache.set(game, answer.components || {});
  }
  return componentsCache.get(game);
}

export function commandId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- seats held by this browser -------------------------------------------------

const KEY = "ludoteca.seats";

function allSeats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function seatOf(gameId) {
  return allSeats()[gameId] || null;
}

export function keepSeat(gameId, seat) {
  const seats = allSeats();
  seats[gameId] = { ...seat, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(seats));
}

export function forgetSeat(gameId) {
  const seats = allSeats();
  delete seats[gameId];
  localStorage.setItem(KEY, JSON.stringify(seats));
}

export function mySeats() {
  return Object.entries(allSeats()).map(([gameId, s]) => ({ gameId, ...s })).sort((a, b) => b.at - a.at);
}
