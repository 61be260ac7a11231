// Small DOM helpers shared by every screen: elements, messages, cards, the JSON fallback.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(tag.startsWith("svg:") ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml",
    tag.replace(/^svg:/, ""));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
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

// A message for the person: the server's sentence; its code is kept for machines (data-code).
export function message(text, kind = "error", code = null) {
  const box = document.getElementById("messages");
  const item = h("div", { class: ["message", kind], "data-code": code }, text,
    h("button", { class: "close", title: "dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (kind !== "error") setTimeout(() => item.remove(), 4000);
  return item;
}

export function errorMessage(err, what = "") {
  const prefix = what ? `${what}: ` : "";
  return message(prefix + (err.message || String(err)), "error", err.code || null);
}

export function setStatus(text, kind = "") {
  const el = document.getElementById("status");
  el.textContent = text;
  el.className = "status " + kind;
}

export function humanize(name) {
  return String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());
}

// A collapsible JSON tree: the fallback for any part of a view no renderer draws.
export function jsonTree(value, label = null, open = false) {
  if (value === null || typeof value !== "object") {
    return h("span", { class: "json-leaf" }, label !== null ? h("span", { class: "json-key" }, label + ": ") : null,
      h("span", { class: "json-" + (value === null ? "null" : typeof value) }, JSON.stringify(value)));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
  const simple = entries.every(([, v]) => v === null || typeof v !== "object");
  if (simple && entries.length <= 12) {
    return h("span", { class: "json-leaf" }, label !== null ? h("span", { class: "json-key" }, label + ": ") : null,
      h("span", { class: "json-inline" }, JSON.stringify(value)));
  }
  return h("details", { class: "json", open },
    h("summary", {}, label !== null ? h("span", { class: "json-key" }, label + " ") : null, summary),
    h("ul", {}, entries.map(([k, v]) => h("li", {}, jsonTree(v, k)))));
}

// The parts of a view a renderer did not draw, as JSON (nothing the viewer may see is hidden).
export function leftovers(view, drawn) {
  const rest = {};
  for (const [k, v] of Object.entries(view || {})) if (!drawn.has(k)) rest[k] = v;
  if (!Object.keys(rest).length) return null;
  return h("div", { class: "leftovers" }, h("h4", {}, "Other fields of the view"), jsonTree(rest, null, false));
}

// A card: `info` = {title, sub, lines[], cls, colour}; `pick` is the key a move's option names it
// by ("card:<id>", "tile:<id>", "pile:<kind>": picks.js), or null when it is never picked.
export function card(id, info = {}, pick = null) {
  return h("div", {
    class: ["card", info.cls],
    "data-card": id, "data-pick": pick, title: info.tip || id,
    style: info.colour ? { "--card-colour": info.colour } : null,
  },
  h("div", { class: "card-title" }, info.title || id),
  info.sub ? h("div", { class: "card-sub" }, info.sub) : null,
  (info.lines || []).map((l) => h("div", { class: "card-line" }, l)));
}

export function cardBack(label = "", cls = "") {
  return h("div", { class: ["card", "back", cls] }, h("div", { class: "card-title" }, label));
}

export function backs(count, label = "") {
  if (!count) return h("span", { class: "muted" }, "none");
  if (count > 8) return h("div", { class: "cards" }, cardBack(label), h("span", { class: "count" }, `× ${count}`));
  return h("div", { class: "cards" }, Array.from({ length: count }, () => cardBack(label)));
}

export function section(title, ...children) {
  return h("section", { class: "panel" }, title ? h("h3", {}, title) : null, ...children);
}

export function pill(text, cls = "") {
  return h("span", { class: ["pill", cls] }, text);
}
