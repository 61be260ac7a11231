// The pseudo-locale (docs/i18n.md, "The pseudo-locale"): the page's English with every letter of its
// own words accented and each message wrapped in ⟦ ⟧, so that a word the page shows without
// going through its words (a string written in place, a code shown raw, a server's English
// sentence) stands out as plain ASCII. What a message is given to say (a player's name, a card's
// printed name, a number) is left as it is.

const ACCENTED = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [c, [..."áƀçđéƒĝĥíĵķĺɱñóþɋŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞɊŔŠŢÚṼŴẊÝŽ"][i]]),
);

const accent = (text) => text.replace(/[A-Za-z]/g, (c) => ACCENTED[c]);

// "  Send: " -> "  ⟦Šéñđ:⟧ ": the spaces stay outside, where the page's layout put them.
function wrap(text) {
  const [, before, core, after] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  return core ? `${before}⟦${core}⟧${after}` : text;
}

// Accent `text` but for the stretches that are one of `kept` (what the message was given to say).
function accentAround(text, kept) {
  const words = [...new Set(kept.filter((k) => k.length > 0))].sort((a, b) => b.length - a.length);
  if (!words.length) return accent(text);
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  let out = "";
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    out += accent(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + accent(text.slice(at));
}

// The strings a call was given (a name, a list of names), kept as they are in what it says.
const given = (args) => args.flatMap((a) => (typeof a === "string" ? [a] : Array.isArray(a) ? a.filter((x) => typeof x === "string") : []));

// A module's word in the pseudo-locale: a string, a function that makes one, a list or a table of them.
export function pseudoValue(value) {
  if (typeof value === "string") return wrap(accent(value));
  if (typeof value === "function") {
    return (...args) => {
      const said = value(...args);
      if (typeof said === "string") return wrap(accentAround(said, given(args)));
      if (Array.isArray(said)) return said.map((x) => (typeof x === "string" ? wrap(accentAround(x, given(args))) : x));
      return said;
    };
  }
  if (Array.isArray(value)) return value.map(pseudoValue);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pseudoValue(v)]));
  }
  return value;
}

// Text the page did not write but is right to show (a date by `Intl`): marked as read.
export const pseudoText = (text) => wrap(accent(text));

// A catalog's message (docs/i18n.md, the message format) in the pseudo-locale: its own text accented
// and the whole wrapped; arguments, their kinds and the case names of `plural` and `select` untouched.
export function pseudoMessage(text, parse) {
  let nodes;
  try {
    nodes = parse(text);
  } catch {
    return wrap(accent(text));
  }
  return wrap(nodes.map(written).join(""));
}

function written(node) {
  if (typeof node === "string") return accent(node);
  if (node.hash) return "#";
  if (node.cases) {
    const cases = Object.entries(node.cases).map(([key, body]) => `${key} {${body.map(written).join("")}}`);
    return `{${node.name}, ${node.kind}, ${cases.join(" ")}}`;
  }
  if (!node.kind) return `{${node.name}}`;
  return node.style ? `{${node.name}, ${node.kind}, ${node.style}}` : `{${node.name}, ${node.kind}}`;
}

// Every message of the server's catalogs (`GET /words/en`) in the pseudo-locale.
export function pseudoCatalogs(catalogs, parse) {
  const walk = (x) => {
    if (typeof x === "string") return pseudoMessage(x, parse);
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v)]));
    return x;
  };
  return { ...walk(catalogs), lang: "qps" };
}
