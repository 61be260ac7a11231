// Itchy Feet: the centre country and each traveller's own (country cards: the capital, and the
// three objects a traveller needs there, each with its icon, ticked when the viewer holds it),
// the deck, the discard pile, the open trade offer and reaction window, each traveller's hand
// (fanned; backs for others) and travels. Cards by type at a glance: objects blue with their icon,
// passports green ⊛, specials purple ✦, postcards yellow ✉, events red !, forbidden black ⊘.
// Picked on the table: cards ("card:<id>"), countries ("country:<id>"), seats ("seat:<n>"), the
// deck (the move Draw); the object kinds a trade asks for are named from the cards ("kind:<kind>").

import { h, card, cards, pile, backs, section, pill, plural } from "../ui.js";
import { seatHeader, seatPanel, seatToken, stat, listWords } from "./common.js";

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
const kindName = (kind, comp) => (comp.cards || []).find((x) => x.kind === kind)?.name || "an object";
const iconOf = (c) => (c.type === "object" ? OBJECT_ICONS[c.kind] || "◈" : TYPES[c.type]?.icon || "•");

function cardInfo(id, comp) {
  const c = cardOf(id, comp);
  if (!c) return { title: "card" };
  const t = TYPES[c.type] || TYPES.object;
  return { title: c.name, sub: t.word, corner: c.suit ? `${c.rank}${SUITS[c.suit] || ""}` : "", icon: iconOf(c),
    lines: c.text ? [c.text] : [], cls: "itchy " + c.type, colour: t.colour, label: `${t.word}:`,
    tip: `${c.name}: ${c.text || t.word}` };
}

function country(id, ctx, { pick = true, holding = null, extra = null } = {}) {
  const comp = ctx.comp;
  const c = (comp.countries || []).find((x) => x.id === id);
  if (!c) return null;
  return h("div", { class: "card country", "data-card": id, "data-key": "country:" + id, "data-flip": "country:" + id,
    "data-pick": pick ? `country:${id}` : null, title: `${c.name}: needs ${listWords(c.requires.map((k) => kindName(k, comp)))}` },
  h("div", { class: "card-band", "aria-hidden": "true" }, h("span", { class: "card-corner" }, ""), h("span", { class: "card-icon" }, "⚑")),
  h("span", { class: "sr-only" }, "country: "),
  h("div", { class: "card-title" }, c.name), h("div", { class: "card-sub" }, c.capital),
  h("ul", { class: "needs" }, c.requires.map((k) => {
    const has = holding && holding.has(k);
    return h("li", { class: has ? "has" : null }, h("span", { "aria-hidden": "true" }, OBJECT_ICONS[k] || "◈"), " ", kindName(k, comp),
      has ? h("span", { class: "tick" }, " ✓", h("span", { class: "sr-only" }, " in your hand")) : null);
  })), extra);
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
  // What each move is, said to a newcomer in "You may: ..." (the panel, at the start of a move).
  may: { Draw: "draw", Recycle: "recycle two cards", OfferTrade: "offer a trade", AcceptTrade: "accept the trade",
    RejectTrade: "turn the trade down", Steal: "steal", Travel: "travel", DitchForbidden: "ditch a forbidden object",
    Smuggle: "smuggle a forbidden object", PlaySpecial: "play a special object", PlayMousetrap: "spring a Mousetrap",
    PassReaction: "let it pass", DiscardDownToSeven: "discard down to seven" },
  // The rules card at the table: the game in a few lines (docs/games/itchy-feet.md has it whole).
  rules: {
    goal: "Travel to your own country, then be the first to travel to the country in the centre.",
    turn: [
      "On your turn, one action: draw a card; recycle (discard 2, take one from the discard pile); offer another traveller a trade; steal (discard 1, take a random card from a traveller's hand); or travel.",
      "To travel to a country you hold its 3 objects and a passport; they are shown, the objects discarded, and you draw 1.",
      "Hand limit 7 at every moment: over it, discard down to 7.",
    ],
    end: "The first to travel to the centre country wins (with the postcards module, also whoever holds 4 postcards).",
    score: "Each trip made counts one.",
  },
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
    const hand = me && me.hand ? section("Your hand", h("p", { class: "muted" }, `${me.hand_count} of ${me.hand_limit} cards`),
      cards(me.hand.map(c), { fan: true, testid: `hand-${me.seat}`, empty: "no cards in hand" })) : null;
    const board = h("div", { class: "board itchy" },
      section("The table",
        h("div", { class: "row" },
          h("div", {}, h("h3", {}, "Centre country"), view.centre ? country(view.centre, ctx, { holding }) : h("p", { class: "muted" }, "none")),
          pile(view.deck_count, "✈", { name: "Deck", pick: "move:Draw" }),
          h("div", { class: "grow drop-place", "data-drop": "DiscardDownToSeven.card Recycle.pay" }, h("h3", {}, `Discard pile (${view.discard.length})`),
            cards(view.discard.slice(-10).map(c), { fan: true, small: true, empty: "empty" }),
            view.discard.length > 10 ? h("details", {}, h("summary", {}, "the whole pile"), cards(view.discard.slice(0, -10).map(c), { fan: true, small: true })) : null)),
        h("p", {}, stat("passports set aside", view.passports_aside), stat("offers rejected this turn", view.rejected_offers),
          view.winner !== null && view.winner !== undefined ? pill(`${ctx.seatName(view.winner)} won the trip${view.won_by === "postcards" ? " with postcards" : " to the centre country"}`, "turn") : null),
        view.aside.length ? h("details", {}, h("summary", {}, `Countries set aside (${view.aside.length})`),
          h("div", { class: "cards small" }, view.aside.map((id) => country(id, ctx, { pick: false })))) : null),
      t ? section("Trade offer",
        h("p", {}, seatToken(t.offerer, ctx, { pick: false }), " offers ", seatToken(t.target, ctx, { pick: false }), t.accepted ? " (accepted)" : "", due(t.due_ms)),
        h("div", { class: "row" }, h("div", {}, h("h3", {}, "gives"), cards(t.give.map(small), { small: true })),
          h("div", {}, h("h3", {}, "asks for"), h("ul", { class: "asks" }, t.ask.map((k) => h("li", {},
            h("span", { "aria-hidden": "true" }, OBJECT_ICONS[k] || "◈"), " ", kindName(k, comp))))))) : null,
      w ? section("Reaction window",
        h("p", {}, seatToken(w.seat, ctx, { pick: false }), ` wants to ${ctx.describeCommand(w.action).toLowerCase()}`, due(w.due_ms)),
        h("p", {}, "waiting for: ", listWords(w.waiting.map((s) => ctx.seatName(s))))) : null,
      h("div", { class: "seats" }, view.seats.map((s) => seatPanel(s.seat, ctx,
        seatHeader(s.seat, ctx, [stat("hand", `${s.hand_count}/${s.hand_limit}`), stat("score (trips)", s.travelled.length),
          s.character ? h("span", { class: "pill", title: (comp.characters || []).find((x) => x.id === s.character)?.text || null },
            ctx.names.get(s.character) || "a character") : null]),
        h("div", { class: "row" },
          h("div", {}, h("h4", {}, "Own country"), s.country ? country(s.country, ctx, { holding: s.seat === view.viewer ? holding : null }) : h("p", { class: "muted" }, "travelled")),
          h("div", {}, h("h4", {}, "Travelled to"), s.travelled.length ? h("div", { class: "cards small" }, s.travelled.map((id) => country(id, ctx, { pick: false })))
            : h("p", { class: "muted" }, "nowhere yet"))),
        s.seat === view.viewer && hand ? null : h("div", { class: "hand", "data-testid": `hand-${s.seat}` },
          s.hand ? cards(s.hand.map(c), { fan: true, small: true }) : backs(s.hand_count, "✈", "hand")),
        // What this seat saw go into another's hand (a trade, a steal): the person remembers it, as at a real table.
        s.known && s.known.length ? h("div", { class: "known", "data-testid": `known-${s.seat}` },
          h("h4", {}, "Seen going into this hand"), cards(s.known.map(small), { small: true })) : null))),
      view.deck ? h("details", { class: "panel revealed" }, h("summary", {}, "The deck, revealed at the end"), cards(view.deck.map(small), { fan: true, small: true })) : null,
    );
    return { board, hand };
  },
  breakdown(outcome, ctx) {
    const travelled = outcome.travelled || [];
    return outcome.scores.map((score, seat) => ({
      seat, total: score,
      lines: [[`countries travelled to: ${listWords((travelled[seat] || []).map((id) => ctx.names.get(id) || "a country")) || "none"}`, score]],
      note: outcome.winner === seat ? (outcome.won_by === "postcards" ? "won with postcards" : "won the trip to the centre country") : "",
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
  label(kind, value, ctx) {
    if (kind === "kind" && typeof value === "string") return kindName(value, ctx.comp);
    return null;
  },
};
