// Os Incríveis Parques de Miss Liz: the projects board (tiles by cost, coloured by theme, each with
// its building's icon) and each park as a grid: tiles with building icons and their employees,
// streets drawn as roads joining what they touch, the entrance row. Picked on the table: the cells
// of the seat's own park ("cell:<row>,<column>"; an entrance's column is its cell on the entrance
// row), the tiles of the projects board ("tile:<id>"), planning cards ("card:<id>"), the themes.

import { h, svg, card, cards, backs, section, pill, plural, hidden, inkOn } from "../ui.js";
import { seatHeader, seatPanel, stat, listWords } from "./common.js";

// Theme colours and symbols (a theme is also written out wherever it matters).
const THEMES = [
  { fill: "#2f68c0", symbol: "≈" }, { fill: "#7b4bb3", symbol: "♛" }, { fill: "#b3261e", symbol: "☠" },
  { fill: "#2e7d32", symbol: "♣" }, { fill: "#9a5316", symbol: "✶" },
];
const NO_THEME = { fill: "#6b6f76", symbol: "○" };
const TYPES = {
  Ride: "☸", Show: "★", Restaurant: "☕", Shop: "⌂", "Board of Directors": "♚", "Rest Area": "♨", Administration: "✎", Entrance: "⊓",
};

function themeOf(comp, theme) {
  const i = (comp.themes || []).findIndex((t) => t.id === theme);
  return i < 0 ? { ...NO_THEME, name: "No Theme" } : { ...THEMES[i % THEMES.length], name: comp.themes[i].name };
}

const tileOf = (id, comp) => (comp.tiles || []).find((x) => x.id === id);

function tileInfo(id, comp) {
  const t = tileOf(id, comp);
  if (!t) return { title: "tile" };
  const th = themeOf(comp, t.theme);
  return { title: t.name, sub: `${t.type} · ${th.name}`, icon: TYPES[t.type] || "?", corner: th.symbol,
    lines: [`$${t.income} income · ${t.happiness} happiness`], cls: "tile", colour: th.fill, label: "tile:",
    tip: `${t.name}: ${t.type}, ${th.name}, income ${t.income}, happiness ${t.happiness}` };
}

function objectiveWords(o, comp) {
  const theme = (comp.themes || []).find((t) => t.id === o.theme)?.name;
  switch (o.kind) {
    case "active_theme": return `${o.count} active ${theme} buildings`;
    case "active_type": return `${o.count} active ${o.type}s`;
    case "streets": return `${o.count} streets`;
    case "income": return `an income of $${o.count}`;
    case "all_active": return `${o.count} buildings, every one active`;
    case "buildings": return `${o.count} buildings`;
    case "no_no_theme": return "no No Theme tile";
    case "food_court": return "a Food Court";
    default: return "a goal";
  }
}

function planInfo(id, comp) {
  const p = (comp.planning_cards || []).find((x) => x.id === id);
  if (!p) return { title: "planning card" };
  return { title: p.name, sub: objectiveWords(p.objective || {}, comp), corner: `${p.points}★`, icon: "✎", cls: "planning",
    colour: "#7a5a1e", label: "planning card:", lines: [`${plural(p.points, "point")}`] };
}

function cellWords(cell) {
  return `row ${cell[0] + 1}, column ${cell[1] + 1}`;
}

// A street: a road from the middle of the cell to each side that touches a street or a building.
function road(r, c, streets, buildings) {
  const arms = [[-1, 0, "M50,50 L50,0"], [0, 1, "M50,50 L100,50"], [1, 0, "M50,50 L50,100"], [0, -1, "M50,50 L0,50"]]
    .filter(([dr, dc]) => streets.has(`${r + dr},${c + dc}`) || buildings.has(`${r + dr},${c + dc}`)).map((a) => a[2]);
  const d = arms.length ? arms.join(" ") : "M20,50 L80,50";
  return svg("svg", { class: "road", viewBox: "0 0 100 100", "aria-hidden": "true" },
    svg("path", { d, class: "road-bed" }), svg("path", { d, class: "road-line" }));
}

function park(p, view, ctx, mine) {
  const comp = ctx.comp;
  const board = comp.board || { rows: 6, columns: 7, entrance_row: 5, reserved: [] };
  const reserved = new Set(view.side_b ? (board.reserved || []).map((c) => `${c[0]},${c[1]}`) : []);
  const buildings = new Map(p.buildings.map((b) => [`${b.cell[0]},${b.cell[1]}`, b]));
  const streets = new Set(p.streets.map((c) => `${c[0]},${c[1]}`));
  const grid = h("div", { class: "park-grid", style: { "grid-template-columns": `repeat(${board.columns}, 1fr)` },
    "data-testid": `park-${p.seat}`, role: "group", "aria-label": `${ctx.seatName(p.seat)}'s park` });
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.columns; c++) {
      const key = `${r},${c}`;
      const b = buildings.get(key);
      const t = b && tileOf(b.tile, comp);
      const th = t ? themeOf(comp, t.theme) : null;
      let label;
      const cell = h("div", {
        class: ["cell", b ? "building" : null, streets.has(key) ? "street" : null, reserved.has(key) ? "reserved" : null,
          r === board.entrance_row ? "entrance-row" : null, b && !b.active ? "inactive" : null],
        "data-pick": mine ? `cell:${key}` : null, "data-cell": key, "data-key": `cell:${p.seat}:${key}`,
        "data-drop": mine && !b && !streets.has(key) ? "BuyTile.tile" : null, // a tile bought onto the cell it is built on
        style: th ? { "--tile-colour": th.fill } : null, role: "img", "data-role": "img",
      });
      if (b) {
        label = `${t ? t.name : "a tile"} (${t ? t.type : ""}, ${th ? th.name : ""}), ${b.active ? "active" : "not active"}, ${plural(b.employees, "employee")}${b.theme_token ? ", theme token" : ""} at ${cellWords([r, c])}`;
        cell.append(h("div", { class: "cell-icon", "aria-hidden": "true" }, t ? TYPES[t.type] || "?" : "?"),
          h("div", { class: "cell-name", "aria-hidden": "true" }, t ? t.name : ""),
          h("div", { class: "cell-theme", "aria-hidden": "true" }, th ? th.symbol : ""),
          h("div", { class: "employees", "aria-hidden": "true" }, "☺".repeat(Math.min(b.employees, 6))));
        if (b.theme_token) cell.append(h("div", { class: "token", "aria-hidden": "true" }, themeOf(comp, b.theme_token).symbol));
        if (b.reward) cell.append(h("div", { class: "reward", "aria-hidden": "true" }, "✦"));
        if (!b.active) cell.append(h("div", { class: "off", "aria-hidden": "true" }, "off"));
      } else if (streets.has(key)) {
        label = `street at ${cellWords([r, c])}`;
        cell.append(road(r, c, streets, buildings));
      } else {
        label = `${reserved.has(key) ? "reserved space" : "empty"} at ${cellWords([r, c])}${r === board.entrance_row ? ", entrance row" : ""}`;
      }
      cell.setAttribute("aria-label", label);
      grid.append(cell);
    }
  }
  return grid;
}

export default {
  // What each move is, said to a newcomer in "You may: ..." (the panel, at the start of a move).
  may: { ChooseTheme: "choose a theme", PlaceEntrance: "place your Entrance", PlaceFirstStreet: "place your first street",
    KeepPlanningCard: "keep a planning card", BuyTile: "buy a tile", BuildTile: "build your tile", BuyStreets: "buy streets",
    HireEmployees: "hire employees", BuyPlanningCard: "buy a planning card", ReturnPlanningCard: "return a planning card",
    PassRound: "pass for the round", EndTurn: "end your turn", AssignEmployee: "put an employee to work",
    MoveEmployee: "move an employee", PlaceThemeToken: "place a theme token", TakeInvestment: "take an investment" },
  // The rules card at the table: the game in a few lines (docs/games/miss-liz-parks.md has it whole).
  rules: {
    goal: "Build the happiest amusement park in 5 rounds.",
    turn: [
      "On your turn, one action: buy a tile from the projects board (its row's cost and a purchase token) and build it on an empty cell; buy streets (1 each); hire employees (1 each); buy a planning card (3, once a round); or pass for the round.",
      "Before and after it, free actions: put an employee on a building, place a theme token.",
      "A building works when it has an employee and a street joins it to the Entrance's streets.",
    ],
    end: "The game ends after round 5.",
    score: "Happiness of the active buildings and their bonuses, +10 a Food Court, +1 an active building of your theme and -1 a No Theme tile, planning cards met, +1 per 5 money left.",
  },
  names(comp) {
    return [...(comp.themes || []).map((t) => [`theme:${t.id}`, t.name])];
  },
  reasons: { theme: "to choose a theme", entrance: "to place the entrance", street: "to place the first street",
    planning: "to keep a planning card", action: "to act", build: "to build a tile", keep: "to keep a planning card",
    give_back: "to return a planning card", free: "to build for free" },
  render(view, ctx) {
    const comp = ctx.comp;
    const tile = (id) => card(id, tileInfo(id, comp), `tile:${id}`);
    const plan = (id) => card(id, planInfo(id, comp), `card:${id}`);
    const me = (view.parks || []).find((p) => p.seat === view.viewer);
    const hand = me && (me.planning || me.looking) ? section("Your planning cards",
      cards((me.planning || []).map(plan), { fan: true, testid: `hand-${me.seat}`, empty: "none kept" }),
      me.looking && me.looking.length ? [h("h3", {}, "Choose from"), cards(me.looking.map(plan))] : null) : null;
    const board = h("div", { class: "board liz" },
      view.phase === "themes" ? section("Themes", h("div", { class: "swatches" }, (comp.themes || []).map((t) => {
        const owner = (view.parks || []).find((p) => p.theme === t.id);
        const th = themeOf(comp, t.id);
        return h("span", { class: "chip theme-choice", "data-pick": `theme:${t.id}`, "data-key": "theme:" + t.id, style: { "--chip": th.fill, "--chip-ink": inkOn(th.fill) } },
          h("span", { class: "chip-symbol", "aria-hidden": "true" }, th.symbol), t.name, owner ? ` · ${ctx.seatName(owner.seat)}` : "");
      }))) : null,
      section("Projects board",
        h("p", {}, stat("round", view.round), stat("turn order", (view.order || []).map((s) => ctx.seatName(s)).join(" → ")),
          view.passing && view.passing.length ? stat("passed", listWords(view.passing.map((s) => ctx.seatName(s)))) : null),
        (view.projects || []).map((row) => h("div", { class: "project-row", "data-key": "row:" + row.cost },
          h("span", { class: "cost" }, `$${row.cost}`),
          h("div", { class: "cards small" }, row.tiles.map((id, i) => (id ? tile(id) : h("div", { class: "card slot", "data-key": `slot:${row.cost}:${i}`, "aria-hidden": "true" })))))),
        h("p", {}, stat("tile piles", (view.piles || []).join(" · ")), stat("planning deck", view.planning_deck_count),
          stat("streets left", view.streets_left), stat("theme tokens left", view.theme_tokens_left)),
        view.pending_tile ? h("div", {}, h("h3", {}, "Tile to build"), h("div", { class: "cards" }, tile(view.pending_tile))) : null,
        view.discarded && view.discarded.length ? h("details", {}, h("summary", {}, `Discarded tiles (${view.discarded.length})`),
          cards(view.discarded.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })) : null),
      h("div", { class: "parks" }, (view.parks || []).map((p) => {
        const th = p.theme ? themeOf(comp, p.theme) : null;
        return seatPanel(p.seat, ctx,
          seatHeader(p.seat, ctx, [th ? h("span", { class: "chip", style: { "--chip": th.fill, "--chip-ink": inkOn(th.fill) } }, h("span", { class: "chip-symbol", "aria-hidden": "true" }, th.symbol), th.name) : null,
            p.passed ? pill("passed") : null]),
          park(p, view, ctx, p.seat === view.viewer),
          h("p", { class: "park-stats" }, stat("money", `$${p.income}`), stat("next income", `$${p.income_next}`),
            stat("employees to place", p.employees), stat("employees left", p.employees_left),
            stat("purchase tokens", `${p.purchase_tokens - p.purchase_tokens_used} of ${p.purchase_tokens}`),
            stat("theme tokens", p.theme_tokens), p.food_courts ? stat("food courts", p.food_courts) : null,
            view.investment ? stat("invested", `$${p.invested} (${p.investment_left} left)`) : null),
          p.seat === view.viewer && hand ? null
            : p.planning ? h("div", {}, h("h4", {}, "Planning cards"), cards(p.planning.map(plan), { fan: true, small: true }))
              : p.planning_count ? h("div", {}, h("h4", {}, "Planning cards"), backs(p.planning_count, "✎", "hand")) : null);
      })),
      view.removed || view.planning_deck ? h("details", { class: "panel revealed" }, h("summary", {}, "Revealed at the end: the piles, the removed tiles, the planning deck"),
        (view.pile_tiles || []).map((ids, i) => (ids && ids.length ? [h("h3", {}, `Pile ${i + 1}`), cards(ids.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })] : null)),
        view.removed ? [h("h3", {}, "Removed"), cards(view.removed.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })] : null,
        view.planning_deck ? [h("h3", {}, "Planning deck"), cards(view.planning_deck.map((id) => card(id, planInfo(id, comp))), { fan: true, small: true })] : null) : null,
    );
    return { board, hand };
  },
  breakdown(outcome, ctx) {
    const comp = ctx.comp;
    return (outcome.breakdown || []).map((b) => ({
      seat: b.seat, total: b.total,
      lines: [
        [`happiness of ${plural(b.tiles.filter((t) => t.active).length, "active building")}`, b.buildings],
        [`${plural(b.food_courts / 10 || 0, "Food Court")}`, b.food_courts],
        ["theme: active buildings of the park's theme, less No Theme tiles", b.theme],
        [`planning cards met: ${listWords(b.planning_met.map((id) => (comp.planning_cards || []).find((p) => p.id === id)?.name || "a card")) || "none"}`, b.planning],
        [`money left: $${b.income_left}, a point per $5`, b.income],
        ["investment taken", b.investment],
        ["reserved spaces left uncovered", b.reserved],
      ].filter((l) => l[1] !== 0),
      note: `tie-breakers: ${plural(b.own_theme_tiles, "tile")} of the park's theme, $${b.income_left} left`,
    }));
  },
  events: {
    StartingPlayerDrawn: (e, w) => `${w.seat(e.seat)} starts`,
    ThemeChosen: (e, w) => `${w.seat(e.seat)} chose the theme ${w.name("theme:" + e.theme)}`,
    TilesRemovedUnseen: (e) => `${plural(e.count, "tile")} removed unseen`,
    ProjectPilesDealt: () => "the tile piles are dealt",
    PlanningCardsDealt: (e, w) => `${w.seat(e.seat)} was dealt ${plural(e.count, "planning card")}`,
    EntrancePlaced: (e, w) => `${w.seat(e.seat)} placed the entrance at ${w.cell(e.cell)}`,
    FirstStreetPlaced: (e, w) => `${w.seat(e.seat)} placed the first street at ${w.cell(e.cell)}`,
    PlanningCardKept: (e, w) => `${w.seat(e.seat)} kept ${e.card ? w.name(e.card) : "a planning card"}`,
    PlanningCardReturned: (e, w) => `${w.seat(e.seat)} returned ${e.card ? w.name(e.card) : "a planning card"}`,
    ParkRoundBegan: (e, w) => `round ${e.round} begins: ${listWords(e.order.map((s) => w.seat(s)))}`,
    ProjectsLaidOut: (e) => `new projects for round ${e.round}`,
    IncomeCollected: (e, w) => `${w.seat(e.seat)} collected $${e.amount}`,
    ParkTurnBegan: (e, w) => `${w.seat(e.seat)}'s turn`,
    TileBought: (e, w) => `${w.seat(e.seat)} bought ${w.name(e.tile)} for $${e.cost}`,
    TileBuilt: (e, w) => `${w.seat(e.seat)} built ${w.name(e.tile)} at ${w.cell(e.cell)}`,
    StreetsBuilt: (e, w) => `${w.seat(e.seat)} built ${plural(e.cells.length, "street")} for $${e.cost}`,
    EmployeesHired: (e, w) => `${w.seat(e.seat)} hired ${plural(e.count, "employee")} for $${e.cost}`,
    PlanningCardsDrawn: (e, w) => `${w.seat(e.seat)} bought ${plural(e.count, "planning card")} for $${e.cost}`,
    PassedForTheRound: (e, w) => `${w.seat(e.seat)} passed for the round`,
    EmployeeAssigned: (e, w) => `${w.seat(e.seat)} put an employee to work at ${w.cell(e.cell)}`,
    EmployeeMoved: (e, w) => `${w.seat(e.seat)} moved an employee from ${w.cell(e.source)} to ${w.cell(e.target)}`,
    ThemeTokenPlaced: (e, w) => `${w.seat(e.seat)} placed a ${w.name("theme:" + e.theme)} token at ${w.cell(e.cell)}`,
    InvestmentTaken: (e, w) => `${w.seat(e.seat)} took $${e.amount} of investment`,
    ActivationRewarded: (e, w) => `${w.seat(e.seat)}'s building at ${w.cell(e.cell)} opened and earned a reward`,
    ActivationRewardReturned: (e, w) => `${w.seat(e.seat)} gave back a reward at ${w.cell(e.cell)}`,
    ParkRoundEnded: (e) => `round ${e.round} ends`,
    ParkGameEnded: (e, w) => `the parks open: ${w.scores(e.scores)}`,
    PlanningDeckShuffled: () => null,
  },
  label(kind, value, ctx) {
    if (kind === "tile" && typeof value === "string") return tileOf(value, ctx.comp)?.name || null;
    if (kind === "card" && typeof value === "string") return (ctx.comp.planning_cards || []).find((p) => p.id === value)?.name || null;
    if (kind === "theme" && typeof value === "string") return themeOf(ctx.comp, value).name;
    return null;
  },
  // the Entrance's column is picked on its cell of the entrance row
  where(kind, value, ctx) {
    if (kind === "column") return [`cell:${(ctx.comp.board && ctx.comp.board.entrance_row) ?? 5},${value}`];
    return null;
  },
  fields: { count: "Employees to hire", amount: "Invest", source: "From", target: "To", cells: "Streets", cell: "Cell", tile: "Tile", theme: "Theme", column: "Column" },
  hidden,
};
