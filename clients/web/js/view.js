// Drawing one view with the game's own screen, and the final scores with their breakdown in words.

import { h, SEAT_ORDER } from "./ui.js";
import { SCREENS, FALLBACK } from "./games/index.js";
import { seatNamer } from "./names.js";
import { byLanguage, lang, term, listWords } from "./words.js";

// The words of the table's frame around a game's screen (kept together for translation).
const WORDS = byLanguage({
  en: {
    toPlay: "to play",
    open: "The table is open: the game starts when every seat is taken.",
    broken: (why) => `This screen could not draw the table (${why}).`,
    ended: "The game ended",
    calledOff: "The table was called off.",
    everyoneLeft: "Every player left the game.",
    finalScores: "Final scores",
    wins: (names, n, score) => `${names} win${n === 1 ? "s" : ""} with ${score}.`,
    place: "Place",
    player: "Player",
    score: "Score",
    winner: " ★ winner",
    howScored: (name) => `How ${name} scored`,
    total: "total",
  },
  pt: {
    toPlay: "para jogar",
    open: "A mesa está aberta: o jogo começa quando todos os lugares estiverem ocupados.",
    broken: (why) => `Este ecrã não conseguiu desenhar a mesa (${why}).`,
    ended: "O jogo terminou",
    calledOff: "A mesa foi cancelada.",
    everyoneLeft: "Todos os jogadores saíram do jogo.",
    finalScores: "Pontuação final",
    wins: (names, n, score) => (n === 1 ? `${names} ganha com ${score}.` : `${names} ganham com ${score}.`),
    place: "Lugar",
    player: "Jogador",
    score: "Pontos",
    winner: " ★ vencedor",
    howScored: (name) => `Como ${name} pontuou`,
    total: "total",
  },
  gl: {
    toPlay: "para xogar",
    open: "A mesa está aberta: a partida comeza cando todos os postos estean ocupados.",
    broken: (why) => `Esta pantalla non puido debuxar a mesa (${why}).`,
    ended: "A partida rematou",
    calledOff: "A mesa foi cancelada.",
    everyoneLeft: "Todos os xogadores deixaron a partida.",
    finalScores: "Puntuación final",
    wins: (names, n, score) => (n === 1 ? `${names} gaña con ${score}.` : `${names} gañan con ${score}.`),
    place: "Posto",
    player: "Xogador",
    score: "Puntos",
    winner: " ★ gañador",
    howScored: (name) => `Como puntuou ${name}`,
    total: "total",
  },
  es: {
    toPlay: "para jugar",
    open: "La mesa está abierta: la partida empieza cuando todos los puestos estén ocupados.",
    broken: (why) => `Esta pantalla no pudo dibujar la mesa (${why}).`,
    ended: "La partida ha terminado",
    calledOff: "La mesa se canceló.",
    everyoneLeft: "Todos los jugadores dejaron la partida.",
    finalScores: "Puntuación final",
    wins: (names, n, score) => (n === 1 ? `${names} gana con ${score}.` : `${names} ganan con ${score}.`),
    place: "Puesto",
    player: "Jugador",
    score: "Puntos",
    winner: " ★ ganador",
    howScored: (name) => `Cómo puntuó ${name}`,
    total: "total",
  },
});

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);
const localized = new Map();

// A game's screen. In a language other than English, what the page says of its moves, fields and
// awaited reasons comes from the game's terms in the server's catalog (its printed rules' words),
// and `game` lets names.js tell its events with the catalog's log lines.
export function screenOf(game) {
  const screen = SCREENS[game] || FALLBACK;
  if (lang() === "en") return screen;
  const key = `${lang()}:${game}`;
  if (!localized.has(key)) {
    const own = Object.create(screen);
    own.game = game;
    const terms = (kind, fallback, shape) => new Proxy({}, {
      get(_, value) {
        const t = typeof value === "string" ? term(game, kind, value) : null;
        return t ? shape(t) : fallback && fallback[value];
      },
    });
    own.may = terms("move", screen.may, lower);
    own.fields = terms("field", screen.fields, capital);
    own.reasons = terms("awaiting", screen.reasons, (t) => t);
    localized.set(key, own);
  }
  return localized.get(key);
}

// The context every game screen draws with.
export function context(view, ctx) {
  const screen = screenOf(ctx.game);
  const seatName = ctx.seatName || seatNamer(ctx.seats);
  const seatColour = (seat) => (view && screen.seatColour && screen.seatColour(view, seat)) || SEAT_ORDER[seat % SEAT_ORDER.length];
  const reason = (code) => (screen.reasons && screen.reasons[code]) || WORDS.toPlay;
  return { ...ctx, view, seatName, seatColour, reason };
}

// {board, hand}: the table, and the viewer's own hand (docked beside the move on small screens).
export function drawView(view, ctx) {
  if (!view) return { board: h("p", { class: "muted" }, WORDS.open), hand: null };
  const screen = screenOf(ctx.game);
  try {
    const { board, hand } = screen.render(view, context(view, ctx));
    return { board: h("div", { class: "view", "data-viewer": view.viewer === null || view.viewer === undefined ? "spectator" : String(view.viewer) }, board), hand };
  } catch (err) {
    console.error(err);
    return { board: h("div", { class: "view" }, h("p", { class: "message error" }, WORDS.broken(err.message))), hand: null };
  }
}

// The final scores: place, player, score, then each seat's points rule by rule, in words, adding
// up to the score (a line marked "tie-breaker only" adds nothing).
export function outcomeTable(outcome, ctx) {
  if (!outcome || !outcome.scores) {
    if (outcome && outcome.reason) return h("section", { class: "panel outcome", "data-testid": "outcome" }, h("h2", {}, WORDS.ended),
      h("p", {}, outcome.reason === "cancelled" ? WORDS.calledOff : WORDS.everyoneLeft));
    return null;
  }
  const screen = screenOf(ctx.game);
  const seatName = ctx.seatName;
  const seats = outcome.scores.map((score, seat) => ({ seat, score, place: outcome.places ? outcome.places[seat] : null }));
  seats.sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || b.score - a.score);
  const winners = outcome.winners || [];
  let parts = [];
  try {
    parts = screen.breakdown ? screen.breakdown(outcome, ctx) : [];
  } catch (err) {
    console.error(err);
  }
  const bySeat = new Map(parts.map((p) => [p.seat, p]));
  return h("section", { class: "panel outcome", "data-testid": "outcome", "data-key": "outcome" },
    h("h2", {}, WORDS.finalScores),
    h("p", { class: "result" }, winners.length
      ? WORDS.wins(listWords(winners.map(seatName)), winners.length, outcome.scores[winners[0]]) : ""),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, WORDS.place), h("th", { scope: "col" }, WORDS.player), h("th", { scope: "col" }, WORDS.score))),
      h("tbody", {}, seats.map((s) => h("tr", { class: winners.includes(s.seat) ? "winner" : "", "data-seat": s.seat },
        h("td", {}, s.place ?? ""), h("td", {}, seatName(s.seat), winners.includes(s.seat) ? h("span", { class: "winner-mark" }, WORDS.winner) : ""),
        h("td", { class: "score" }, String(s.score)))))),
    h("div", { class: "breakdowns" }, seats.map((s) => {
      const b = bySeat.get(s.seat);
      if (!b) return null;
      return h("div", { class: "breakdown", "data-testid": `breakdown-${s.seat}`, "data-total": String(b.total) },
        h("h3", {}, `${seatName(s.seat)}: ${b.total}`),
        h("table", {}, h("caption", { class: "sr-only" }, WORDS.howScored(seatName(s.seat))),
          h("tbody", {}, b.lines.map(([words, points, tieOnly]) => h("tr", { "data-points": tieOnly ? "0" : String(points) },
            h("td", {}, words), h("td", { class: "points" }, tieOnly ? "—" : String(points)))),
          h("tr", { class: "total" }, h("td", {}, WORDS.total), h("td", { class: "points" }, String(b.total))))),
        b.note ? h("p", { class: "muted" }, b.note) : null);
    })));
}
