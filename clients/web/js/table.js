// The playing screen of one game: the table drawn from the view, the seat's moves built by picking
// on it (picks.js), live updates over the WebSocket, refusals as messages, the final scores.

import { call, get, post, catalog, components, commandId, seatOf, keepSeat, forgetSeat, ApiError } from "./api.js";
import { h, clear, message, errorMessage, setStatus, humanize, pill } from "./ui.js";
import { Live } from "./live.js";
import { nameIndex, describeEvent, describeCommand } from "./names.js";
import { MoveBuilder, sameValue } from "./picks.js";
import { UndoTracker } from "./undo.js";
import { drawView, outcomeTable, screenOf } from "./view.js";

// Which <details> the person opened survive a redraw (matched by their summary, digits aside).
const detailsKey = (d) => (d.querySelector("summary")?.textContent || "").replace(/\d+/g, "#");

export function openDetails(root) {
  return new Set([...root.querySelectorAll("details[open]")].map(detailsKey));
}

export function restoreDetails(root, open) {
  for (const d of root.querySelectorAll("details")) if (open.has(detailsKey(d))) d.open = true;
}

const LOG_KEEP = 300;
// The table's own facts: seats, leaving, calling off, rematch, clocks (the table is read again).
const TABLE_FACTS = new Set(["TableOpened", "SeatTaken", "SeatResigned", "TableCancelled", "RematchOpened",
  "ClockTicked", "TimeRanOut"]);

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
    this.log = [];
    this.first = null; // the first step of the seat's move, from the last update (null: not awaited)
    this.firstVersion = 0;
    this.stepFresh = false; // an update brought a first step the builder has not seen
    this.undo = new UndoTracker();
    this.builder = null;
    this.sending = false;
    this.live = null;
    this.stopped = false;
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
        clear(this.root, h("p", { class: "message error" }, `${err.code || ""} ${err.message}`));
        return;
      }
    }
    this.comp = await components(this.table.game).catch(() => ({}));
    this.names = nameIndex(this.comp, screenOf(this.table.game));
    this.title = (await catalog().catch(() => [])).find((g) => g.game === this.table.game)?.title || humanize(this.table.game);
    this.version = this.table.version;
    this.builder = new MoveBuilder({
      ask: (picks) => this.ask(picks),
      listed: () => get(`/games/${this.gameId}/legal-commands`, { token: this.token }),
      send: (command, version, picks) => this.send(command, version, picks),
      refused: (err, what) => errorMessage(err, what),
      ctx: { screen: screenOf(this.table.game), names: this.names, comp: this.comp, seatName: (s) => this.seatName(s),
        describeCommand: (c) => describeCommand(c, this.names, (s) => this.seatName(s)) },
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
    this.undo.reset(); // the new socket's catch-up brings the whole log again
    const live = new Live(this.gameId, this.token, {
      update: (msg) => this.onUpdate(msg),
      reset: () => {
        this.log = [];
        this.undo.reset();
        message("The server's history was reset; reloading the table.", "info", "reset");
      },
      error: (msg) => message(msg.message, "error", msg.error),
      state: (text, kind) => setStatus(text, kind),
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
    const s = this.table && this.table.seats && this.table.seats[seat];
    return s ? s.name : `Seat ${seat + 1}`;
  }

  async onUpdate(msg) {
    if (this.stopped) return;
    for (const ev of msg.events) {
      this.log.push(ev);
      this.undo.see(ev.version, ev.event);
    }
    if (msg.view !== null && msg.view !== undefined) { // the last chunk of a catch-up, or a live update
      this.first = msg.step || null;
      this.firstVersion = msg.version;
      this.stepFresh = true;
    }
    if (this.log.length > LOG_KEEP) this.log.splice(0, this.log.length - LOG_KEEP);
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
    this.scheduleDraw();
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

  draw() {
    const t = this.table;
    const seat = t.seat;
    const screen = h("div", {
      class: "table-screen", "data-game": t.game, "data-game-id": this.gameId, "data-status": t.status,
      "data-version": String(this.version), "data-seat": seat === null ? "spectator" : String(seat),
    },
    h("div", { class: "table-head" },
      h("h2", {}, this.title || t.game),
      pill(t.status, "status-" + t.status), pill(`version ${this.version}`),
      seat === null ? pill("spectator", "spectator") : pill(`you are ${this.seatName(seat)} (seat ${seat + 1})`, "you"),
      h("span", { class: "grow" }),
      h("a", { href: `#/replay/${this.gameId}` }, "replay"), " · ",
      h("a", { href: `#/watch/${this.gameId}` }, "watch link"), " · ",
      h("code", {}, this.gameId)),
    this.seatBar(),
    t.status === "finished" ? outcomeTable(t.outcome, (s) => this.seatName(s)) : null,
    this.tableActions(),
    this.turnBar(),
    h("div", { class: "controls-wrap", "data-testid": "controls-wrap" }),
    h("div", { class: "view-wrap" }, drawView(t.view, { game: t.game, comp: this.comp, names: this.names, seats: t.seats })),
    this.logPanel());
    const open = openDetails(this.root);
    clear(this.root, screen);
    restoreDetails(this.root, open);
    this.screenEl = screen;
    this.attachMoves();
  }

  turnBar() {
    const t = this.table;
    if (t.status !== "active") return null;
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    const mine = awaiting.some((a) => a.seat === t.seat);
    return h("div", { class: ["turn-bar", mine ? "mine" : null], "data-testid": "turn-bar" },
      mine ? h("strong", {}, "Your move. ") : null,
      "Waiting for: ", awaiting.length ? awaiting.map((a) => pill(`${this.seatName(a.seat)}: ${a.reason}`, a.seat === t.seat ? "you" : "")) : "nobody");
  }

  seatBar() {
    const t = this.table;
    const seats = t.seats || [];
    const free = seats.filter((s) => s === null).length;
    const nameInput = h("input", { type: "text", maxlength: 40, placeholder: "your name", value: localStorage.getItem("ludoteca.name") || "", "aria-label": "your name" });
    const botKind = h("select", { "aria-label": "bot kind" }, h("option", { value: "random" }, "random bots"), h("option", { value: "greedy" }, "greedy bots"));
    return h("div", { class: "seat-bar", "data-testid": "seats" },
      seats.map((s, i) => h("span", { class: ["seat-chip", s ? "taken" : "free", this.present(i) ? "present" : null], "data-seat": i,
        title: this.present(i) ? "connected" : "" },
        this.present(i) ? h("span", { class: "presence-dot", "aria-label": "connected" }, "● ") : null,
        `${i + 1}. `, s ? s.name : "free", s && s.bot ? ` (bot: ${s.bot})` : "",
        (t.resigned || []).includes(i) ? " · left" : "", this.clockOf(i),
        !s && t.seat === null && t.status === "open" ? h("button", { class: "take-seat", onclick: () => this.takeSeat(i, nameInput.value) }, "Sit here") : null)),
      t.status === "open" ? h("span", { class: "seat-actions" },
        t.seat === null ? nameInput : null,
        free ? [botKind, h("button", { class: "fill-bots", "data-testid": "fill-bots", onclick: () => this.fillBots(botKind.value) },
          "Fill the other seats with bots")] : null) : null);
  }

  present(seat) {
    const p = this.table.presence;
    return !!(p && p.seats.some((s) => s.seat === seat));
  }

  clockOf(seat) {
    const c = (this.table.clocks || [])[seat];
    if (!c) return "";
    const seconds = Math.max(0, Math.round(c.left_ms / 1000));
    return h("span", { class: ["clock", c.running_since_ms !== null ? "running" : null] }, ` ⏱ ${seconds}s`);
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
      buttons.push(h("button", { "data-testid": "resign", onclick: () => this.resign() }, "Resign (a bot plays on)"));
    }
    if (t.status === "finished" && seated && !t.outcome?.reason?.includes("cancelled")) {
      buttons.push(h("button", { "data-testid": "rematch", onclick: () => this.rematch() }, t.rematch ? "Join the rematch" : "Rematch"));
    }
    return buttons.length ? h("div", { class: "table-actions" }, buttons) : null;
  }

  async resign() {
    if (!window.confirm("Leave this game? A bot will play your seat.")) return;
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
    const recent = this.log.slice(-30).reverse();
    return h("details", { class: "log panel" }, h("summary", {}, `Events (${this.log.length} received)`),
      h("ol", { reversed: true }, recent.map((e) => h("li", { "data-version": e.version }, h("code", {}, `v${e.version}`), " ",
        this.describeEvent(e.event)))));
  }

  describeEvent(ev) {
    return describeEvent(ev, this.names, (s) => this.seatName(s));
  }

  // --- the seat's moves, built by picks ------------------------------------------

  // The builder marks the new table's targets; a new first step (from an update) starts it again.
  attachMoves() {
    const wrap = this.screenEl.querySelector(".controls-wrap");
    this.builder.ctx.view = this.table.view;
    this.builder.attach(this.screenEl.querySelector(".view-wrap"), wrap);
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

  async fillBots(kind) {
    const free = (this.table.seats || []).map((s, i) => (s ? null : i)).filter((i) => i !== null);
    for (const seat of free) {
      try {
        await post(`/games/${this.gameId}/seats`, { seat, bot: kind });
      } catch (err) {
        errorMessage(err, "Seating a bot");
        break;
      }
    }
  }
}
