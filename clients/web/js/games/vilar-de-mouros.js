// Vilar de Mouros: the centre, the bonus row, each seat's hand and personal area, as cards.
// Picked on the table: cards ("card:<id>"), the deck (the move DrawFromDeck).

import { h, card, backs, section } from "../ui.js";
import { seatHeader, seatPanel, stat } from "./common.js";

function infoOf(id, comp) {
  const c = (comp.game_cards || []).find((x) => x.id === id);
  if (c) {
    return {
      title: c.name, sub: String(c.year),
      lines: [c.categories.join(" · "), `${c.cows} cow${c.cows === 1 ? "" : "s"}`],
      cls: (comp.first_editions || []).includes(c.year) ? "first-edition" : "",
      tip: `${c.name} (${c.year}), ${c.cows} cows, ${c.categories.join(", ")}`,
    };
  }
  const b = (comp.bonus_cards || []).find((x) => x.id === id);
  if (b) return { title: "Bonus", sub: b.target, cls: "bonus", tip: `bonus card: ${b.target}` };
  return { title: id };
}

export default {
  fields: { centre: "To the centre", personal: "To your personal area", card: "Card" },
  names(comp) {
    return (comp.bonus_cards || []).map((b) => [b.id, `bonus ${b.target}`]);
  },
  render(view, ctx) {
    const comp = ctx.comp;
    const drawn = new Set(["type", "players", "viewer", "phase", "turn", "awaiting", "centre", "bonus_row",
      "deck_count", "bonus_deck_count", "seats", "finished", "deck", "bonus_deck"]);
    const c = (id) => card(id, infoOf(id, comp), `card:${id}`);
    const table = h("div", { class: "board vilar" },
      section("Table",
        h("div", { class: "row" },
          h("div", { class: "pile", "data-pick": "move:DrawFromDeck" }, backs(1, "Deck"), stat("deck", view.deck_count)),
          h("div", { class: "pile" }, backs(1, "Bonus"), stat("bonus deck", view.bonus_deck_count)),
          stat("phase", view.phase)),
        h("h4", {}, "Bonus row"), h("div", { class: "cards", "data-testid": "bonus-row" }, view.bonus_row.map(c)),
        h("h4", {}, "Centre"), h("div", { class: "cards", "data-testid": "centre" },
          view.centre.length ? view.centre.map(c) : h("span", { class: "muted" }, "empty"))),
      view.seats.map((s) => seatPanel(s.seat, seatHeader(s.seat, ctx,
        [stat("turns left", s.turns_left), stat("bonus cards", s.bonus_cards), stat("hand", s.hand_count)]),
      h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
        s.hand ? h("div", { class: "cards" }, s.hand.map(c)) : backs(s.hand_count, "Vilar")),
      h("h4", {}, "Personal area"),
      h("div", { class: "cards small" }, s.personal.length ? s.personal.map(c) : h("span", { class: "muted" }, "empty")))),
      view.deck ? section("Deck (revealed, top first)", h("div", { class: "cards small" }, view.deck.map(c))) : null,
      view.bonus_deck ? section("Bonus deck (revealed)", h("div", { class: "cards small" }, view.bonus_deck.map(c))) : null,
    );
    return { el: table, drawn };
  },
};
