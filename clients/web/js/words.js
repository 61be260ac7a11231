// The page's words in the reader's language (docs/web.md, "Languages"). The language is the one the
// server writes its `message` in (player.js `readerLanguage`: the player's own, else the browser's
// first the server speaks, else English). Two sources:
//
// - each module's own words, kept together as `byLanguage({en: {...}, pt: {...}, gl: {...}, es: {...}})`:
//   a key a language lacks is read in English;
// - the server's catalogs (`GET /api/v1/words/{lang}`, docs/i18n.md), fetched once at start: the games'
//   terms (moves, fields, what a seat is awaited for, each game's printed words) and the log's lines,
//   rendered here with the same subset of ICU MessageFormat the server and the Python client use.
//
// Numbers, lists, euros and dates are written with `Intl` in the reader's locale.

import { readerLanguage } from "./player.js";
import { get } from "./api.js";
import { pseudoCatalogs, pseudoText, pseudoValue } from "./pseudo.js";

export const LANGUAGES = ["en", "pt", "gl", "es"];
const LOCALES = { en: "en", pt: "pt-PT", gl: "gl", es: "es", qps: "en" };

// The pseudo-locale, for finding words the page shows untranslated (docs/i18n.md): `qps`, set in
// this browser by `localStorage["ludoteca.pseudo"] = "1"`, read once as the page starts.
const PSEUDO = (() => {
  try { return localStorage.getItem("ludoteca.pseudo") === "1"; } catch { return false; }
})();

export const lang = () => (PSEUDO ? "qps" : LANGUAGES.includes(readerLanguage()) ? readerLanguage() : "en");
export const locale = () => LOCALES[lang()] || "en";

// A module's words by language, read as one object: `WORDS.send` is the reader's language's `send`
// (else English's), looked up at the time it is read.
export function byLanguage(table) {
  const pseudo = new Map();
  return new Proxy({}, {
    get(_, key) {
      if (PSEUDO) {
        if (!pseudo.has(key)) pseudo.set(key, pseudoValue(table.en[key]));
        return pseudo.get(key);
      }
      const own = table[lang()];
      return own && key in own ? own[key] : table.en[key];
    },
    has(_, key) { return key in table.en; },
  });
}

// "Ana, Rui and Eva", "Ana, Rui e Eva".
export function listWords(items) {
  const xs = items.filter((x) => x !== null && x !== undefined && x !== "").map(String);
  if (xs.length <= 1) return xs.join("");
  if (lang() === "en") return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
  if (PSEUDO) return xs.slice(0, -1).join(", ") + ` ${pseudoText("and")} ` + xs[xs.length - 1];
  return new Intl.ListFormat(locale(), { type: "conjunction" }).format(xs);
}

export const number = (n) => new Intl.NumberFormat(locale()).format(n);
export const euros = (n) => new Intl.NumberFormat(locale(), { style: "currency", currency: "EUR", maximumFractionDigits: 0 }).format(n);
// Intl's words (a month's name) are the locale's: marked as read in the pseudo-locale.
export const date = (ms, options = { dateStyle: "medium", timeStyle: "short" }) => {
  const said = new Intl.DateTimeFormat(locale(), options).format(new Date(ms));
  return PSEUDO ? pseudoText(said) : said;
};
export const pluralOf = (n) => new Intl.PluralRules(locale()).select(n);

// The server's catalogs in the reader's language: {lang, table: {refusals, terms, log}, games: {...}}.
let catalogs = null;

export async function loadWords() {
  document.documentElement.lang = PSEUDO ? "en-XA" : lang();
  if (catalogs && catalogs.lang === lang()) return catalogs;
  try {
    catalogs = PSEUDO ? pseudoCatalogs(await get("/words/en"), parse) : await get(`/words/${lang()}`);
  } catch {
    catalogs = null; // the page's own words still stand; the log and terms read in English
  }
  return catalogs;
}

// A game's parts laid over the table's (docs/i18n.md, "How a frontend author renders a code").
const laid = new WeakMap(); // catalogs -> game -> its parts, laid once
function parts(game) {
  if (!catalogs || catalogs.lang !== lang()) return null;
  if (!laid.has(catalogs)) laid.set(catalogs, new Map());
  const known = laid.get(catalogs);
  if (!known.has(game)) {
    const own = (catalogs.games && catalogs.games[game]) || {};
    const table = catalogs.table || {};
    known.set(game, {
      terms: { ...(table.terms || {}), ...(own.terms || {}) },
      log: { ...(table.log || {}), ...(own.log || {}) },
      refusals: { ...(table.refusals || {}), ...(own.refusals || {}) },
    });
  }
  return known.get(game);
}

// The catalog's term `kind.value` for a game, or null when the catalogs do not have it.
export function term(game, kind, value) {
  const p = parts(game);
  const t = p && p.terms[`${kind}.${value}`];
  return t === undefined || t === null ? null : t;
}

// A game's printed parts (`GET /games/catalog/{game}` components) with each object's `name` in the
// reader's language where the catalog has a term `name.<id>` (proper names have none: they stay as
// printed). A copy: the fetched parts stay as they came.
export function localComponents(game, comp) {
  const p = lang() === "en" ? null : parts(game);
  if (!p || !comp) return comp;
  const walk = (x) => {
    if (Array.isArray(x)) return x.map(walk);
    if (!x || typeof x !== "object") return x;
    const out = Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v)]));
    if (typeof x.id === "string" && typeof x.name === "string" && p.terms[`name.${x.id}`]) out.name = p.terms[`name.${x.id}`];
    return out;
  };
  return walk(comp);
}

// One of a game's own words (its catalog's `word.<key>`, the printed rules' word) in the reader's
// language, else `english`; `capital`: with a capital letter, as a heading.
export function gameWord(game, key, english, capital = false) {
  const own = (lang() !== "en" && term(game, "word", key)) || english;
  return capital ? own.charAt(0).toUpperCase() + own.slice(1) : own;
}

// A game's title as its catalog names it in the reader's language (Miss Liz's parks have a
// Portuguese title of their own), else the catalog entry's.
export function titleOf(game, title) {
  return (lang() !== "en" && term(game, "game", game)) || title || game;
}

// One game's phrasebook in the reader's language, or null in English or without catalogs (the
// page's own English sentences stand then). `seatName(seat)`, `names.get(id)`: the table's.
export function phrasebook(game, seatName, names) {
  if (lang() === "en") return null;
  const p = parts(game);
  if (!p) return null;
  const f = new Formatter(p.terms, seatName, names);
  return {
    event(ev) {
      const line = p.log[ev.type];
      if (line === undefined) return null;
      // a player's seat keeps no name in the stream: it is the player's now
      const params = ev.type === "SeatTaken" ? { ...ev, name: ev.name || f.seat(ev.seat) } : ev;
      return f.format(line, params);
    },
    term: (kind, value) => f.term(kind, value),
    has: (type) => p.log[type] !== undefined,
  };
}

// The message format (docs/i18n.md): {name}, {name, number}, {name, plural, ...}, {name, select, ...},
// {name, list}, {name, term, kind}, {name, seat}; `#` in a plural is its number.
const HASH = { hash: true };
const cache = new Map();

export function parse(text) {
  if (!cache.has(text)) {
    const [nodes, end] = parseAt(text, 0, false, false);
    if (end !== text.length) throw new Error(`unmatched } in ${text}`);
    cache.set(text, nodes);
  }
  return cache.get(text);
}

function parseAt(text, at, inPlural, nested) {
  const nodes = [];
  let plain = "";
  while (at < text.length) {
    const ch = text[at];
    if (ch === "}") {
      if (!nested) throw new Error(`unmatched } in ${text}`);
      break;
    }
    if (ch === "#" && inPlural) {
      if (plain) nodes.push(plain);
      nodes.push(HASH);
      plain = "";
      at += 1;
    } else if (ch === "{") {
      if (plain) nodes.push(plain);
      plain = "";
      const [node, next] = argument(text, at + 1, inPlural);
      nodes.push(node);
      at = next;
    } else {
      plain += ch;
      at += 1;
    }
  }
  if (plain) nodes.push(plain);
  return [nodes, at];
}

const skip = (text, at) => { while (at < text.length && /\s/.test(text[at])) at += 1; return at; };
function word(text, at) {
  const start = at;
  while (at < text.length && !/[,{}\s]/.test(text[at])) at += 1;
  return [text.slice(start, at), at];
}

function argument(text, at, inPlural) {
  let name, kind, style = "";
  [name, at] = word(text, skip(text, at));
  at = skip(text, at);
  if (text[at] === "}") return [{ name, kind: "" }, at + 1];
  [kind, at] = word(text, skip(text, at + 1));
  at = skip(text, at);
  if (kind === "plural" || kind === "select") {
    const cases = {};
    at = skip(text, at + 1);
    while (at < text.length && text[at] !== "}") {
      let key;
      [key, at] = word(text, at);
      at = skip(text, at);
      const [body, next] = parseAt(text, at + 1, kind === "plural" || inPlural, true);
      cases[key] = body;
      at = skip(text, next + 1);
    }
    return [{ name, kind, cases }, at + 1];
  }
  if (text[at] === ",") {
    [style, at] = word(text, skip(text, at + 1));
    at = skip(text, at);
  }
  return [{ name, kind, style }, at + 1];
}

class Formatter {
  constructor(terms, seatName, names) {
    this.terms = terms;
    this.seatName = seatName;
    this.names = names;
  }

  format(message, params = {}) {
    return this.render(parse(message), params, null);
  }

  render(nodes, params, count) {
    let out = "";
    for (const node of nodes) {
      if (typeof node === "string") out += node;
      else if (node === HASH) out += this.value(count);
      else if (node.cases) {
        const value = params[node.name];
        const n = Array.isArray(value) ? value.length : value;
        out += this.render(this.pick(node, value), params, node.kind === "plural" ? n : count);
      } else out += this.arg(node, params);
    }
    return out;
  }

  pick(choice, value) {
    const cases = choice.cases;
    if (choice.kind === "plural" && Array.isArray(value)) value = value.length;
    if (choice.kind === "plural" && typeof value === "number") {
      if (`=${value}` in cases) return cases[`=${value}`];
      return cases[new Intl.PluralRules(locale()).select(Math.abs(value))] || cases.other;
    }
    const key = value === null || value === undefined ? "null" : String(value);
    return cases[key] || cases.other;
  }

  arg(node, params) {
    if (!(node.name in params)) return `{${node.name}}`;
    const value = params[node.name];
    if (node.kind === "term") {
      if (Array.isArray(value)) return listWords(value.map((v) => this.term(node.style, v)));
      return this.term(node.style, value);
    }
    if (node.kind === "seat") return this.seat(value);
    if (node.kind === "list" && Array.isArray(value)) return listWords(value.map((v) => this.value(v)));
    return this.value(value, node.kind === "number");
  }

  term(kind, value) {
    const own = this.terms[`${kind}.${value}`];
    if (own !== undefined) return own;
    if (kind === "name" && this.names && typeof value === "string") {
      const named = this.names.get(value);
      if (named) return named;
    }
    return this.value(value);
  }

  seat(seat) {
    if (Number.isInteger(seat) && this.seatName) return this.seatName(seat);
    if (Number.isInteger(seat) && this.terms.seat) return this.format(this.terms.seat, { number: seat + 1 });
    return this.value(seat);
  }

  value(v, grouped = false) {
    if (v === null || v === undefined) return "";
    if (typeof v === "boolean") return String(v);
    if (Number.isInteger(v) && !grouped) return String(v);
    if (typeof v === "number") return number(v);
    if (Array.isArray(v)) return v.map((x) => this.value(x)).join(", ");
    return String(v);
  }
}
