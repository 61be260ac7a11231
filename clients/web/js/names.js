// Names and words for what a view, an event or a pick mentions: ids from the game's printed parts,
// seats by their players' names, cells by row and column, and every event as a sentence (the game
// screen's own `events`, else a plain fallback that still names things, never shows an id).

import { humanize } from "./ui.js";
import { byLanguage, listWords as joined, phrasebook, term, lang } from "./words.js";

// The words of names and fallbacks (kept together for translation; each event's sentence in a
// language other than English is the server's catalog's log line, see describeEvent).
const WORDS = byLanguage({
  en: {
    levels: { beginner: "beginner", casual: "casual", skilled: "skilled", expert: "expert", random: "random", greedy: "greedy", strong: "strong" },
    none: "none",
    nothing: "nothing",
    cell: (row, column) => `row ${row}, column ${column}`,
    player: (n) => `Player ${n}`,
    botSeat: (bot, n) => `${bot.charAt(0).toUpperCase()}${bot.slice(1)} bot ${n}`,
    seat: (n) => `Seat ${n}`,
    seatOf: (name, n) => `${name} (seat ${n})`,
    botTitle: (bot, level) => `a ${bot} bot${level ? ` (level ${level})` : ""}`,
    bot: "bot",
    botLevel: (level) => `bot, level ${level}`,
  },
  pt: {
    levels: { beginner: "principiante", casual: "casual", skilled: "hábil", expert: "especialista", random: "aleatório", greedy: "ganancioso", strong: "forte" },
    none: "nenhum",
    nothing: "nada",
    cell: (row, column) => `linha ${row}, coluna ${column}`,
    player: (n) => `Jogador ${n}`,
    botSeat: (bot, n) => `Bot ${bot} ${n}`,
    seat: (n) => `Lugar ${n}`,
    seatOf: (name, n) => `${name} (lugar ${n})`,
    botTitle: (bot, level) => `um bot ${bot}${level ? ` (nível ${level})` : ""}`,
    bot: "bot",
    botLevel: (level) => `bot, nível ${level}`,
  },
  gl: {
    levels: { beginner: "principiante", casual: "casual", skilled: "hábil", expert: "experto", random: "aleatorio", greedy: "cobizoso", strong: "forte" },
    none: "ningún",
    nothing: "nada",
    cell: (row, column) => `fila ${row}, columna ${column}`,
    player: (n) => `Xogador ${n}`,
    botSeat: (bot, n) => `Bot ${bot} ${n}`,
    seat: (n) => `Posto ${n}`,
    seatOf: (name, n) => `${name} (posto ${n})`,
    botTitle: (bot, level) => `un bot ${bot}${level ? ` (nivel ${level})` : ""}`,
    bot: "bot",
    botLevel: (level) => `bot, nivel ${level}`,
  },
  es: {
    levels: { beginner: "principiante", casual: "casual", skilled: "hábil", expert: "experto", random: "aleatorio", greedy: "codicioso", strong: "fuerte" },
    none: "ninguno",
    nothing: "nada",
    cell: (row, column) => `fila ${row}, columna ${column}`,
    player: (n) => `Jugador ${n}`,
    botSeat: (bot, n) => `Bot ${bot} ${n}`,
    seat: (n) => `Puesto ${n}`,
    seatOf: (name, n) => `${name} (puesto ${n})`,
    botTitle: (bot, level) => `un bot ${bot}${level ? ` (nivel ${level})` : ""}`,
    bot: "bot",
    botLevel: (level) => `bot, nivel ${level}`,
  },
});

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
const SEAT_FIELDS = /^(seat|target|victim|receiver|offerer|thief|giver|winner|first|turn)$/;

export function listWords(items) {
  return joined(items);
}

export function describe(value, field, names, seatName) {
  if (value === null || value === undefined) return WORDS.none;
  if (Number.isInteger(value) && SEAT_FIELDS.test(field)) return seatName(value);
  if (field === "scores" && Array.isArray(value)) return value.map((s, i) => `${seatName(i)} ${s}`).join(", ");
  if (typeof value === "string") return names.get(value) || humanize(value);
  if (isCell(value)) return WORDS.cell(value[0] + 1, value[1] + 1);
  if (Array.isArray(value)) return listWords(value.map((v) => describe(v, field, names, seatName))) || WORDS.nothing;
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${humanize(k).toLowerCase()} ${describe(v, k, names, seatName)}`).join(", ");
  return String(value);
}

// The helpers a game's event sentences use.
export function wordsFor(names, seatName, screen, comp) {
  const name = (id) => (screen.label && typeof id === "string" && screen.label("card", id, { comp, names })) || names.get(id) || humanize(id);
  return {
    seat: seatName,
    name,
    list: (ids) => listWords((ids || []).map(name)) || WORDS.nothing,
    cell: (c) => WORDS.cell(c[0] + 1, c[1] + 1),
    colour: (c) => (screen.label && screen.label("colour", c, { comp, names })) || c,
    scores: (scores) => (scores || []).map((s, i) => `${seatName(i)} ${s}`).join(", "),
    command: (c) => describeCommand(c, names, seatName),
  };
}

// The table's own facts (docs/table-services.md), in words; null: nothing a person needs to read.
const TABLE = {
  TableOpened: (e) => `the table opened for ${e.players} players`,
  SeatTaken: (e, w) => `${e.name || w.seat(e.seat)}${e.bot ? " (a bot)" : ""} sat down at seat ${e.seat + 1}`,
  SeatResigned: (e, w) => `${w.seat(e.seat)} ${e.reason === "removed" ? "was removed by the server's operator" : "left the game"}${e.bot ? "; a bot plays on" : ""}`,
  TableCancelled: (e) => (e.by === "operator" ? "the server's operator ended the table" : "the table was called off"),
  RematchOpened: () => "a rematch was opened",
  TimeRanOut: (e, w) => `${w.seat(e.seat)} ran out of time`,
  TimeExtended: (e, w) => `${w.seat(e.by)} chose to wait for ${w.seat(e.seat)}`,
  SeatOffered: (e, w) => `${w.seat(e.by)} offered ${w.seat(e.seat)}'s seat to a newcomer`,
  SeatTakenOver: (e, w) => `${e.name || w.seat(e.seat)} took over seat ${e.seat + 1}`,
  StepsUndone: (e, w) => `${w.seat(e.seat)} took back their last step`,
  // the chat's facts, as the replay viewer tells them (the table shows them in its chat panel)
  MessageSaid: (e, w) => {
    if (e.removed === "hidden") return "a message was hidden";
    if (e.removed) return "a private message";
    const who = Number.isInteger(e.seat) ? w.seat(e.seat) : "a spectator";
    return Number.isInteger(e.to) ? `${who} (to ${w.seat(e.to)}): ${e.text}` : `${who}: ${e.text}`;
  },
  HidingAsked: (e, w) => `${w.seat(e.seat)} asked to hide the message of version ${e.version}`,
  MessageHidden: (e) => (e.by === "operator" ? `an operator hid the message of version ${e.version}` : `the table hid the message of version ${e.version}`),
  SeatMuted: (e, w) => (e.muted === false ? `${w.seat(e.seat)} reads ${w.seat(e.other)} again` : `${w.seat(e.seat)} muted ${w.seat(e.other)}`),
  Undoable: () => null,
  ClockTicked: () => null,
};

// The seat an event is the act of (null: the game's own doing).
export function actorOf(ev) {
  for (const f of ["seat", "offerer", "thief", "giver"]) if (Number.isInteger(ev[f])) return ev[f];
  return null;
}

// One event as a sentence, or null when it is bookkeeping nobody reads (shuffles, markers).
export function describeEvent(ev, names, seatName, screen = {}, comp = {}) {
  if ((ev.type === "SeatTaken" || ev.type === "SeatTakenOver") && ev.name && Number.isInteger(ev.seat)) {
    ev = { ...ev, name: eventName(ev.seat, ev.name, ev.type === "SeatTaken" ? ev.bot : null) };
  }
  const w = wordsFor(names, seatName, screen, comp);
  const own = (screen.events && screen.events[ev.type]) || TABLE[ev.type];
  // in another language than English, the server's catalog's line (docs/i18n.md), where the
  // screen tells the event at all (its bookkeeping stays untold)
  const book = phrasebook(screen.game || null, seatName, names);
  if (book && book.has(ev.type) && (!own || own(ev, w))) return book.event(ev);
  if (own) {
    const text = own(ev, w);
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : null;
  }
  const parts = Object.entries(ev).filter(([k]) => k !== "type")
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${describe(v, k, names, seatName)}`);
  return `${humanize(ev.type)}${parts.length ? ": " + parts.join(", ") : ""}`;
}

// One command, readably (the confirm button says what it sends).
export function describeCommand(cmd, names, seatName, game = null) {
  const fields = Object.entries(cmd).filter(([k]) => k !== "type");
  const words = (lang() !== "en" && term(game, "move", cmd.type)) || humanize(cmd.type);
  if (!fields.length) return words;
  const field = (k) => (lang() !== "en" && term(game, "field", k)) || humanize(k).toLowerCase();
  return words + ": " + fields.map(([k, v]) => (fields.length === 1 ? "" : field(k) + " ")
    + describe(v, k, names, seatName)).join(", ");
}

// The index, asked first, then the game screen's own names for a card it draws (I Love Portugal's
// backpacks and shop cards have no `name` in the printed parts): what `names.get` answers everywhere.
export function richNames(base, screen, comp) {
  return {
    get(key) {
      const known = base.get(key);
      if (known !== undefined) return known;
      if (typeof key === "string" && screen.label && !key.includes(":")) {
        const own = screen.label("card", key, { comp, names: base });
        if (own) return own;
      }
      return undefined;
    },
    has(key) { return this.get(key) !== undefined; },
    keys() { return base.keys(); },
  };
}

// The name the server gives a seat taken without one, in English as it stores it (domain/table/state.py's
// default_name): "Player 2", "Casual bot 3" (the bot's name, without its level, capitalised).
export function storedDefault(seat, bot = null) {
  if (!bot) return `Player ${seat + 1}`;
  const kind = String(bot).split(":")[0];
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} bot ${seat + 1}`;
}

// A seat's default name in the reader's language: "Xogador 2", "Bot casual 3" (the bot named by the
// catalogs' word for it, else this module's).
export function defaultSeatName(seat, bot = null) {
  if (!bot) return WORDS.player(seat + 1);
  const kind = String(bot).split(":")[0];
  return WORDS.botSeat((lang() !== "en" && term(null, "bot", kind)) || WORDS.levels[kind] || kind, seat + 1);
}

// A seat's name as the reader reads it: its own, or (`named: false`, docs/i18n.md) its default one in
// the reader's language. A default-named seat a bot holds may have been a person's (who left, a bot
// playing on): its stored name tells.
export function ownName(s) {
  if (s.named !== false) return s.name;
  return defaultSeatName(s.seat, s.bot && s.name !== storedDefault(s.seat) ? s.bot : null);
}

// An event's `name` (SeatTaken, SeatTakenOver: no `named` there) as the reader reads it: the default
// one, which the name is when it is the stored default, in the reader's language.
export function eventName(seat, name, bot = null) {
  return name && name === storedDefault(seat, bot) ? defaultSeatName(seat, bot) : name;
}

// A seat's name as the table shows it: the player's name, with the seat's number when two seats
// share one (bots seated before bots had names of their own were all "Random bot").
export function seatNamer(seats) {
  return (seat) => {
    const s = seats && seats[seat];
    if (!s) return WORDS.seat(seat + 1);
    const name = ownName({ seat, ...s });
    const same = seats.filter((x) => x && x.name === s.name).length;
    return same > 1 ? WORDS.seatOf(name, seat + 1) : name;
  };
}

// The named levels of the server's bots, weakest first (docs/bots.md), and the random bot.
export const BOT_LEVELS = [["beginner", "beginner"], ["casual", "casual"], ["skilled", "skilled"], ["expert", "expert"], ["random", "random"]];

// A bot level's name (BOT_LEVELS' labels) in the reader's language.
export function levelName(label) {
  return WORDS.levels[label] || label;
}

// A bot kind as the table names it: "greedy" -> "a greedy bot", "strong:2" -> "a strong bot (level 2)".
export function botTitle(kind) {
  const [bot, level] = String(kind || "greedy").split(":");
  return WORDS.botTitle((lang() !== "en" && term(null, "bot", bot)) || bot, level);
}

// What a seat's chip says of the bot that holds it: "bot", or "bot, level 5" for a bot with levels.
export function botNote(kind) {
  const level = String(kind || "").split(":")[1];
  return level ? WORDS.botLevel(level) : WORDS.bot;
}
