// Itchy Feet: the centre country, each traveller's country, hand and travels, the discard pile,
// the open trade offer and reaction window. Picked on the table: cards of the hand and the discard
// pile ("card:<id>"), countries ("country:<id>"), a seat's panel ("seat:<n>"), the deck (the move
// Draw); the object kinds a trade asks for are named from the cards ("kind:<kind>").

import { h, card, backs, section, pill } from "../ui.js";
import { seatHeader, seatPanel, stat } from "./common.js";

const TYPE_COLOURS = {
  object: "#4a78d0", passport: "#2e7d32", special: "#8e5bc4", postcard: "#e6b422", event: "#d9534f", forbidden: "#333",
};

function cardInfo(id, comp) {
  const c = (comp.cards || []).find((x) => x.id === id);
  if (!c) return { title: id };
  return { title: c.name, sub: c.type + (c.suit ? ` · ${c.rank}${{ spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" }[c.suit] || ""}` : ""),
    lines: c.text ? [c.text] : [], cls: "itchy " + c.type, colour: TYPE_COLOURS[c.type], tip: `${c.name}: ${c.text || c.type}` };
}

function country(id, comp, target = true, extra = "") {
  const c = (comp.countries || []).find((x) => x.id === id);
  if (!c) return card(id, { title: id }, target ? `country:${id}` : null);
  const objects = c.requires.map((k) => (comp.cards || []).find((x) => x.kind === k)?.name || k);
  return card(id, { title: c.name, sub: `${c.capital}${extra}`, lines: ["needs: " + objects.join(", ")], cls: "country" },
    target ? `country:${id}` : null);
}

function due(ms) {
  if (!ms) return "";
  return h("span", { class: "due", "data-due": String(ms) }, countdown(ms));
}

export function countdown(ms) {
  const left = Math.max(0, Math.round((ms - Date.now()) / 1000));
  return ` · closes in about ${left} s`;
}

export default {
  names(comp) {
    // the kinds a trade asks for: "kind:camera" -> "Camera"; a passport or a postcard by its type
    const kinds = new Map();
    for (const c of comp.cards || []) if (!kinds.has(`kind:${c.kind}`)) kinds.set(`kind:${c.kind}`, c.name);
    return [...kinds.entries()];
  },
  fields: { target: "Player", give: "Give", ask: "Ask for", pay: "Pay with", take: "Take", forbidden: "Forbidden object",
    other: "With", cards: "Cards" },
  render(view, ctx) {
    const comp = ctx.comp;
    const drawn = new Set(["type", "players", "viewer", "phase", "turn", "awaiting", "centre", "aside", "deck_count",
      "discard", "passports_aside", "seats", "trade", "window", "rejected_offers", "finished", "winner", "won_by", "deck"]);
    const c = (id) => card(id, cardInfo(id, comp), `card:${id}`);
    const small = (id) => card(id, cardInfo(id, comp));
    const t = view.trade;
    const w = view.window;
    const el = h("div", { class: "board itchy" },
      section("Table",
        h("div", { class: "row" },
          h("div", {}, h("h4", {}, "Centre"), view.centre ? country(view.centre, comp) : h("span", { class: "muted" }, "none")),
          h("div", { class: "pile", "data-pick": "move:Draw" }, backs(1, "Deck"), stat("deck", view.deck_count)),
          h("div", {}, h("h4", {}, `Discard (${view.discard.length})`),
            h("div", { class: "cards small" }, view.discard.slice(-8).map(c)),
            view.discard.length > 8 ? h("details", {}, h("summary", {}, "whole pile"), h("div", { class: "cards small" }, view.discard.map(c))) : null)),
        h("div", {}, stat("passports aside", view.passports_aside), stat("offers rejected this turn", view.rejected_offers),
          view.winner !== null && view.winner !== undefined ? pill(`winner: ${ctx.seatName(view.winner)} (${view.won_by})`, "turn") : null),
        h("details", {}, h("summary", {}, `Countries set aside (${view.aside.length})`),
          h("div", { class: "cards small" }, view.aside.map((id) => country(id, comp, false))))),
      t ? section("Trade offer",
        h("p", {}, `${ctx.seatName(t.offerer)} offers ${ctx.seatName(t.target)}`, t.accepted ? " (accepted)" : "", due(t.due_ms)),
        h("div", { class: "row" }, h("div", {}, h("h4", {}, "gives"), h("div", { class: "cards small" }, t.give.map(small))),
          h("div", {}, h("h4", {}, "asks for"), t.ask.map((k) => pill(ctx.names.get(`kind:${k}`) || k))))) : null,
      w ? section("Reaction window",
        h("p", {}, `${ctx.seatName(w.seat)} declared ${w.action && w.action.type}`, due(w.due_ms)),
        h("div", {}, "waiting for: ", w.waiting.map((s) => pill(ctx.seatName(s))))) : null,
      view.seats.map((s) => seatPanel(s.seat,
        seatHeader(s.seat, ctx, [stat("hand", `${s.hand_count}/${s.hand_limit}`), s.character ? pill(ctx.names.get(s.character) || s.character) : null]),
        h("div", { class: "row" },
          h("div", {}, h("h4", {}, "Country"), s.country ? country(s.country, comp) : h("span", { class: "muted" }, "travelled")),
          h("div", {}, h("h4", {}, "Travelled"), h("div", { class: "cards small" },
            s.travelled.length ? s.travelled.map((id) => country(id, comp, false)) : h("span", { class: "muted" }, "nowhere yet")))),
        h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
          s.hand ? h("div", { class: "cards" }, s.hand.map(c)) : backs(s.hand_count, "Itchy")))),
      view.deck ? section("Deck (revealed, top first)", h("div", { class: "cards small" }, view.deck.map(small))) : null,
    );
    return { el, drawn };
  },
};
