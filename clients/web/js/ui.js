// Small DOM helpers shared by every screen: elements, messages, cards, piles, symbols.

import { byLanguage } from "./words.js";

// The words of the pieces every screen draws (kept together for translation).
const WORDS = byLanguage({
  en: {
    dismiss: "dismiss",
    noCards: "no cards",
    backs: (n) => `${n} card${n === 1 ? "" : "s"} in hand`,
    none: "none",
    colours: { red: "red", purple: "purple", yellow: "yellow", blue: "blue", green: "green", orange: "orange", grey: "grey" },
  },
  pt: {
    dismiss: "fechar",
    noCards: "sem cartas",
    backs: (n) => (n === 1 ? "1 carta na mão" : `${n} cartas na mão`),
    none: "nenhuma",
    colours: { red: "vermelho", purple: "roxo", yellow: "amarelo", blue: "azul", green: "verde", orange: "laranja", grey: "cinzento" },
  },
  gl: {
    dismiss: "pechar",
    noCards: "sen cartas",
    backs: (n) => (n === 1 ? "1 carta na man" : `${n} cartas na man`),
    none: "ningunha",
    colours: { red: "vermello", purple: "morado", yellow: "amarelo", blue: "azul", green: "verde", orange: "laranxa", grey: "gris" },
  },
  es: {
    dismiss: "cerrar",
    noCards: "sin cartas",
    backs: (n) => (n === 1 ? "1 carta en la mano" : `${n} cartas en la mano`),
    none: "ninguna",
    colours: { red: "rojo", purple: "morado", yellow: "amarillo", blue: "azul", green: "verde", orange: "naranja", grey: "gris" },
  },
});

// An element. Handlers (`onclick`, `oninput`...) are set as the element's own properties, so that
// morph.js can hand a redrawn element's handlers to the element it keeps.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(tag.startsWith("svg:") ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml",
    tag.replace(/^svg:/, ""));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el[k] = v;
    else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, val] of Object.entries(v)) if (val !== null && val !== undefined) el.style.setProperty(prop, val);
    }
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

export const svg = (tag, attrs, ...children) => h("svg:" + tag, attrs, ...children);

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Words only a screen reader hears (a colour's name beside its symbol, a count beside pips).
export const hidden = (text) => h("span", { class: "sr-only" }, text);

// A message for the person: the server's sentence; its code is kept for machines (data-code).
export function message(text, kind = "error", code = null) {
  const box = document.getElementById("messages");
  const item = h("div", { class: ["message", kind], "data-code": code }, text,
    h("button", { class: "close", "aria-label": WORDS.dismiss, onclick: () => item.remove() }, "×"));
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (kind !== "error") setTimeout(() => item.remove(), 4000);
  return item;
}

export function errorMessage(err, what = "") {
  const prefix = what ? `${what}: ` : "";
  return message(prefix + (err.message || String(err)), "error", err.code || null);
}

// The connection's state, in words (a close code is for machines: data-code).
export function setStatus(text, kind = "", code = null) {
  const el = document.getElementById("status");
  el.textContent = text;
  el.className = "status " + kind;
  if (code === null) el.removeAttribute("data-code");
  else el.setAttribute("data-code", String(code));
}

// Said to screen readers (the page's aria-live region): turns, moves, results.
let announceTimer = null;
const said = [];
export function announce(text) {
  if (!text) return;
  said.push(text);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const el = document.getElementById("announce");
    if (el) el.textContent = said.splice(0).slice(-4).join(" ");
  }, 150);
}

export function humanize(name) {
  return String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());
}

export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

// A card: `info` = {title, sub, lines[], cls, colour, icon, corner, tip, label}; `pick` is the key a
// move's option names it by ("card:<id>", "tile:<id>", "pile:<kind>": picks.js), or null when it is
// never picked. `data-key` keeps it across redraws (morph.js) and lets it glide where it went.
export function card(id, info = {}, pick = null) {
  return h("div", {
    class: ["card", info.cls],
    "data-card": id, "data-key": "card:" + id, "data-flip": "card:" + id, "data-pick": pick, title: info.tip || null,
    style: info.colour ? { "--card-colour": info.colour, "--card-ink": inkOn(info.colour) } : null,
  },
  // the corner on the left, as a printed card's index: what a fanned hand still shows
  h("div", { class: "card-band", "aria-hidden": "true" },
    h("span", { class: "card-corner" }, info.corner || ""), h("span", { class: "card-icon" }, info.icon || "")),
  info.label ? hidden(info.label + " ") : null,
  h("div", { class: "card-title" }, info.title || "?"),
  info.sub ? h("div", { class: "card-sub" }, info.sub) : null,
  (info.lines || []).map((l) => h("div", { class: "card-line" }, l)));
}

export function cardBack(label = "", cls = "", key = null) {
  return h("div", { class: ["card", "back", cls], "aria-hidden": "true", "data-key": key },
    h("div", { class: "back-mark" }, label));
}

// A pile face down: a short stack of backs and its count. `pick`: the move it stands for.
export function pile(count, label, { name = label, cls = "", pick = null, key = null } = {}) {
  const shown = Math.min(count, 3);
  return h("div", { class: ["pile", cls, count ? null : "empty"], "data-pick": pick, "data-key": key || `pile:${name}` },
    h("div", { class: "stack", "aria-hidden": "true" },
      count ? Array.from({ length: shown }, (_, i) => h("div", { class: "card back", style: { "--i": String(i) } },
        h("div", { class: "back-mark" }, label))) : h("div", { class: "card slot" })),
    h("div", { class: "pile-count" }, `${name}: ${count}`));
}

// A hidden hand: the backs fanned, and how many.
export function backs(count, label = "") {
  if (!count) return h("p", { class: "muted" }, WORDS.noCards);
  const shown = Math.min(count, 12);
  return h("div", { class: "cards fan backs" },
    Array.from({ length: shown }, (_, i) => cardBack(label, "", `back:${i}`)),
    h("span", { class: "count" }, WORDS.backs(count)));
}

// A row of cards; `fan`: overlapped like a hand held in the hand.
export function cards(list, { fan = false, small = false, testid = null, empty = null } = {}) {
  if (!list.length) return h("p", { class: "muted" }, empty === null ? WORDS.none : empty);
  return h("div", { class: ["cards", fan ? "fan" : null, small ? "small" : null], "data-testid": testid }, list);
}

export function section(title, ...children) {
  return h("section", { class: "panel", "data-key": title ? "section:" + title : null },
    title ? h("h2", {}, title) : null, ...children);
}

export function pill(text, cls = "") {
  return h("span", { class: ["pill", cls] }, text);
}

// --- colours and their symbols ------------------------------------------------------------------
// Every colour on the table has a symbol too, so no choice rests on telling fills apart (the
// I Love Portugal rulebook's Final Notes give each colour a symbol; the printed ones are not
// public, so these are ours, drawn from DejaVu Sans).
export const COLOURS = {
  red: { fill: "#c8372d", symbol: "▲", name: "red" },
  purple: { fill: "#7b4bb3", symbol: "◆", name: "purple" },
  yellow: { fill: "#e2b21c", symbol: "★", name: "yellow" },
  blue: { fill: "#2f68c0", symbol: "●", name: "blue" },
  green: { fill: "#2e7d32", symbol: "■", name: "green" },
  orange: { fill: "#e07a22", symbol: "✚", name: "orange" },
  grey: { fill: "#8a8f98", symbol: "○", name: "grey" },
};
export const SEAT_ORDER = ["red", "blue", "yellow", "green", "purple", "orange"];

// The text colour that reads on a fill (WCAG contrast 4.5 or more): white, else near-black.
export function inkOn(hex) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return "#fff";
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(m[1].slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (l + 0.05) >= 4.5 ? "#fff" : "#1f1d1a";
}

export function colourOf(name) {
  const known = name in COLOURS ? name : "grey";
  return { ...COLOURS[known], name: WORDS.colours[known] || COLOURS[known].name };
}

// A colour's chip: the fill, its symbol, and its name for screen readers.
export function swatch(name, { text = null } = {}) {
  const c = colourOf(name);
  return h("span", { class: "chip", style: { "--chip": c.fill, "--chip-ink": inkOn(c.fill) } },
    h("span", { class: "chip-symbol", "aria-hidden": "true" }, c.symbol), text === null ? hidden(c.name) : text);
}
