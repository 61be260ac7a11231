// The game's WebSocket (docs/API.md, WebSocket): hello with `after`, updates in order,
// reconnect with resume from the last version held (and its `check`) after a dropped connection;
// the next step of a move asked for with a `moves` message, matched to its answer by `request_id`;
// a command sent with a `command` message, matched to its `ack` (or `error`) by `command_id`.

import { ApiError } from "./api.js";
import { byLanguage } from "./words.js";

// The connection's state as the page's head says it (kept together for translation).
const WORDS = byLanguage({
  en: { connecting: "connecting…", live: "live", closed: "disconnected: reload the page to try again", lost: "connection lost, reconnecting…" },
  pt: { connecting: "a ligar…", live: "em direto", closed: "desligado: recarregue a página para tentar de novo", lost: "ligação perdida, a religar…" },
  gl: { connecting: "conectando…", live: "en directo", closed: "desconectado: recarga a páxina para tentalo de novo", lost: "conexión perdida, reconectando…" },
  es: { connecting: "conectando…", live: "en directo", closed: "desconectado: recarga la página para intentarlo de nuevo", lost: "conexión perdida, reconectando…" },
});

const FINAL = new Set([1008, 4003, 1009]); // the client is at fault or denied: do not retry as is

export class Live {
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers; // {update(msg), reset(msg), error(msg), state(text, kind, code), presence(msg)}
    this.version = 0; // the highest version received
    this.check = ""; // that update's check: a server whose history lost that version resets us
    this.ws = null;
    this.closed = false;
    this.backoff = 200;
    this.holdUntil = 0;
    this.timer = null;
    this.connects = 0;
    this.seen = []; // the version of every event received, in order (the tests check there is no gap)
    this.requests = 0;
    this.pending = new Map(); // request_id -> {resolve, reject, timer}
    this.greeted = false; // the hello was answered (an update came): requests may follow
  }

  open() {
    return !!(this.ws && this.ws.readyState === WebSocket.OPEN && this.greeted);
  }

  // The next step of a move after `picks`: {version, picks, step}; a refusal rejects with ApiError.
  moves(picks, timeoutMs = 8000) {
    if (!this.open()) return Promise.reject(new ApiError(0, { error: "socket_closed", message: "The connection is away." }));
    const id = `moves-${++this.requests}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError(0, { error: "timeout", message: "The server did not answer in time." }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ type: "moves", picks, request_id: id }));
    });
  }

  // Send a command: {version} once acknowledged; a refusal rejects with ApiError (as over REST,
  // but a refusal on the socket is no failed request in the browser's console).
  command(command, commandId, expectedVersion, timeoutMs = 8000) {
    if (!this.open()) return Promise.reject(new ApiError(0, { error: "socket_closed", message: "The connection is away." }));
    const id = `command:${commandId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError(0, { error: "timeout", message: "The server did not answer in time." }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const message = { type: "command", command, command_id: commandId };
      if (expectedVersion !== null && expectedVersion !== undefined) message.expected_version = expectedVersion;
      this.ws.send(JSON.stringify(message));
    });
  }

  settle(id, outcome, value) {
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    waiting[outcome](value);
    return true;
  }

  dropRequests() {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, "reject", new ApiError(0, { error: "socket_closed", message: "The connection was lost." }));
    }
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/v1/games/${this.gameId}/ws`;
  }

  start() {
    this.closed = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    if (this.closed) return;
    const wait = this.holdUntil - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => this.connect(), wait);
      return;
    }
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.greeted = false;
    this.connects += 1;
    this.handlers.state(WORDS.connecting, "pending");
    ws.onopen = () => {
      const check = this.version > 0 && this.check ? this.check : null;
      // Refusals on the socket in the page's language, as over HTTP (api.js), not the browser's.
      const lang = document.documentElement.lang || null;
      ws.send(JSON.stringify({ type: "hello", token: this.token || null, after: this.version, check, presence: true, lang }));
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "update") {
        this.backoff = 200;
        this.greeted = true;
        const events = (msg.events || []).filter((ev) => ev.version > this.version);
        if (msg.version >= this.version) {
          this.version = msg.version;
          this.check = msg.check || "";
        }
        for (const ev of events) this.seen.push(ev.version);
        this.handlers.state(WORDS.live, "ok", this.version);
        this.handlers.update({ ...msg, events });
      } else if (msg.type === "reset") {
        this.version = 0;
        this.check = "";
        this.handlers.reset(msg);
      } else if (msg.type === "step") {
        this.settle(msg.request_id, "resolve", msg);
      } else if (msg.type === "error") {
        const status = { too_many: 429, version_conflict: 409, command_id_reused: 409 }[msg.error] || 422;
        const settled = (msg.request_id && this.settle(msg.request_id, "reject", new ApiError(status, msg)))
          || (msg.command_id && this.settle(`command:${msg.command_id}`, "reject", new ApiError(status, msg)));
        if (!settled) this.handlers.error(msg);
      } else if (msg.type === "presence") {
        if (this.handlers.presence) this.handlers.presence(msg);
      } else if (msg.type === "ack") {
        this.settle(`command:${msg.command_id}`, "resolve", { version: msg.version }); // its events come in an update
      }
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.greeted = false;
      this.dropRequests();
      if (this.closed) return;
      if (FINAL.has(e.code)) {
        this.handlers.state(WORDS.closed, "bad", e.code);
        return;
      }
      if (e.code === 4009) { // reset: drop everything and start again
        this.version = 0;
        this.check = "";
      }
      const delay = e.code === 1011 ? Math.max(this.backoff, 2000) : this.backoff;
      this.backoff = Math.min(this.backoff * 2, 5000);
      this.handlers.state(WORDS.lost, "pending", e.code);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  // Close the socket as a dropped connection would (a test hook); stay away for `holdMs`.
  drop(holdMs = 0) {
    this.holdUntil = Date.now() + holdMs;
    if (this.ws) this.ws.close(3000, "dropped");
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, "bye");
    this.ws = null;
    this.greeted = false;
    this.dropRequests();
  }
}
