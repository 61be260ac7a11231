// I Love Portugal: the map drawn from the catalog's circles and connections (SVG), with the
// tourists and cubes of the view; the piles, hands and discard piles as cards. Picked on the
// table: circles ("circle:<id>"; a region's black circle is "region:<id>" too), the shop's piles
// ("pile:<kind>"), the colours ("colour:<c>"), the photo pile (the move BuyPhoto).

import { h, svg, card, backs, section } from "../ui.js";
import { seatHeader, seatPanel, stat } from "./common.js";

const COLOURS = {
  red: "#d9534f", purple: "#8e5bc4", yellow: "#e6b422", blue: "#4a78d0", green: "#4caf50",
  grey: "#8a8f98", orange: "#ef8a3c",
};
const colour = (c) => COLOURS[c] || c || "#999";

function cardInfo(id, comp, names) {
  const photo = (comp.photos || []).find((p) => p.id === id);
  if (photo) {
    const region = (comp.regions || []).find((r) => r.id === photo.region);
    return { title: photo.name, sub: "Photo · " + (region ? region.name : photo.region), cls: "photo",
      colour: colour(region && region.colour) };
  }
  let m = /^backpack-([a-z]+)-(\d+)eur/.exec(id);
  if (m) return { title: `${m[2]} €`, sub: "Backpack", cls: "backpack", colour: colour(m[1]) };
  m = /^(selfie|album|plane)/.exec(id);
  if (m) {
    const pile = (comp.piles || []).find((p) => p.kind === m[1]);
    return { title: pile ? pile.name : m[1], sub: pile ? `pays ${pile.value} €` : "", cls: m[1] };
  }
  return { title: names.get(id) || id };
}

function mapOf(view, ctx) {
  const comp = ctx.comp;
  const circles = new Map();
  for (const r of comp.regions || []) circles.set(r.id, { ...r, black: true });
  for (const w of comp.waypoints || []) circles.set(w.id, { ...w, black: false });
  const all = [...circles.values()];
  if (!all.length) return h("p", { class: "muted" }, "The catalog has no map for this game.");
  const xs = all.map((c) => c.x), ys = all.map((c) => c.y);
  // room for the labels above the circles and the cube spaces below them
  const box = [Math.min(...xs) - 60, Math.min(...ys) - 70, Math.max(...xs) - Math.min(...xs) + 150,
    Math.max(...ys) - Math.min(...ys) + 130];
  const regions = new Map((view.regions || []).map((r) => [r.region, r]));
  const parts = [];
  for (const con of comp.connections || []) {
    const a = circles.get(con.a), b = circles.get(con.b);
    if (!a || !b) continue;
    parts.push(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "connection " + con.kind }));
  }
  for (const c of all) {
    const r = regions.get(c.id);
    const g = svg("g", { class: ["circle", c.black ? "region" : "waypoint"], "data-circle": c.id,
      "data-pick": c.black ? `circle:${c.id} region:${c.id}` : `circle:${c.id}` });
    if (c.black) {
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 30, class: "ring", fill: colour(c.colour) }));
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 16, class: "black" }));
      g.append(svg("text", { x: c.x, y: c.y - 36, class: "label" }, c.name));
      if (r) {
        g.append(svg("text", { x: c.x, y: c.y + 5, class: "price" }, `${r.price}€`));
        // cube spaces: neutral first, then each cube in seat colour
        const spaces = [];
        if (r.neutral) spaces.push({ fill: "#fff", seat: null });
        for (const s of r.cubes) spaces.push({ fill: ctx.seatColour(s), seat: s });
        for (let i = 0; i < r.spaces; i++) {
          const cube = spaces[i];
          g.append(svg("rect", {
            x: c.x - 24 + i * 17, y: c.y + 34, width: 14, height: 14, rx: 2,
            class: cube ? "cube" : "space", fill: cube ? cube.fill : "none",
            "data-cube": cube ? (cube.seat === null ? "neutral" : String(cube.seat)) : null,
          }));
        }
      }
      if (c.airport) g.append(svg("text", { x: c.x + 24, y: c.y - 18, class: "airport" }, "✈"));
    } else {
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 9, class: "grey" }));
    }
    g.append(svg("title", {}, (c.name || c.id) + (r ? ` · rating ${r.price} € · photos left ${r.photos_left}` : "")));
    parts.push(g);
  }
  // tourists: one pawn per seat, spread around their circle
  const at = new Map();
  (view.seats || []).forEach((s, seat) => {
    if (!s.tourist) return;
    const c = circles.get(s.tourist);
    if (!c) return;
    const n = at.get(s.tourist) || 0;
    at.set(s.tourist, n + 1);
    const angle = -Math.PI / 2 + n * 1.2;
    const x = c.x + Math.cos(angle) * 14 + 18, y = c.y + Math.sin(angle) * 14 - 4;
    parts.push(svg("g", { class: "tourist", "data-tourist": String(seat) },
      svg("circle", { cx: x, cy: y - 12, r: 7, fill: ctx.seatColour(seat) }),
      svg("path", { d: `M${x - 9},${y + 10} L${x},${y - 6} L${x + 9},${y + 10} Z`, fill: ctx.seatColour(seat) }),
      svg("title", {}, `${ctx.seatName(seat)}'s tourist`)));
  });
  return svg("svg", { class: "map", viewBox: box.join(" "), role: "img", "aria-label": "Map of Portugal", "data-testid": "map" }, parts);
}

export default {
  names(comp) {
    // waypoints are named after their route: lisboa~madeira~2 -> "waypoint Lisboa–Madeira 2"
    const regions = new Map((comp.regions || []).map((r) => [r.id, r.name]));
    const waypoints = (comp.waypoints || []).map((w) => {
      const parts = w.id.split("~");
      const n = /^\d+$/.test(parts[parts.length - 1]) ? parts.pop() : "";
      return [w.id, `waypoint ${parts.map((p) => regions.get(p) || p).join("–")}${n ? " " + n : ""}`];
    });
    return [...waypoints, ...(comp.piles || []).map((p) => [`pile:${p.kind}`, p.name])];
  },
  seatColour(view, seat) {
    const s = view.seats && view.seats[seat];
    return s && s.colour ? colour(s.colour) : null;
  },
  render(view, ctx) {
    const drawn = new Set(["type", "players", "viewer", "phase", "turn", "first_player", "awaiting", "turn_cost",
      "final_round", "regions", "piles", "photo_pile_count", "seats", "finished"]);
    const info = (id) => cardInfo(id, ctx.comp, ctx.names);
    const c = (id) => card(id, info(id), `card:${id}`);
    const small = (id) => card(id, info(id));
    const el = h("div", { class: "board portugal" },
      h("div", { class: "map-wrap" }, mapOf(view, ctx)),
      h("div", { class: "side" },
        section("Turn",
          stat("phase", view.phase), stat("turn cost", `${view.turn_cost} €`),
          view.final_round ? h("span", { class: "pill awaited" }, "final round") : null,
          stat("first player", view.first_player === null ? "-" : ctx.seatName(view.first_player)),
          view.phase === "colour" ? h("div", { class: "swatches" }, "Colours: ", (ctx.comp.player_colours || []).map((c) => {
            const owner = (view.seats || []).findIndex((s) => s.colour === c);
            return h("span", { class: "swatch", "data-pick": "colour:" + c, style: { background: colour(c) },
              title: owner >= 0 ? `${c}: ${ctx.seatName(owner)}` : c }, owner >= 0 ? ctx.seatName(owner) : c);
          })) : null),
        section("Shop",
          h("div", { class: "cards" }, (view.piles || []).map((p) => card(p.pile, {
            title: (ctx.comp.piles || []).find((x) => x.kind === p.pile)?.name || p.pile,
            sub: `${p.price} € · ${p.count} left`, cls: p.pile,
          }, `pile:${p.pile}`)),
          h("div", { class: "pile", "data-pick": "move:BuyPhoto", title: "buy the photo of the region your tourist is in" },
            backs(1, "Photos"), stat("photo pile", view.photo_pile_count)))),
        (view.seats || []).map((s, seat) => seatPanel(seat,
          seatHeader(seat, ctx, [stat("score", s.score), stat("cubes", s.cubes_left), s.colour ? stat("colour", s.colour) : null]),
          h("div", {}, stat("at", s.tourist ? ctx.names.get(s.tourist) || s.tourist : "-"),
            stat("draw pile", s.draw_count), s.hand_value !== null && s.hand_value !== undefined ? stat("hand pays", `${s.hand_value} €`) : null),
          h("div", { class: "hand", "data-testid": `hand-${seat}` },
            s.hand ? h("div", { class: "cards" }, s.hand.map(c)) : backs(s.hand_count, "ILP")),
          s.draw ? h("details", {}, h("summary", {}, "Draw pile (revealed)"), h("div", { class: "cards small" }, s.draw.map(small))) : null,
          s.discard && s.discard.length ? h("details", {}, h("summary", {}, `Discard pile (${s.discard.length})`),
            h("div", { class: "cards small" }, s.discard.map(small))) : null,
          s.photos && s.photos.length ? h("div", { class: "cards small" }, s.photos.map(small)) : null)),
      ),
    );
    return { el, drawn };
  },
};
