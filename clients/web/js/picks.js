// Building a move from picks (docs/API.md, "Building a move"; docs/web.md, "How a move is made").
//
// A move is a short sequence of picks: its type, then one value per field. For the picks made so
// far the server answers a step: the options that may come next, and the command the picks already
// make, if they do. The builder shows each option where the game screen draws a value of its kind:
// an element whose `data-pick` holds the key "kind:value" ("card:1971-bridge", "cell:2,3",
// "seat:1", "circle:lisboa"; several keys, space-separated). Those elements, and only those, are
// highlighted as targets. An option with no such element (a move type, an object kind to ask for,
// a number) is a button of the chooser. Picking an option that carries `command` sends it; any
// other pick asks for the next step. One builder serves every game: the screens only say where
// values are drawn (`data-pick`, and `where` for a kind drawn under another's key).

import { h, humanize } from "./ui.js";
import { morph } from "./morph.js";

const isCell = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);

export const valueKey = (value) => (Array.isArray(value) ? value.join(",") : String(value));
export const pickKey = (kind, value) => `${kind}:${valueKey(value)}`;
export const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The things an option names, as [kind, value] pairs: one (a card, a seat, a cell), or none for null.
export function things(kind, value) {
  return value === null || value === undefined ? [] : [[kind, value]];
}

// Words for one value of a kind: the game screen's own, else names from the printed parts.
export function labelOf(kind, value, ctx) {
  const own = ctx.screen.label && ctx.screen.label(kind, value, ctx);
  if (own) return own;
  if (value === null || value === undefined) return "none";
  if (kind === "move") return humanize(value);
  if (kind === "seat") return ctx.seatName(value);
  if (kind === "number") return String(value);
  if (kind === "column") return `column ${value + 1}`;
  if (isCell(value)) return `row ${value[0] + 1}, column ${value[1] + 1}`;
  return ctx.names.get(`${kind}:${value}`) || ctx.names.get(String(value)) || humanize(value);
}

const pickOf = (o) => ({ field: o.field, value: o.value, kind: o.kind });
const wire = (picks) => picks.map((p) => ({ field: p.field, value: p.value }));
const optionsOf = (step) => (step && step.options) || [];
const commandOf = (step) => (step && step.command !== undefined ? step.command : null);

export class MoveBuilder {
  // ask(picks) -> Promise<{version, step}>: the next step (socket or REST; a refusal throws ApiError)
  // send(command, version, picks) -> Promise<version | null>: the command sent (null: refused)
  // refused(err, what): tell the person the server's sentence
  // ctx: {screen, names, seatName, comp, view, describeCommand}
  constructor({ ask, send, refused, ctx }) {
    this.ask = ask;
    this.sendCommand = send;
    this.refused = refused;
    this.ctx = ctx;
    this.first = null; // the first step, from the last update (null: the seat is not awaited)
    this.firstVersion = 0;
    this.picks = []; // {field, value, kind}, in order
    this.auto = 0; // how many of them were made by themselves (a lone move type)
    this.step = null; // the step after the picks
    this.version = 0; // the version that step was computed at (the command's expected_version)
    this.state = "none"; // none | idle | asking | sending | waiting
    this.asked = []; // the picks of the request on its way
    this.generation = 0; // an answer to an older request is dropped
    this.board = null;
    this.panel = null;
    this.targets = new Map(); // element -> option
  }

  // --- the move, pick by pick -------------------------------------------------------------

  // A new first step from an update (null: not awaited). A partial move is kept if it still fits.
  restart(step, version) {
    this.first = step || null;
    this.firstVersion = version;
    if (this.state === "sending") return; // finish() starts again once the command is answered
    if (!this.first) return this.clear();
    const held = this.state === "asking" ? this.asked : this.picks; // a pick on its way is kept too
    if (held.length <= this.auto) return this.begin();
    return this.go(held, { revisit: true });
  }

  clear() {
    this.generation += 1;
    this.picks = [];
    this.auto = 0;
    this.step = null;
    this.state = "none";
    this.render();
  }

  // Back to the first step; a lone move type that needs more picks is picked at once.
  begin() {
    this.generation += 1;
    this.picks = [];
    this.auto = 0;
    this.step = this.first;
    this.version = this.firstVersion;
    this.state = "idle";
    this.fresh = true;
    const options = optionsOf(this.step);
    const only = options.length === 1 && commandOf(this.step) === null ? options[0] : null;
    if (only && only.kind === "move" && !only.command) {
      this.auto = 1;
      return this.go([pickOf(only)], { revisit: true });
    }
    this.render();
  }

  // Ask for the step after `picks`. `revisit`: the same picks again on a newer table, or the
  // lone move type begin() picked (a refusal drops the move instead of keeping the step before).
  async go(picks, { revisit = false } = {}) {
    const generation = ++this.generation;
    this.state = "asking";
    this.asked = picks;
    this.render();
    let answer;
    try {
      answer = await this.ask(wire(picks));
    } catch (err) {
      if (generation !== this.generation) return;
      if (revisit && picks.length > this.auto) {
        this.refused(err, "The table moved on; your move was dropped");
        return this.begin();
      }
      if (revisit) { // the lone move type itself (a first step already stale): show the step as it is
        this.auto = 0;
        this.picks = [];
        this.step = this.first;
        this.version = this.firstVersion;
      } else {
        this.refused(err, "That pick was refused");
      }
      this.state = "idle";
      return this.render();
    }
    if (generation !== this.generation) return;
    this.picks = picks;
    this.step = answer.step;
    this.version = answer.version;
    this.state = "idle";
    this.fresh = true;
    const options = optionsOf(answer.step), command = commandOf(answer.step);
    if (!options.length && command !== null) return this.finish(command, picks); // nothing left to choose
    if (!options.length) {
      this.refused({ message: "Nothing more can be picked for this move." }, "That move");
      return this.begin();
    }
    this.render();
  }

  choose(option) {
    if (this.state !== "idle") return;
    if (option.command) return this.finish(option.command, [...this.picks, pickOf(option)]);
    return this.go([...this.picks, pickOf(option)]);
  }

  confirm() {
    if (this.state === "idle" && commandOf(this.step) !== null) this.finish(commandOf(this.step), this.picks);
  }

  async finish(command, picks) {
    this.generation += 1;
    this.state = "sending";
    this.render();
    const sent = await this.sendCommand(command, this.version, wire(picks));
    this.picks = [];
    this.auto = 0;
    if (!this.first) return this.clear();
    if (sent === null || this.firstVersion >= sent) return this.begin();
    // the update that follows the command brings the next first step
    this.step = null;
    this.state = "waiting";
    this.render();
  }

  // Take back picks from `index` on (clicking a picked target, the back button).
  takeBack(index) {
    if (this.state !== "idle") return;
    if (index <= this.auto) return this.begin();
    return this.go(this.picks.slice(0, index));
  }

  cancel() {
    if (this.state === "idle" && this.picks.length > this.auto) this.begin();
  }

  // --- on the table -----------------------------------------------------------------------

  // The table was drawn again: mark its targets and draw the panel.
  attach(board, panel) {
    this.board = board;
    this.panel = panel;
    const press = (e) => {
      const el = e.target.closest(".target, .picked");
      if (!el || !board.contains(el)) return;
      e.preventDefault();
      if (this.targets.has(el)) return this.choose(this.targets.get(el));
      const index = this.picks.findIndex((p) => this.elementsOf(p.kind, p.value).includes(el));
      if (index >= 0) this.takeBack(index);
    };
    board.onclick = press; // one handler per drawn table
    board.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") press(e); }; // targets take the focus
    this.render();
  }

  where(kind, value) {
    const own = this.ctx.screen.where && this.ctx.screen.where(kind, value, this.ctx);
    return own || [pickKey(kind, value)];
  }

  // The board's elements drawn for one option's value (none when it names no single thing).
  elementsOf(kind, value) {
    const named = things(kind, value);
    if (named.length !== 1 || !this.index) return [];
    return this.where(named[0][0], named[0][1]).flatMap((key) => this.index.get(key) || []);
  }

  render() {
    this.targets = new Map();
    if (!this.board || !this.panel) return;
    const active = document.activeElement;
    const hadFocus = !active || active === document.body || this.board.contains(active);
    for (const el of this.board.querySelectorAll(".target, .picked")) {
      el.classList.remove("target", "picked");
      el.removeAttribute("data-option");
      el.removeAttribute("tabindex");
      el.removeAttribute("aria-pressed");
      if (el.hasAttribute("data-role")) el.setAttribute("role", el.getAttribute("data-role"));
      else el.removeAttribute("role");
    }
    this.index = new Map();
    for (const el of this.board.querySelectorAll("[data-pick]")) {
      for (const key of el.getAttribute("data-pick").split(/\s+/)) {
        if (!this.index.has(key)) this.index.set(key, []);
        this.index.get(key).push(el);
      }
    }
    const shown = this.state === "idle" || this.state === "asking"; // while asking: the step before, inert
    const live = shown ? optionsOf(this.step) : [];
    const chooser = [];
    const onBoard = new Map(); // element -> the options drawn there
    for (const option of live) {
      const els = this.elementsOf(option.kind, option.value);
      for (const el of els) {
        if (!onBoard.has(el)) onBoard.set(el, []);
        onBoard.get(el).push(option);
      }
      if (!els.length || option.kind === "move") chooser.push(option); // move types are always listed too
    }
    const board = [];
    for (const [el, options] of onBoard) {
      if (options.length > 1) { // two options on one element: ask which, in the chooser
        for (const o of options) if (!chooser.includes(o)) chooser.push(o);
        continue;
      }
      const option = options[0];
      el.classList.add("target");
      el.setAttribute("data-option", JSON.stringify([option.field, option.value]));
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      this.targets.set(el, option);
      if (!board.includes(option) && option.kind !== "move") board.push(option);
      for (let up = el.parentElement?.closest("details"); up; up = up.parentElement?.closest("details")) up.open = true;
    }
    for (const p of this.picks) {
      for (const el of this.elementsOf(p.kind, p.value)) {
        el.classList.add("picked");
        el.setAttribute("tabindex", "0"); // picking it again takes it back
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", "true");
      }
    }
    this.drawPanel(board, chooser);
    if (this.fresh && this.state === "idle") {
      this.fresh = false;
      this.reveal();
    }
    // the focused target went away with the step: the next step's first target, or the panel's
    const now = document.activeElement;
    if (hadFocus && this.state === "idle" && (!now || now === document.body || !(now.tabIndex >= 0) || !now.isConnected)) this.focusFirst();
  }

  // A new step whose targets are all out of sight (on a phone, above or below the docked move
  // panel) brings the first one into view: the panel never offers what the person cannot see.
  reveal() {
    const targets = [...this.targets.keys()];
    if (!targets.length) return;
    const dock = this.panel && this.panel.closest(".dock");
    const fixed = dock && getComputedStyle(dock).position === "fixed";
    const bottom = fixed ? dock.getBoundingClientRect().top : window.innerHeight;
    const inSight = (el) => {
      if (fixed && dock.contains(el)) return true;
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < bottom && (r.width || r.height);
    };
    if (targets.some(inSight)) return;
    const first = targets.find((el) => !(dock && dock.contains(el))) || targets[0];
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    first.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
  }

  // The first thing to pick: a target on the table, else the first button of the move panel.
  focusFirst() {
    if (!this.board) return;
    const el = this.board.querySelector(".target") || (this.panel && this.panel.querySelector("button"));
    if (el) el.focus({ preventScroll: false });
  }

  drawPanel(board, chooser) {
    const panel = this.panel;
    const ctx = this.ctx;
    const fieldLabel = (field) => (field === "type" ? "Move" : (ctx.screen.fields && ctx.screen.fields[field]) || humanize(field));
    panel.setAttribute("data-state", this.state);
    panel.setAttribute("data-version", String(this.version));
    panel.setAttribute("data-picks", JSON.stringify(wire(this.picks)));
    panel.setAttribute("data-options", String(this.state === "idle" ? optionsOf(this.step).length : 0));
    // drawn afresh, then morphed in: a focused button that is still offered keeps the focus
    const fresh = panel.cloneNode(false);
    this.drawInto(fresh, board, chooser, fieldLabel);
    panel.removeAttribute("data-morph"); // the table's redraw leaves the panel to us; we morph it
    fresh.removeAttribute("data-morph");
    morph(panel, fresh);
    panel.setAttribute("data-morph", "keep");
    if (this.state === "asking") panel.classList.add("asking");
    else panel.classList.remove("asking");
  }

  drawInto(panel, board, chooser, fieldLabel) {
    const ctx = this.ctx;
    if (this.state === "none") {
      panel.append(h("p", { class: "muted" }, "Nothing to do right now."));
      return;
    }
    if (this.state === "sending" || this.state === "waiting") {
      panel.append(h("p", { class: "muted" }, this.state === "sending" ? "Sending your move…" : "Sent; the table moves on…"));
      return;
    }
    const command = commandOf(this.step);
    const extra = this.picks.length > this.auto;
    panel.append(h("h2", {}, "Your move"));
    if (this.picks.length) {
      panel.append(h("div", { class: "picks", "data-testid": "picks" }, "So far: ",
        this.picks.map((p, i) => h("span", { class: ["pill", "pick", i < this.auto ? "auto" : null], "data-field": p.field },
          p.field === "type" ? labelOf("move", p.value, ctx) : `${fieldLabel(p.field)}: ${labelOf(p.kind, p.value, ctx)}`))));
    }
    if (board.length) {
      const fields = [...new Map(board.map((o) => [o.field, o.kind])).entries()];
      panel.append(h("p", { class: "hint" }, "Pick on the table: ",
        fields.map(([field, kind], i) => [i ? " or " : "", h("strong", {}, fieldLabel(field)), ` (${humanize(kind).toLowerCase()})`])));
    }
    const groups = new Map();
    for (const o of chooser) {
      if (!groups.has(o.field)) groups.set(o.field, []);
      groups.get(o.field).push(o);
    }
    for (const [field, options] of groups) {
      panel.append(h("div", { class: "chooser", "data-field": field },
        h("span", { class: "group-label" }, fieldLabel(field) + ":"),
        options.map((o) => h("button", {
          class: ["option", o.command ? "sends" : null], "data-field": o.field, "data-kind": o.kind,
          "data-key": "option:" + JSON.stringify([o.field, o.value]),
          "data-value": typeof o.value === "string" ? o.value : JSON.stringify(o.value),
          "data-option": JSON.stringify([o.field, o.value]),
          title: o.command ? "sends " + ctx.describeCommand(o.command) : "",
          onclick: () => this.choose(o),
        }, labelOf(o.kind, o.value, ctx)))));
    }
    if (command !== null || extra) {
      panel.append(h("div", { class: "move-actions", "data-key": "move-actions" },
        command !== null ? h("button", { class: "primary confirm", "data-testid": "confirm", onclick: () => this.confirm() },
          "Send: " + ctx.describeCommand(command)) : null,
        extra ? h("button", { class: "back", "data-testid": "back", onclick: () => this.takeBack(this.picks.length - 1) }, "Back") : null,
        extra ? h("button", { class: "cancel", "data-testid": "cancel", title: "Escape", onclick: () => this.cancel() }, "Cancel (Esc)") : null));
    }
  }
}
