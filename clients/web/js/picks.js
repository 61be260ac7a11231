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
//
// At the start of a move every move type's next step is asked for at once (the look-ahead), and
// its options are targets on the table too: a click on a circle walks there, a click on a tile of
// the projects board buys it, with no "Move tourist" or "Buy tile" to pick first. A move type is
// in the chooser only where the table cannot say it (a number, a move of no further pick, an
// option drawn nowhere). A target that several moves share (a seat to trade with or steal from)
// asks which, in the panel. A target carries its paths: `data-paths`, the picks it makes (JSON).
//
// Dragging (drag.js) carries a target onto a place that says what it takes (`data-drop`: "field",
// "Move.field" or "Move", several space-separated): a card of the hand onto the centre, a tile onto
// a cell of one's park. A drop the move cannot take yet (the personal area's card before the
// centre's) is held and picked when its step comes; the place's own `data-pick` is picked when
// the move that follows offers it (the cell a bought tile is built on).

import { h, humanize, announce } from "./ui.js";
import { byLanguage, lang, term } from "./words.js";
import { morph } from "./morph.js";
import { dragging } from "./drag.js";

const isCell = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);

export const valueKey = (value) => (Array.isArray(value) ? value.join(",") : String(value));
export const pickKey = (kind, value) => `${kind}:${valueKey(value)}`;
// The keys a thing of the table is picked by (its `data-pick`, space-separated), none when it has none.
const pickKeys = (el) => (el.getAttribute("data-pick") || "").split(/\s+/).filter(Boolean);
export const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The things an option names, as [kind, value] pairs: one (a card, a seat, a cell), or none for null.
export function things(kind, value) {
  return value === null || value === undefined ? [] : [[kind, value]];
}

// Words for one value of a kind: the game screen's own, else names from the printed parts.
export function labelOf(kind, value, ctx) {
  const own = ctx.screen.label && ctx.screen.label(kind, value, ctx);
  if (own) return own;
  if (value === null || value === undefined) return WORDS.none;
  if (kind === "move") return (lang() !== "en" && ctx.screen.game && term(ctx.screen.game, "move", value)) || humanize(value);
  if (kind === "seat") return ctx.seatName(value);
  if (kind === "number") return String(value);
  if (kind === "column") return WORDS.column(value + 1);
  if (isCell(value)) return WORDS.cell(value[0] + 1, value[1] + 1);
  return ctx.names.get(`${kind}:${value}`) || ctx.names.get(String(value)) || humanize(value);
}

const pickOf = (o) => ({ field: o.field, value: o.value, kind: o.kind });
// What the panel says (kept together for translation).
const WORDS = byLanguage({
  en: {
    // what a pick on the table is, when the game's catalog has no word of its own
    kinds: { card: "card", cell: "space", column: "column", number: "number", seat: "player", theme: "theme", tile: "tile", circle: "circle", colour: "colour", region: "region", pile: "pile", country: "country", backpack: "backpack", photo: "photo", object: "object", building: "building", move: "move" },
    nothing: "Nothing to do right now.",
    sending: "Sending your move…",
    sent: "Sent; the table moves on…",
    yourMove: "Your move",
    youMay: "You may ",
    notNow: (name) => (name ? `${name} cannot be picked now.` : "That cannot be picked now."),
    insteadMay: (moves) => `You may ${moves}: what you may pick is lit.`,
    insteadPick: (fields) => `Now pick ${fields}: what you may pick is lit.`,
    insteadSend: "Your move is ready to send.",
    soFar: "So far: ",
    pickOnTable: "Pick on the table: ",
    or: " or ",
    which: "Which move?",
    move: "Move",
    send: "Send: ",
    back: "Back",
    cancel: "Cancel (Esc)",
    movedOn: "The table moved on; your move was dropped",
    refusedPick: "That pick was refused",
    nothingMore: "Nothing more can be picked for this move.",
    thatMove: "That move",
    sends: "sends ",
    none: "none",
    column: (n) => `column ${n}`,
    cell: (row, column) => `row ${row}, column ${column}`,
  },
  pt: {
    // what a pick on the table is, when the game's catalog has no word of its own
    kinds: { card: "carta", cell: "espaço", column: "coluna", number: "número", seat: "jogador", theme: "tema", tile: "peça", circle: "círculo", colour: "cor", region: "região", pile: "pilha", country: "país", backpack: "mochila", photo: "foto", object: "objeto", building: "edifício", move: "jogada" },
    nothing: "Nada a fazer agora.",
    sending: "A enviar a sua jogada…",
    sent: "Enviada; a mesa continua…",
    yourMove: "A sua jogada",
    youMay: "Pode ",
    notNow: (name) => (name ? `${name} não pode ser escolhido agora.` : "Isso não pode ser escolhido agora."),
    insteadMay: (moves) => `Pode ${moves}: o que pode escolher está iluminado.`,
    insteadPick: (fields) => `Escolha agora ${fields}: o que pode escolher está iluminado.`,
    insteadSend: "A sua jogada está pronta para enviar.",
    soFar: "Até agora: ",
    pickOnTable: "Escolha na mesa: ",
    or: " ou ",
    which: "Que jogada?",
    move: "Jogada",
    send: "Enviar: ",
    back: "Voltar",
    cancel: "Cancelar (Esc)",
    movedOn: "A mesa avançou; a sua jogada foi descartada",
    refusedPick: "Essa escolha foi recusada",
    nothingMore: "Não há mais nada a escolher para esta jogada.",
    thatMove: "Essa jogada",
    sends: "envia ",
    none: "nenhum",
    column: (n) => `coluna ${n}`,
    cell: (row, column) => `linha ${row}, coluna ${column}`,
  },
  gl: {
    // what a pick on the table is, when the game's catalog has no word of its own
    kinds: { card: "carta", cell: "espazo", column: "columna", number: "número", seat: "xogador", theme: "tema", tile: "peza", circle: "círculo", colour: "cor", region: "rexión", pile: "montón", country: "país", backpack: "mochila", photo: "foto", object: "obxecto", building: "edificio", move: "xogada" },
    nothing: "Nada que facer agora.",
    sending: "Enviando a túa xogada…",
    sent: "Enviada; a mesa segue…",
    yourMove: "A túa xogada",
    youMay: "Podes ",
    notNow: (name) => (name ? `${name} non se pode escoller agora.` : "Iso non se pode escoller agora."),
    insteadMay: (moves) => `Podes ${moves}: o que podes escoller está iluminado.`,
    insteadPick: (fields) => `Escolle agora ${fields}: o que podes escoller está iluminado.`,
    insteadSend: "A túa xogada está lista para enviar.",
    soFar: "Ata agora: ",
    pickOnTable: "Escolle na mesa: ",
    or: " ou ",
    which: "Que xogada?",
    move: "Xogada",
    send: "Enviar: ",
    back: "Atrás",
    cancel: "Cancelar (Esc)",
    movedOn: "A mesa avanzou; a túa xogada descartouse",
    refusedPick: "Esa escolla foi rexeitada",
    nothingMore: "Non hai máis que escoller para esta xogada.",
    thatMove: "Esa xogada",
    sends: "envía ",
    none: "ningún",
    column: (n) => `columna ${n}`,
    cell: (row, column) => `fila ${row}, columna ${column}`,
  },
  es: {
    // what a pick on the table is, when the game's catalog has no word of its own
    kinds: { card: "carta", cell: "espacio", column: "columna", number: "número", seat: "jugador", theme: "tema", tile: "loseta", circle: "círculo", colour: "color", region: "región", pile: "montón", country: "país", backpack: "mochila", photo: "foto", object: "objeto", building: "edificio", move: "jugada" },
    nothing: "Nada que hacer ahora.",
    sending: "Enviando tu jugada…",
    sent: "Enviada; la mesa sigue…",
    yourMove: "Tu jugada",
    youMay: "Puedes ",
    notNow: (name) => (name ? `${name} no se puede elegir ahora.` : "Eso no se puede elegir ahora."),
    insteadMay: (moves) => `Puedes ${moves}: lo que puedes elegir está iluminado.`,
    insteadPick: (fields) => `Elige ahora ${fields}: lo que puedes elegir está iluminado.`,
    insteadSend: "Tu jugada está lista para enviar.",
    soFar: "Hasta ahora: ",
    pickOnTable: "Elige en la mesa: ",
    or: " o ",
    which: "¿Qué jugada?",
    move: "Jugada",
    send: "Enviar: ",
    back: "Atrás",
    cancel: "Cancelar (Esc)",
    movedOn: "La mesa avanzó; tu jugada se descartó",
    refusedPick: "Esa elección fue rechazada",
    nothingMore: "No hay nada más que elegir para esta jugada.",
    thatMove: "Esa jugada",
    sends: "envía ",
    none: "ninguno",
    column: (n) => `columna ${n}`,
    cell: (row, column) => `fila ${row}, columna ${column}`,
  },
});
// "a, b or c"
const orWords = (xs) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")}${WORDS.or}${xs[xs.length - 1]}`);
// A path: the picks a target makes from the step shown (a move type's, then its option's).
const pathOf = (p) => [...(p.move ? [[p.move.field, p.move.value]] : []), [p.option.field, p.option.value]];
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
    this.targets = new Map(); // element -> the paths it makes: [{move, option, version}]
    this.ahead = new Map(); // move type -> {version, step}: the look-ahead at the first step
    this.which = null; // the element whose several paths the panel asks between
    this.held = null; // a dropped pick the move cannot take yet: {field, value}
    this.follow = null; // the keys of where something was dropped, to pick in the move that follows
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
    this.which = null;
    this.held = null;
    this.follow = null;
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
    this.which = null;
    this.why = null;
    this.ahead = new Map();
    const options = optionsOf(this.step);
    const only = options.length === 1 && commandOf(this.step) === null ? options[0] : null;
    if (only && only.kind === "move" && !only.command) {
      this.auto = 1;
      return this.go([pickOf(only)], { revisit: true });
    }
    this.follow = null; // a drop's place is for a lone move that follows it, which this is not
    this.held = null;
    const types = options.filter((o) => o.field === "type" && !o.command);
    if (!types.length) return this.render();
    return this.lookAhead(types);
  }

  // Every move type's next step, asked at once; the panel waits for them (a few ms).
  async lookAhead(types) {
    const generation = ++this.generation;
    this.state = "asking";
    this.asked = [];
    this.render();
    const answers = await Promise.all(types.map((t) => this.ask(wire([pickOf(t)])).catch(() => null)));
    if (generation !== this.generation) return;
    types.forEach((t, i) => {
      const a = answers[i];
      if (a && a.version === this.version) this.ahead.set(t.value, { version: a.version, step: a.step });
    });
    this.state = "idle";
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
        this.refused(err, WORDS.movedOn);
        return this.begin();
      }
      if (revisit) { // the lone move type itself (a first step already stale): show the step as it is
        this.auto = 0;
        this.picks = [];
        this.step = this.first;
        this.version = this.firstVersion;
      } else {
        this.refused(err, WORDS.refusedPick);
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
      this.refused({ message: WORDS.nothingMore }, WORDS.thatMove);
      return this.begin();
    }
    this.render();
    this.takeHeld();
  }

  // A pick dropped before its step (held), or where a drop pointed for the move that follows
  // (follow): taken as soon as the step offers it.
  takeHeld() {
    if (this.state !== "idle") return;
    const options = optionsOf(this.step);
    if (this.held) {
      const o = options.find((x) => x.field === this.held.field && sameValue(x.value, this.held.value));
      if (o) { this.held = null; return this.choose({ move: null, option: o }); }
      if (!options.some((x) => x.field === this.held.field)) return; // not its step yet
      this.held = null; // offered no more
    }
    if (this.follow && this.picks.length <= this.auto) {
      const keys = this.follow;
      this.follow = null;
      const o = options.find((x) => this.where(x.kind, x.value).some((k) => keys.includes(k)));
      if (o) return this.choose({ move: null, option: o });
    }
  }

  // Take one path: a move type's option from the look-ahead, or an option of the step shown.
  choose(path) {
    if (this.state !== "idle") return;
    this.which = null;
    this.why = null;
    const picks = [...this.picks, ...(path.move ? [pickOf(path.move)] : []), pickOf(path.option)];
    if (path.move) this.version = path.version;
    if (path.option.command) return this.finish(path.option.command, picks);
    return this.go(picks);
  }

  // Why a thing the table draws cannot be picked now, in the panel (and said): what the move
  // waits for instead, from the step itself (the moves offered, or the fields lit now); then, for a
  // thing that stands for a command (the screen's `intent`), the rule's own reason, from the
  // refusal the server would give that command (POST /check: nothing is sent).
  // `source` says where the words come from: "step", "rule", or "asking" while the server is asked.
  async explain(el) {
    const command = this.ctx.check ? this.intentOf(el) : null;
    const why = { el, ...this.whyNot(el), source: command ? "asking" : "step" };
    this.why = why;
    this.render();
    if (command) {
      // a rule's refusal: its sentence, then what may be done (an error asking says nothing more)
      const checked = await this.ctx.check(command).catch(() => null);
      if (checked && checked.refusal) {
        why.text = `${checked.refusal.message} ${why.instead}`;
        why.code = checked.refusal.error;
        why.source = "rule";
      } else why.source = "step";
      if (this.why === why) this.render();
    }
    if (this.why === why) announce(why.text);
  }

  // The command a thing of the table stands for, by the screen (`intent`), or null.
  intentOf(el) {
    const view = this.ctx.view;
    if (!this.ctx.screen.intent || !view) return null;
    for (const key of pickKeys(el)) {
      const at = key.indexOf(":");
      const command = this.ctx.screen.intent(key.slice(0, at), key.slice(at + 1), view);
      if (command) return command;
    }
    return null;
  }

  whyNot(el) {
    const title = el.querySelector && el.querySelector(".card-title, strong");
    const text = (el.textContent || "").trim();
    const name = (title && title.textContent) || el.getAttribute("data-label") || el.getAttribute("aria-label")
      || (text.length <= 40 ? text : "");
    const may = this.ctx.screen.may || {};
    const types = this.picks.length ? [] : optionsOf(this.step).filter((o) => o.field === "type");
    const lit = [...new Set(optionsOf(this.step).filter((o) => o.field !== "type").map((o) => this.fieldLabel(o.field)))];
    const instead = types.length
      ? WORDS.insteadMay(orWords(types.map((o) => may[o.value] || labelOf("move", o.value, this.ctx).toLowerCase())))
      : lit.length ? WORDS.insteadPick(orWords(lit)) : WORDS.insteadSend;
    return { text: WORDS.notNow(name.split(",")[0].trim()) + " " + instead, instead };
  }

  // A click on a target: its one path, or the panel asks which of its several.
  press(el) {
    const paths = this.targets.get(el);
    if (!paths) return;
    if (paths.length === 1) return this.choose(paths[0]);
    this.which = el;
    this.render();
    const first = this.panel && this.panel.querySelector(".which button");
    if (first) first.focus({ preventScroll: true });
  }

  // What a place takes of a target's paths (drag.js): the path to take now, or a pick to hold
  // for a later step of the move under way (the personal area's card while the centre's is asked).
  fitting(el, place) {
    if (place === el || place.contains(el)) return null;
    const takes = (place.getAttribute("data-drop") || "").split(/\s+/).filter(Boolean);
    const under = this.picks[0] && this.picks[0].field === "type" ? this.picks[0].value : null;
    const moveOf = (p) => (p.move ? p.move.value : under);
    const fits = (p, key) => {
      const [a, b] = key.split(".");
      if (b) return moveOf(p) === a && p.option.field === b;
      return p.option.field === a || moveOf(p) === a || (p.option.field === "type" && p.option.value === a);
    };
    const paths = this.targets.get(el) || [];
    const path = paths.find((p) => takes.some((key) => fits(p, key)));
    if (path) return { path };
    const later = takes.map((k) => k.split(".")).find(([a, b]) => b && a === under && !this.picks.some((p) => p.field === b));
    if (later && paths.length && !paths.some((p) => p.move || p.option.field === later[1])) {
      return { held: { field: later[1], value: paths[0].option.value } };
    }
    return null;
  }

  // The places on the table that take a target (lit while it is dragged).
  placesFor(el) {
    if (!this.board) return [];
    return [...this.board.querySelectorAll("[data-drop]")].filter((place) => this.fitting(el, place));
  }

  // A target carried onto a place that takes it (drag.js); whether it was taken.
  drop(el, place) {
    if (this.state !== "idle") return false;
    const fit = this.fitting(el, place);
    if (!fit) return false;
    if (fit.held) {
      this.held = fit.held;
      this.render();
      return true;
    }
    const here = pickKeys(place);
    this.follow = here.length ? here : null;
    this.choose(fit.path);
    return true;
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
    if (this.state !== "idle") return;
    if (this.which || this.held) {
      this.which = null;
      this.held = null;
      return this.render();
    }
    if (this.picks.length > this.auto) this.begin();
  }

  // --- on the table -----------------------------------------------------------------------

  // The table was drawn again: mark its targets and draw the panel.
  attach(board, panel) {
    this.board = board;
    this.panel = panel;
    const press = (e) => {
      const el = e.target.closest(".target, .picked");
      if (!el || !board.contains(el)) {
        const other = e.target.closest("[data-pick]"); // a thing of the table that is not a pick now
        if (other && board.contains(other) && this.state === "idle") this.explain(other);
        return;
      }
      e.preventDefault();
      if (this.targets.has(el)) return this.press(el);
      const index = this.picks.findIndex((p) => this.elementsOf(p.kind, p.value).includes(el));
      if (index >= 0) this.takeBack(index);
    };
    board.onclick = press; // one handler per drawn table
    if (this.dragBoard !== board) {
      if (this.undrag) this.undrag();
      this.undrag = dragging(board, this);
      this.dragBoard = board;
    }
    board.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") press(e); }; // targets take the focus
    this.render();
  }

  heldKind() {
    const o = optionsOf(this.step).find((x) => x.field !== "type");
    return o ? o.kind : "card";
  }

  // What a target says to a screen reader: what it is (its own label), then what picking it does.
  sayTarget(el, here) {
    if (!el.hasAttribute("data-label") && el.hasAttribute("aria-label")) el.setAttribute("data-label", el.getAttribute("aria-label"));
    const own = el.getAttribute("data-label");
    const does = here.map((p) => (p.move ? `${labelOf("move", p.move.value, this.ctx)}: ` : "") + this.fieldLabel(p.option.field)).join(WORDS.or);
    return own ? `${own} (${does})` : null;
  }

  // What kind of thing a pick on the table is ("card", "seat"): the game's term for it where its
  // catalog has one, in a language other than English.
  kindLabel(kind) {
    const game = this.ctx.screen.game;
    return (lang() !== "en" && game && term(game, "field", kind)) || WORDS.kinds[kind] || humanize(kind).toLowerCase();
  }

  fieldLabel(field) {
    return field === "type" ? WORDS.move : (this.ctx.screen.fields && this.ctx.screen.fields[field]) || humanize(field);
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
    for (const el of this.board.querySelectorAll(".target, .picked, .held")) {
      el.classList.remove("target", "picked", "held");
      for (const a of ["data-option", "data-paths", "data-move", "data-drag", "tabindex", "aria-pressed"]) el.removeAttribute(a);
      if (el.hasAttribute("data-label")) el.setAttribute("aria-label", el.getAttribute("data-label"));
      if (el.hasAttribute("data-role")) el.setAttribute("role", el.getAttribute("data-role"));
      else el.removeAttribute("role");
    }
    this.index = new Map();
    for (const el of this.board.querySelectorAll("[data-pick]")) {
      for (const key of pickKeys(el)) {
        if (!this.index.has(key)) this.index.set(key, []);
        this.index.get(key).push(el);
      }
    }
    const shown = this.state === "idle" || this.state === "asking"; // while asking: the step before, inert
    const live = shown ? optionsOf(this.step) : [];
    // every path from the step shown: its options, and at the first step each move type's next options
    const paths = live.map((option) => ({ move: null, option }));
    const ahead = this.picks.length === 0 && shown ? this.ahead : new Map();
    for (const o of live) {
      const look = o.field === "type" ? ahead.get(o.value) : null;
      if (look) for (const option of optionsOf(look.step)) paths.push({ move: o, option, version: look.version });
    }
    const onBoard = new Map(); // element -> the paths drawn there
    const drawn = new Map(); // path -> its elements
    for (const p of paths) {
      const els = this.elementsOf(p.option.kind, p.option.value);
      drawn.set(p, els);
      for (const el of els) {
        if (!onBoard.has(el)) onBoard.set(el, []);
        onBoard.get(el).push(p);
      }
    }
    // the chooser holds what the table cannot say: an option drawn nowhere, and a move type whose
    // next step is not all on the table (a number, a move that may be sent with no more picks)
    const chooser = [];
    for (const p of paths) {
      if (p.move || drawn.get(p).length) continue;
      if (p.option.field === "type") {
        const look = ahead.get(p.option.value);
        const whole = look && commandOf(look.step) === null && optionsOf(look.step).length
          && paths.every((q) => q.move !== p.option || drawn.get(q).length);
        if (whole) continue;
      }
      chooser.push(p.option);
    }
    const board = [];
    for (const [el, here] of onBoard) {
      el.classList.add("target");
      el.setAttribute("data-paths", JSON.stringify(here.map(pathOf)));
      if (here.length === 1) el.setAttribute("data-option", JSON.stringify([here[0].option.field, here[0].option.value]));
      if (here.length === 1 && here[0].move) el.setAttribute("data-move", here[0].move.value);
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      const said = this.sayTarget(el, here);
      if (said) el.setAttribute("aria-label", said);
      this.targets.set(el, here);
      for (const p of here) if (!board.some(([f]) => f === p.option.field) && p.option.kind !== "move") board.push([p.option.field, p.option.kind]);
      for (let up = el.parentElement?.closest("details"); up; up = up.parentElement?.closest("details")) up.open = true;
    }
    if (this.which && !this.targets.has(this.which)) this.which = null;
    if (this.board.querySelector("[data-drop]")) { // what may be dragged somewhere that takes it
      for (const el of this.targets.keys()) if (this.placesFor(el).length) el.setAttribute("data-drag", "");
    }
    for (const p of this.picks) {
      for (const el of this.elementsOf(p.kind, p.value)) {
        el.classList.add("picked");
        el.setAttribute("tabindex", "0"); // picking it again takes it back
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", "true");
      }
    }
    if (this.held) {
      for (const el of this.elementsOf(this.heldKind(), this.held.value)) el.classList.add("held");
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
    panel.setAttribute("data-state", this.state);
    panel.setAttribute("data-version", String(this.version));
    panel.setAttribute("data-picks", JSON.stringify(wire(this.picks)));
    panel.setAttribute("data-options", String(this.state === "idle" ? optionsOf(this.step).length : 0));
    // drawn afresh, then morphed in: a focused button that is still offered keeps the focus
    const fresh = panel.cloneNode(false);
    this.drawInto(fresh, board, chooser);
    panel.removeAttribute("data-morph"); // the table's redraw leaves the panel to us; we morph it
    fresh.removeAttribute("data-morph");
    morph(panel, fresh);
    panel.setAttribute("data-morph", "keep");
    if (this.state === "asking") panel.classList.add("asking");
    else panel.classList.remove("asking");
  }

  // A button of the panel that takes one path (`data-paths` as on the table, for machines).
  button(p, text, cls = "option") {
    const o = p.option;
    return h("button", {
      class: [cls, o.command ? "sends" : null], "data-field": o.field, "data-kind": o.kind,
      "data-key": "option:" + JSON.stringify(pathOf(p)),
      "data-value": typeof o.value === "string" ? o.value : JSON.stringify(o.value),
      "data-option": JSON.stringify([o.field, o.value]), "data-paths": JSON.stringify([pathOf(p)]),
      "data-move": p.move ? p.move.value : null,
      title: o.command ? WORDS.sends + this.ctx.describeCommand(o.command) : "",
      onclick: () => this.choose(p),
    }, text);
  }

  drawInto(panel, board, chooser) {
    const ctx = this.ctx;
    if (this.state === "none") {
      panel.append(h("p", { class: "muted" }, WORDS.nothing));
      return;
    }
    if (this.state === "sending" || this.state === "waiting") {
      panel.append(h("p", { class: "muted" }, this.state === "sending" ? WORDS.sending : WORDS.sent));
      return;
    }
    const command = commandOf(this.step);
    const extra = this.picks.length > this.auto || !!this.held;
    panel.append(h("h2", {}, WORDS.yourMove));
    if (this.picks.length || this.held) {
      panel.append(h("div", { class: "picks", "data-testid": "picks" }, WORDS.soFar,
        this.picks.map((p, i) => h("span", { class: ["pill", "pick", i < this.auto ? "auto" : null], "data-field": p.field },
          p.field === "type" ? labelOf("move", p.value, ctx) : `${this.fieldLabel(p.field)}: ${labelOf(p.kind, p.value, ctx)}`)),
        this.held ? h("span", { class: ["pill", "pick", "held"], "data-field": this.held.field },
          `${this.fieldLabel(this.held.field)}: ${labelOf(this.heldKind(), this.held.value, ctx)}`) : null));
    }
    const types = this.picks.length ? [] : optionsOf(this.step).filter((o) => o.field === "type");
    if (types.length > 1) { // what can I do now: every move offered, in words
      const may = ctx.screen.may || {};
      panel.append(h("p", { class: "may", "data-testid": "may" }, WORDS.youMay,
        orWords(types.map((o) => may[o.value] || labelOf("move", o.value, ctx).toLowerCase())), "."));
    }
    if (this.why && this.why.el.isConnected) {
      panel.append(h("p", { class: "why", "data-testid": "why", "data-source": this.why.source, "data-code": this.why.code || null },
        this.why.text));
    }
    if (this.which) { // a target several moves share: which one
      const name = this.which.getAttribute("data-label") || this.which.getAttribute("aria-label") || "";
      panel.append(h("div", { class: "chooser which", "data-field": "which" },
        h("span", { class: "group-label" }, `${WORDS.which}${name ? ` (${name})` : ""}`),
        this.targets.get(this.which).map((p) => this.button(p,
          (p.move ? labelOf("move", p.move.value, ctx) + ": " : "") + this.fieldLabel(p.option.field), "option which-option"))));
    }
    if (board.length) {
      panel.append(h("p", { class: "hint" }, WORDS.pickOnTable,
        board.map(([field, kind], i) => [i ? WORDS.or : "", h("strong", {}, this.fieldLabel(field)), ` (${this.kindLabel(kind)})`])));
    }
    const groups = new Map();
    for (const o of chooser) {
      if (!groups.has(o.field)) groups.set(o.field, []);
      groups.get(o.field).push(o);
    }
    for (const [field, options] of groups) {
      panel.append(h("div", { class: "chooser", "data-field": field },
        h("span", { class: "group-label" }, this.fieldLabel(field) + ":"),
        options.map((o) => this.button({ move: null, option: o }, labelOf(o.kind, o.value, ctx)))));
    }
    if (command !== null || extra) {
      panel.append(h("div", { class: "move-actions", "data-key": "move-actions" },
        command !== null ? h("button", { class: "primary confirm", "data-testid": "confirm", onclick: () => this.confirm() },
          WORDS.send + ctx.describeCommand(command)) : null,
        this.picks.length > this.auto ? h("button", { class: "back", "data-testid": "back", onclick: () => this.takeBack(this.picks.length - 1) }, WORDS.back) : null,
        extra ? h("button", { class: "cancel", "data-testid": "cancel", title: "Escape", onclick: () => this.cancel() }, WORDS.cancel) : null));
    }
  }
}
