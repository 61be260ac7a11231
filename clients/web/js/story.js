// What happened, as a player tells it: the events of the feed grouped by turn, one line a move,
// and each seat's last move (the lines of the last turn it acted in). The same events give the same
// story whether they came one update at a time or all at once in a catch-up after a reload.
//
// A turn opens with the game's turn event (Vilar's TurnStarted, Portugal's TurnPassedTo, Itchy
// Feet's TravelTurnBegan, Miss Liz's ParkTurnBegan), which is no line itself: the turn's group is
// headed by its player's name. Another seat's answer during that turn (a trade's, a reaction) is a
// line of the same turn. Moves outside turns (colours, themes, entrances) group by who made them.
// Facts between turns (a round's start, income, the end) stand in a group of their own. Deals,
// shuffles and markers are no line. A screen may join a move's steps into one line (Portugal's
// walk, circle by circle, is one walk): `screen.join[type](events, words)`.

import { describeEvent, actorOf, wordsFor } from "./names.js";

const KEEP = 200; // groups kept for the log

const TURN_STARTS = new Set(["TurnStarted", "TurnPassedTo", "TravelTurnBegan", "ParkTurnBegan"]);
// Bookkeeping: nobody reads these as moves (what they change shows on the table).
const SILENT = new Set(["CardsDealt", "HandDrawn", "StartingHandDealt", "PlanningCardsDealt", "DrawPileShuffled",
  "PassportReceived", "Undoable", "ClockTicked", "ReactionWindowClosed", "TurnEnded", "DeckShuffled",
  "BonusDeckShuffled", "ItchyDeckShuffled", "PlanningDeckShuffled",
  // fair play's facts: the table shows them as its "deal verified" mark (deal.js), not as moves
  "DeckCommitted", "CardsOpened", "SeedRevealed",
  // the chat's facts: the chat panel shows them (chat.js), they are no move
  "MessageSaid", "HidingAsked", "MessageHidden", "SeatMuted"]);
// The table's own facts and the game's facts between turns: a group of their own.
const BETWEEN = new Set(["TableOpened", "SeatTaken", "SeatResigned", "TableCancelled", "RematchOpened", "TimeRanOut",
  "TimeExtended", "SeatOffered", "SeatTakenOver",
  "FirstPlayerDrawn", "FirstPlayerCardGiven", "FirstTravellerChosen", "StartingPlayerDrawn", "BonusRowRevealed",
  "CharactersDealt", "CountriesDealt", "RatingTokensPlaced", "TilesRemovedUnseen", "ProjectPilesDealt",
  "ParkRoundBegan", "ParkRoundEnded", "ProjectsLaidOut", "IncomeCollected", "GameEnded", "ParkGameEnded",
  "PhotosStopped", "FinalScoresCounted"]);

// Every id and cell an event names, as the data-key of what the table draws for it.
export function keysOf(ev, seat) {
  const keys = new Set();
  const walk = (v) => {
    if (typeof v === "string") for (const k of ["card", "circle", "country", "tile"]) keys.add(`${k}:${v}`);
    else if (Array.isArray(v) && v.length === 2 && v.every(Number.isInteger) && seat !== null) keys.add(`cell:${seat}:${v[0]},${v[1]}`);
    else if (Array.isArray(v)) v.forEach(walk);
  };
  for (const [k, v] of Object.entries(ev)) if (k !== "type") walk(v);
  return keys;
}

export class Story {
  // words: {names, seatName, screen, comp}
  constructor(words) {
    this.words = words;
    this.reset();
  }

  reset() {
    this.groups = []; // {seat (null: between turns), turn (opened by a turn event), lines: [{first, version, seat, type, events, text, keys}]}
    this.count = 0; // lines ever told (the log's numbering)
  }

  // One event of the feed, in order; the line it made or grew (null: none).
  see(version, ev) {
    if (TURN_STARTS.has(ev.type)) {
      this.groups.push({ seat: ev.seat, turn: true, lines: [] });
      this.trim();
      return null;
    }
    if (SILENT.has(ev.type)) return null;
    const { names, seatName, screen, comp } = this.words;
    const text = describeEvent(ev, names, seatName, screen, comp);
    if (!text) return null;
    const actor = BETWEEN.has(ev.type) ? null : actorOf(ev);
    const group = this.groupFor(ev.type, actor);
    const before = group.lines[group.lines.length - 1];
    const join = screen.join && screen.join[ev.type];
    if (join && before && before.type === ev.type && before.seat === actor) { // the same move goes on
      before.events.push(ev);
      before.version = version;
      before.text = screen.game // the catalog's lines (another language than English), one after the other
        ? before.events.map((e) => describeEvent(e, names, seatName, screen, comp)).filter(Boolean).join(" ")
        : capital(join(before.events, wordsFor(names, seatName, screen, comp)));
      for (const k of keysOf(ev, actor)) before.keys.add(k);
      return before;
    }
    const line = { first: version, version, seat: actor, type: ev.type, events: [ev], text, keys: keysOf(ev, actor) };
    group.lines.push(line);
    this.count += 1;
    return line;
  }

  groupFor(type, actor) {
    const last = this.groups[this.groups.length - 1];
    if (actor === null) {
      if (BETWEEN.has(type) || !last) return this.open(null, last);
      return last; // the game's own doing within a turn (a bonus card turned up)
    }
    if (last && (last.turn || last.seat === actor)) return last;
    return this.open(actor, last);
  }

  open(seat, last) {
    if (last && !last.turn && last.seat === seat) return last;
    const group = { seat, turn: false, lines: [] };
    this.groups.push(group);
    this.trim();
    return group;
  }

  trim() {
    if (this.groups.length > KEEP) this.groups.splice(0, this.groups.length - KEEP);
  }

  // Each seat's last move: its own lines of the last group it acted in, and what they touched.
  last() {
    const found = new Map();
    for (let i = this.groups.length - 1; i >= 0; i--) {
      const g = this.groups[i];
      for (const seat of new Set(g.lines.map((l) => l.seat))) {
        if (seat === null || found.has(seat)) continue;
        const lines = g.lines.filter((l) => l.seat === seat);
        const keys = new Set(lines.flatMap((l) => [...l.keys]));
        const texts = lines.map((l) => this.bare(l.text, seat)); // the seat's panel says whose they are
        found.set(seat, { texts, text: clauses(texts), keys });
      }
    }
    return found;
  }

  // A line of a seat's own, without its name in front ("drew a card"), where it stands under it.
  bare(text, seat) {
    const name = this.words.seatName(seat);
    return text.startsWith(name + " ") ? text.slice(name.length + 1) : text;
  }

  // The groups that have a line, latest first (the log shows the newest turns).
  told(limit) {
    return this.groups.filter((g) => g.lines.length).slice(-limit).reverse();
  }
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// Several lines of one move as one sentence: "draws a card; places two cards", and a catalog's
// sentences ("tira uma carta do baralho.") the same, with one full stop at the end.
function clauses(texts) {
  if (texts.length < 2) return texts.join("");
  const stop = /\.\s*$/;
  return texts.map((t) => t.replace(stop, "")).join("; ") + (stop.test(texts[texts.length - 1]) ? "." : "");
}
