// Updates change only what changed: the table is drawn afresh as detached elements (ui.js h), then
// `morph` walks the drawn tree beside the one on the page and changes the page's in place. An element
// with `data-key` is matched by key wherever it stands among its siblings; others by tag, in order.
// What the page keeps is what the person touched: focus, an open <details>, a typed value, and the
// marks the move builder owns (picks.js: target, picked, held, tabindex, role, data-option, data-paths,
// data-move, data-drag, aria-pressed).
//
// Styles are copied through the CSSOM, one property at a time, never as a `style` attribute: the
// page's Content-Security-Policy (`style-src 'self'`) refuses an inline style attribute set from a
// script, and a refused one leaves the element without its colours.
//
// `glide` then moves what moved: every element with `data-flip` that stands elsewhere than before
// slides from where it was (FLIP: First, Last, Invert, Play), unless prefers-reduced-motion.

const HANDLERS = ["onclick", "onsubmit", "oninput", "onchange", "onkeydown"];
const BUILDER_CLASSES = ["target", "picked", "held"];
const BUILDER_ATTRS = new Set(["tabindex", "role", "data-option", "data-paths", "data-move", "data-drag", "aria-pressed"]);

const keyOf = (n) => (n.nodeType === 1 ? n.getAttribute("data-key") : null);

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

// The element's inline style made equal to the drawn one's, property by property (CSSOM).
function syncStyle(from, to) {
  const want = to.style;
  const have = from.style;
  if (!want || !have || have.cssText === want.cssText) return;
  for (const prop of [...have]) if (!want.getPropertyValue(prop)) have.removeProperty(prop);
  for (const prop of [...want]) {
    const value = want.getPropertyValue(prop), priority = want.getPropertyPriority(prop);
    if (have.getPropertyValue(prop) !== value || have.getPropertyPriority(prop) !== priority) have.setProperty(prop, value, priority);
  }
}

function syncAttributes(from, to) {
  const focused = from === document.activeElement;
  syncStyle(from, to);
  for (const { name } of [...from.attributes]) {
    if (name === "style") continue; // syncStyle's
    if (to.hasAttribute(name) || BUILDER_ATTRS.has(name)) continue;
    if (name === "open" && from.nodeName === "DETAILS") continue;
    from.removeAttribute(name);
  }
  for (const { name, value } of [...to.attributes]) {
    if (name === "style") continue;
    if (name === "class") {
      const kept = BUILDER_CLASSES.filter((c) => from.classList.contains(c));
      const next = [value, ...kept].join(" ").trim();
      if (from.getAttribute("class") !== next) from.setAttribute("class", next);
      continue;
    }
    if (name === "open" && from.nodeName === "DETAILS") continue;
    if (name === "value" && focused) continue;
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
  if (!to.hasAttribute("class") && from.hasAttribute("class")) {
    const kept = BUILDER_CLASSES.filter((c) => from.classList.contains(c));
    if (kept.length) from.setAttribute("class", kept.join(" "));
  }
  for (const p of HANDLERS) if (from[p] !== to[p]) from[p] = to[p];
  if ((from.nodeName === "INPUT" || from.nodeName === "SELECT") && !focused) {
    if (from.type === "checkbox") from.checked = to.checked;
    else if (from.value !== to.value && to.hasAttribute("value")) from.value = to.value;
  }
}

// Make `from` (on the page) look like `to` (freshly drawn), keeping `from`'s nodes where they match.
export function morph(from, to) {
  if (from.nodeType === 3 || from.nodeType === 8) {
    if (from.data !== to.data) from.data = to.data;
    return from;
  }
  if (from.getAttribute("data-morph") === "keep") return from; // drawn by its owner (the move panel)
  syncAttributes(from, to);
  if (from.nodeName === "SELECT" && from === document.activeElement) return from;
  const old = [...from.childNodes];
  const byKey = new Map();
  for (const n of old) { const k = keyOf(n); if (k !== null && !byKey.has(k)) byKey.set(k, n); }
  const used = new Set();
  let cursor = 0; // the next unkeyed old node to try
  const next = [...to.childNodes];
  next.forEach((n, i) => {
    const k = keyOf(n);
    let match = null;
    if (k !== null) {
      const m = byKey.get(k);
      if (m && !used.has(m) && sameKind(m, n)) match = m;
    } else {
      for (let j = cursor; j < old.length; j++) {
        const o = old[j];
        if (!used.has(o) && keyOf(o) === null && sameKind(o, n)) { match = o; cursor = j + 1; break; }
      }
    }
    let node;
    if (match) {
      used.add(match);
      node = morph(match, n);
    } else {
      node = n;
    }
    if (from.childNodes[i] !== node) from.insertBefore(node, from.childNodes[i] || null);
  });
  for (const o of old) if (!used.has(o) && o.parentNode === from) from.removeChild(o);
  return from;
}

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Where every [data-flip] element stands now (a key seen twice glides nowhere).
export function positions(root) {
  const at = new Map();
  const twice = new Set();
  for (const el of root.querySelectorAll("[data-flip]")) {
    const k = el.getAttribute("data-flip");
    if (at.has(k)) twice.add(k);
    else at.set(k, el.getBoundingClientRect());
  }
  for (const k of twice) at.delete(k);
  return at;
}

// Slide what moved from where it stood; fade in what is new. Short, and none at all when the
// person asked for less motion.
export function glide(root, before) {
  if (reduced() || !before || !root.animate) return;
  const seen = new Set();
  for (const el of root.querySelectorAll("[data-flip]")) {
    const k = el.getAttribute("data-flip");
    if (seen.has(k)) continue;
    seen.add(k);
    const was = before.get(k);
    const now = el.getBoundingClientRect();
    if (!now.width && !now.height) continue;
    if (!was) {
      if (before.size) el.animate([{ opacity: 0, transform: "scale(.85)" }, { opacity: 1, transform: "none" }], { duration: 220, easing: "ease-out" });
      continue;
    }
    const dx = was.left - now.left, dy = was.top - now.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 320, easing: "ease-in-out" });
  }
}
