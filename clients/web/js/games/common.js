// Pieces the game screens share: seat headers and colours.

import { h, pill } from "../ui.js";

export const SEAT_COLOURS = ["#d9534f", "#5b7cd6", "#e0b030", "#4caf50", "#9c5fc4", "#ef8a3c"];

export function seatHeader(seat, ctx, extra = []) {
  const awaited = (ctx.view.awaiting || []).filter((a) => a.seat === seat);
  return h("div", { class: "seat-head" },
    h("span", { class: "seat-dot", style: { background: ctx.seatColour ? ctx.seatColour(seat) : SEAT_COLOURS[seat % 6] } }),
    h("strong", {}, ctx.seatName(seat)),
    seat === ctx.view.viewer ? pill(ctx.viewerLabel || "you", "you") : null,
    ctx.view.turn === seat ? pill("turn", "turn") : null,
    awaited.map((a) => pill("awaited: " + a.reason, "awaited")),
    extra);
}

export function stat(label, value) {
  return h("span", { class: "stat" }, h("span", { class: "stat-label" }, label), " ", h("b", {}, value));
}

// A seat's panel: a move that names a seat (a trade's or a steal's target) picks it here.
export function seatPanel(seat, ...children) {
  return h("section", { class: "panel seat-panel", "data-pick": `seat:${seat}`, "data-seat-panel": String(seat) }, ...children);
}
