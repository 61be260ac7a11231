// Drawing one view with the game's own screen, and the final scores with their breakdown in words.

import { h, SEAT_ORDER } from "./ui.js";
import { SCREENS, FALLBACK } from "./games/index.js";
import { seatNamer } from "./names.js";

export function screenOf(game) {
  return SCREENS[game] || FALLBACK;
}

// The context every game screen draws with.
export function context(view, ctx) {
  const screen = screenOf(ctx.game);
  const seatName = ctx.seatName || seatNamer(ctx.seats);
  const seatColour = (seat) => (view && screen.seatColour && screen.seatColour(view, seat)) || SEAT_ORDER[seat % SEAT_ORDER.length];
  const reason = (code) => (screen.reasons && screen.reasons[code]) || "to play";
  return { ...ctx, view, seatName, seatColour, reason };
}

// {board, hand}: the table, and the viewer's own hand (docked beside the move on small screens).
export function drawView(view, ctx) {
  if (!view) return { board: h("p", { class: "muted" }, "The table is open: the game starts when every seat is taken."), hand: null };
  const screen = screenOf(ctx.game);
  try {
    const { board, hand } = screen.render(view, context(view, ctx));
    return { board: h("div", { class: "view", "data-viewer": view.viewer === null || view.viewer === undefined ? "spectator" : String(view.viewer) }, board), hand };
  } catch (err) {
    console.error(err);
    return { board: h("div", { class: "view" }, h("p", { class: "message error" }, `This screen could not draw the table (${err.message}).`)), hand: null };
  }
}

// The final scores: place, player, score, then each seat's points rule by rule, in words, adding
// up to the score (a line marked "tie-breaker only" adds nothing).
export function outcomeTable(outcome, ctx) {
  if (!outcome || !outcome.scores) {
    if (outcome && outcome.reason) return h("section", { class: "panel outcome", "data-testid": "outcome" }, h("h2", {}, "The game ended"),
      h("p", {}, outcome.reason === "cancelled" ? "The table was called off." : "Every player left the game."));
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
    h("h2", {}, "Final scores"),
    h("p", { class: "result" }, winners.length
      ? `${winners.map(seatName).join(" and ")} win${winners.length === 1 ? "s" : ""} with ${outcome.scores[winners[0]]}.` : ""),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"))),
      h("tbody", {}, seats.map((s) => h("tr", { class: winners.includes(s.seat) ? "winner" : "", "data-seat": s.seat },
        h("td", {}, s.place ?? ""), h("td", {}, seatName(s.seat), winners.includes(s.seat) ? h("span", { class: "winner-mark" }, " ★ winner") : ""),
        h("td", { class: "score" }, String(s.score)))))),
    h("div", { class: "breakdowns" }, seats.map((s) => {
      const b = bySeat.get(s.seat);
      if (!b) return null;
      return h("div", { class: "breakdown", "data-testid": `breakdown-${s.seat}`, "data-total": String(b.total) },
        h("h3", {}, `${seatName(s.seat)}: ${b.total}`),
        h("table", {}, h("caption", { class: "sr-only" }, `How ${seatName(s.seat)} scored`),
          h("tbody", {}, b.lines.map(([words, points, tieOnly]) => h("tr", { "data-points": tieOnly ? "0" : String(points) },
            h("td", {}, words), h("td", { class: "points" }, tieOnly ? "—" : String(points)))),
          h("tr", { class: "total" }, h("td", {}, "total"), h("td", { class: "points" }, String(b.total))))),
        b.note ? h("p", { class: "muted" }, b.note) : null);
    })));
}
