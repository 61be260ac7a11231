// Vilar de Mouros' turn structure as a boardgame.io game: our own small port, written against
// boardgame.io's public Game API, for the bench's peer (docs/performance.md). The rules are
// domain/vilar_de_mouros/rules.py's: a turn is two draws (deck or centre) and one PlaceCards
// (a hand card to the centre, another to the personal area), or one TakeBonus; a seat short
// of the two bonus cards with no turn to spare must take one; at most three; the game ends
// when every personal area is full. Hands and the decks' order are hidden (playerView).
// Scoring is the collections' points only (no tie-breakers): it runs once, at the end.
'use strict';

const fs = require('fs');
const path = require('path');
const { INVALID_MOVE } = require('boardgame.io/core');

const CARDS = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', '..', 'domain', 'vilar_de_mouros', 'cards.json'), 'utf8'),
);
const GAME_CARDS = new Map(CARDS.game_cards.map((c) => [c.id, c]));
const BONUS_CARDS = new Map(CARDS.bonus_cards.map((b) => [b.id, b]));
const DEAL = { 2: 12, 3: 12, 4: 10, 5: 8, 6: 6 };
const TARGET = { 2: 15, 3: 15, 4: 12, 5: 10, 6: 9 };
const MIN_BONUS = 2;
const MAX_BONUS = 3;

const bonusCount = (G, seat) => G.personal[seat].filter((c) => BONUS_CARDS.has(c)).length;
const turnsLeft = (G, seat) => TARGET[G.players] - G.personal[seat].length;

function bonusRequired(G, seat) {
  const short = MIN_BONUS - bonusCount(G, seat);
  return short > 0 && short >= turnsLeft(G, seat);
}

function without(cards, card) {
  const i = cards.indexOf(card);
  if (i >= 0) cards.splice(i, 1);
}

function mayDraw(G, seat) {
  return G.drawn < 2 && !(G.drawn === 0 && bonusRequired(G, seat));
}

function score(G, seat) {
  const cards = [...G.hands[seat], ...G.personal[seat]];
  const game = cards.filter((c) => GAME_CARDS.has(c)).map((c) => GAME_CARDS.get(c));
  const targets = cards.filter((c) => BONUS_CARDS.has(c)).map((c) => BONUS_CARDS.get(c).target);
  const groups = new Map();
  for (const card of game) {
    for (const key of [String(card.year), ...card.categories]) {
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(card);
    }
  }
  let points = 0;
  for (const [key, members] of groups) {
    const cows = members.reduce((sum, c) => sum + c.cows, 0);
    const complete = members.length >= 3;
    const boosted = targets.includes(key);
    if (complete || boosted) points += complete && boosted ? 2 * cows : cows;
  }
  return points;
}

const Vilar = {
  name: 'vilar-de-mouros',
  minPlayers: 2,
  maxPlayers: 6,

  setup: ({ ctx, random }) => {
    const players = ctx.numPlayers;
    const deck = random.Shuffle([...GAME_CARDS.keys()].sort());
    const bonus = random.Shuffle([...BONUS_CARDS.keys()].sort());
    const deal = DEAL[players];
    const hands = [];
    for (let seat = 0; seat < players; seat++) hands.push(deck.splice(0, deal));
    return {
      players,
      deck,
      bonusDeck: bonus.slice(players + 1),
      bonusRow: bonus.slice(0, players + 1),
      centre: [],
      hands,
      personal: hands.map(() => []),
      drawn: 0,
      first: random.Die(players) - 1,
    };
  },

  turn: {
    order: {
      first: ({ G }) => G.first,
      // The next seat clockwise whose personal area is not full (the game ends before none is left).
      next: ({ G, ctx }) => {
        for (let step = 1; step <= G.players; step++) {
          const seat = (ctx.playOrderPos + step) % G.players;
          if (turnsLeft(G, seat) > 0) return seat;
        }
        return ctx.playOrderPos;
      },
    },
    onBegin: ({ G }) => {
      G.drawn = 0;
    },
  },

  moves: {
    DrawFromDeck: {
      move: ({ G, playerID }) => {
        const seat = Number(playerID);
        if (!mayDraw(G, seat) || G.deck.length === 0) return INVALID_MOVE;
        G.hands[seat].push(G.deck.shift());
        G.drawn += 1;
      },
      client: false,
    },
    DrawFromCentre: {
      move: ({ G, playerID }, card) => {
        const seat = Number(playerID);
        if (!mayDraw(G, seat) || !G.centre.includes(card)) return INVALID_MOVE;
        without(G.centre, card);
        G.hands[seat].push(card);
        G.drawn += 1;
      },
      client: false,
    },
    PlaceCards: {
      move: ({ G, playerID, events }, centre, personal) => {
        const seat = Number(playerID);
        const hand = G.hands[seat];
        if (G.drawn !== 2 || centre === personal || !hand.includes(centre) || !hand.includes(personal)) {
          return INVALID_MOVE;
        }
        without(hand, centre);
        without(hand, personal);
        G.centre.push(centre);
        G.personal[seat].push(personal);
        events.endTurn();
      },
      client: false,
    },
    TakeBonus: {
      move: ({ G, playerID, events }, card) => {
        const seat = Number(playerID);
        if (G.drawn !== 0 || bonusCount(G, seat) >= MAX_BONUS || !G.bonusRow.includes(card)) return INVALID_MOVE;
        without(G.bonusRow, card);
        G.personal[seat].push(card);
        if (G.bonusDeck.length > 0) G.bonusRow.push(G.bonusDeck.shift());
        events.endTurn();
      },
      client: false,
    },
  },

  endIf: ({ G }) => {
    if (G.personal.every((_, seat) => turnsLeft(G, seat) <= 0)) {
      return { scores: G.personal.map((_, seat) => score(G, seat)) };
    }
    return undefined;
  },

  // A seat sees its own hand and every public card; the decks' order and the other hands are hidden.
  playerView: ({ G, playerID }) => ({
    ...G,
    deck: G.deck.length,
    bonusDeck: G.bonusDeck.length,
    hands: G.hands.map((hand, seat) => (String(seat) === String(playerID) ? hand : hand.length)),
  }),
};

module.exports = { Vilar, bonusRequired, TARGET, MAX_BONUS };
