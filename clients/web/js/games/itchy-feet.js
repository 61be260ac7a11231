// Itchy Feet: the centre country and each traveller's own (country cards: the capital, and the
// three objects a traveller needs there, each with its icon, ticked when the viewer holds it),
// the deck, the discard pile, the open trade offer and reaction window, each traveller's hand
// (fanned; backs for others) and travels. Cards by type at a glance: objects blue with their icon,
// passports green ⊛, specials purple ✦, postcards yellow ✉, events red !, forbidden black ⊘.
// Picked on the table: cards ("card:<id>"), countries ("country:<id>"), seats ("seat:<n>"), the
// deck (the move Draw); the object kinds a trade asks for are named from the cards ("kind:<kind>").

import { h, card, cards, pile, backs, section, pill, plural } from "../ui.js";
import { seatHeader, seatPanel, seatToken, stat, listWords } from "./common.js";
import { byLanguage, gameWord, lang, term } from "../words.js";

const GAME = "itchy-feet";
// The screen's words (kept together for translation); the game's own (deck, discard pile, the kinds
// of cards) are its catalog's, in Galician the rulebook's (domain/itchy_feet/words).
const WORDS = byLanguage({
  en: {
    travelledTo2: (places) => `countries travelled to: ${places}`, aCountry: "a country", wonWithPostcards: "won with postcards", wonTheTrip: "won the trip to the centre country",
    card: "card", anObject: "an object", needs: (name, kinds) => `${name}: needs ${kinds}`, countryLabel: "country: ",
    inHand: " in your hand", closesIn: (s) => ` · closes in about ${s} s`, yourHand: "Your hand",
    ofCards: (n, most) => `${n} of ${most} cards`, noCardsInHand: "no cards in hand", table: "The table", none: "none",
    discardPile: (n) => `Discard pile (${n})`, empty: "empty", wholePile: "the whole pile", passportsAside: "passports set aside",
    rejected: "offers rejected this turn", wonByPostcards: (name) => `${name} won the trip with postcards`,
    wonTrip: (name) => `${name} won the trip to the centre country`, aside: (n) => `Countries set aside (${n})`,
    tradeOffer: "Trade offer", offers: " offers ", accepted: " (accepted)", gives: "gives", asksFor: "asks for",
    reactionWindow: "Reaction window", wantsTo: (what) => ` wants to ${what}`, waitingFor: "waiting for: ", hand: "hand",
    score: "score (trips)", aCharacter: "a character", ownCountry: "Own country", travelled: "travelled",
    travelledTo: "Travelled to", nowhere: "nowhere yet", seen: "Seen going into this hand", revealed: "The deck, revealed at the end",
  },
  pt: {
    travelledTo2: (places) => `países visitados: ${places}`, aCountry: "um país", wonWithPostcards: "ganhou com postais", wonTheTrip: "ganhou a viagem ao país do centro",
    card: "carta", anObject: "um objeto", needs: (name, kinds) => `${name}: precisa de ${kinds}`, countryLabel: "país: ",
    inHand: " na sua mão", closesIn: (s) => ` · fecha dentro de cerca de ${s} s`, yourHand: "A sua mão",
    ofCards: (n, most) => `${n} de ${most} cartas`, noCardsInHand: "sem cartas na mão", table: "A mesa", none: "nenhum",
    discardPile: (n) => `Descarte (${n})`, empty: "vazio", wholePile: "a pilha inteira", passportsAside: "passaportes postos de lado",
    rejected: "ofertas recusadas nesta vez", wonByPostcards: (name) => `${name} ganhou a viagem com postais`,
    wonTrip: (name) => `${name} ganhou a viagem ao país do centro`, aside: (n) => `Países postos de lado (${n})`,
    tradeOffer: "Oferta de troca", offers: " oferece a ", accepted: " (aceite)", gives: "dá", asksFor: "pede",
    reactionWindow: "Janela de reação", wantsTo: (what) => ` quer: ${what}`, waitingFor: "à espera de: ", hand: "mão",
    score: "pontos (viagens)", aCharacter: "uma personagem", ownCountry: "País próprio", travelled: "já viajou",
    travelledTo: "Viajou para", nowhere: "ainda nenhum sítio", seen: "Visto a entrar nesta mão", revealed: "O baralho, revelado no fim",
  },
  gl: {
    travelledTo2: (places) => `países visitados: ${places}`, aCountry: "un país", wonWithPostcards: "gañou con postais", wonTheTrip: "gañou a viaxe ao país do centro",
    card: "carta", anObject: "un obxecto", needs: (name, kinds) => `${name}: precisa ${kinds}`, countryLabel: "país: ",
    inHand: " na túa man", closesIn: (s) => ` · pecha en arredor de ${s} s`, yourHand: "A túa man",
    ofCards: (n, most) => `${n} de ${most} cartas`, noCardsInHand: "sen cartas na man", table: "A mesa", none: "ningún",
    discardPile: (n) => `Descartes (${n})`, empty: "baleiro", wholePile: "o monte enteiro", passportsAside: "pasaportes apartados",
    rejected: "ofertas rexeitadas nesta quenda", wonByPostcards: (name) => `${name} gañou a viaxe con postais`,
    wonTrip: (name) => `${name} gañou a viaxe ao país do centro`, aside: (n) => `Países apartados (${n})`,
    tradeOffer: "Oferta de troco", offers: " ofrécelle a ", accepted: " (aceptada)", gives: "dá", asksFor: "pide",
    reactionWindow: "Xanela de reacción", wantsTo: (what) => ` quere: ${what}`, waitingFor: "agardando por: ", hand: "man",
    score: "puntos (viaxes)", aCharacter: "unha personaxe", ownCountry: "País propio", travelled: "xa viaxou",
    travelledTo: "Viaxou a", nowhere: "aínda a ningures", seen: "Visto entrar nesta man", revealed: "O monte, revelado ao final",
  },
  es: {
    travelledTo2: (places) => `países visitados: ${places}`, aCountry: "un país", wonWithPostcards: "ganó con postales", wonTheTrip: "ganó el viaje al país del centro",
    card: "carta", anObject: "un objeto", needs: (name, kinds) => `${name}: necesita ${kinds}`, countryLabel: "país: ",
    inHand: " en tu mano", closesIn: (s) => ` · se cierra en unos ${s} s`, yourHand: "Tu mano",
    ofCards: (n, most) => `${n} de ${most} cartas`, noCardsInHand: "sin cartas en la mano", table: "La mesa", none: "ninguno",
    discardPile: (n) => `Descartes (${n})`, empty: "vacío", wholePile: "el montón entero", passportsAside: "pasaportes apartados",
    rejected: "ofertas rechazadas en este turno", wonByPostcards: (name) => `${name} ganó el viaje con postales`,
    wonTrip: (name) => `${name} ganó el viaje al país del centro`, aside: (n) => `Países apartados (${n})`,
    tradeOffer: "Oferta de intercambio", offers: " ofrece a ", accepted: " (aceptada)", gives: "da", asksFor: "pide",
    reactionWindow: "Ventana de reacción", wantsTo: (what) => ` quiere: ${what}`, waitingFor: "esperando a: ", hand: "mano",
    score: "puntos (viajes)", aCharacter: "un personaje", ownCountry: "País propio", travelled: "ya viajó",
    travelledTo: "Viajó a", nowhere: "a ningún sitio todavía", seen: "Visto entrar en esta mano", revealed: "El mazo, revelado al final",
  },
});
// A card's type in words: the catalog's `word.<key>` (a passport's: its kind's name, in small letters).
const TYPE_WORDS = { object: "object", special: "special_object", postcard: "postcard", event: "event", forbidden: "forbidden_object" };
function typeWord(type) {
  const english = (TYPES[type] || TYPES.object).word;
  if (type !== "passport") return gameWord(GAME, TYPE_WORDS[type] || "object", english);
  const own = lang() !== "en" && term(GAME, "kind", "passport");
  return own ? own.charAt(0).toLowerCase() + own.slice(1) : english;
}
// What a card or a character says, and a country's capital, in the reader's language: the catalog's
// `text.<key>` (the key: the card's id, else its kind, else its type; a character's id) and
// `capital.<country id>`, else as printed.
function textOf(x) {
  if (!x || !x.text) return "";
  if (lang() === "en") return x.text;
  return [x.id, x.kind, x.type].map((k) => (k ? term(GAME, "text", k) : null)).find(Boolean) || x.text;
}
const capitalOf = (c) => (lang() !== "en" && term(GAME, "capital", c.id)) || c.capital;

const TYPES = {
  object: { colour: "#2f68c0", icon: "◈", word: "object" },
  passport: { colour: "#2a7f3a", icon: "⊛", word: "passport" },
  special: { colour: "#7b4bb3", icon: "✦", word: "special object" },
  postcard: { colour: "#7d5e00", icon: "✉", word: "postcard" },
  event: { colour: "#b3261e", icon: "!", word: "event" },
  forbidden: { colour: "#222222", icon: "⊘", word: "forbidden object" },
};
// An icon an object kind, from DejaVu Sans; the name is always written beside it.
const OBJECT_ICONS = {
  beret: "◓", bicycle: "⚲", binoculars: "∞", "bus-pass": "▭", camera: "◘", castanets: "♫", chopsticks: "‖", compass: "✣",
  earplugs: "◦", flashlight: "☼", gloves: "♮", guidebook: "❏", hat: "♛", "hiking-boots": "⌓", pillow: "▢", "pocket-knife": "⚔",
  raincoat: "☂", "road-map": "⊠", sandals: "⌒", scarf: "≈", "sleeping-bag": "⊏", snorkel: "⊸", sunglasses: "⚯", sunscreen: "☀",
  surfboard: "⌀", swimsuit: "♒", tent: "△", toothbrush: "⌿", "train-ticket": "⊞", "travel-adapter": "⌁", umbrella: "☂", "water-bottle": "⚱",
};
const SUITS = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };

const cardOf = (id, comp) => (comp.cards || []).find((x) => x.id === id);
const kindName = (kind, comp) => (comp.cards || []).find((x) => x.kind === kind)?.name || WORDS.anObject;
const iconOf = (c) => (c.type === "object" ? OBJECT_ICONS[c.kind] || "◈" : TYPES[c.type]?.icon || "•");

function cardInfo(id, comp) {
  const c = cardOf(id, comp);
  if (!c) return { title: WORDS.card };
  const t = { ...(TYPES[c.type] || TYPES.object), word: typeWord(c.type) };
  return { title: c.name, sub: t.word, corner: c.suit ? `${c.rank}${SUITS[c.suit] || ""}` : "", icon: iconOf(c),
    lines: c.text ? [textOf(c)] : [], cls: "itchy " + c.type, colour: t.colour, label: `${t.word}:`,
    tip: `${c.name}: ${textOf(c) || t.word}` };
}

function country(id, ctx, { pick = true, holding = null, extra = null } = {}) {
  const comp = ctx.comp;
  const c = (comp.countries || []).find((x) => x.id === id);
  if (!c) return null;
  return h("div", { class: "card country", "data-card": id, "data-key": "country:" + id, "data-flip": "country:" + id,
    "data-pick": pick ? `country:${id}` : null, title: WORDS.needs(c.name, listWords(c.requires.map((k) => kindName(k, comp)))) },
  h("div", { class: "card-band", "aria-hidden": "true" }, h("span", { class: "card-corner" }, ""), h("span", { class: "card-icon" }, "⚑")),
  h("span", { class: "sr-only" }, WORDS.countryLabel),
  h("div", { class: "card-title" }, c.name), h("div", { class: "card-sub" }, capitalOf(c)),
  h("ul", { class: "needs" }, c.requires.map((k) => {
    const has = holding && holding.has(k);
    return h("li", { class: has ? "has" : null }, h("span", { "aria-hidden": "true" }, OBJECT_ICONS[k] || "◈"), " ", kindName(k, comp),
      has ? h("span", { class: "tick" }, " ✓", h("span", { class: "sr-only" }, WORDS.inHand)) : null);
  })), extra);
}

function due(ms) {
  if (!ms) return "";
  return h("span", { class: "due", "data-due": String(ms) }, countdown(ms));
}

export function countdown(ms) {
  const left = Math.max(0, Math.round((ms - Date.now()) / 1000));
  return WORDS.closesIn(left);
}

export default {
  // What each move is, said to a newcomer in "You may: ..." (the panel, at the start of a move).
  may: { Draw: "draw", Recycle: "recycle two cards", OfferTrade: "offer a trade", AcceptTrade: "accept the trade",
    RejectTrade: "turn the trade down", Steal: "steal", Travel: "travel", DitchForbidden: "ditch a forbidden object",
    Smuggle: "smuggle a forbidden object", PlaySpecial: "play a special object", PlayMousetrap: "spring a Mousetrap",
    PassReaction: "let it pass", DiscardDownToSeven: "discard down to seven" },
  // The rules card at the table: the game in a few lines (docs/games/itchy-feet.md has it whole).
  rules: byLanguage({
    en: {
      goal: "Travel to your own country, then be the first to travel to the country in the centre.",
      turn: [
        "On your turn, one action: draw a card; recycle (discard 2, take one from the discard pile); offer another traveller a trade; steal (discard 1, take a random card from a traveller's hand); or travel.",
        "To travel to a country you hold its 3 objects and a passport; they are shown, the objects discarded, and you draw 1.",
        "Hand limit 7 at every moment: over it, discard down to 7.",
      ],
      end: "The first to travel to the centre country wins (with the postcards module, also whoever holds 4 postcards).",
      score: "Each trip made counts one.",
    },
    pt: {
      goal: "Viaje até ao seu próprio país e depois seja o primeiro a viajar até ao país do centro.",
      turn: [
        "Na sua vez, uma ação: tirar uma carta; reciclar (descartar 2, ficar com uma do descarte); propor uma troca a outro viajante; roubar (descartar 1, tirar uma carta ao acaso da mão de um viajante); ou viajar.",
        "Para viajar até um país precisa dos seus 3 objetos e de um passaporte; mostra-os, descarta os objetos e tira 1 carta.",
        "Limite de 7 cartas na mão a todo o momento: acima dele, descarte até ficar com 7.",
      ],
      end: "Ganha o primeiro a viajar até ao país do centro (com o módulo dos postais, também quem tiver 4 postais).",
      score: "Cada viagem feita conta um.",
    },
    gl: {
      goal: "Viaxa ao teu propio país e despois sé o primeiro en viaxar ao país do centro.",
      turn: [
        "Na túa quenda, unha acción: apañar unha carta; reciclar (descartar 2, coller unha dos descartes); ofrecer un troco a outro viaxeiro; roubar (descartar 1, coller unha carta ao chou da man dun viaxeiro); ou viaxar.",
        "Para viaxar a un país precisas os seus 3 obxectos e un pasaporte; amósalos, descartas os obxectos e apañas 1.",
        "Límite de 7 cartas na man en todo momento: se o pasas, descarta ata quedar con 7.",
      ],
      end: "Gaña o primeiro en viaxar ao país do centro (co módulo das postais, tamén quen teña 4 postais).",
      score: "Cada viaxe feita conta un.",
    },
    es: {
      goal: "Viaja a tu propio país y luego sé el primero en viajar al país del centro.",
      turn: [
        "En tu turno, una acción: robar una carta; reciclar (descartar 2, tomar una de los descartes); ofrecer un intercambio a otro viajero; robar a otro (descartar 1, tomar una carta al azar de la mano de un viajero); o viajar.",
        "Para viajar a un país necesitas sus 3 objetos y un pasaporte; los muestras, descartas los objetos y robas 1.",
        "Límite de 7 cartas en la mano en todo momento: si lo pasas, descarta hasta quedarte con 7.",
      ],
      end: "Gana el primero en viajar al país del centro (con el módulo de las postales, también quien tenga 4 postales).",
      score: "Cada viaje hecho cuenta uno.",
    },
  }),
  names(comp) {
    // the kinds a trade asks for: "kind:camera" -> "Camera"
    const kinds = new Map();
    for (const c of comp.cards || []) if (!kinds.has(`kind:${c.kind}`)) kinds.set(`kind:${c.kind}`, c.name);
    return [...kinds.entries()];
  },
  fields: { target: "Player", give: "Give", ask: "Ask for", pay: "Pay with", take: "Take", forbidden: "Forbidden object",
    other: "With", cards: "Cards", card: "Card", country: "Country" },
  reasons: { action: "to play", trade_answer: "to answer a trade", react: "to react", discard: "to discard down to seven" },
  render(view, ctx) {
    const comp = ctx.comp;
    const c = (id) => card(id, cardInfo(id, comp), `card:${id}`);
    const small = (id) => card(id, cardInfo(id, comp));
    const t = view.trade;
    const w = view.window;
    const me = view.seats.find((s) => s.seat === view.viewer);
    const holding = new Set(((me && me.hand) || []).map((id) => cardOf(id, comp)?.kind).filter(Boolean));
    const hand = me && me.hand ? section(WORDS.yourHand, h("p", { class: "muted" }, WORDS.ofCards(me.hand_count, me.hand_limit)),
      cards(me.hand.map(c), { fan: true, testid: `hand-${me.seat}`, empty: WORDS.noCardsInHand })) : null;
    const board = h("div", { class: "board itchy" },
      section(WORDS.table,
        h("div", { class: "row" },
          h("div", {}, h("h3", {}, gameWord(GAME, "centre_country", "centre country", true)), view.centre ? country(view.centre, ctx, { holding }) : h("p", { class: "muted" }, WORDS.none)),
          pile(view.deck_count, "✈", { name: gameWord(GAME, "deck", "deck", true), pick: "move:Draw", key: "pile:Deck" }),
          h("div", { class: "grow drop-place", "data-drop": "DiscardDownToSeven.card Recycle.pay" }, h("h3", {}, WORDS.discardPile(view.discard.length)),
            cards(view.discard.slice(-10).map(c), { fan: true, small: true, empty: WORDS.empty }),
            view.discard.length > 10 ? h("details", {}, h("summary", {}, WORDS.wholePile), cards(view.discard.slice(0, -10).map(c), { fan: true, small: true })) : null)),
        h("p", {}, stat(WORDS.passportsAside, view.passports_aside), stat(WORDS.rejected, view.rejected_offers),
          view.winner !== null && view.winner !== undefined ? pill((view.won_by === "postcards" ? WORDS.wonByPostcards : WORDS.wonTrip)(ctx.seatName(view.winner)), "turn") : null),
        view.aside.length ? h("details", {}, h("summary", {}, WORDS.aside(view.aside.length)),
          h("div", { class: "cards small" }, view.aside.map((id) => country(id, ctx, { pick: false })))) : null),
      t ? section(WORDS.tradeOffer,
        h("p", {}, seatToken(t.offerer, ctx, { pick: false }), WORDS.offers, seatToken(t.target, ctx, { pick: false }), t.accepted ? WORDS.accepted : "", due(t.due_ms)),
        h("div", { class: "row" }, h("div", {}, h("h3", {}, WORDS.gives), cards(t.give.map(small), { small: true })),
          h("div", {}, h("h3", {}, WORDS.asksFor), h("ul", { class: "asks" }, t.ask.map((k) => h("li", {},
            h("span", { "aria-hidden": "true" }, OBJECT_ICONS[k] || "◈"), " ", kindName(k, comp))))))) : null,
      w ? section(WORDS.reactionWindow,
        h("p", {}, seatToken(w.seat, ctx, { pick: false }), WORDS.wantsTo(ctx.describeCommand(w.action).toLowerCase()), due(w.due_ms)),
        h("p", {}, WORDS.waitingFor, listWords(w.waiting.map((s) => ctx.seatName(s))))) : null,
      h("div", { class: "seats" }, view.seats.map((s) => seatPanel(s.seat, ctx,
        seatHeader(s.seat, ctx, [stat(WORDS.hand, `${s.hand_count}/${s.hand_limit}`), stat(WORDS.score, s.travelled.length),
          s.character ? h("span", { class: "pill", title: textOf((comp.characters || []).find((x) => x.id === s.character)) || null },
            ctx.names.get(s.character) || WORDS.aCharacter) : null]),
        h("div", { class: "row" },
          h("div", {}, h("h4", {}, WORDS.ownCountry), s.country ? country(s.country, ctx, { holding: s.seat === view.viewer ? holding : null }) : h("p", { class: "muted" }, WORDS.travelled)),
          h("div", {}, h("h4", {}, WORDS.travelledTo), s.travelled.length ? h("div", { class: "cards small" }, s.travelled.map((id) => country(id, ctx, { pick: false })))
            : h("p", { class: "muted" }, WORDS.nowhere))),
        s.seat === view.viewer && hand ? null : h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
          s.hand ? cards(s.hand.map(c), { fan: true, small: true }) : backs(s.hand_count, "✈")),
        // What this seat saw go into another's hand (a trade, a steal): the person remembers it, as at a real table.
        s.known && s.known.length ? h("div", { class: "known", "data-testid": `known-${s.seat}` },
          h("h4", {}, WORDS.seen), cards(s.known.map(small), { small: true })) : null))),
      view.deck ? h("details", { class: "panel revealed" }, h("summary", {}, WORDS.revealed), cards(view.deck.map(small), { fan: true, small: true })) : null,
    );
    return { board, hand };
  },
  breakdown(outcome, ctx) {
    const travelled = outcome.travelled || [];
    return outcome.scores.map((score, seat) => ({
      seat, total: score,
      lines: [[WORDS.travelledTo2(listWords((travelled[seat] || []).map((id) => ctx.names.get(id) || WORDS.aCountry)) || WORDS.none), score]],
      note: outcome.winner === seat ? (outcome.won_by === "postcards" ? WORDS.wonWithPostcards : WORDS.wonTheTrip) : "",
    }));
  },
  events: {
    PassportReceived: (e, w) => `${w.seat(e.seat)} got a passport`,
    CharactersDealt: () => "the characters were dealt",
    CountriesDealt: (e, w) => `countries dealt; the centre country is ${w.name(e.centre)}`,
    StartingHandDealt: (e, w) => `${w.seat(e.seat)} was dealt ${plural(e.count, "card")}`,
    FirstTravellerChosen: (e, w) => `${w.seat(e.seat)} lives farthest from the centre country and goes first`,
    TravelTurnBegan: (e, w) => `${w.seat(e.seat)}'s turn`,
    ItchyCardDrawn: (e, w) => `${w.seat(e.seat)} drew ${e.card ? w.name(e.card) : "a card"}`,
    EventCardDrawn: (e, w) => `${w.seat(e.seat)} drew the event ${w.name(e.card)}`,
    CardsDiscarded: (e, w) => `${w.seat(e.seat)} discarded ${w.list(e.cards)}`,
    CardTakenFromDiscard: (e, w) => `${w.seat(e.seat)} took ${w.name(e.card)} from the discard pile`,
    ActionDeclared: (e, w) => `${w.seat(e.seat)} declared: ${w.command(e.action)}`,
    ReactionPassed: (e, w) => `${w.seat(e.seat)} let it pass`,
    MousetrapSprung: (e, w) => `${w.seat(e.seat)} sprang ${w.name(e.card)}`,
    ReactionWindowClosed: () => null,
    TradeOffered: (e, w) => `${w.seat(e.offerer)} offered ${w.seat(e.target)} ${w.list(e.give)} for ${listWords(e.ask.map((k) => w.name("kind:" + k)))}`,
    TradeAccepted: () => "the trade was accepted",
    TradeRejected: (e) => (e.timed_out ? "nobody answered the trade in time" : "the trade was turned down"),
    TradeCompleted: (e, w) => `${w.seat(e.offerer)} gave ${w.list(e.given)} to ${w.seat(e.target)} for ${w.list(e.received)}`,
    CardStolen: (e, w) => `${w.seat(e.thief)} stole ${e.card ? w.name(e.card) : "a card"} from ${w.seat(e.victim)}`,
    CardPassed: (e, w) => `${w.seat(e.giver)} passed ${e.card ? w.name(e.card) : "a card"} to ${w.seat(e.receiver)}`,
    Travelled: (e, w) => `${w.seat(e.seat)} travelled to ${w.name(e.country)} with ${w.list(e.used)}`,
    ForbiddenHandedOver: (e, w) => `${w.seat(e.giver)} slipped ${w.name(e.card)} to ${w.seat(e.receiver)}`,
    SpecialPlayed: (e, w) => `${w.seat(e.seat)} played ${w.name(e.card)}`,
    CountryReplaced: (e, w) => `${w.name(e.old)} was replaced by ${w.name(e.new)}`,
    TurnEnded: () => null,
    TripWon: (e, w) => `${w.seat(e.seat)} won the trip${e.how === "postcards" ? " with postcards" : ""}`,
    ItchyDeckShuffled: () => null,
    DiscardPileReshuffled: () => "the discard pile was shuffled into a new deck",
  },
  // The command a thing of the table stands for when it is not lit (picks.js, "why not"): another
  // seat is one to steal from, a country one to travel to.
  intent(kind, value) {
    if (kind === "move") return value === "Draw" ? { type: "Draw" } : null;
    if (kind === "seat") return { type: "Steal", target: Number(value) };
    return kind === "country" ? { type: "Travel", country: value } : null;
  },
  label(kind, value, ctx) {
    if (kind === "kind" && typeof value === "string") return kindName(value, ctx.comp);
    return null;
  },
};
