// Names for what a view, an event or a pick mentions: ids from the game's printed parts, seats
// by their players' names, cells by row and column.

import { humanize } from "./ui.js";

// Every id -> name the game's printed parts know (any object with an `id` and a `name`), and the
// game screen's own (`game.names(components)`: kinds, piles, waypoints; keys may be "kind:value").
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

const isCell = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);

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

// One command, readably (the confirm button says what it sends).
export function describeCommand(cmd, names, seatName) {
  const fields = Object.entries(cmd).filter(([k]) => k !== "type");
  const words = humanize(cmd.type);
  if (!fields.length) return words;
  return words + ": " + fields.map(([k, v]) => (fields.length === 1 ? "" : humanize(k).toLowerCase() + " ")
    + describe(v, k, names, seatName)).join(", ");
}
