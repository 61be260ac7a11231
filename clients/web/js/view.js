// Drawing one view: the game's own screen, then the JSON fallback for whatever it left out.

import { h, jsonTree, leftovers } from "./ui.js";
import { SCREENS, FALLBACK } from "./games/index.js";
import { SEAT_COLOURS } from "./games/common.js";

export function screenOf(game) {
  return SCREENS[game] || FALLBACK;
}

// ctx: {game, comp, names, seats (the table's), view}
export function drawView(view, ctx) {
  if (!view) return h("p", { class: "muted" }, "The table is open: the game starts when every seat is taken.");
  const screen = screenOf(ctx.game);
  const seatName = (seat) => {
    const s = ctx.seats && ctx.seats[seat];
    return s ? s.name : `Seat ${seat + 1}`;
  };
  const seatColour = (seat) => (screen.seatColour && screen.seatColour(view, seat)) || SEAT_COLOURS[seat % SEAT_COLOURS.length];
  const full = { ...ctx, view, seatName, seatColour };
  try {
    const { el, drawn } = screen.render(view, full);
    return h("div", { class: "view", "data-viewer": view.viewer === null || view.viewer === undefined ? "spectator" : String(view.viewer) },
      el, leftovers(view, drawn));
  } catch (err) {
    console.error(err);
    return h("div", { class: "view" }, h("p", { class: "message error" }, `This screen could not draw the view (${err.message}); here it is as data.`),
      jsonTree(view, "view", true));
  }
}

export function outcomeTable(outcome, seatName) {
  if (!outcome) return null;
  const seats = outcome.scores.map((score, seat) => ({ seat, score, place: outcome.places ? outcome.places[seat] : null }));
  seats.sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || b.score - a.score);
  const rest = { ...outcome };
  for (const k of ["type", "scores", "places", "winners"]) delete rest[k];
  return h("section", { class: "panel outcome", "data-testid": "outcome" },
    h("h3", {}, "Final scores"),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "place"), h("th", {}, "player"), h("th", {}, "score"))),
      h("tbody", {}, seats.map((s) => h("tr", { class: (outcome.winners || []).includes(s.seat) ? "winner" : "", "data-seat": s.seat },
        h("td", {}, s.place ?? ""), h("td", {}, seatName(s.seat), (outcome.winners || []).includes(s.seat) ? h("span", { class: "winner-mark" }, " ★ winner") : ""),
        h("td", { class: "score" }, String(s.score)))))),
    Object.keys(rest).length ? jsonTree(rest, "details", false) : null);
}
