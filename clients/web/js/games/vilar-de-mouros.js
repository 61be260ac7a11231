// Vilar de Mouros: festival cards (an act of one edition: its year as the card's colour and corner,
// its categories as icons, its cows as pips), bonus cards, the centre, the bonus row, each seat's
// hand (fanned; backs for others) and personal area (grouped by edition). Picked on the table:
// cards ("card:<id>"), the deck (the move DrawFromDeck).

import { h, card, cards, pile, backs, section, plural } from "../ui.js";
import { seatHeader, seatPanel, stat, listWords } from "./common.js";

const CATEGORY = {
  village: { icon: "⌂", word: "village" },
  poster: { icon: "▤", word: "poster" },
  stage: { icon: "♪", word: "stage" },
};
// One colour a decade, dark enough for white corner text; the year is written on the card too.
const DECADES = { 196: "#8c3b2e", 197: "#9a5316", 198: "#7b4bb3", 199: "#2f68c0", 200: "#2a7f62", 201: "#a3324f", 202: "#355c7d" };

function categoryName(comp, c) {
  const printed = comp.categories && comp.categories[c];
  return printed ? printed.split("/").pop() : c;
}

function targetWords(comp, target) {
  if (/^\d+$/.test(target)) return `the ${target} edition`;
  return `${categoryName(comp, target).toLowerCase()}`;
}

function infoOf(id, comp) {
  const c = (comp.game_cards || []).find((x) => x.id === id);
  if (c) {
    const cats = c.categories.map((k) => CATEGORY[k] || { icon: "•", word: k });
    return {
      title: c.name, corner: String(c.year), icon: cats.map((x) => x.icon).join(" "),
      sub: c.categories.map((k) => categoryName(comp, k)).join(" · "),
      lines: [h("span", { class: "cows", "aria-hidden": "true" }, "◖".repeat(c.cows)), ` ${plural(c.cows, "cow")}`],
      cls: ["vilar", (comp.first_editions || []).includes(c.year) ? "first-edition" : null].filter(Boolean).join(" "),
      colour: DECADES[Math.floor(c.year / 10)] || "#555",
      label: `${c.year} edition card:`,
      tip: `${withYear(c)}, ${plural(c.cows, "cow")}, ${c.categories.map((k) => categoryName(comp, k)).join(", ")}`,
    };
  }
  const b = (comp.bonus_cards || []).find((x) => x.id === id);
  if (b) {
    const cat = CATEGORY[b.target];
    return { title: "Bonus ×2", sub: /^\d+$/.test(b.target) ? `${b.target} edition` : categoryName(comp, b.target),
      corner: /^\d+$/.test(b.target) ? b.target : "", icon: cat ? cat.icon : "✦", cls: "bonus", colour: "#8a6d00",
      label: "bonus card:", tip: `Bonus card: doubles a collection of ${targetWords(comp, b.target)}` };
  }
  return { title: "card" };
}

// A card's name with its edition, once: a name that already says its year ("Tricky (2006)",
// "Palco Principal de 1996") is not told it again.
function withYear(c) {
  return c.name.includes(String(c.year)) ? c.name : `${c.name} (${c.year})`;
}

function nameOf(id, comp) {
  const c = (comp.game_cards || []).find((x) => x.id === id);
  if (c) return withYear(c);
  const b = (comp.bonus_cards || []).find((x) => x.id === id);
  if (b) return `the bonus card for ${targetWords(comp, b.target)}`;
  return null;
}

// The personal area grouped by edition, years in order: the collections a player builds.
function personalArea(ids, comp, c) {
  if (!ids.length) return h("p", { class: "muted" }, "empty");
  const byYear = new Map();
  for (const id of ids) {
    const g = (comp.game_cards || []).find((x) => x.id === id);
    const key = g ? String(g.year) : "bonus";
    if (!byYear.has(key)) byYear.set(key, []);
    byYear.get(key).push(id);
  }
  const keys = [...byYear.keys()].sort();
  return h("div", { class: "collections" }, keys.map((k) => h("div", { class: "collection", "data-key": "col:" + k },
    h("div", { class: "cards fan small" }, byYear.get(k).map(c)))));
}

export default {
  // What each move is, said to a newcomer in "You may: ..." (the panel, at the start of a move).
  may: { DrawFromDeck: "draw from the deck", DrawFromCentre: "draw a card of the centre", PlaceCards: "place two cards",
    TakeBonus: "take a bonus card" },
  // The rules card at the table: the game in a few lines (docs/games/vilar-de-mouros.md has it whole).
  rules: {
    goal: "Collect festival cards into collections: one edition (year), the village, posters or stages. The most points wins.",
    turn: [
      "On your turn, either draw two cards, one at a time, from the deck or the centre, then place two cards from your hand: one in the centre, one in your personal area;",
      "or take one face-up bonus card into your personal area (two or three in a game).",
    ],
    end: "The game ends when every personal area is full (15 cards with 2 or 3 players, 12 with 4, 10 with 5, 9 with 6).",
    score: "Your hand and personal area score together: 3 or more cards of a collection score their cows; a bonus card doubles its collection, or lets a collection of 1 or 2 cards score its cows. A card counts in every collection it belongs to.",
  },
  fields: { centre: "To the centre", personal: "To your personal area", card: "Card" },
  reasons: { action: "to play", draw: "to draw", place: "to place two cards", bonus: "to take a bonus card" },
  names(comp) {
    return [...(comp.game_cards || []).map((c) => [c.id, withYear(c)]),
      ...(comp.bonus_cards || []).map((b) => [b.id, `bonus: ${targetWords(comp, b.target)}`])];
  },
  render(view, ctx) {
    const comp = ctx.comp;
    const c = (id) => card(id, infoOf(id, comp), `card:${id}`);
    const mine = view.seats.find((s) => s.seat === view.viewer);
    // a card drawn is carried to the hand; a card placed, from the hand to the centre or the personal area
    const hand = mine && mine.hand ? section("Your hand", h("div", { class: "drop-place", "data-drop": "DrawFromCentre.card DrawFromDeck" },
      cards(mine.hand.map(c), { fan: true, testid: `hand-${mine.seat}` }))) : null;
    const board = h("div", { class: "board vilar" },
      section("Festival grounds",
        h("div", { class: "row" },
          pile(view.deck_count, "VdM", { name: "Deck", pick: "move:DrawFromDeck" }),
          pile(view.bonus_deck_count, "★", { name: "Bonus deck" }),
          h("div", { class: "grow" }, h("h3", {}, "Bonus row"), cards(view.bonus_row.map(c), { testid: "bonus-row" }))),
        h("div", { class: "drop-place", "data-drop": "PlaceCards.centre", "data-testid": "centre-place" },
          h("h3", {}, "Centre"), cards(view.centre.map(c), { testid: "centre", empty: "empty" }))),
      h("div", { class: "seats" }, view.seats.map((s) => seatPanel(s.seat, ctx, seatHeader(s.seat, ctx,
        [stat("turns left", s.turns_left), stat("bonus cards", s.bonus_cards)]),
      s.seat === view.viewer && hand ? null : h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
        s.hand ? cards(s.hand.map(c), { fan: true, small: true }) : backs(s.hand_count, "VdM", "hand")),
      h("div", { class: "drop-place", "data-drop": s.seat === view.viewer ? "PlaceCards.personal" : null, "data-testid": `personal-${s.seat}` },
        h("h4", {}, `Personal area (${s.personal.length})`), personalArea(s.personal, comp, c))))),
      view.deck || view.bonus_deck ? h("details", { class: "panel revealed" }, h("summary", {}, "The decks, revealed at the end"),
        view.deck ? cards(view.deck.map((id) => card(id, infoOf(id, comp))), { fan: true, small: true }) : null,
        view.bonus_deck ? cards(view.bonus_deck.map((id) => card(id, infoOf(id, comp))), { fan: true, small: true }) : null) : null,
    );
    return { board, hand };
  },
  // The outcome's collections, in words: "Posters (6 cards, 10 cows) doubled by a bonus: 20".
  breakdown(outcome, ctx) {
    const comp = ctx.comp;
    return (outcome.breakdown || []).map((b) => ({
      seat: b.seat, total: b.points,
      lines: [
        ...b.collections.map((col) => {
          const what = /^\d+$/.test(col.target) ? `${col.target} edition` : categoryName(comp, col.target);
          const how = col.complete ? (col.bonuses.length ? ", doubled by a bonus card" : "")
            : ", counted by a bonus card";
          return [`${what}: ${plural(col.cards.length, "card")}, ${plural(col.cows, "cow")}${how}`, col.points];
        }),
        b.remainder_points ? [`not in a collection: ${plural(b.remainder_cards.length, "card")} (tie-breaker only)`, 0, true] : null,
      ].filter(Boolean),
      note: `tie-breakers: ${b.remainder_points} cows outside collections, ${plural(b.first_edition_cards, "first-edition card")}, ${plural(b.complete_collections, "collection")}`,
    }));
  },
  events: {
    FirstPlayerDrawn: (e, w) => `${w.seat(e.seat)} goes first`,
    CardsDealt: (e, w) => `${w.seat(e.seat)} was dealt ${plural(e.count, "card")}`,
    BonusRowRevealed: (e, w) => `bonus row: ${w.list(e.cards)}`,
    TurnStarted: (e, w) => `${w.seat(e.seat)}'s turn`,
    CardDrawn: (e, w) => (e.source === "centre" ? `${w.seat(e.seat)} took ${w.name(e.card)} from the centre`
      : `${w.seat(e.seat)} drew ${e.card ? w.name(e.card) : "a card"} from the deck`),
    CardsPlaced: (e, w) => `${w.seat(e.seat)} placed ${w.name(e.centre)} in the centre and ${w.name(e.personal)} in their personal area`,
    BonusTaken: (e, w) => `${w.seat(e.seat)} took ${w.name(e.card)}`,
    BonusRevealed: (e, w) => `${w.name(e.card)} was turned up`,
    GameEnded: (e, w) => `the festival is over: ${w.scores(e.scores)}`,
    DeckShuffled: () => null,
    BonusDeckShuffled: () => null,
  },
  label(kind, value, ctx) {
    if (kind === "card" && typeof value === "string") return nameOf(value, ctx.comp);
    return null;
  },
  listWords,
};
