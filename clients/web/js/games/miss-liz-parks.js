// Os Incríveis Parques de Miss Liz: the projects board (tiles by cost, coloured by theme, each with
// its building's icon) and each park as a grid: tiles with building icons and their employees,
// streets drawn as roads joining what they touch, the entrance row. Picked on the table: the cells
// of the seat's own park ("cell:<row>,<column>"; an entrance's column is its cell on the entrance
// row), the tiles of the projects board ("tile:<id>"), planning cards ("card:<id>"), the themes.

import { h, svg, card, cards, backs, section, pill, plural, hidden, inkOn } from "../ui.js";
import { seatHeader, seatPanel, stat, listWords } from "./common.js";
import { byLanguage, lang, term } from "../words.js";

const GAME = "miss-liz-parks";
// The screen's words (kept together for translation); the game's own (themes, buildings, planning
// cards, the projects board) are its catalog's (domain/miss_liz_parks/words).
const WORDS = byLanguage({
  en: {
    goal: { activeTheme: (n, theme) => `${n} active ${theme} buildings`, activeType: (n, type) => `${n} active ${type}s`, streets: (n) => `${n} streets`,
      income: (n) => `an income of $${n}`, allActive: (n) => `${n} buildings, every one active`, buildings: (n) => `${n} buildings`,
      noNoTheme: "no No Theme tile", foodCourt: "a Food Court", other: "a goal" },
    happiness: (n) => `happiness of ${n} active building${n === 1 ? "" : "s"}`, foodCourtsLine: (n) => `${n} Food Court${n === 1 ? "" : "s"}`,
    themeLine: "theme: active buildings of the park's theme, less No Theme tiles", planningMet: (cards) => `planning cards met: ${cards}`,
    aCard: "a card", none: "none", moneyLeft: (n) => `money left: $${n}, a point per $5`, investment: "investment taken",
    reservedLeft: "reserved spaces left uncovered", tieBreakers: (tiles, money) => `tie-breakers: ${tiles} tile${tiles === 1 ? "" : "s"} of the park's theme, $${money} left`,
    noTheme: "No Theme", tile: "tile", tileLine: (income, happiness) => `$${income} income · ${happiness} happiness`,
    tileTip: (name, type, theme, income, happiness) => `${name}: ${type}, ${theme}, income ${income}, happiness ${happiness}`,
    planningCard: "planning card", points: (n) => `${n} point${n === 1 ? "" : "s"}`,
    cell: (row, column) => `row ${row}, column ${column}`, park: (name) => `${name}'s park`, aTile: "a tile",
    active: "active", notActive: "not active", employees: (n) => `${n} employee${n === 1 ? "" : "s"}`, themeToken: ", theme token",
    at: (what, where) => `${what} at ${where}`, street: "street", reserved: "reserved space", empty: "empty", entranceRow: ", entrance row", off: "off",
    yourPlanning: "Your planning cards", noneKept: "none kept", chooseFrom: "Choose from", themes: "Themes", projects: "Projects board",
    round: "round", order: "turn order", passed: "passed", tilePiles: "tile piles", planningDeck: "planning deck",
    streetsLeft: "streets left", tokensLeft: "theme tokens left", toBuild: "Tile to build", discarded: (n) => `Discarded tiles (${n})`,
    money: "money", nextIncome: "next income", toPlace: "employees to place", employeesLeft: "employees left", movesLeft: "employee moves left this turn",
    purchase: "purchase tokens", of: (n, all) => `${n} of ${all}`, themeTokens: "theme tokens", foodCourts: "food courts",
    invested: "invested", investedLeft: (n, left) => `$${n} (${left} left)`, planningCards: "Planning cards",
    revealed: "Revealed at the end: the piles, the removed tiles, the planning deck", pile: (n) => `Pile ${n}`, removed: "Removed",
    planningDeckTitle: "Planning deck",
  },
  pt: {
    goal: { activeTheme: (n, theme) => `${n} edifícios ativos de ${theme}`, activeType: (n, type) => `${n} edifícios ativos do tipo ${type}`, streets: (n) => `${n} ruas`,
      income: (n) => `um rendimento de $${n}`, allActive: (n) => `${n} edifícios, todos ativos`, buildings: (n) => `${n} edifícios`,
      noNoTheme: "nenhuma peça Sem Tema", foodCourt: "uma Praça da Alimentação", other: "um objetivo" },
    happiness: (n) => (n === 1 ? "felicidade de 1 edifício ativo" : `felicidade de ${n} edifícios ativos`), foodCourtsLine: (n) => (n === 1 ? "1 Praça da Alimentação" : `${n} Praças da Alimentação`),
    themeLine: "tema: edifícios ativos do tema do parque, menos as peças Sem Tema", planningMet: (cards) => `cartas de planeamento cumpridas: ${cards}`,
    aCard: "uma carta", none: "nenhuma", moneyLeft: (n) => `dinheiro restante: $${n}, um ponto por cada $5`, investment: "investimento feito",
    reservedLeft: "espaços reservados por cobrir", tieBreakers: (tiles, money) => `desempate: ${tiles} peças do tema do parque, $${money} restantes`,
    noTheme: "Sem Tema", tile: "peça", tileLine: (income, happiness) => `rendimento $${income} · felicidade ${happiness}`,
    tileTip: (name, type, theme, income, happiness) => `${name}: ${type}, ${theme}, rendimento ${income}, felicidade ${happiness}`,
    planningCard: "carta de planeamento", points: (n) => (n === 1 ? "1 ponto" : `${n} pontos`),
    cell: (row, column) => `linha ${row}, coluna ${column}`, park: (name) => `parque de ${name}`, aTile: "uma peça",
    active: "ativo", notActive: "inativo", employees: (n) => (n === 1 ? "1 funcionário" : `${n} funcionários`), themeToken: ", ficha de tema",
    at: (what, where) => `${what} em ${where}`, street: "rua", reserved: "espaço reservado", empty: "vazio", entranceRow: ", linha da Entrada", off: "parado",
    yourPlanning: "As suas cartas de planeamento", noneKept: "nenhuma guardada", chooseFrom: "Escolha entre", themes: "Temas", projects: "Tabuleiro de Projetos",
    round: "ronda", order: "ordem de jogo", passed: "passou", tilePiles: "pilhas de peças", planningDeck: "baralho de planeamento",
    streetsLeft: "ruas restantes", tokensLeft: "fichas de tema restantes", toBuild: "Peça a construir", discarded: (n) => `Peças descartadas (${n})`,
    money: "dinheiro", nextIncome: "próximo rendimento", toPlace: "funcionários por colocar", employeesLeft: "funcionários restantes", movesLeft: "movimentos de funcionários restantes neste turno",
    purchase: "fichas de compra", of: (n, all) => `${n} de ${all}`, themeTokens: "fichas de tema", foodCourts: "praças da alimentação",
    invested: "investido", investedLeft: (n, left) => `$${n} (restam ${left})`, planningCards: "Cartas de planeamento",
    revealed: "Revelado no fim: as pilhas, as peças retiradas, o baralho de planeamento", pile: (n) => `Pilha ${n}`, removed: "Retiradas",
    planningDeckTitle: "Baralho de planeamento",
  },
  gl: {
    goal: { activeTheme: (n, theme) => `${n} edificios activos de ${theme}`, activeType: (n, type) => `${n} edificios activos do tipo ${type}`, streets: (n) => `${n} rúas`,
      income: (n) => `uns ingresos de $${n}`, allActive: (n) => `${n} edificios, todos activos`, buildings: (n) => `${n} edificios`,
      noNoTheme: "ningunha peza Sen Tema", foodCourt: "unha Zona de Comida", other: "un obxectivo" },
    happiness: (n) => (n === 1 ? "felicidade de 1 edificio activo" : `felicidade de ${n} edificios activos`), foodCourtsLine: (n) => (n === 1 ? "1 Zona de Comida" : `${n} Zonas de Comida`),
    themeLine: "tema: edificios activos do tema do parque, menos as pezas Sen Tema", planningMet: (cards) => `cartas de planificación cumpridas: ${cards}`,
    aCard: "unha carta", none: "ningunha", moneyLeft: (n) => `diñeiro restante: $${n}, un punto por cada $5`, investment: "investimento feito",
    reservedLeft: "espazos reservados sen cubrir", tieBreakers: (tiles, money) => `desempate: ${tiles} pezas do tema do parque, $${money} restantes`,
    noTheme: "Sen Tema", tile: "peza", tileLine: (income, happiness) => `ingresos $${income} · felicidade ${happiness}`,
    tileTip: (name, type, theme, income, happiness) => `${name}: ${type}, ${theme}, ingresos ${income}, felicidade ${happiness}`,
    planningCard: "carta de planificación", points: (n) => (n === 1 ? "1 punto" : `${n} puntos`),
    cell: (row, column) => `fila ${row}, columna ${column}`, park: (name) => `parque de ${name}`, aTile: "unha peza",
    active: "activo", notActive: "inactivo", employees: (n) => (n === 1 ? "1 empregado" : `${n} empregados`), themeToken: ", ficha de tema",
    at: (what, where) => `${what} en ${where}`, street: "rúa", reserved: "espazo reservado", empty: "baleiro", entranceRow: ", fila da Entrada", off: "parado",
    yourPlanning: "As túas cartas de planificación", noneKept: "ningunha gardada", chooseFrom: "Escolle entre", themes: "Temas", projects: "Taboleiro de Proxectos",
    round: "rolda", order: "orde de xogo", passed: "pasou", tilePiles: "montes de pezas", planningDeck: "mazo de planificación",
    streetsLeft: "rúas restantes", tokensLeft: "fichas de tema restantes", toBuild: "Peza para construír", discarded: (n) => `Pezas descartadas (${n})`,
    money: "diñeiro", nextIncome: "próximos ingresos", toPlace: "empregados por colocar", employeesLeft: "empregados restantes", movesLeft: "movementos de empregados restantes nesta quenda",
    purchase: "fichas de compra", of: (n, all) => `${n} de ${all}`, themeTokens: "fichas de tema", foodCourts: "zonas de comida",
    invested: "investido", investedLeft: (n, left) => `$${n} (quedan ${left})`, planningCards: "Cartas de planificación",
    revealed: "Revelado ao final: os montes, as pezas retiradas, o mazo de planificación", pile: (n) => `Monte ${n}`, removed: "Retiradas",
    planningDeckTitle: "Mazo de planificación",
  },
  es: {
    goal: { activeTheme: (n, theme) => `${n} edificios activos de ${theme}`, activeType: (n, type) => `${n} edificios activos del tipo ${type}`, streets: (n) => `${n} calles`,
      income: (n) => `unos ingresos de $${n}`, allActive: (n) => `${n} edificios, todos activos`, buildings: (n) => `${n} edificios`,
      noNoTheme: "ninguna loseta Sin Tema", foodCourt: "una Zona de Comida", other: "un objetivo" },
    happiness: (n) => (n === 1 ? "felicidad de 1 edificio activo" : `felicidad de ${n} edificios activos`), foodCourtsLine: (n) => (n === 1 ? "1 Zona de Comida" : `${n} Zonas de Comida`),
    themeLine: "tema: edificios activos del tema del parque, menos las losetas Sin Tema", planningMet: (cards) => `cartas de planificación cumplidas: ${cards}`,
    aCard: "una carta", none: "ninguna", moneyLeft: (n) => `dinero restante: $${n}, un punto por cada $5`, investment: "inversión hecha",
    reservedLeft: "espacios reservados sin cubrir", tieBreakers: (tiles, money) => `desempate: ${tiles} losetas del tema del parque, $${money} restantes`,
    noTheme: "Sin Tema", tile: "loseta", tileLine: (income, happiness) => `ingresos $${income} · felicidad ${happiness}`,
    tileTip: (name, type, theme, income, happiness) => `${name}: ${type}, ${theme}, ingresos ${income}, felicidad ${happiness}`,
    planningCard: "carta de planificación", points: (n) => (n === 1 ? "1 punto" : `${n} puntos`),
    cell: (row, column) => `fila ${row}, columna ${column}`, park: (name) => `parque de ${name}`, aTile: "una loseta",
    active: "activo", notActive: "inactivo", employees: (n) => (n === 1 ? "1 empleado" : `${n} empleados`), themeToken: ", ficha de tema",
    at: (what, where) => `${what} en ${where}`, street: "calle", reserved: "espacio reservado", empty: "vacío", entranceRow: ", fila de la Entrada", off: "parado",
    yourPlanning: "Tus cartas de planificación", noneKept: "ninguna guardada", chooseFrom: "Elige entre", themes: "Temas", projects: "Tablero de Proyectos",
    round: "ronda", order: "orden de juego", passed: "pasó", tilePiles: "montones de losetas", planningDeck: "mazo de planificación",
    streetsLeft: "calles restantes", tokensLeft: "fichas de tema restantes", toBuild: "Loseta por construir", discarded: (n) => `Losetas descartadas (${n})`,
    money: "dinero", nextIncome: "próximos ingresos", toPlace: "empleados por colocar", employeesLeft: "empleados restantes", movesLeft: "movimientos de empleados restantes en este turno",
    purchase: "fichas de compra", of: (n, all) => `${n} de ${all}`, themeTokens: "fichas de tema", foodCourts: "zonas de comida",
    invested: "invertido", investedLeft: (n, left) => `$${n} (quedan ${left})`, planningCards: "Cartas de planificación",
    revealed: "Revelado al final: los montones, las losetas retiradas, el mazo de planificación", pile: (n) => `Montón ${n}`, removed: "Retiradas",
    planningDeckTitle: "Mazo de planificación",
  },
});
// A building's type and a theme in the catalog's words (the Portuguese rulebook's, in pt).
const typeWord = (type) => (lang() !== "en" && term(GAME, "building", type)) || type;
const themeWord = (id, name) => (lang() !== "en" && term(GAME, "theme", id)) || name;

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
  return i < 0 ? { ...NO_THEME, name: WORDS.noTheme } : { ...THEMES[i % THEMES.length], name: themeWord(theme, comp.themes[i].name) };
}

const tileOf = (id, comp) => (comp.tiles || []).find((x) => x.id === id);

function tileInfo(id, comp) {
  const t = tileOf(id, comp);
  if (!t) return { title: WORDS.tile };
  const th = themeOf(comp, t.theme);
  return { title: t.name, sub: `${typeWord(t.type)} · ${th.name}`, icon: TYPES[t.type] || "?", corner: th.symbol,
    lines: [WORDS.tileLine(t.income, t.happiness)], cls: "tile", colour: th.fill, label: `${WORDS.tile}:`,
    tip: WORDS.tileTip(t.name, typeWord(t.type), th.name, t.income, t.happiness) };
}

function objectiveWords(o, comp) {
  const theme = themeWord(o.theme, (comp.themes || []).find((t) => t.id === o.theme)?.name);
  const g = WORDS.goal;
  switch (o.kind) {
    case "active_theme": return g.activeTheme(o.count, theme);
    case "active_type": return g.activeType(o.count, typeWord(o.type));
    case "streets": return g.streets(o.count);
    case "income": return g.income(o.count);
    case "all_active": return g.allActive(o.count);
    case "buildings": return g.buildings(o.count);
    case "no_no_theme": return g.noNoTheme;
    case "food_court": return g.foodCourt;
    default: return g.other;
  }
}

function planInfo(id, comp) {
  const p = (comp.planning_cards || []).find((x) => x.id === id);
  if (!p) return { title: WORDS.planningCard };
  return { title: p.name, sub: objectiveWords(p.objective || {}, comp), corner: `${p.points}★`, icon: "✎", cls: "planning",
    colour: "#7a5a1e", label: `${WORDS.planningCard}:`, lines: [WORDS.points(p.points)] };
}

function cellWords(cell) {
  return WORDS.cell(cell[0] + 1, cell[1] + 1);
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
    "data-testid": `park-${p.seat}`, role: "group", "aria-label": WORDS.park(ctx.seatName(p.seat)) });
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
        label = WORDS.at(`${t ? t.name : WORDS.aTile} (${t ? typeWord(t.type) : ""}, ${th ? th.name : ""}), ${b.active ? WORDS.active : WORDS.notActive}, ${WORDS.employees(b.employees)}${b.theme_token ? WORDS.themeToken : ""}`, cellWords([r, c]));
        cell.append(h("div", { class: "cell-icon", "aria-hidden": "true" }, t ? TYPES[t.type] || "?" : "?"),
          h("div", { class: "cell-name", "aria-hidden": "true" }, t ? t.name : ""),
          h("div", { class: "cell-theme", "aria-hidden": "true" }, th ? th.symbol : ""),
          h("div", { class: "employees", "aria-hidden": "true" }, "☺".repeat(Math.min(b.employees, 6))));
        if (b.theme_token) cell.append(h("div", { class: "token", "aria-hidden": "true" }, themeOf(comp, b.theme_token).symbol));
        if (b.reward) cell.append(h("div", { class: "reward", "aria-hidden": "true" }, "✦"));
        if (!b.active) cell.append(h("div", { class: "off", "aria-hidden": "true" }, WORDS.off));
      } else if (streets.has(key)) {
        label = WORDS.at(WORDS.street, cellWords([r, c]));
        cell.append(road(r, c, streets, buildings));
      } else {
        label = WORDS.at(reserved.has(key) ? WORDS.reserved : WORDS.empty, cellWords([r, c])) + (r === board.entrance_row ? WORDS.entranceRow : "");
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
  rules: byLanguage({
    en: {
      goal: "Build the happiest amusement park in 5 rounds.",
      turn: [
        "On your turn, one action: buy a tile from the projects board (its row's cost and a purchase token) and build it on an empty cell; buy streets (1 each); hire employees (1 each); buy a planning card (3, once a round); or pass for the round.",
        "Before and after it, free actions: put an employee on a building, place a theme token.",
        "A building works when it has an employee and a street joins it to the Entrance's streets.",
      ],
      end: "The game ends after round 5.",
      score: "Happiness of the active buildings and their bonuses, +10 a Food Court, +1 an active building of your theme and -1 a No Theme tile, planning cards met, +1 per 5 money left.",
    },
    pt: {
      goal: "Construa o parque de diversões mais feliz em 5 rondas.",
      turn: [
        "Na sua vez, uma ação: comprar uma Peça de Construção do Tabuleiro de Projetos (o custo da sua linha e uma Ficha de Compra) e construí-la numa casa vazia; comprar ruas (1 cada); contratar funcionários (1 cada); comprar uma Carta de Planeamento (3, uma vez por ronda); ou passar a ronda.",
        "Antes e depois dela, ações livres: pôr um Funcionário num edifício, colocar uma Ficha de Tema.",
        "Um edifício funciona quando tem um Funcionário e uma rua o liga às ruas da Entrada.",
      ],
      end: "O jogo termina depois da ronda 5.",
      score: "Felicidade dos edifícios ativos e os seus bónus, +10 por Praça da Alimentação, +1 por edifício ativo do seu tema e -1 por peça Sem Tema, Cartas de Planeamento cumpridas, +1 por cada 5 de dinheiro restante.",
    },
    gl: {
      goal: "Constrúe o parque de atraccións máis feliz en 5 roldas.",
      turn: [
        "Na túa quenda, unha acción: mercar unha peza do taboleiro de proxectos (o custo da súa fila e unha ficha de compra) e construíla nunha casa baleira; mercar rúas (1 cada unha); contratar empregados (1 cada un); mercar unha carta de planificación (3, unha vez por rolda); ou pasar a rolda.",
        "Antes e despois dela, accións libres: pór un empregado nun edificio, colocar unha ficha de tema.",
        "Un edificio funciona cando ten un empregado e unha rúa o une ás rúas da Entrada.",
      ],
      end: "A partida remata despois da rolda 5.",
      score: "Felicidade dos edificios activos e as súas bonificacións, +10 por zona de comida, +1 por edificio activo do teu tema e -1 por peza Sen Tema, cartas de planificación cumpridas, +1 por cada 5 de diñeiro restante.",
    },
    es: {
      goal: "Construye el parque de atracciones más feliz en 5 rondas.",
      turn: [
        "En tu turno, una acción: comprar una loseta del tablero de proyectos (el coste de su fila y una ficha de compra) y construirla en una casilla vacía; comprar calles (1 cada una); contratar empleados (1 cada uno); comprar una carta de planificación (3, una vez por ronda); o pasar la ronda.",
        "Antes y después de ella, acciones libres: poner un empleado en un edificio, colocar una ficha de tema.",
        "Un edificio funciona cuando tiene un empleado y una calle lo une a las calles de la Entrada.",
      ],
      end: "La partida termina después de la ronda 5.",
      score: "Felicidad de los edificios activos y sus bonificaciones, +10 por zona de comida, +1 por edificio activo de tu tema y -1 por loseta Sin Tema, cartas de planificación cumplidas, +1 por cada 5 de dinero restante.",
    },
  }),
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
    const hand = me && (me.planning || me.looking) ? section(WORDS.yourPlanning,
      cards((me.planning || []).map(plan), { fan: true, testid: `hand-${me.seat}`, empty: WORDS.noneKept }),
      me.looking && me.looking.length ? [h("h3", {}, WORDS.chooseFrom), cards(me.looking.map(plan))] : null) : null;
    const board = h("div", { class: "board liz" },
      view.phase === "themes" ? section(WORDS.themes, h("div", { class: "swatches" }, (comp.themes || []).map((t) => {
        const owner = (view.parks || []).find((p) => p.theme === t.id);
        const th = themeOf(comp, t.id);
        return h("span", { class: "chip theme-choice", "data-pick": `theme:${t.id}`, "data-key": "theme:" + t.id, style: { "--chip": th.fill, "--chip-ink": inkOn(th.fill) } },
          h("span", { class: "chip-symbol", "aria-hidden": "true" }, th.symbol), th.name, owner ? ` · ${ctx.seatName(owner.seat)}` : "");
      }))) : null,
      section(WORDS.projects,
        h("p", {}, stat(WORDS.round, view.round), stat(WORDS.order, (view.order || []).map((s) => ctx.seatName(s)).join(" → ")),
          view.passing && view.passing.length ? stat(WORDS.passed, listWords(view.passing.map((s) => ctx.seatName(s)))) : null),
        (view.projects || []).map((row) => h("div", { class: "project-row", "data-key": "row:" + row.cost },
          h("span", { class: "cost" }, `$${row.cost}`),
          h("div", { class: "cards small" }, row.tiles.map((id, i) => (id ? tile(id) : h("div", { class: "card slot", "data-key": `slot:${row.cost}:${i}`, "aria-hidden": "true" })))))),
        h("p", {}, stat(WORDS.tilePiles, (view.piles || []).join(" · ")), stat(WORDS.planningDeck, view.planning_deck_count),
          stat(WORDS.streetsLeft, view.streets_left), stat(WORDS.tokensLeft, view.theme_tokens_left)),
        view.pending_tile ? h("div", {}, h("h3", {}, WORDS.toBuild), h("div", { class: "cards" }, tile(view.pending_tile))) : null,
        view.discarded && view.discarded.length ? h("details", {}, h("summary", {}, WORDS.discarded(view.discarded.length)),
          cards(view.discarded.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })) : null),
      h("div", { class: "parks" }, (view.parks || []).map((p) => {
        const th = p.theme ? themeOf(comp, p.theme) : null;
        return seatPanel(p.seat, ctx,
          seatHeader(p.seat, ctx, [th ? h("span", { class: "chip", style: { "--chip": th.fill, "--chip-ink": inkOn(th.fill) } }, h("span", { class: "chip-symbol", "aria-hidden": "true" }, th.symbol), th.name) : null,
            p.passed ? pill(WORDS.passed) : null]),
          park(p, view, ctx, p.seat === view.viewer),
          h("p", { class: "park-stats" }, stat(WORDS.money, `$${p.income}`), stat(WORDS.nextIncome, `$${p.income_next}`),
            stat(WORDS.toPlace, p.employees), stat(WORDS.employeesLeft, p.employees_left),
            stat(WORDS.purchase, WORDS.of(p.purchase_tokens - p.purchase_tokens_used, p.purchase_tokens)),
            stat(WORDS.themeTokens, p.theme_tokens), p.food_courts ? stat(WORDS.foodCourts, p.food_courts) : null,
            view.investment ? stat(WORDS.invested, WORDS.investedLeft(p.invested, p.investment_left)) : null,
            p.seat === view.turn && view.employee_moves_left != null ? stat(WORDS.movesLeft, view.employee_moves_left) : null),
          p.seat === view.viewer && hand ? null
            : p.planning ? h("div", {}, h("h4", {}, WORDS.planningCards), cards(p.planning.map(plan), { fan: true, small: true }))
              : p.planning_count ? h("div", {}, h("h4", {}, WORDS.planningCards), backs(p.planning_count, "✎")) : null);
      })),
      view.removed || view.planning_deck ? h("details", { class: "panel revealed" }, h("summary", {}, WORDS.revealed),
        (view.pile_tiles || []).map((ids, i) => (ids && ids.length ? [h("h3", {}, WORDS.pile(i + 1)), cards(ids.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })] : null)),
        view.removed ? [h("h3", {}, WORDS.removed), cards(view.removed.map((id) => card(id, tileInfo(id, comp))), { fan: true, small: true })] : null,
        view.planning_deck ? [h("h3", {}, WORDS.planningDeckTitle), cards(view.planning_deck.map((id) => card(id, planInfo(id, comp))), { fan: true, small: true })] : null) : null,
    );
    return { board, hand };
  },
  breakdown(outcome, ctx) {
    const comp = ctx.comp;
    return (outcome.breakdown || []).map((b) => ({
      seat: b.seat, total: b.total,
      lines: [
        [WORDS.happiness(b.tiles.filter((t) => t.active).length), b.buildings],
        [WORDS.foodCourtsLine(b.food_courts / 10 || 0), b.food_courts],
        [WORDS.themeLine, b.theme],
        [WORDS.planningMet(listWords(b.planning_met.map((id) => (comp.planning_cards || []).find((p) => p.id === id)?.name || WORDS.aCard)) || WORDS.none), b.planning],
        [WORDS.moneyLeft(b.income_left), b.income],
        [WORDS.investment, b.investment],
        [WORDS.reservedLeft, b.reserved],
      ].filter((l) => l[1] !== 0),
      note: WORDS.tieBreakers(b.own_theme_tiles, b.income_left),
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
  // The command a thing of the table stands for when it is not lit (picks.js, "why not"): a tile
  // of the projects is one to buy, a cell of one's park where a tile is built.
  intent(kind, value) {
    if (kind === "theme") return { type: "ChooseTheme", theme: value };
    if (kind === "tile") return { type: "BuyTile", tile: value };
    return kind === "cell" ? { type: "BuildTile", cell: String(value).split(",").map(Number) } : null;
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
