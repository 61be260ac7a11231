// Vilar de Mouros: festival cards (an act of one edition: its year as the card's colour and corner,
// its categories as icons, its cows as pips), bonus cards, the centre, the bonus row, each seat's
// hand (fanned; backs for others) and personal area (grouped by edition). Picked on the table:
// cards ("card:<id>"), the deck (the move DrawFromDeck).

import { h, card, cards, pile, backs, section, plural } from "../ui.js";
import { seatHeader, seatPanel, stat, listWords } from "./common.js";
import { byLanguage, lang, term } from "../words.js";

const GAME = "vilar-de-mouros";
// The screen's words (kept together for translation); the game's own terms (deck, centre, personal
// area, categories) are its catalog's, the Portuguese rulebook's words (domain/vilar_de_mouros/words).
const WORDS = byLanguage({
  en: {
    edition: (year) => `${year} edition`,
    theEdition: (year) => `the ${year} edition`,
    cows: (n) => `${n} cow${n === 1 ? "" : "s"}`,
    cards: (n) => `${n} card${n === 1 ? "" : "s"}`,
    editionCard: (year) => `${year} edition card:`,
    bonusTitle: "Bonus ×2",
    bonusLabel: "bonus card:",
    bonusTip: (what) => `Bonus card: doubles a collection of ${what}`,
    bonusFor: (what) => `the bonus card for ${what}`,
    bonusName: (what) => `bonus: ${what}`,
    card: "card",
    empty: "empty",
    yourHand: "Your hand",
    grounds: "Festival grounds",
    deck: "Deck",
    bonusDeck: "Bonus deck",
    bonusRow: "Bonus row",
    centre: "Centre",
    turnsLeft: "turns left",
    bonusCards: "bonus cards",
    personal: (n) => `Personal area (${n})`,
    revealed: "The decks, revealed at the end",
    doubled: ", doubled by a bonus card",
    counted: ", counted by a bonus card",
    collection: (what, cards, cows, how) => `${what}: ${cards}, ${cows}${how}`,
    remainder: (cards) => `not in a collection: ${cards} (tie-breaker only)`,
    tieBreakers: (cows, first, complete) => `tie-breakers: ${cows} cows outside collections, ${first} first-edition card${first === 1 ? "" : "s"}, ${complete} collection${complete === 1 ? "" : "s"}`,
  },
  pt: {
    edition: (year) => `edição de ${year}`,
    theEdition: (year) => `a edição de ${year}`,
    cows: (n) => (n === 1 ? "1 vaca" : `${n} vacas`),
    cards: (n) => (n === 1 ? "1 carta" : `${n} cartas`),
    editionCard: (year) => `carta da edição de ${year}:`,
    bonusTitle: "Bónus ×2",
    bonusLabel: "carta de bónus:",
    bonusTip: (what) => `Carta de bónus: duplica uma coleção de ${what}`,
    bonusFor: (what) => `a carta de bónus de ${what}`,
    bonusName: (what) => `bónus: ${what}`,
    card: "carta",
    empty: "vazia",
    yourHand: "A sua mão",
    grounds: "Recinto do festival",
    deck: "Baralho",
    bonusDeck: "Baralho de bónus",
    bonusRow: "Cartas de bónus",
    centre: "Centro da mesa",
    turnsLeft: "vezes restantes",
    bonusCards: "cartas de bónus",
    personal: (n) => `Área pessoal (${n})`,
    revealed: "Os baralhos, revelados no fim",
    doubled: ", duplicada por uma carta de bónus",
    counted: ", contada por uma carta de bónus",
    collection: (what, cards, cows, how) => `${what}: ${cards}, ${cows}${how}`,
    remainder: (cards) => `fora de coleções: ${cards} (só para desempate)`,
    tieBreakers: (cows, first, complete) => `desempate: ${cows} vacas fora de coleções, ${first} cartas de primeira edição, ${complete} coleções`,
  },
  gl: {
    edition: (year) => `edición de ${year}`,
    theEdition: (year) => `a edición de ${year}`,
    cows: (n) => (n === 1 ? "1 vaca" : `${n} vacas`),
    cards: (n) => (n === 1 ? "1 carta" : `${n} cartas`),
    editionCard: (year) => `carta da edición de ${year}:`,
    bonusTitle: "Bonificación ×2",
    bonusLabel: "carta de bonificación:",
    bonusTip: (what) => `Carta de bonificación: duplica unha colección de ${what}`,
    bonusFor: (what) => `a carta de bonificación de ${what}`,
    bonusName: (what) => `bonificación: ${what}`,
    card: "carta",
    empty: "baleira",
    yourHand: "A túa man",
    grounds: "Recinto do festival",
    deck: "Mazo",
    bonusDeck: "Mazo de bonificacións",
    bonusRow: "Cartas de bonificación",
    centre: "Centro da mesa",
    turnsLeft: "quendas restantes",
    bonusCards: "cartas de bonificación",
    personal: (n) => `Área persoal (${n})`,
    revealed: "Os mazos, revelados ao final",
    doubled: ", duplicada por unha carta de bonificación",
    counted: ", contada por unha carta de bonificación",
    collection: (what, cards, cows, how) => `${what}: ${cards}, ${cows}${how}`,
    remainder: (cards) => `fóra de coleccións: ${cards} (só para desempate)`,
    tieBreakers: (cows, first, complete) => `desempate: ${cows} vacas fóra de coleccións, ${first} cartas de primeira edición, ${complete} coleccións`,
  },
  es: {
    edition: (year) => `edición de ${year}`,
    theEdition: (year) => `la edición de ${year}`,
    cows: (n) => (n === 1 ? "1 vaca" : `${n} vacas`),
    cards: (n) => (n === 1 ? "1 carta" : `${n} cartas`),
    editionCard: (year) => `carta de la edición de ${year}:`,
    bonusTitle: "Bonificación ×2",
    bonusLabel: "carta de bonificación:",
    bonusTip: (what) => `Carta de bonificación: duplica una colección de ${what}`,
    bonusFor: (what) => `la carta de bonificación de ${what}`,
    bonusName: (what) => `bonificación: ${what}`,
    card: "carta",
    empty: "vacía",
    yourHand: "Tu mano",
    grounds: "Recinto del festival",
    deck: "Mazo",
    bonusDeck: "Mazo de bonificaciones",
    bonusRow: "Cartas de bonificación",
    centre: "Centro de la mesa",
    turnsLeft: "turnos restantes",
    bonusCards: "cartas de bonificación",
    personal: (n) => `Área personal (${n})`,
    revealed: "Los mazos, revelados al final",
    doubled: ", duplicada por una carta de bonificación",
    counted: ", contada por una carta de bonificación",
    collection: (what, cards, cows, how) => `${what}: ${cards}, ${cows}${how}`,
    remainder: (cards) => `fuera de colecciones: ${cards} (solo para desempate)`,
    tieBreakers: (cows, first, complete) => `desempate: ${cows} vacas fuera de colecciones, ${first} cartas de primera edición, ${complete} colecciones`,
  },
});

const CATEGORY = {
  village: { icon: "⌂", word: "village" },
  poster: { icon: "▤", word: "poster" },
  stage: { icon: "♪", word: "stage" },
};
// One colour a decade, dark enough for white corner text; the year is written on the card too.
const DECADES = { 196: "#8c3b2e", 197: "#9a5316", 198: "#7b4bb3", 199: "#2f68c0", 200: "#2a7f62", 201: "#a3324f", 202: "#355c7d" };

function categoryName(comp, c) {
  const own = lang() !== "en" && term(GAME, "category", c);
  if (own) return own;
  const printed = comp.categories && comp.categories[c];
  return printed ? printed.split("/").pop() : c;
}

function targetWords(comp, target) {
  if (/^\d+$/.test(target)) return WORDS.theEdition(target);
  return `${categoryName(comp, target).toLowerCase()}`;
}

function infoOf(id, comp) {
  const c = (comp.game_cards || []).find((x) => x.id === id);
  if (c) {
    const cats = c.categories.map((k) => CATEGORY[k] || { icon: "•", word: k });
    return {
      title: c.name, corner: String(c.year), icon: cats.map((x) => x.icon).join(" "),
      sub: c.categories.map((k) => categoryName(comp, k)).join(" · "),
      lines: [h("span", { class: "cows", "aria-hidden": "true" }, "◖".repeat(c.cows)), ` ${WORDS.cows(c.cows)}`],
      cls: ["vilar", (comp.first_editions || []).includes(c.year) ? "first-edition" : null].filter(Boolean).join(" "),
      colour: DECADES[Math.floor(c.year / 10)] || "#555",
      label: WORDS.editionCard(c.year),
      tip: `${withYear(c)}, ${WORDS.cows(c.cows)}, ${c.categories.map((k) => categoryName(comp, k)).join(", ")}`,
    };
  }
  const b = (comp.bonus_cards || []).find((x) => x.id === id);
  if (b) {
    const cat = CATEGORY[b.target];
    return { title: WORDS.bonusTitle, sub: /^\d+$/.test(b.target) ? WORDS.edition(b.target) : categoryName(comp, b.target),
      corner: /^\d+$/.test(b.target) ? b.target : "", icon: cat ? cat.icon : "✦", cls: "bonus", colour: "#8a6d00",
      label: WORDS.bonusLabel, tip: WORDS.bonusTip(targetWords(comp, b.target)) };
  }
  return { title: WORDS.card };
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
  if (b) return WORDS.bonusFor(targetWords(comp, b.target));
  return null;
}

// The personal area grouped by edition, years in order: the collections a player builds.
function personalArea(ids, comp, c) {
  if (!ids.length) return h("p", { class: "muted" }, WORDS.empty);
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
  rules: byLanguage({
    en: {
      goal: "Collect festival cards into collections: one edition (year), the village, posters or stages. The most points wins.",
      turn: [
        "On your turn, either draw two cards, one at a time, from the deck or the centre, then place two cards from your hand: one in the centre, one in your personal area;",
        "or take one face-up bonus card into your personal area (two or three in a game).",
      ],
      end: "The game ends when every personal area is full (15 cards with 2 or 3 players, 12 with 4, 10 with 5, 9 with 6).",
      score: "Your hand and personal area score together: 3 or more cards of a collection score their cows; a bonus card doubles its collection, or lets a collection of 1 or 2 cards score its cows. A card counts in every collection it belongs to.",
    },
    pt: {
      goal: "Junte cartas do festival em coleções: uma edição (ano), a Aldeia, os Cartazes ou os Palcos. Ganha quem tiver mais pontos.",
      turn: [
        "Na sua vez, ou tira duas cartas, uma de cada vez, do baralho ou do centro da mesa, e depois coloca duas cartas da mão: uma no centro da mesa, outra na sua área pessoal;",
        "ou tira uma carta de bónus virada para cima para a sua área pessoal (duas ou três por jogo).",
      ],
      end: "O jogo termina quando todas as áreas pessoais estão cheias (15 cartas com 2 ou 3 jogadores, 12 com 4, 10 com 5, 9 com 6).",
      score: "A mão e a área pessoal pontuam juntas: 3 ou mais cartas de uma coleção valem as suas vacas; uma carta de bónus duplica a sua coleção, ou faz pontuar uma coleção de 1 ou 2 cartas. Uma carta conta em todas as coleções a que pertence.",
    },
    gl: {
      goal: "Xunta cartas do festival en coleccións: unha edición (ano), a Aldea, os Carteis ou os Escenarios. Gaña quen teña máis puntos.",
      turn: [
        "Na túa quenda, ou roubas dúas cartas, unha de cada vez, do mazo ou do centro da mesa, e despois colocas dúas cartas da man: unha no centro da mesa, outra na túa área persoal;",
        "ou colles unha carta de bonificación descuberta para a túa área persoal (dúas ou tres por partida).",
      ],
      end: "A partida remata cando todas as áreas persoais están cheas (15 cartas con 2 ou 3 xogadores, 12 con 4, 10 con 5, 9 con 6).",
      score: "A man e a área persoal puntúan xuntas: 3 ou máis cartas dunha colección valen as súas vacas; unha carta de bonificación duplica a súa colección, ou fai puntuar unha colección de 1 ou 2 cartas. Unha carta conta en todas as coleccións ás que pertence.",
    },
    es: {
      goal: "Reúne cartas del festival en colecciones: una edición (año), la Aldea, los Carteles o los Escenarios. Gana quien tenga más puntos.",
      turn: [
        "En tu turno, o robas dos cartas, una cada vez, del mazo o del centro de la mesa, y luego colocas dos cartas de la mano: una en el centro de la mesa, otra en tu área personal;",
        "o tomas una carta de bonificación descubierta para tu área personal (dos o tres por partida).",
      ],
      end: "La partida termina cuando todas las áreas personales están llenas (15 cartas con 2 o 3 jugadores, 12 con 4, 10 con 5, 9 con 6).",
      score: "La mano y el área personal puntúan juntas: 3 o más cartas de una colección valen sus vacas; una carta de bonificación duplica su colección, o hace puntuar una colección de 1 o 2 cartas. Una carta cuenta en todas las colecciones a las que pertenece.",
    },
  }),
  fields: { centre: "To the centre", personal: "To your personal area", card: "Card" },
  reasons: { action: "to play", draw: "to draw", place: "to place two cards", bonus: "to take a bonus card" },
  names(comp) {
    return [...(comp.game_cards || []).map((c) => [c.id, withYear(c)]),
      ...(comp.bonus_cards || []).map((b) => [b.id, WORDS.bonusName(targetWords(comp, b.target))])];
  },
  render(view, ctx) {
    const comp = ctx.comp;
    const c = (id) => card(id, infoOf(id, comp), `card:${id}`);
    const mine = view.seats.find((s) => s.seat === view.viewer);
    // a card drawn is carried to the hand; a card placed, from the hand to the centre or the personal area
    const hand = mine && mine.hand ? section(WORDS.yourHand, h("div", { class: "drop-place", "data-drop": "DrawFromCentre.card DrawFromDeck" },
      cards(mine.hand.map(c), { fan: true, testid: `hand-${mine.seat}` }))) : null;
    const board = h("div", { class: "board vilar" },
      section(WORDS.grounds,
        h("div", { class: "row" },
          pile(view.deck_count, "VdM", { name: WORDS.deck, pick: "move:DrawFromDeck", key: "pile:Deck" }),
          pile(view.bonus_deck_count, "★", { name: WORDS.bonusDeck, key: "pile:Bonus deck" }),
          h("div", { class: "grow" }, h("h3", {}, WORDS.bonusRow), cards(view.bonus_row.map(c), { testid: "bonus-row" }))),
        h("div", { class: "drop-place", "data-drop": "PlaceCards.centre", "data-testid": "centre-place" },
          h("h3", {}, WORDS.centre), cards(view.centre.map(c), { testid: "centre", empty: WORDS.empty }))),
      h("div", { class: "seats" }, view.seats.map((s) => seatPanel(s.seat, ctx, seatHeader(s.seat, ctx,
        [stat(WORDS.turnsLeft, s.turns_left), stat(WORDS.bonusCards, s.bonus_cards)]),
      s.seat === view.viewer && hand ? null : h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
        s.hand ? cards(s.hand.map(c), { fan: true, small: true }) : backs(s.hand_count, "VdM")),
      h("div", { class: "drop-place", "data-drop": s.seat === view.viewer ? "PlaceCards.personal" : null, "data-testid": `personal-${s.seat}` },
        h("h4", {}, WORDS.personal(s.personal.length)), personalArea(s.personal, comp, c))))),
      view.deck || view.bonus_deck ? h("details", { class: "panel revealed" }, h("summary", {}, WORDS.revealed),
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
          const what = /^\d+$/.test(col.target) ? WORDS.edition(col.target) : categoryName(comp, col.target);
          const how = col.complete ? (col.bonuses.length ? WORDS.doubled : "") : WORDS.counted;
          return [WORDS.collection(what, WORDS.cards(col.cards.length), WORDS.cows(col.cows), how), col.points];
        }),
        b.remainder_points ? [WORDS.remainder(WORDS.cards(b.remainder_cards.length)), 0, true] : null,
      ].filter(Boolean),
      note: WORDS.tieBreakers(b.remainder_points, b.first_edition_cards, b.complete_collections),
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
  // The command a thing of the table stands for when it is not lit: the server says why it would
  // be refused (picks.js, "why not").
  intent(kind, value, view) {
    if (kind === "move") return value === "DrawFromDeck" ? { type: "DrawFromDeck" } : null;
    if (kind !== "card") return null;
    if ((view.centre || []).includes(value)) return { type: "DrawFromCentre", card: value };
    if ((view.bonus_row || []).includes(value)) return { type: "TakeBonus", card: value };
    // a card of the hand is one to place (with another of the hand beside it)
    const hand = ((view.seats || []).find((s) => s.seat === view.viewer) || {}).hand || [];
    const other = hand.find((c) => c !== value);
    return hand.includes(value) && other ? { type: "PlaceCards", centre: value, personal: other } : null;
  },
  label(kind, value, ctx) {
    if (kind === "card" && typeof value === "string") return nameOf(value, ctx.comp);
    return null;
  },
  listWords,
};
