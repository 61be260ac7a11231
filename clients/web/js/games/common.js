// Pieces the game screens share: seat panels and their heads, stats, words for lists.

import { h, pill, hidden, colourOf, inkOn } from "../ui.js";
import { byLanguage, listWords as joined } from "../words.js";

// The words the seat panels share (kept together for translation).
const WORDS = byLanguage({
  en: { you: "you", lastMove: "Last move: " },
  pt: { you: "você", lastMove: "Última jogada: " },
  gl: { you: "ti", lastMove: "Última xogada: " },
  es: { you: "tú", lastMove: "Última jugada: " },
});

// A seat's token: its colour and symbol, then its name. A move that names a seat (a trade's or a
// steal's target) picks it here ("seat:<n>").
export function seatToken(seat, ctx, { pick = true } = {}) {
  const c = colourOf(ctx.seatColour(seat));
  return h("span", { class: "seat-token", "data-pick": pick ? `seat:${seat}` : null, "data-key": `seat-token:${seat}`,
    style: { "--chip": c.fill, "--chip-ink": inkOn(c.fill) } },
  h("span", { class: "chip-symbol", "aria-hidden": "true" }, c.symbol), h("strong", {}, ctx.seatName(seat)), hidden(` (${c.name})`));
}

export function seatHeader(seat, ctx, extra = []) {
  const awaited = (ctx.view.awaiting || []).filter((a) => a.seat === seat);
  const last = ctx.last && ctx.last.get(seat);
  return h("div", { class: "seat-head" },
    h("h3", {}, seatToken(seat, ctx)),
    seat === ctx.view.viewer ? pill(ctx.viewerLabel || WORDS.you, "you") : null,
    awaited.length ? pill(awaited.map((a) => ctx.reason(a.reason)).join(", "), "awaited") : null,
    extra,
    last ? h("p", { class: "last-move", "data-testid": `last-${seat}` }, h("span", { class: "last-label" }, WORDS.lastMove), last.text) : null);
}

export function stat(label, value) {
  return h("span", { class: "stat" }, h("span", { class: "stat-label" }, label), " ", h("b", {}, value));
}

export function seatPanel(seat, ctx, ...children) {
  const c = colourOf(ctx.seatColour(seat));
  return h("section", { class: ["panel", "seat-panel", seat === ctx.view.viewer ? "mine" : null,
    (ctx.view.awaiting || []).some((a) => a.seat === seat) ? "awaited" : null, ctx.thinking && ctx.thinking.has(seat) ? "thinking" : null],
  "data-seat-panel": String(seat), "data-key": `seat-panel:${seat}`, style: { "--seat": c.fill } }, ...children);
}

// "a, b and c"
export function listWords(items) {
  return joined(items);
}

// Breakdown lines [words, points] and their total, as the outcome's table shows them.
export function lines(...rows) {
  return rows.filter((r) => r && (r[1] !== 0 || r[2]));
}
