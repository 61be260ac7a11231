// I Love Portugal: the board as the printed one shows it, the mainland, the Azores and Madeira,
// the black circles of the regions (their colour and symbol, rating, cube spaces, photos left)
// and the grey circles of the routes, land routes as ropes and sea routes as blue dashes, the
// tourists as pawns. The shop's piles, each seat's hand (fanned), draw and discard piles, photos by
// colour. Picked on the table: circles ("circle:<id>"; a region's black circle is "region:<id>"
// too), the shop's piles ("pile:<kind>"), the colours ("colour:<c>"), the photo pile (BuyPhoto).

import { h, svg, card, cards, pile, backs, section, plural, colourOf, swatch, hidden } from "../ui.js";
import { seatHeader, seatPanel, stat, listWords } from "./common.js";
import { byLanguage, euros, lang, term } from "../words.js";

// The screen's words (kept together for translation); the game's own (piles, Backpack, Tourist)
// are its catalog's (domain/i_love_portugal/words), prices in euros the reader's way.
const WORDS = byLanguage({
  en: {
    photosBought: (n) => `photos bought: ${n} photo${n === 1 ? "" : "s"}`, setLine: (n, colour, symbol, sets) => `${n} ${colour} photo${n === 1 ? "" : "s"} ${symbol}: ${sets} set${sets === 1 ? "" : "s"}`,
    turnOrder: (n) => `turn order for ties: ${n}`,
    eur: (n) => `${n} €`,
    photo: (colour) => `${colour} photo:`, photoOf: (region, colour) => `Photo of ${region} (${colour})`, aRegion: "a region",
    backpack: "Backpack", backpackWorth: (colour) => `${colour} backpack worth`, backpackTip: (price, colour) => `Backpack card worth ${price} (${colour})`,
    card: "card", pays: (price) => `pays ${price}`,
    pileTip: (name, price, kind) => `${name} card: pays ${price}${kind === "plane" ? ", or flies your tourist to an airport" : ""}${kind === "album" ? ", makes a photo pay" : ""}`,
    thePhoto: (title, sub) => `the photo ${title} (${sub})`, aBackpack: (title) => `a ${title} backpack`, aCard: (title) => `a ${title} card`,
    greyCircle: (n, way) => `grey circle ${n} on the way ${way}`.replace(/ {2}/g, " "),
    noMap: "The catalog has no map for this game.", map: "Map of Portugal, the Azores and Madeira",
    regionLabel: (name, colour, airport) => `${name}, ${colour} region${airport ? ", airport" : ""}`,
    regionPhoto: (price, left, cubes, spaces) => `, photo ${price}, ${left} photo${left === 1 ? "" : "s"} left, cubes: ${cubes} of ${spaces}`,
    none: "none", touristOf: (names) => `, tourist of ${names}`,
    yourHand: "Your hand", turnCosts: (price) => ` · this turn costs ${price}`, noCardsInHand: "no cards in hand",
    colours: "Colours", shop: "Shop", finalRound: "final round", toBuy: (price, left) => `${price} to buy · ${left} left`,
    pile: (title) => `${title} pile:`, photoPile: "Photo pile", score: "score ", scoreParts: (photos, sets) => ` (photos ${photos} + colour sets ${sets})`,
    neutral: "neutral", cubesLeft: "cubes left", at: "at", aGreyCircle: "a grey circle", notPlaced: "not placed", drawPile: "Draw pile",
    discardPile: "Discard pile", photos: (n) => `Photos (${n})`, drawRevealed: "Draw pile, revealed",
  },
  pt: {
    photosBought: (n) => (n === 1 ? "fotos compradas: 1 foto" : `fotos compradas: ${n} fotos`), setLine: (n, colour, symbol, sets) => `${n} ${n === 1 ? "foto" : "fotos"} ${colour} ${symbol}: ${sets} ${sets === 1 ? "conjunto" : "conjuntos"}`,
    turnOrder: (n) => `ordem de jogo para desempate: ${n}`,
    eur: (n) => euros(n),
    photo: (colour) => `foto ${colour}:`, photoOf: (region, colour) => `Foto de ${region} (${colour})`, aRegion: "uma região",
    backpack: "Mochila", backpackWorth: (colour) => `Mochila ${colour} que vale`, backpackTip: (price, colour) => `Carta Mochila que vale ${price} (${colour})`,
    card: "carta", pays: (price) => `paga ${price}`,
    pileTip: (name, price, kind) => `Carta ${name}: paga ${price}${kind === "plane" ? ", ou leva o seu turista de avião a um aeroporto" : ""}${kind === "album" ? ", faz pagar uma foto" : ""}`,
    thePhoto: (title, sub) => `a foto ${title} (${sub})`, aBackpack: (title) => `uma Mochila de ${title}`, aCard: (title) => `uma carta ${title}`,
    greyCircle: (n, way) => `círculo cinzento ${n} no caminho ${way}`.replace(/ {2}/g, " "),
    noMap: "O catálogo não tem mapa para este jogo.", map: "Mapa de Portugal, dos Açores e da Madeira",
    regionLabel: (name, colour, airport) => `${name}, região ${colour}${airport ? ", aeroporto" : ""}`,
    regionPhoto: (price, left, cubes, spaces) => `, foto ${price}, ${left === 1 ? "resta 1 foto" : `restam ${left} fotos`}, cubos: ${cubes} de ${spaces}`,
    none: "nenhum", touristOf: (names) => `, turista de ${names}`,
    yourHand: "A sua mão", turnCosts: (price) => ` · este turno custa ${price}`, noCardsInHand: "sem cartas na mão",
    colours: "Cores", shop: "Loja", finalRound: "última ronda", toBuy: (price, left) => `${price} para comprar · restam ${left}`,
    pile: (title) => `pilha ${title}:`, photoPile: "Pilha de fotos", score: "pontos ", scoreParts: (photos, sets) => ` (fotos ${photos} + conjuntos de cor ${sets})`,
    neutral: "neutro", cubesLeft: "cubos restantes", at: "em", aGreyCircle: "um círculo cinzento", notPlaced: "não colocado", drawPile: "Pilha de compra",
    discardPile: "Pilha de descarte", photos: (n) => `Fotos (${n})`, drawRevealed: "Pilha de compra, revelada",
  },
  gl: {
    photosBought: (n) => (n === 1 ? "fotos mercadas: 1 foto" : `fotos mercadas: ${n} fotos`), setLine: (n, colour, symbol, sets) => `${n} ${n === 1 ? "foto" : "fotos"} ${colour} ${symbol}: ${sets} ${sets === 1 ? "serie" : "series"}`,
    turnOrder: (n) => `orde de xogo para o desempate: ${n}`,
    eur: (n) => euros(n),
    photo: (colour) => `foto ${colour}:`, photoOf: (region, colour) => `Foto de ${region} (${colour})`, aRegion: "unha rexión",
    backpack: "Mochila", backpackWorth: (colour) => `Mochila ${colour} que vale`, backpackTip: (price, colour) => `Carta Mochila que vale ${price} (${colour})`,
    card: "carta", pays: (price) => `paga ${price}`,
    pileTip: (name, price, kind) => `Carta ${name}: paga ${price}${kind === "plane" ? ", ou leva o teu turista en avión a un aeroporto" : ""}${kind === "album" ? ", fai pagar unha foto" : ""}`,
    thePhoto: (title, sub) => `a foto ${title} (${sub})`, aBackpack: (title) => `unha Mochila de ${title}`, aCard: (title) => `unha carta ${title}`,
    greyCircle: (n, way) => `círculo gris ${n} no camiño ${way}`.replace(/ {2}/g, " "),
    noMap: "O catálogo non ten mapa para este xogo.", map: "Mapa de Portugal, as Azores e Madeira",
    regionLabel: (name, colour, airport) => `${name}, rexión ${colour}${airport ? ", aeroporto" : ""}`,
    regionPhoto: (price, left, cubes, spaces) => `, foto ${price}, ${left === 1 ? "queda 1 foto" : `quedan ${left} fotos`}, cubos: ${cubes} de ${spaces}`,
    none: "ningún", touristOf: (names) => `, turista de ${names}`,
    yourHand: "A túa man", turnCosts: (price) => ` · esta quenda custa ${price}`, noCardsInHand: "sen cartas na man",
    colours: "Cores", shop: "Tenda", finalRound: "última rolda", toBuy: (price, left) => `${price} para mercar · quedan ${left}`,
    pile: (title) => `monte ${title}:`, photoPile: "Monte de fotos", score: "puntos ", scoreParts: (photos, sets) => ` (fotos ${photos} + series de cor ${sets})`,
    neutral: "neutro", cubesLeft: "cubos restantes", at: "en", aGreyCircle: "un círculo gris", notPlaced: "sen colocar", drawPile: "Monte para roubar",
    discardPile: "Descartes", photos: (n) => `Fotos (${n})`, drawRevealed: "Monte para roubar, revelado",
  },
  es: {
    photosBought: (n) => (n === 1 ? "fotos compradas: 1 foto" : `fotos compradas: ${n} fotos`), setLine: (n, colour, symbol, sets) => `${n} ${n === 1 ? "foto" : "fotos"} ${colour} ${symbol}: ${sets} ${sets === 1 ? "serie" : "series"}`,
    turnOrder: (n) => `orden de juego para el desempate: ${n}`,
    eur: (n) => euros(n),
    photo: (colour) => `foto ${colour}:`, photoOf: (region, colour) => `Foto de ${region} (${colour})`, aRegion: "una región",
    backpack: "Mochila", backpackWorth: (colour) => `Mochila ${colour} que vale`, backpackTip: (price, colour) => `Carta Mochila que vale ${price} (${colour})`,
    card: "carta", pays: (price) => `paga ${price}`,
    pileTip: (name, price, kind) => `Carta ${name}: paga ${price}${kind === "plane" ? ", o lleva a tu turista en avión a un aeropuerto" : ""}${kind === "album" ? ", hace pagar una foto" : ""}`,
    thePhoto: (title, sub) => `la foto ${title} (${sub})`, aBackpack: (title) => `una Mochila de ${title}`, aCard: (title) => `una carta ${title}`,
    greyCircle: (n, way) => `círculo gris ${n} en el camino ${way}`.replace(/ {2}/g, " "),
    noMap: "El catálogo no tiene mapa para este juego.", map: "Mapa de Portugal, las Azores y Madeira",
    regionLabel: (name, colour, airport) => `${name}, región ${colour}${airport ? ", aeropuerto" : ""}`,
    regionPhoto: (price, left, cubes, spaces) => `, foto ${price}, ${left === 1 ? "queda 1 foto" : `quedan ${left} fotos`}, cubos: ${cubes} de ${spaces}`,
    none: "ninguno", touristOf: (names) => `, turista de ${names}`,
    yourHand: "Tu mano", turnCosts: (price) => ` · este turno cuesta ${price}`, noCardsInHand: "sin cartas en la mano",
    colours: "Colores", shop: "Tienda", finalRound: "última ronda", toBuy: (price, left) => `${price} para comprar · quedan ${left}`,
    pile: (title) => `montón ${title}:`, photoPile: "Montón de fotos", score: "puntos ", scoreParts: (photos, sets) => ` (fotos ${photos} + series de color ${sets})`,
    neutral: "neutro", cubesLeft: "cubos restantes", at: "en", aGreyCircle: "un círculo gris", notPlaced: "sin colocar", drawPile: "Mazo de robo",
    discardPile: "Descartes", photos: (n) => `Fotos (${n})`, drawRevealed: "Mazo de robo, revelado",
  },
});


// The mainland's coast and border, as longitude and latitude (a simplified outline, public
// geography), drawn with the board data's own projection (the regions' `ref` says it:
// x = (lon + 10) * 250 + 100, y = (42.3 - lat) * 220 + 40).
const MAINLAND = [
  [-8.87, 41.87], [-8.6, 42.05], [-8.2, 42.15], [-8.05, 41.83], [-7.6, 41.87], [-7.2, 41.88], [-6.9, 41.95],
  [-6.55, 41.95], [-6.2, 41.6], [-6.5, 41.3], [-6.8, 41.05], [-6.93, 40.9], [-6.8, 40.5], [-6.85, 40.25],
  [-7.0, 40.15], [-7.0, 39.67], [-7.3, 39.45], [-7.2, 39.2], [-7.0, 38.9], [-7.2, 38.75], [-7.3, 38.45],
  [-7.1, 38.2], [-6.95, 38.2], [-7.3, 38.0], [-7.5, 37.6], [-7.42, 37.19], [-7.9, 37.0], [-8.3, 37.08],
  [-8.67, 37.1], [-8.99, 37.02], [-8.8, 37.4], [-8.87, 37.95], [-8.75, 38.3], [-8.98, 38.45], [-9.21, 38.41],
  [-9.1, 38.65], [-9.5, 38.72], [-9.4, 39.1], [-9.38, 39.36], [-9.07, 39.6], [-8.87, 40.15], [-8.75, 40.64],
  [-8.65, 41.0], [-8.68, 41.18], [-8.78, 41.5],
];
const project = ([lon, lat]) => [(lon + 10) * 250 + 100, (42.3 - lat) * 220 + 40];

// The islands around a circle drawn as an inset: a few blobs, as the board's insets show them.
const ISLANDS = {
  acores: [[-40, -18, 16, 7], [-8, 6, 20, 8], [28, 22, 13, 6], [44, -10, 9, 5]],
  madeira: [[-6, 0, 30, 11], [38, -24, 8, 5]],
};

// A shop pile's name: the catalog's term in the reader's language (the rulebook's "Álbum", "Avião").
const pileName = (p) => (lang() !== "en" && term("i-love-portugal", "pile", p.kind)) || p.name;

function cardInfo(id, comp) {
  const photo = (comp.photos || []).find((p) => p.id === id);
  if (photo) {
    const region = (comp.regions || []).find((r) => r.id === photo.region);
    const c = colourOf(region && region.colour);
    return { title: photo.name, sub: region ? region.name : "", corner: c.symbol, icon: "◙", cls: "photo",
      colour: c.fill, label: WORDS.photo(c.name), tip: WORDS.photoOf(region ? region.name : WORDS.aRegion, c.name) };
  }
  let m = /^backpack-([a-z]+)-(\d+)eur/.exec(id);
  if (m) {
    const c = colourOf(m[1]);
    return { title: WORDS.eur(Number(m[2])), sub: WORDS.backpack, corner: c.symbol, icon: "♜", cls: "backpack", colour: c.fill,
      label: WORDS.backpackWorth(c.name), tip: WORDS.backpackTip(WORDS.eur(Number(m[2])), c.name) };
  }
  m = /^(selfie|album|plane)/.exec(id);
  if (m) {
    const p = (comp.piles || []).find((x) => x.kind === m[1]);
    const icon = { selfie: "☺", album: "▥", plane: "✈" }[m[1]];
    return { title: p ? pileName(p) : WORDS.card, sub: p ? WORDS.pays(WORDS.eur(p.value)) : "", corner: p ? `${p.value}€` : "", icon, cls: m[1],
      tip: p ? WORDS.pileTip(pileName(p), WORDS.eur(p.value), m[1]) : "" };
  }
  return { title: WORDS.card };
}

function cardName(id, comp) {
  const i = cardInfo(id, comp);
  if (i.cls === "photo") return WORDS.thePhoto(i.title, i.sub);
  if (i.cls === "backpack") return WORDS.aBackpack(i.title);
  return i.title === WORDS.card ? null : WORDS.aCard(i.title);
}

function circlesOf(comp) {
  const circles = new Map();
  for (const r of comp.regions || []) circles.set(r.id, { ...r, black: true });
  for (const w of comp.waypoints || []) circles.set(w.id, { ...w, black: false });
  return circles;
}

function waypointName(id, comp) {
  const regions = new Map((comp.regions || []).map((r) => [r.id, r.name]));
  const parts = id.split("~");
  const n = /^\d+$/.test(parts[parts.length - 1]) ? parts.pop() : "";
  return WORDS.greyCircle(n, parts.map((p) => regions.get(p) || "").join("–"));
}

// Where each region's name is written: above its circle, else below, left or right, the first of
// these that covers no other name and no other region's circle (Lisboa and Setúbal stand close).
// Sizes in the map's units: a name is 23 px bold, about 14 a letter.
const LABEL_SIDES = [
  (x, y, w) => ({ x, y: y - 38, anchor: null, box: [x - w / 2, y - 57, x + w / 2, y - 33] }),
  (x, y, w) => ({ x, y: y + 76, anchor: null, box: [x - w / 2, y + 57, x + w / 2, y + 81] }),
  (x, y, w) => ({ x: x - 52, y: y + 8, anchor: "end", box: [x - 52 - w, y - 11, x - 52, y + 13] }),
  (x, y, w) => ({ x: x + 64, y: y + 8, anchor: "start", box: [x + 64, y - 11, x + 64 + w, y + 13] }),
];
const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

function placeLabels(regions) {
  const circles = regions.map((c) => ({ id: c.id, box: [c.x - 48, c.y - 48, c.x + 62, c.y + 52] }));
  const taken = [];
  const placed = new Map();
  for (const c of regions.slice().sort((p, q) => p.y - q.y || p.x - q.x)) {
    const w = c.name.length * 14;
    const free = (at) => at.box[0] >= 0 && at.box[2] <= 1120 && !taken.some((b) => overlap(b, at.box))
      && !circles.some((o) => o.id !== c.id && overlap(o.box, at.box));
    const at = LABEL_SIDES.map((side) => side(c.x, c.y, w)).find(free) || LABEL_SIDES[0](c.x, c.y, w);
    taken.push(at.box);
    placed.set(c.id, at);
  }
  return placed;
}

function mapOf(view, ctx) {
  const comp = ctx.comp;
  const circles = circlesOf(comp);
  const all = [...circles.values()];
  if (!all.length) return h("p", { class: "muted" }, WORDS.noMap);
  const regions = new Map((view.regions || []).map((r) => [r.region, r]));
  const tourists = new Map();
  (view.seats || []).forEach((s, seat) => { if (s.tourist) tourists.set(s.tourist, [...(tourists.get(s.tourist) || []), seat]); });
  const parts = [svg("rect", { x: 0, y: 0, width: 1120, height: 1300, class: "sea" })];
  parts.push(svg("path", { class: "land", d: "M" + MAINLAND.map(project).map((p) => p.join(",")).join(" L") + " Z" }));
  for (const [id, blobs] of Object.entries(ISLANDS)) {
    const c = circles.get(id);
    if (!c) continue;
    parts.push(svg("rect", { x: c.x - 75, y: c.y - 60, width: 150, height: 120, rx: 10, class: "inset" }));
    for (const [dx, dy, rx, ry] of blobs) parts.push(svg("ellipse", { cx: c.x + dx, cy: c.y + dy, rx, ry, class: "land" }));
  }
  for (const con of comp.connections || []) {
    const a = circles.get(con.a), b = circles.get(con.b);
    if (!a || !b) continue;
    parts.push(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "connection " + con.kind }));
  }
  const labels = placeLabels(all.filter((c) => c.black));
  // north to south, so Tab walks the map as a reader does
  for (const c of all.slice().sort((p, q) => p.y - q.y || p.x - q.x)) {
    const r = regions.get(c.id);
    const here = (tourists.get(c.id) || []).map((s) => ctx.seatName(s));
    let label;
    // buying a photo is a map move too: the viewer's tourist's black circle stands for it
    const mineHere = c.black && view.viewer !== null && view.viewer !== undefined && view.seats[view.viewer]?.tourist === c.id;
    const g = svg("g", { class: ["circle", c.black ? "region" : "waypoint"], "data-circle": c.id, "data-key": "circle:" + c.id,
      "data-pick": c.black ? `circle:${c.id} region:${c.id}${mineHere ? " move:BuyPhoto" : ""}` : `circle:${c.id}`, role: "img", "data-role": "img" });
    g.append(svg("circle", { cx: c.x, cy: c.y, r: c.black ? 46 : 22, class: "halo" })); // shown round a target
    if (c.black) {
      const col = colourOf(c.colour);
      const cubes = r ? [...(r.neutral ? [WORDS.neutral] : []), ...r.cubes.map((s) => ctx.seatName(s))] : [];
      label = WORDS.regionLabel(c.name, col.name, c.airport) + (r ? WORDS.regionPhoto(WORDS.eur(r.price), r.photos_left, cubes.length ? listWords(cubes) : WORDS.none, r.spaces) : "")
        + (here.length ? WORDS.touristOf(listWords(here)) : "");
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 31, class: "ring", fill: col.fill }));
      g.append(svg("text", { x: c.x - 20, y: c.y - 14, class: "symbol", "aria-hidden": "true" }, col.symbol));
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 16, class: "black" }));
      const at = labels.get(c.id);
      g.append(svg("text", { x: at.x, y: at.y, class: ["label", at.anchor], "aria-hidden": "true" }, c.name));
      if (r) {
        g.append(svg("text", { x: c.x, y: c.y + 5, class: "price", "aria-hidden": "true" }, `${r.price}€`));
        const fills = [...(r.neutral ? [{ fill: "#fff", seat: "neutral" }] : []), ...r.cubes.map((s) => ({ fill: colourOf(ctx.seatColour(s)).fill, seat: String(s), symbol: colourOf(ctx.seatColour(s)).symbol }))];
        for (let i = 0; i < r.spaces; i++) {
          const cube = fills[i];
          const x = c.x - 24 + i * 18, y = c.y + 35;
          g.append(svg("rect", { x, y, width: 15, height: 15, rx: 2, class: cube ? "cube" : "space", fill: cube ? cube.fill : "none",
            "data-cube": cube ? cube.seat : null, "aria-hidden": "true" }));
          if (cube && cube.symbol) g.append(svg("text", { x: x + 7.5, y: y + 12, class: "cube-symbol", "aria-hidden": "true" }, cube.symbol));
        }
        g.append(svg("text", { x: c.x + 36, y: c.y + 12, class: "photos-left", "aria-hidden": "true" }, `◙${r.photos_left}`));
      }
      if (c.airport) g.append(svg("text", { x: c.x + 22, y: c.y - 18, class: "airport", "aria-hidden": "true" }, "✈"));
    } else {
      label = waypointName(c.id, comp) + (here.length ? WORDS.touristOf(listWords(here)) : "");
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 10, class: "grey" }));
    }
    g.setAttribute("aria-label", label);
    parts.push(g);
  }
  // tourists: a pawn a seat, in its colour with its symbol, beside its circle
  for (const [at, seats] of tourists) {
    const c = circles.get(at);
    if (!c) continue;
    seats.forEach((seat, n) => {
      const col = colourOf(ctx.seatColour(seat));
      const x = c.x - 46 - n * 24, y = c.y + 2;
      parts.push(svg("g", { class: "tourist", "data-tourist": String(seat), "data-key": "tourist:" + seat, "data-flip": "tourist:" + seat,
        "aria-hidden": "true" },
      svg("circle", { cx: x, cy: y - 18, r: 10, fill: col.fill }),
      svg("path", { d: `M${x - 13},${y + 14} L${x},${y - 8} L${x + 13},${y + 14} Z`, fill: col.fill }),
      svg("text", { x, y: y + 11, class: "pawn-symbol" }, col.symbol)));
    });
  }
  return svg("svg", { class: "map", viewBox: "0 0 1120 1300", role: "group", "aria-label": WORDS.map, "data-testid": "map" }, parts);
}

// Photo points (the view's score) and the colour sets the photos make, from the board data's set
// rule (set_size, set_points): the same sum the final count makes.
function setPoints(photos, comp) {
  const colourOfPhoto = (id) => {
    const p = (comp.photos || []).find((x) => x.id === id);
    const r = p && (comp.regions || []).find((x) => x.id === p.region);
    return r ? r.colour : null;
  };
  const count = new Map();
  for (const id of photos || []) { const c = colourOfPhoto(id); if (c) count.set(c, (count.get(c) || 0) + 1); }
  const sizes = comp.set_size || { default: 3 };
  let points = 0;
  for (const [c, n] of count) points += Math.floor(n / (sizes[c] || sizes.default || 3)) * (comp.set_points || 10);
  return { points, count };
}

function photosByColour(photos, comp, small) {
  const groups = new Map();
  for (const id of photos) {
    const p = (comp.photos || []).find((x) => x.id === id);
    const r = p && (comp.regions || []).find((x) => x.id === p.region);
    const c = r ? r.colour : "grey";
    if (!groups.has(c)) groups.set(c, []);
    groups.get(c).push(id);
  }
  return h("div", { class: "collections" }, [...groups.entries()].map(([c, ids]) => h("div", { class: "collection", "data-key": "photos:" + c },
    h("div", { class: "cards fan small" }, ids.map(small)))));
}

export default {
  // What each move is, said to a newcomer in "You may: ..." (the panel, at the start of a move).
  may: { ChooseColour: "choose a colour", PlaceTourist: "place your tourist", MoveTourist: "walk to a lit circle",
    BuyCard: "buy a card of a lit pile", BuyPhoto: "buy the photo where you stand", FlyTo: "fly to a lit airport",
    EndTurnAndDraw: "end the turn and draw" },
  // The rules card at the table: the game in a few lines (docs/games/i-love-portugal.md has it whole).
  rules: byLanguage({
    en: {
      goal: "Travel Portugal with your tourist and buy photos of its regions: photos score their price in points, and 3 photos of one colour 10 more.",
      turn: [
        "On your turn, do any of these, as often as you can pay: walk to a neighbouring circle (1 €), buy a card from the shop, buy the photo of the region you stand in (one a region), fly with a Plane to an airport.",
        "Then end the turn: your hand pays what the turn cost (a Backpack its face, a Selfie or a Plane 3 €, an Album 2 €), is discarded, and you draw 5.",
      ],
      end: "When a player places their last cube, the round is played to its end, then the game ends.",
      score: "Points from photos, plus 10 for every 3 photos of one colour (every 2 grey ones).",
    },
    pt: {
      goal: "Percorra Portugal com o seu Turista e compre fotos das suas regiões: as fotos valem o seu preço em pontos, e 3 fotos de uma cor mais 10.",
      turn: [
        "Na sua vez, faça qualquer uma destas ações, tantas vezes quantas puder pagar: andar para um círculo vizinho (1 €), comprar uma carta da loja, comprar a foto da região onde está (uma por região), voar com um Avião para um aeroporto.",
        "Depois termine o turno: a mão paga o que o turno custou (uma Mochila o seu valor, uma Selfie ou um Avião 3 €, um Álbum 2 €), é descartada, e tira 5.",
      ],
      end: "Quando um jogador coloca o seu último cubo, a ronda é jogada até ao fim e o jogo termina.",
      score: "Pontos das fotos, mais 10 por cada 3 fotos de uma cor (cada 2 cinzentas).",
    },
    gl: {
      goal: "Percorre Portugal co teu Turista e merca fotos das súas rexións: as fotos valen o seu prezo en puntos, e 3 fotos dunha cor 10 máis.",
      turn: [
        "Na túa quenda, fai calquera destas accións, tantas veces como poidas pagar: andar a un círculo veciño (1 €), mercar unha carta da tenda, mercar a foto da rexión onde estás (unha por rexión), voar cun Avión a un aeroporto.",
        "Despois remata a quenda: a man paga o que custou a quenda (unha Mochila o seu valor, unha Selfie ou un Avión 3 €, un Álbum 2 €), descártase, e roubas 5.",
      ],
      end: "Cando un xogador coloca o seu último cubo, xógase a rolda ata o final e a partida remata.",
      score: "Puntos das fotos, máis 10 por cada 3 fotos dunha cor (cada 2 grises).",
    },
    es: {
      goal: "Recorre Portugal con tu Turista y compra fotos de sus regiones: las fotos valen su precio en puntos, y 3 fotos de un color 10 más.",
      turn: [
        "En tu turno, haz cualquiera de estas acciones, tantas veces como puedas pagar: andar a un círculo vecino (1 €), comprar una carta de la tienda, comprar la foto de la región donde estás (una por región), volar con un Avión a un aeropuerto.",
        "Luego termina el turno: la mano paga lo que costó el turno (una Mochila su valor, una Selfie o un Avión 3 €, un Álbum 2 €), se descarta, y robas 5.",
      ],
      end: "Cuando un jugador coloca su último cubo, la ronda se juega hasta el final y la partida termina.",
      score: "Puntos de las fotos, más 10 por cada 3 fotos de un color (cada 2 grises).",
    },
  }),
  fields: { colour: "Colour", region: "Region", pile: "Pile", to: "Walk to", airport: "Fly to" },
  reasons: { colour: "to choose a colour", tourist: "to place the tourist", turn: "to play" },
  names(comp) {
    return [...(comp.waypoints || []).map((w) => [w.id, waypointName(w.id, comp)]),
      ...(comp.piles || []).map((p) => [`pile:${p.kind}`, pileName(p)])];
  },
  seatColour(view, seat) {
    const s = view.seats && view.seats[seat];
    return s && s.colour ? s.colour : "grey"; // no colour yet: grey, which no player plays
  },
  render(view, ctx) {
    const comp = ctx.comp;
    const info = (id) => cardInfo(id, comp);
    const c = (id) => card(id, info(id), `card:${id}`);
    const small = (id) => card(id, info(id));
    const me = view.viewer !== null && view.viewer !== undefined ? view.seats[view.viewer] : null;
    const hand = me && me.hand ? section(WORDS.yourHand,
      me.hand_value !== null && me.hand_value !== undefined ? h("p", { class: "hand-value" }, WORDS.pays(WORDS.eur(me.hand_value)), view.turn_cost ? WORDS.turnCosts(WORDS.eur(view.turn_cost)) : "") : null,
      h("div", { class: "drop-place", "data-drop": "BuyCard.pile" }, // a card of the shop, bought into the hand
        cards(me.hand.map(c), { fan: true, testid: `hand-${view.viewer}`, empty: WORDS.noCardsInHand }))) : null;
    const board = h("div", { class: "board portugal" },
      h("div", { class: "map-wrap" }, mapOf(view, ctx)),
      h("div", { class: "side" },
        view.phase === "colour" ? section(WORDS.colours, h("div", { class: "swatches" }, (comp.player_colours || []).map((col) => {
          const owner = (view.seats || []).findIndex((s) => s.colour === col);
          return h("span", { class: "colour-choice", "data-pick": "colour:" + col, "data-key": "colour:" + col },
            swatch(col, { text: colourOf(col).name }), owner >= 0 ? ` · ${ctx.seatName(owner)}` : "");
        }))) : null,
        section(WORDS.shop,
          view.final_round ? h("p", { class: "pill awaited" }, WORDS.finalRound) : null,
          h("div", { class: "cards shop" }, (view.piles || []).map((p) => {
            const pc = (comp.piles || []).find((x) => x.kind === p.pile);
            const i = cardInfo(`${p.pile}-00`, comp);
            const el = card(`pile-${p.pile}`, { ...i, corner: `${p.price}€`, sub: WORDS.toBuy(WORDS.eur(p.price), p.count), lines: [pc ? WORDS.pays(WORDS.eur(pc.value)) : ""],
              label: WORDS.pile(i.title) }, `pile:${p.pile}`);
            el.removeAttribute("data-card"); // a pile, not one card
            return el;
          })),
          pile(view.photo_pile_count, "◙", { name: WORDS.photoPile, pick: "move:BuyPhoto", key: "pile:Photo pile" })),
        h("div", { class: "seats" }, (view.seats || []).map((s, seat) => {
          const sets = setPoints(s.photos, comp);
          return seatPanel(seat, ctx,
            seatHeader(seat, ctx, [h("span", { class: "score", "data-testid": `score-${seat}` }, WORDS.score,
              h("b", {}, String(s.score + sets.points)), h("span", { class: "muted" }, WORDS.scoreParts(s.score, sets.points))),
            stat(WORDS.cubesLeft, s.cubes_left), stat(WORDS.at, s.tourist ? (comp.regions || []).find((r) => r.id === s.tourist)?.name || WORDS.aGreyCircle : WORDS.notPlaced)]),
            seat === view.viewer && hand ? null : h("div", { class: "hand", "data-testid": `hand-${seat}` },
              s.hand ? cards(s.hand.map(c), { fan: true, small: true }) : backs(s.hand_count, "ILP")),
            h("div", { class: "row" },
              pile(s.draw_count, "ILP", { name: WORDS.drawPile, key: `draw:${seat}` }),
              pile((s.discard || []).length, "ILP", { name: WORDS.discardPile, key: `discard:${seat}` })),
            s.photos && s.photos.length ? [h("h4", {}, WORDS.photos(s.photos.length)), photosByColour(s.photos, comp, small)] : null,
            s.draw ? h("details", {}, h("summary", {}, WORDS.drawRevealed), cards(s.draw.map(small), { fan: true, small: true })) : null);
        })),
      ),
    );
    return { board, hand };
  },
  breakdown(outcome, ctx) {
    return (outcome.breakdown || []).map((b) => ({
      seat: b.seat, total: b.points,
      lines: [
        [WORDS.photosBought(b.colours.reduce((n, c) => n + c.cards.length, 0)), b.photo_points],
        ...b.colours.filter((c) => c.sets).map((c) => [WORDS.setLine(c.cards.length, colourOf(c.colour).name, colourOf(c.colour).symbol, c.sets), c.points]),
      ],
      note: WORDS.turnOrder(b.turn_position),
    }));
  },
  events: {
    FirstPlayerCardGiven: (e, w) => `${w.seat(e.seat)} takes the first player card`,
    RatingTokensPlaced: () => "the rating tokens are on the regions",
    ColourChosen: (e, w) => `${w.seat(e.seat)} plays ${w.colour(e.colour)}`,
    HandDrawn: (e, w) => `${w.seat(e.seat)} drew ${plural(e.count, "card")}`,
    NeutralCubesPlaced: (e) => `neutral cubes on ${plural(e.regions.length, "region")}`,
    TouristPlaced: (e, w) => `${w.seat(e.seat)} placed their tourist in ${w.name(e.region)}`,
    TurnPassedTo: (e, w) => `${w.seat(e.seat)}'s turn`,
    CardBought: (e, w) => `${w.seat(e.seat)} bought ${w.name(e.card)} for ${e.price} €`,
    TouristMoved: (e, w) => `${w.seat(e.seat)} walked from ${w.name(e.origin)} to ${w.name(e.to)} (${e.cost} €)`,
    PlaneFlown: (e, w) => `${w.seat(e.seat)} flew from ${w.name(e.origin)} to ${w.name(e.to)}`,
    PhotoBought: (e, w) => `${w.seat(e.seat)} bought ${w.name(e.card)} for ${e.price} €`,
    LastCubePlaced: (e, w) => `${w.seat(e.seat)} placed their last cube: the final round begins`,
    PhotosStopped: (e) => `no photo bought in ${e.rounds} rounds: the game ends`,
    HandDiscarded: (e, w) => `${w.seat(e.seat)} ended the turn, paying ${e.paid} €`,
    FinalScoresCounted: (e, w) => `final scores: ${w.scores(e.scores)}`,
    DrawPileShuffled: () => null,
  },
  // a walk circle by circle is one line: from where it started to where it stands, and its cost
  join: {
    TouristMoved: (events, w) => {
      const first = events[0], last = events[events.length - 1];
      const stops = events.slice(0, -1).map((e) => e.to);
      const regions = stops.filter((id) => !id.includes("~")).map((id) => w.name(id));
      const greys = stops.length - regions.length;
      const via = [...regions, ...(greys ? [plural(greys, "grey circle")] : [])];
      const cost = events.reduce((n, e) => n + e.cost, 0);
      return `${w.seat(first.seat)} walked from ${w.name(first.origin)} to ${w.name(last.to)}${via.length ? ` via ${listWords(via)}` : ""} (${cost} €)`;
    },
  },
  // The command a thing of the table stands for when it is not lit (picks.js, "why not"): a
  // circle is where the tourist is placed, then where it walks.
  intent(kind, value, view) {
    const me = view.viewer === null || view.viewer === undefined ? null : (view.seats || [])[view.viewer];
    if (!me) return null;
    if (kind === "colour") return { type: "ChooseColour", colour: value };
    if (kind === "pile") return { type: "BuyCard", pile: value };
    if (kind === "move") return value === "BuyPhoto" ? { type: "BuyPhoto" } : null;
    if (kind === "region" && !me.tourist) return { type: "PlaceTourist", region: value };
    return kind === "circle" && me.tourist ? { type: "MoveTourist", to: value } : null;
  },
  label(kind, value, ctx) {
    if (kind === "colour") return colourOf(value).name + " " + colourOf(value).symbol;
    if ((kind === "circle" || kind === "region") && typeof value === "string") {
      const r = (ctx.comp.regions || []).find((x) => x.id === value);
      return r ? r.name : waypointName(value, ctx.comp);
    }
    if (kind === "card" && typeof value === "string") return cardName(value, ctx.comp);
    return null;
  },
  cardName,
};
