// The seat's legal commands as controls: readable buttons, and clickable targets on the table.
// A target is a value a command names (a card, a circle, a cell); clicking one picks the legal
// commands naming it; when several remain, the panel narrows to them (click another target or a button).

import { h, humanize } from "./ui.js";

// Every id -> name the game's printed parts know (any object with an `id` and a `name`).
export function nameIndex(components, game = null) {
  const names = new Map();
  if (game && game.names) for (const [id, name] of game.names(components)) names.set(id, name);
  const walk = (x) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === "object") {
      if (typeof x.id === "string" && typeof x.name === "string" && !names.has(x.id)) names.set(x.id, x.name);
      Object.values(x).forEach(walk);
    }
  };
  walk(components);
  return names;
}

export function cellKey(cell) {
  return `${cell[0]},${cell[1]}`;
}

const isCell = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);

// The target keys one command names (game modules may add their own: `game.keys(cmd)`).
export function keysOf(cmd, game, comp = null, view = null) {
  if (game && game.keys) {
    const own = game.keys(cmd, comp, view);
    if (own) return own;
  }
  const keys = [];
  for (const [field, v] of Object.entries(cmd)) {
    if (field === "type") continue;
    if (typeof v === "string") keys.push(v);
    else if (isCell(v)) keys.push(cellKey(v));
    else if (Array.isArray(v)) for (const x of v) {
      if (typeof x === "string") keys.push(x);
      else if (isCell(x)) keys.push(cellKey(x));
    }
  }
  return keys;
}

export function describe(value, field, names, seatName) {
  if (value === null || value === undefined) return "none";
  if (Number.isInteger(value) && /^(seat|target|victim|receiver|offerer|thief|giver|winner|first|turn)$/.test(field)) return seatName(value);
  if (typeof value === "string") return names.get(value) || value;
  if (isCell(value)) return `row ${value[0] + 1}, column ${value[1] + 1}`;
  if (Array.isArray(value)) return value.map((v) => describe(v, field, names, seatName)).join(" + ") || "nothing";
  return JSON.stringify(value);
}

// One event, readably: its kind, then each field with names for ids and seats.
export function describeEvent(ev, names, seatName) {
  const parts = Object.entries(ev).filter(([k]) => k !== "type")
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${describe(v, k, names, seatName)}`);
  return `${humanize(ev.type)}${parts.length ? ": " + parts.join(", ") : ""}`;
}

export function label(cmd, names, seatName) {
  const fields = Object.entries(cmd).filter(([k]) => k !== "type");
  const words = humanize(cmd.type);
  if (!fields.length) return words;
  return words + ": " + fields.map(([k, v]) => (fields.length === 1 ? "" : humanize(k).toLowerCase() + " ")
    + describe(v, k, names, seatName)).join(", ");
}

// The controls panel and the clickable targets, for one render of the table.
export class Controls {
  constructor({ commands, names, seatName, game, comp, view, send }) {
    this.commands = commands;
    this.names = names;
    this.seatName = seatName;
    this.game = game;
    this.send = send;
    this.selection = [];
    this.keys = commands.map((c) => new Set(keysOf(c, game, comp, view)));
    this.panel = h("div", { class: "controls", "data-testid": "controls" });
  }

  matching() {
    return this.commands.filter((c, i) => this.selection.every((k) => this.keys[i].has(k)));
  }

  // The keys a click may add now.
  live() {
    const keys = new Set();
    this.commands.forEach((c, i) => {
      if (this.selection.every((k) => this.keys[i].has(k))) this.keys[i].forEach((k) => keys.add(k));
    });
    this.selection.forEach((k) => keys.delete(k));
    return keys;
  }

  label(cmd) {
    return this.game && this.game.label ? this.game.label(cmd, this.names, this.seatName) || label(cmd, this.names, this.seatName)
      : label(cmd, this.names, this.seatName);
  }

  click(key) {
    if (this.selection.includes(key)) {
      this.selection = this.selection.filter((k) => k !== key);
    } else {
      const next = [...this.selection, key];
      const left = this.commands.filter((c, i) => next.every((k) => this.keys[i].has(k)));
      if (!left.length) return;
      if (left.length === 1) {
        this.selection = [];
        this.send(left[0]);
        return;
      }
      this.selection = next;
    }
    this.refresh();
  }

  // Mark the table's targets (elements with data-target) and draw the panel.
  attach(root) {
    this.root = root;
    // one handler per drawn table: a newer Controls replaces an older one's
    root.onclick = (e) => {
      const el = e.target.closest("[data-target]");
      if (!el || !root.contains(el) || !el.classList.contains("playable")) return;
      e.preventDefault();
      this.click(el.getAttribute("data-target"));
    };
    this.refresh();
  }

  refresh() {
    const live = this.live();
    if (this.root) {
      for (const el of this.root.querySelectorAll("[data-target]")) {
        const key = el.getAttribute("data-target");
        el.classList.toggle("playable", live.has(key));
        el.classList.toggle("selected", this.selection.includes(key));
      }
    }
    this.drawPanel();
  }

  drawPanel() {
    const panel = this.panel;
    panel.replaceChildren();
    if (!this.commands.length) return;
    const shown = this.matching();
    if (this.selection.length) {
      panel.append(h("div", { class: "selection" }, "Selected: ",
        this.selection.map((k) => h("span", { class: "pill" }, this.names.get(k) || k)), " ",
        h("button", { class: "link", onclick: () => { this.selection = []; this.refresh(); } }, "clear")));
    }
    const groups = new Map();
    for (const c of shown) {
      if (!groups.has(c.type)) groups.set(c.type, []);
      groups.get(c.type).push(c);
    }
    for (const [type, cmds] of groups) {
      const group = h("div", { class: "command-group", "data-type": type });
      if (cmds.length <= 12) {
        // several commands of one kind: the kind once, then each button names what differs
        const prefix = humanize(type) + ": ";
        const compact = cmds.length > 2 && cmds.every((c) => this.label(c).startsWith(prefix));
        if (compact) group.append(h("span", { class: "group-label" }, humanize(type) + ":"));
        for (const c of cmds) {
          const text = this.label(c);
          group.append(h("button", {
            class: "command", "data-command": JSON.stringify(c), "data-type": c.type, title: text,
            onclick: () => this.send(c),
          }, compact ? text.slice(prefix.length) : text));
        }
      } else {
        const select = h("select", { "data-type": type, "aria-label": humanize(type) },
          cmds.map((c, i) => h("option", { value: String(i) }, this.label(c))));
        group.append(h("label", {}, humanize(type) + ` (${cmds.length}) `), select,
          h("button", { class: "command", "data-type": type, onclick: () => this.send(cmds[Number(select.value)]) }, "Send"));
      }
      panel.append(group);
    }
  }
}
