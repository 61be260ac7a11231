// Os Incríveis Parques de Miss Liz: the projects board and each park as a grid of cells with
// tiles, streets and employees. Picked on the table: the cells of the seat's own park
// ("cell:<row>,<column>"; an entrance's column is its cell on the entrance row), the tiles of the
// projects board ("tile:<id>"), planning cards ("card:<id>"), the themes while they are chosen.

import { h, card, backs, section, pill } from "../ui.js";
import { seatHeader, seatPanel, stat } from "./common.js";

const THEME_COLOURS = ["#2b7bb9", "#a35bc4", "#b23a3a", "#4c9a3a", "#c0842f"];
const TYPE_SIGNS = {
  Ride: "RIDE", Show: "SHOW", Restaurant: "FOOD", Shop: "SHOP", "Board of Directors": "BOARD", "Rest Area": "REST",
  Administration: "ADMIN", Entrance: "ENTRANCE",
};

function themeColour(comp, theme) {
  const i = (comp.themes || []).findIndex((t) => t.id === theme);
  return i < 0 ? "#888" : THEME_COLOURS[i % THEME_COLOURS.length];
}

function tileInfo(id, comp) {
  const t = (comp.tiles || []).find((x) => x.id === id);
  if (!t) return { title: id };
  return { title: t.name, sub: t.type,
    lines: [`income $${t.income} · happiness ${t.happiness}`], cls: "tile", colour: themeColour(comp, t.theme),
    tip: `${t.name}: ${t.type}, income ${t.income}, happiness ${t.happiness}` };
}

function planInfo(id, comp) {
  const p = (comp.planning_cards || []).find((x) => x.id === id);
  if (!p) return { title: id };
  const o = p.objective || {};
  return { title: p.name, sub: `${p.points} points`,
    lines: [[o.kind, o.type, o.theme, o.count].filter((x) => x !== "" && x !== undefined && x !== null).join(" ")], cls: "planning" };
}

function park(p, view, ctx, mine) {
  const comp = ctx.comp;
  const board = comp.board || { rows: 6, columns: 7, entrance_row: 5, reserved: [] };
  const reserved = new Set(view.side_b ? (board.reserved || []).map((c) => `${c[0]},${c[1]}`) : []);
  const buildings = new Map(p.buildings.map((b) => [`${b.cell[0]},${b.cell[1]}`, b]));
  const streets = new Set(p.streets.map((c) => `${c[0]},${c[1]}`));
  const grid = h("div", { class: "park-grid", style: { "grid-template-columns": `repeat(${board.columns}, 1fr)` },
    "data-testid": `park-${p.seat}` });
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.columns; c++) {
      const key = `${r},${c}`;
      const b = buildings.get(key);
      const t = b && (comp.tiles || []).find((x) => x.id === b.tile);
      const cell = h("div", {
        class: ["cell", b ? "building" : null, streets.has(key) ? "street" : null, reserved.has(key) ? "reserved" : null,
          r === board.entrance_row ? "entrance-row" : null, b && !b.active ? "inactive" : null],
        "data-pick": mine ? `cell:${key}` : null, "data-cell": key,
        style: b ? { "--tile-colour": themeColour(comp, t && t.theme) } : null,
        title: b ? `${t ? t.name : b.tile}${b.active ? "" : " (inactive)"}` : streets.has(key) ? "street" : `row ${r + 1}, column ${c + 1}`,
      });
      if (b) {
        cell.append(h("div", { class: "cell-sign" }, (t && TYPE_SIGNS[t.type]) || "?"),
          h("div", { class: "cell-name" }, t ? t.name : b.tile),
          h("div", { class: "employees", title: `${b.employees} employees` }, "●".repeat(b.employees)));
        if (b.theme_token) cell.append(h("div", { class: "token", title: `theme token: ${b.theme_token}` }, "◆"));
        if (b.reward) cell.append(h("div", { class: "reward", title: "reward" }, "★"));
      } else if (streets.has(key)) {
        cell.append(h("div", { class: "cell-sign" }, "≡"));
      }
      grid.append(cell);
    }
  }
  return grid;
}

export default {
  names(comp) {
    return (comp.themes || []).map((t) => [`theme:${t.id}`, t.name]);
  },
  render(view, ctx) {
    const comp = ctx.comp;
    const drawn = new Set(["type", "players", "viewer", "investment", "side_b", "phase", "step", "round", "first", "turn",
      "awaiting", "order", "passing", "projects", "pending_tile", "piles", "removed_count", "discarded",
      "planning_deck_count", "streets_left", "theme_tokens_left", "parks", "finished"]);
    const tile = (id) => card(id, tileInfo(id, comp), `tile:${id}`);
    const plan = (id) => card(id, planInfo(id, comp), `card:${id}`);
    const el = h("div", { class: "board liz" },
      view.phase === "themes" ? section("Themes", h("div", { class: "swatches" }, (comp.themes || []).map((t) => {
        const owner = (view.parks || []).find((p) => p.theme === t.id);
        return h("span", { class: "swatch", "data-pick": `theme:${t.id}`, style: { background: themeColour(comp, t.id) },
          title: owner ? `${t.name}: ${ctx.seatName(owner.seat)}` : t.name }, t.name, owner ? ` (${ctx.seatName(owner.seat)})` : "");
      }))) : null,
      section("Projects board",
        h("div", {}, stat("phase", view.phase), stat("step", view.step), stat("round", view.round),
          stat("order", (view.order || []).map((s) => ctx.seatName(s)).join(" → ")),
          view.passing && view.passing.length ? stat("passed", view.passing.map((s) => ctx.seatName(s)).join(", ")) : null),
        (view.projects || []).map((row) => h("div", { class: "project-row" }, h("span", { class: "cost" }, `$${row.cost}`),
          h("div", { class: "cards" }, row.tiles.map((id) => (id ? tile(id) : h("div", { class: "card empty" }, "—")))))),
        h("div", {}, stat("piles", (view.piles || []).join(" / ")), stat("planning deck", view.planning_deck_count),
          stat("streets left", view.streets_left), stat("theme tokens", view.theme_tokens_left),
          stat("removed", view.removed_count)),
        view.pending_tile ? h("div", {}, h("h4", {}, "Tile to build"), tile(view.pending_tile)) : null,
        view.discarded && view.discarded.length ? h("details", {}, h("summary", {}, "Discarded tiles"),
          h("div", { class: "cards small" }, view.discarded.map((id) => card(id, tileInfo(id, comp))))) : null),
      h("div", { class: "parks" }, (view.parks || []).map((p) => seatPanel(p.seat,
        seatHeader(p.seat, ctx, [p.theme ? pill(ctx.names.get(p.theme) || p.theme) : null, p.passed ? pill("passed") : null]),
        park(p, view, ctx, p.seat === view.viewer),
        h("div", { class: "park-stats" }, stat("income", `$${p.income}`), stat("next income", `$${p.income_next}`),
          stat("employees", `${p.employees} (${p.employees_left} left)`),
          stat("purchase tokens", `${p.purchase_tokens - p.purchase_tokens_used}/${p.purchase_tokens}`),
          stat("theme tokens", p.theme_tokens), stat("food courts", p.food_courts),
          view.investment ? stat("invested", `${p.invested} (${p.investment_left} left)`) : null,
          stat("planning cards", p.planning_count)),
        p.planning ? h("div", {}, h("h4", {}, "Planning cards"), h("div", { class: "cards small" }, p.planning.map(plan)))
          : p.planning_count ? h("div", {}, h("h4", {}, "Planning cards"), backs(p.planning_count, "Plan")) : null,
        p.looking && p.looking.length ? h("div", {}, h("h4", {}, "Choosing from"), h("div", { class: "cards small" }, p.looking.map(plan))) : null))),
      (view.pile_tiles || view.removed || view.planning_deck)
        ? section("Revealed", h("details", {}, h("summary", {}, "piles, removed tiles, planning deck"),
          (view.pile_tiles || []).map((pile, i) => h("div", {}, h("h4", {}, `Pile ${i + 1}`), h("div", { class: "cards small" }, (pile || []).map((id) => card(id, tileInfo(id, comp)))))),
          view.removed ? h("div", {}, h("h4", {}, "Removed"), h("div", { class: "cards small" }, view.removed.map((id) => card(id, tileInfo(id, comp))))) : null,
          view.planning_deck ? h("div", {}, h("h4", {}, "Planning deck"), h("div", { class: "cards small" }, view.planning_deck.map((id) => card(id, planInfo(id, comp))))) : null))
        : null,
    );
    for (const k of ["pile_tiles", "removed", "planning_deck"]) if (view[k] === null || view[k] === undefined) drawn.add(k);
    if (view.pile_tiles && Array.isArray(view.pile_tiles) && view.pile_tiles.every(Array.isArray)) drawn.add("pile_tiles");
    if (Array.isArray(view.removed)) drawn.add("removed");
    if (Array.isArray(view.planning_deck)) drawn.add("planning_deck");
    return { el, drawn };
  },
  // the Entrance's column is picked on its cell of the entrance row
  where(kind, value, ctx) {
    if (kind === "column") return [`cell:${(ctx.comp.board && ctx.comp.board.entrance_row) ?? 5},${value}`];
    return null;
  },
  fields: { count: "Employees to hire", amount: "Invest", source: "From", target: "To", cells: "Streets" },
};
