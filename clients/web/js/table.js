// The playing screen of one game: the table drawn from the view and kept up to date in place
// (morph.js: only what changed changes, what moved glides), the seat's moves built by picking on it
// (picks.js), live updates over the WebSocket, each seat's last move marked, a log in words, turns
// and results said to screen readers, refusals as messages, the final scores rule by rule.

import { call, get, post, catalog, components, commandId, seatOf, keepSeat, forgetSeat, ApiError } from "./api.js";
import { h, clear, message, errorMessage, setStatus, humanize, pill, announce, plural, colourOf } from "./ui.js";
import { Live } from "./live.js";
import { nameIndex, richNames, describeEvent, describeCommand, actorOf, listWords, seatNamer, botTitle, BOT_LEVELS } from "./names.js";
import { MoveBuilder, sameValue } from "./picks.js";
import { UndoTracker } from "./undo.js";
import { drawView, outcomeTable, screenOf, context } from "./view.js";
import { morph, positions, glide } from "./morph.js";

const LOG_KEEP = 300;
// The table's own facts: seats, leaving, calling off, rematch, clocks (the table is read again).
const TABLE_FACTS = new Set(["TableOpened", "SeatTaken", "SeatResigned", "TableCancelled", "RematchOpened",
  "ClockTicked", "TimeRanOut"]);
// Events that start or end a turn, deal, or set up: not a seat's move, though they name a seat.
const NOT_MOVES = new Set(["TurnStarted", "TurnPassedTo", "TravelTurnBegan", "ParkTurnBegan", "TurnEnded", "CardsDealt",
  "HandDrawn", "StartingHandDealt", "PlanningCardsDealt", "IncomeCollected", "FirstPlayerDrawn", "FirstPlayerCardGiven",
  "FirstTravellerChosen", "StartingPlayerDrawn", "PassportReceived", "SeatTaken", "DrawPileShuffled", "Undoable",
  "ClockTicked", "ReactionWindowClosed"]);

// Every id and cell an event names, as the data-key of what the table draws for it.
function keysOf(ev, seat) {
  const keys = new Set();
  const walk = (v, field) => {
    if (typeof v === "string") for (const k of ["card", "circle", "country", "tile"]) keys.add(`${k}:${v}`);
    else if (Array.isArray(v) && v.length === 2 && v.every(Number.isInteger) && seat !== null) keys.add(`cell:${seat}:${v[0]},${v[1]}`);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, field));
  };
  for (const [k, v] of Object.entries(ev)) if (k !== "type") walk(v, k);
  return keys;
}

export class TableScreen {
  constructor(root, gameId, { spectate = false } = {}) {
    this.root = root;
    this.gameId = gameId;
    this.spectate = spectate;
    const held = spectate ? null : seatOf(gameId);
    this.token = held ? held.token : null;
    this.table = null;
    this.comp = {};
    this.names = new Map();
    this.version = 0;
    this.log = []; // {version, text, seat}
    this.last = new Map(); // seat -> {text, keys, version}: each seat's last move
    this.first = null; // the first step of the seat's move, from the last update (null: not awaited)
    this.firstVersion = 0;
    this.stepFresh = false; // an update brought a first step the builder has not seen
    this.undo = new UndoTracker();
    this.builder = null;
    this.sending = false;
    this.live = null;
    this.stopped = false;
    this.screenEl = null;
    this.wasMine = false;
    this.onKey = (e) => { if (e.key === "Escape" && this.builder) this.builder.cancel(); };
  }

  async start() {
    clear(this.root, h("p", {}, "Loading the table…"));
    try {
      this.table = await this.fetchTable();
    } catch (err) {
      if (err instanceof ApiError && (err.code === "unknown_token" || err.code === "not_seated") && this.token) {
        forgetSeat(this.gameId); // a token this server no longer knows: watch instead
        this.token = null;
        this.table = await this.fetchTable();
      } else {
        clear(this.root, h("p", { class: "message error" }, err.message));
        return;
      }
    }
    this.comp = await components(this.table.game).catch(() => ({}));
    this.screen = screenOf(this.table.game);
    this.names = richNames(nameIndex(this.comp, this.screen), this.screen, this.comp);
    this.title = (await catalog().catch(() => [])).find((g) => g.game === this.table.game)?.title || humanize(this.table.game);
    document.title = `${this.title}: Ludoteca`;
    this.version = this.table.version;
    this.wasFinished = this.table.status === "finished";
    const seatName = (s) => this.seatName(s);
    this.builder = new MoveBuilder({
      ask: (picks) => this.ask(picks),
      send: (command, version, picks) => this.send(command, version, picks),
      refused: (err, what) => errorMessage(err, what),
      ctx: { screen: this.screen, names: this.names, comp: this.comp, seatName,
        describeCommand: (c) => describeCommand(c, this.names, seatName) },
    });
    document.addEventListener("keydown", this.onKey);
    this.draw();
    this.connect();
  }

  fetchTable() {
    return get(`/games/${this.gameId}`, { token: this.token });
  }

  connect() {
    if (this.live) this.live.stop();
    this.log = [];
    this.last = new Map();
    this.undo.reset(); // the new socket's catch-up brings the whole log again
    const live = new Live(this.gameId, this.token, {
      update: (msg) => this.onUpdate(msg),
      reset: () => {
        this.log = [];
        this.last = new Map();
        this.undo.reset();
        message("The server's history was reset; reloading the table.", "info", "reset");
      },
      error: (msg) => message(msg.message, "error", msg.error),
      state: (text, kind, code) => setStatus(text, kind, code),
      presence: (msg) => { this.table.presence = msg; this.scheduleDraw(); },
    });
    this.live = live;
    live.start();
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.onKey);
    if (this.live) this.live.stop();
  }

  seatName(seat) {
    return seatNamer(this.table && this.table.seats)(seat);
  }

  // Each event in words, into the log and each seat's last move; what others did is said aloud
  // once the catch-up is over (a live update, not the history).
  see(events, live) {
    const seatName = (s) => this.seatName(s);
    const moved = new Map(); // seat -> {texts, keys}
    for (const ev of events) {
      this.undo.see(ev.version, ev.event);
      const text = describeEvent(ev.event, this.names, seatName, this.screen, this.comp);
      if (!text) continue;
      const actor = actorOf(ev.event);
      this.log.push({ version: ev.version, text, seat: actor });
      if (actor === null || NOT_MOVES.has(ev.event.type)) continue;
      if (!moved.has(actor)) moved.set(actor, { texts: [], keys: new Set() });
      const m = moved.get(actor);
      m.texts.push(text);
      for (const k of keysOf(ev.event, actor)) m.keys.add(k);
    }
    // a seat that moves again before anyone else did goes on with the same turn: its steps add up
    for (const [seat, m] of moved) {
      const before = this.last.get(seat);
      const goesOn = before && this.lastActor === seat;
      const texts = goesOn ? [...before.texts, ...m.texts].slice(-4) : m.texts;
      const keys = goesOn ? new Set([...before.keys, ...m.keys]) : m.keys;
      this.last.set(seat, { texts, text: texts.join("; "), keys });
      this.lastActor = seat;
      if (live && seat !== this.table.seat) announce(m.texts.join(". ") + ".");
    }
    if (this.log.length > LOG_KEEP) this.log.splice(0, this.log.length - LOG_KEEP);
  }

  async onUpdate(msg) {
    if (this.stopped) return;
    const live = !!(msg.view && this.greeted);
    this.see(msg.events, live);
    if (msg.view !== null && msg.view !== undefined) { // the last chunk of a catch-up, or a live update
      this.greeted = true;
      this.first = msg.step || null;
      this.firstVersion = msg.version;
      this.stepFresh = true;
    }
    const tableLevel = msg.events.some((e) => TABLE_FACTS.has(e.event.type));
    const finished = msg.view && msg.view.finished;
    if (msg.view) this.table.view = msg.view;
    if (msg.version > this.version) this.version = msg.version;
    this.table.version = this.version;
    if (tableLevel || finished || this.table.status !== "active" || (msg.view && !this.table.view)) {
      try {
        const fresh = await this.fetchTable();
        if (fresh.version >= this.table.version) this.table = fresh;
        else this.table = { ...fresh, view: this.table.view, version: this.table.version };
      } catch (err) {
        errorMessage(err, "Reading the table");
      }
    } else if (msg.view) {
      this.table.awaiting = msg.view.awaiting || this.table.awaiting;
    }
    this.sayTurn();
    this.scheduleDraw();
  }

  // Turn changes and the result, for screen readers.
  sayTurn() {
    const t = this.table;
    if (t.status === "finished" && !this.wasFinished) {
      this.wasFinished = true;
      const o = t.outcome;
      if (o && o.scores) {
        announce(`The game is over. ${listWords((o.winners || []).map((s) => this.seatName(s)))} won. Scores: ${o.scores.map((s, i) => `${this.seatName(i)} ${s}`).join(", ")}.`);
      } else announce("The game is over.");
      return;
    }
    if (t.status !== "active") return;
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    const mine = t.seat !== null && awaiting.some((a) => a.seat === t.seat);
    const who = awaiting.map((a) => a.seat).join(",");
    if (mine && !this.wasMine) announce("Your turn.");
    else if (!mine && who !== this.wasWho && awaiting.length) announce(`Waiting for ${listWords(awaiting.map((a) => this.seatName(a.seat)))}.`);
    this.wasMine = mine;
    this.wasWho = who;
  }

  // Updates that come in a burst are drawn once.
  scheduleDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    setTimeout(() => {
      this.drawPending = false;
      if (!this.stopped) this.draw();
    }, 30);
  }

  // --- drawing --------------------------------------------------------------------

  ctx() {
    return context(this.table.view, { game: this.table.game, comp: this.comp, names: this.names, seats: this.table.seats,
      seatName: (s) => this.seatName(s), last: this.last,
      describeCommand: (c) => describeCommand(c, this.names, (s) => this.seatName(s)) });
  }

  draw() {
    const t = this.table;
    const seat = t.seat;
    const ctx = this.ctx();
    const { board, hand } = drawView(t.view, ctx);
    // each seat's last move: what it touched is marked in the seat's colour
    for (const [s, m] of this.last) {
      for (const el of board.querySelectorAll("[data-key]")) {
        if (m.keys.has(el.getAttribute("data-key"))) {
          el.style.setProperty("--last", colourOf(ctx.seatColour(s)).fill);
          el.setAttribute("data-last-seat", String(s));
        }
      }
    }
    const next = h("div", {
      class: ["table-screen", this.sending ? "sending" : null], "data-game": t.game, "data-game-id": this.gameId, "data-status": t.status,
      "data-version": String(this.version), "data-seat": seat === null ? "spectator" : String(seat),
    },
    h("div", { class: "table-head" },
      h("h1", {}, this.title || t.game),
      pill({ open: "waiting for players", active: "in play", finished: "finished" }[t.status] || t.status, "status-" + t.status),
      seat === null ? pill("you are watching", "spectator") : pill(`you are ${this.seatName(seat)}`, "you"),
      this.watchers(),
      h("span", { class: "grow" }),
      h("a", { href: `#/replay/${this.gameId}` }, "replay"), " · ",
      h("a", { href: `#/watch/${this.gameId}` }, "watch link")),
    this.seatBar(),
    this.tableActions(),
    this.turnBar(),
    t.status === "finished" ? outcomeTable(t.outcome, ctx) : null,
    h("div", { class: "play" },
      h("div", { class: "view-wrap" }, board),
      h("div", { class: ["dock", hand ? "with-hand" : null], "data-testid": "dock" },
        h("div", { class: "controls-wrap", "data-testid": "controls-wrap", "data-morph": "keep", role: "group", "aria-label": "your move" }),
        hand)),
    this.logPanel());
    if (!this.screenEl || !this.root.contains(this.screenEl)) {
      clear(this.root, next);
      this.screenEl = next;
      this.attachMoves();
      return;
    }
    const before = positions(this.screenEl);
    const focused = document.activeElement;
    const focusKey = focused && this.screenEl.contains(focused) ? focused.getAttribute("data-key") : null;
    morph(this.screenEl, next);
    this.attachMoves();
    glide(this.screenEl, before);
    // a focused element the update took away: the same thing where it is now, else the move panel
    if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
      const again = this.screenEl.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && again.tabIndex >= 0) again.focus({ preventScroll: true });
      else this.builder.focusFirst();
    }
  }

  watchers() {
    const p = this.table.presence;
    const n = p ? p.spectators : 0;
    return h("span", { class: "pill watchers", "data-testid": "spectators" }, n ? `${plural(n, "spectator")} watching` : "no spectators");
  }

  turnBar() {
    const t = this.table;
    if (t.status !== "active") return null;
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    const mine = awaiting.some((a) => a.seat === t.seat);
    const reason = this.ctx().reason;
    return h("div", { class: ["turn-bar", mine ? "mine" : null], "data-testid": "turn-bar" },
      mine ? h("strong", {}, "Your move. ") : null,
      awaiting.filter((a) => a.seat !== t.seat).length
        ? `Waiting for ${listWords(awaiting.filter((a) => a.seat !== t.seat).map((a) => `${this.seatName(a.seat)} ${reason(a.reason)}`))}.` : "");
  }

  seatBar() {
    const t = this.table;
    if (t.status !== "open") return null;
    const seats = t.seats || [];
    const free = seats.filter((s) => s === null).length;
    const nameInput = h("input", { type: "text", maxlength: 40, placeholder: "your name", value: localStorage.getItem("ludoteca.name") || "", "aria-label": "your name", "data-key": "name" });
    // the named levels a player meets (docs/bots.md), weakest first; casual is the default
    const botKind = h("select", { "aria-label": "bot kind", "data-key": "bot-kind" },
      BOT_LEVELS.map(([value, label]) => h("option", { value, selected: value === "casual" }, `${label} bots`)));
    return h("div", { class: "seat-bar", "data-testid": "seats" },
      seats.map((s, i) => h("span", { class: ["seat-chip", s ? "taken" : "free"], "data-seat": i },
        `${i + 1}. `, s ? this.seatName(i) : "free", s && s.bot ? " (bot)" : "",
        !s && t.seat === null ? h("button", { class: "take-seat", onclick: () => this.takeSeat(i, nameInput.value) }, "Sit here") : null)),
      h("span", { class: "seat-actions" },
        t.seat === null ? nameInput : null,
        free ? [botKind, h("button", { class: "fill-bots", "data-testid": "fill-bots", onclick: () => this.fillBots(botKind.value) },
          "Fill the other seats with bots")] : null));
  }

  // Resign, undo, call off and rematch: the table's own commands (docs/table-services.md).
  tableActions() {
    const t = this.table;
    const seated = t.seat !== null && this.token;
    const creator = localStorage.getItem(`ludoteca.creator.${this.gameId}`);
    const buttons = [];
    if (t.status === "open" && creator) {
      buttons.push(h("button", { "data-testid": "call-off", onclick: () => this.callOff(creator) }, "Call the table off"));
    }
    if (t.status === "active" && seated && !(t.resigned || []).includes(t.seat)) {
      buttons.push(h("button", { "data-testid": "undo", class: "undo", hidden: !this.undo.has(t.seat),
        onclick: () => this.send({ type: "Undo" }) }, "Undo my last step"));
      buttons.push(h("button", { "data-testid": "resign", onclick: () => this.resign() }, `Resign (${botTitle(t.takeover)} plays on)`));
    }
    if (t.status === "finished" && seated && !t.outcome?.reason?.includes("cancelled")) {
      buttons.push(h("button", { "data-testid": "rematch", onclick: () => this.rematch() }, t.rematch ? "Join the rematch" : "Rematch"));
    }
    const present = (t.seats || []).map((s, i) => (s ? h("span", { class: ["seat-chip", this.present(i) ? "present" : null], "data-seat": i },
      this.present(i) ? h("span", { class: "presence-dot", "aria-hidden": "true" }, "● ") : null,
      this.seatName(i), s.bot ? " (bot)" : "", this.present(i) ? h("span", { class: "sr-only" }, " (connected)") : null,
      (t.resigned || []).includes(i) ? " · left" : "", this.clockOf(i)) : null));
    return h("div", { class: "table-actions" }, t.status !== "open" ? present : null, buttons);
  }

  present(seat) {
    const p = this.table.presence;
    return !!(p && p.seats.some((s) => s.seat === seat));
  }

  clockOf(seat) {
    const c = (this.table.clocks || [])[seat];
    if (!c) return "";
    const seconds = Math.max(0, Math.round(c.left_ms / 1000));
    return h("span", { class: ["clock", c.running_since_ms !== null ? "running" : null] }, ` ⏱ ${seconds} s`);
  }

  async resign() {
    if (!window.confirm(`Leave this game? ${botTitle(this.table.takeover).replace(/^a/, "A")} will play your seat.`)) return;
    await this.send({ type: "Resign" });
  }

  async callOff(creator) {
    try {
      await call("DELETE", `/games/${this.gameId}`, { token: creator });
      localStorage.removeItem(`ludoteca.creator.${this.gameId}`);
      this.table = await this.fetchTable();
      this.draw();
    } catch (err) {
      errorMessage(err, "Calling the table off");
    }
  }

  async rematch() {
    try {
      const answer = await post(`/games/${this.gameId}/rematch`, {}, { token: this.token });
      keepSeat(answer.game_id, { seat: answer.seat, token: answer.token, game: this.table.game });
      window.location.hash = `#/game/${answer.game_id}`;
    } catch (err) {
      errorMessage(err, "Joining the rematch");
    }
  }

  logPanel() {
    const recent = this.log.slice(-40).reverse();
    // open at first; once the person folds it, it stays folded (morph.js keeps `open`)
    return h("details", { class: "log panel", "data-key": "log", open: true }, h("summary", {}, `What happened (${this.log.length} events)`),
      h("ol", { reversed: true, start: String(this.log.length), tabindex: "0", "aria-label": "what happened, latest first" },
        recent.map((e) => h("li", { "data-version": e.version, "data-key": "log:" + e.version }, e.text))));
  }

  // --- the seat's moves, built by picks ------------------------------------------

  // The builder marks the table's targets; a new first step (from an update) starts it again.
  attachMoves() {
    const wrap = this.screenEl.querySelector(".controls-wrap");
    this.builder.ctx.view = this.table.view;
    this.builder.attach(this.screenEl.querySelector(".play"), wrap);
    if (this.stepFresh) { // the server sends a step only to a seat it awaits in a game under way
      this.stepFresh = false;
      this.builder.restart(this.first, this.firstVersion);
    }
  }

  // The next step after `picks`: over the socket when it is up, else over REST.
  async ask(picks) {
    if (this.live && this.live.open()) {
      try {
        return await this.live.moves(picks);
      } catch (err) {
        if (!["socket_closed", "timeout", "too_many"].includes(err.code)) throw err;
      }
    }
    return post(`/games/${this.gameId}/moves`, { picks }, { token: this.token });
  }

  // Send one command, decided at `version` (expected_version: the version its step was computed
  // at). When another seat moved first (version_conflict), the same picks are walked again on the
  // table as it is now: a command they still make is sent again at the new version; otherwise the
  // person is told the table moved on. The version after it, or null when it was refused.
  async send(command, version = this.version, picks = null) {
    if (this.sending) return null;
    this.sending = true;
    this.screenEl.classList.add("sending");
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await post(`/games/${this.gameId}/commands`,
            { command, command_id: commandId(), expected_version: version }, { token: this.token });
          this.lastSent = { command, version: answer.version };
          return answer.version;
        } catch (err) {
          if (err.code !== "version_conflict" || attempt >= 2 || !picks) throw err;
          const again = await this.ask(picks).catch(() => null);
          const still = again && again.step && again.step.command !== undefined ? again.step.command : null;
          if (!sameValue(still, command)) throw err;
          version = again.version;
        }
      }
    } catch (err) {
      errorMessage(err, `${humanize(command.type)} refused`);
      return null;
    } finally {
      this.sending = false;
      if (this.screenEl) this.screenEl.classList.remove("sending");
    }
  }

  // --- seats -----------------------------------------------------------------------

  async takeSeat(seat, name) {
    if (name) localStorage.setItem("ludoteca.name", name);
    try {
      const body = { seat };
      if (name) body.name = name;
      const answer = await post(`/games/${this.gameId}/seats`, body);
      keepSeat(this.gameId, { seat: answer.seat, token: answer.token, game: this.table.game });
      this.token = answer.token;
      message(`You sit at seat ${answer.seat + 1}.`, "info");
      this.table = await this.fetchTable();
      this.version = Math.max(this.version, this.table.version);
      this.draw();
      this.connect();
    } catch (err) {
      errorMessage(err, "Taking the seat");
    }
  }

  // Bots the lobby seats get names of their own: "Random bot 2", "Strong bot 3" (by seat, the
  // server's default), so that the log and the scores tell them apart. "strong:4" is bot and level.
  async fillBots(kind) {
    const free = (this.table.seats || []).map((s, i) => (s ? null : i)).filter((i) => i !== null);
    const [bot, level] = kind.split(":");
    for (const seat of free) {
      try {
        await post(`/games/${this.gameId}/seats`, level ? { seat, bot, level: Number(level) } : { seat, bot });
      } catch (err) {
        errorMessage(err, "Seating a bot");
        break;
      }
    }
  }
}
