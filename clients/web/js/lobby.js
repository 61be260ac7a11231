// The home page: a newcomer's welcome (a name, and the player is made), the player's tables (those
// awaiting it first, marked "your move"), the catalog with a form per game built from its options,
// the open tables, the active games to watch; and the finished games to replay.

import { get, post, catalog, mySeats } from "./api.js";
import { h, clear, errorMessage, humanize, pill } from "./ui.js";
import { seatNamer, BOT_LEVELS } from "./names.js";
import { player, defaultName, makePlayer, myTables, sit, quickPlay } from "./player.js";
import { byLanguage, date, lang, term, titleOf } from "./words.js";
import { levelName } from "./names.js";

const REFRESH_MS = 30_000; // my tables, read again while the page is in front

// The words of these screens a person reads (kept together for translation).
const WORDS = byLanguage({
  en: {
    loadingLobby: "Loading the lobby…",
    catalogUnreadable: (why) => `The catalog could not be read: ${why}`,
    lobby: "Lobby",
    refresh: "refresh",
    welcome: "Welcome to Ludoteca",
    welcomeText: "Play any game here, against bots or people. What shall the others call you?",
    yourName: "Your name",
    start: "Start playing",
    starting: "Making your player",
    playedBefore: "Played here before, on another device? ",
    signIn: "Sign in",
    playingAs: "You play as ",
    settings: "settings",
    myTables: "My tables",
    noTables: "No tables yet: open one below, or join an open table.",
    yourMove: "your move",
    status: { open: "waiting for players", active: "in play", finished: "finished" },
    seatNumber: (n) => `seat ${n}`,
    keptSeats: "Seats kept in this browser",
    keptSeat: (title, n) => `${title}, seat ${n}`,
    aGame: "a game",
    newTable: "New table",
    openTables: "Open tables",
    noOpen: "No open table: create one.",
    beingPlayed: "Being played",
    nothingPlayed: "Nothing is being played right now.",
    game: "Game",
    seats: "Seats",
    actions: "Actions",
    seated: (taken, of) => `${taken} of ${of} seated`,
    playersAndBots: (n, bots) => `${n} players${bots ? `, ${bots} bot${bots === 1 ? "" : "s"}` : ""}`,
    play: (n) => `play (seat ${n})`,
    join: "join",
    replay: "replay",
    watch: "watch",
    leaderboard: "leaderboard",
    playersRange: (least, most) => `${least}–${most} players`,
    players: "Players ",
    playersLabel: "players",
    options: "Options",
    turnClock: "Turn clock ",
    turnClockLabel: "turn clock",
    noClock: "no clock",
    botMoves: "out of time, a bot plays the move",
    othersChoose: "over days: out of time, the others choose",
    clocks: {
      "move:60": "1 minute a move",
      "move:300": "5 minutes a move",
      "game:900": "15 minutes a game",
      live: "90 s a move, a 5-minute bank",
      "one-day": "a day a move, a 2-day bank",
      "three-days": "3 days a move, a 5-day bank",
    },
    ifLeaves: "If a player leaves, ",
    playsOn: " plays on",
    takeoverLabel: "bot for a seat that leaves",
    casualBot: "a casual bot",
    levelBot: (label) => `a ${label} bot`,
    sitMyself: " take a seat myself",
    rated: " rated: counts on the players' ratings (players only, no bots)",
    create: "Create table",
    creating: "Creating the table",
    quickPlay: "Quick play",
    quickPlayHint: "a seat at the oldest open table like this one, or a new one",
    quickPlaying: "Finding a table",
    tableLanguage: "Table language ",
    tableLanguageLabel: "the language the table speaks",
    anyLanguage: "any language",
    // each language by its own name
    languages: { pt: "Português", gl: "Galego", es: "Español", en: "English" },
    show: "Show",
    everyGame: "every game",
    anyClock: "any clock",
    filterGame: "game to show",
    filterLanguage: "language to show",
    filterClock: "clock to show",
    clockNames: { live: "live", "one-day": "a day a move", "three-days": "3 days a move", custom: "another clock", none: "no clock" },
    joining: "Joining",
    listing: (status) => `Listing ${status} games`,
    loading: "Loading…",
    replays: "Replays",
    openById: "Open a game by id: ",
    gameId: "game id",
    open: "open",
    finishedNewest: "Finished games, newest first",
    columns: ["Finished", "Game", "Players", "Winner", "Scores"],
    calledOff: "called off",
    nobody: "nobody",
    noFinished: "No finished game yet.",
    older: (n) => `and ${n} older games`,
    and: " and ",
  },
  pt: {
    loadingLobby: "A carregar a entrada…",
    catalogUnreadable: (why) => `Não foi possível ler o catálogo: ${why}`,
    lobby: "Entrada",
    refresh: "atualizar",
    welcome: "Bem-vindo à Ludoteca",
    welcomeText: "Jogue aqui qualquer jogo, contra bots ou pessoas. Como devem os outros chamar-lhe?",
    yourName: "O seu nome",
    start: "Começar a jogar",
    starting: "A criar o seu jogador",
    playedBefore: "Já jogou aqui noutro dispositivo? ",
    signIn: "Entrar",
    playingAs: "Joga como ",
    settings: "definições",
    myTables: "As minhas mesas",
    noTables: "Ainda não tem mesas: abra uma abaixo, ou junte-se a uma mesa aberta.",
    yourMove: "a sua vez",
    status: { open: "à espera de jogadores", active: "em curso", finished: "terminada" },
    seatNumber: (n) => `lugar ${n}`,
    keptSeats: "Lugares guardados neste navegador",
    keptSeat: (title, n) => `${title}, lugar ${n}`,
    aGame: "um jogo",
    newTable: "Nova mesa",
    openTables: "Mesas abertas",
    noOpen: "Nenhuma mesa aberta: crie uma.",
    beingPlayed: "A ser jogados",
    nothingPlayed: "Nada está a ser jogado agora.",
    game: "Jogo",
    seats: "Lugares",
    actions: "Ações",
    seated: (taken, of) => `${taken} de ${of} sentados`,
    playersAndBots: (n, bots) => `${n} jogadores${bots ? `, ${bots} ${bots === 1 ? "bot" : "bots"}` : ""}`,
    play: (n) => `jogar (lugar ${n})`,
    join: "entrar",
    replay: "repetição",
    watch: "assistir",
    leaderboard: "classificação",
    playersRange: (least, most) => `${least}–${most} jogadores`,
    players: "Jogadores ",
    playersLabel: "jogadores",
    options: "Opções",
    turnClock: "Relógio ",
    turnClockLabel: "relógio",
    noClock: "sem relógio",
    botMoves: "sem tempo, um bot faz a jogada",
    othersChoose: "ao longo de dias: sem tempo, os outros escolhem",
    clocks: {
      "move:60": "1 minuto por jogada",
      "move:300": "5 minutos por jogada",
      "game:900": "15 minutos por jogo",
      live: "90 s por jogada, 5 minutos de reserva",
      "one-day": "um dia por jogada, 2 dias de reserva",
      "three-days": "3 dias por jogada, 5 dias de reserva",
    },
    ifLeaves: "Se um jogador sair, ",
    playsOn: " continua a jogar",
    takeoverLabel: "bot para um lugar que sai",
    casualBot: "um bot casual",
    levelBot: (label) => `um bot ${label}`,
    sitMyself: " sentar-me eu também",
    rated: " com classificação: conta para a classificação dos jogadores (só jogadores, sem bots)",
    create: "Criar mesa",
    creating: "A criar a mesa",
    quickPlay: "Jogo rápido",
    quickPlayHint: "um lugar na mesa aberta mais antiga como esta, ou numa nova",
    quickPlaying: "A procurar uma mesa",
    tableLanguage: "Língua da mesa ",
    tableLanguageLabel: "a língua que a mesa fala",
    anyLanguage: "qualquer língua",
    show: "Mostrar",
    everyGame: "todos os jogos",
    anyClock: "qualquer relógio",
    filterGame: "jogo a mostrar",
    filterLanguage: "língua a mostrar",
    filterClock: "relógio a mostrar",
    clockNames: { live: "ao vivo", "one-day": "um dia por jogada", "three-days": "3 dias por jogada", custom: "outro relógio", none: "sem relógio" },
    joining: "A entrar",
    listing: (status) => `A listar os jogos (${status})`,
    loading: "A carregar…",
    replays: "Repetições",
    openById: "Abrir um jogo pelo id: ",
    gameId: "id do jogo",
    open: "abrir",
    finishedNewest: "Jogos terminados, os mais recentes primeiro",
    columns: ["Terminado", "Jogo", "Jogadores", "Vencedor", "Pontuação"],
    calledOff: "cancelado",
    nobody: "ninguém",
    noFinished: "Ainda não há jogos terminados.",
    older: (n) => `e mais ${n} jogos antigos`,
    and: " e ",
  },
  gl: {
    loadingLobby: "Cargando a entrada…",
    catalogUnreadable: (why) => `Non se puido ler o catálogo: ${why}`,
    lobby: "Entrada",
    refresh: "actualizar",
    welcome: "Benvida á Ludoteca",
    welcomeText: "Xoga aquí a calquera xogo, contra bots ou persoas. Como deben chamarte os demais?",
    yourName: "O teu nome",
    start: "Comezar a xogar",
    starting: "Creando o teu xogador",
    playedBefore: "Xa xogaches aquí noutro dispositivo? ",
    signIn: "Entrar",
    playingAs: "Xogas como ",
    settings: "axustes",
    myTables: "As miñas mesas",
    noTables: "Aínda non tes mesas: abre unha embaixo, ou únete a unha mesa aberta.",
    yourMove: "a túa quenda",
    status: { open: "agardando xogadores", active: "en xogo", finished: "rematada" },
    seatNumber: (n) => `posto ${n}`,
    keptSeats: "Postos gardados neste navegador",
    keptSeat: (title, n) => `${title}, posto ${n}`,
    aGame: "unha partida",
    newTable: "Nova mesa",
    openTables: "Mesas abertas",
    noOpen: "Ningunha mesa aberta: crea unha.",
    beingPlayed: "En xogo",
    nothingPlayed: "Agora non se está a xogar nada.",
    game: "Xogo",
    seats: "Postos",
    actions: "Accións",
    seated: (taken, of) => `${taken} de ${of} sentados`,
    playersAndBots: (n, bots) => `${n} xogadores${bots ? `, ${bots} ${bots === 1 ? "bot" : "bots"}` : ""}`,
    play: (n) => `xogar (posto ${n})`,
    join: "entrar",
    replay: "repetición",
    watch: "mirar",
    leaderboard: "clasificación",
    playersRange: (least, most) => `${least}–${most} xogadores`,
    players: "Xogadores ",
    playersLabel: "xogadores",
    options: "Opcións",
    turnClock: "Reloxo ",
    turnClockLabel: "reloxo",
    noClock: "sen reloxo",
    botMoves: "sen tempo, un bot fai a xogada",
    othersChoose: "durante días: sen tempo, os demais escollen",
    clocks: {
      "move:60": "1 minuto por xogada",
      "move:300": "5 minutos por xogada",
      "game:900": "15 minutos por partida",
      live: "90 s por xogada, 5 minutos de reserva",
      "one-day": "un día por xogada, 2 días de reserva",
      "three-days": "3 días por xogada, 5 días de reserva",
    },
    ifLeaves: "Se un xogador marcha, ",
    playsOn: " segue xogando",
    takeoverLabel: "bot para un posto que queda libre",
    casualBot: "un bot casual",
    levelBot: (label) => `un bot ${label}`,
    sitMyself: " sentarme eu tamén",
    rated: " puntuable: conta para a clasificación dos xogadores (só xogadores, sen bots)",
    create: "Crear mesa",
    creating: "Creando a mesa",
    quickPlay: "Partida rápida",
    quickPlayHint: "un posto na mesa aberta máis antiga coma esta, ou nunha nova",
    quickPlaying: "Buscando unha mesa",
    tableLanguage: "Lingua da mesa ",
    tableLanguageLabel: "a lingua que fala a mesa",
    anyLanguage: "calquera lingua",
    show: "Amosar",
    everyGame: "todos os xogos",
    anyClock: "calquera reloxo",
    filterGame: "xogo que amosar",
    filterLanguage: "lingua que amosar",
    filterClock: "reloxo que amosar",
    clockNames: { live: "ao vivo", "one-day": "un día por xogada", "three-days": "3 días por xogada", custom: "outro reloxo", none: "sen reloxo" },
    joining: "Entrando",
    listing: (status) => `Listando as partidas (${status})`,
    loading: "Cargando…",
    replays: "Repeticións",
    openById: "Abrir unha partida polo id: ",
    gameId: "id da partida",
    open: "abrir",
    finishedNewest: "Partidas rematadas, as máis recentes primeiro",
    columns: ["Rematada", "Xogo", "Xogadores", "Gañador", "Puntuación"],
    calledOff: "cancelada",
    nobody: "ninguén",
    noFinished: "Aínda non hai partidas rematadas.",
    older: (n) => `e ${n} partidas máis antigas`,
    and: " e ",
  },
  es: {
    loadingLobby: "Cargando la entrada…",
    catalogUnreadable: (why) => `No se pudo leer el catálogo: ${why}`,
    lobby: "Entrada",
    refresh: "actualizar",
    welcome: "Bienvenida a Ludoteca",
    welcomeText: "Juega aquí a cualquier juego, contra bots o personas. ¿Cómo deben llamarte los demás?",
    yourName: "Tu nombre",
    start: "Empezar a jugar",
    starting: "Creando tu jugador",
    playedBefore: "¿Ya jugaste aquí en otro dispositivo? ",
    signIn: "Entrar",
    playingAs: "Juegas como ",
    settings: "ajustes",
    myTables: "Mis mesas",
    noTables: "Todavía no tienes mesas: abre una abajo, o únete a una mesa abierta.",
    yourMove: "tu turno",
    status: { open: "esperando jugadores", active: "en juego", finished: "terminada" },
    seatNumber: (n) => `puesto ${n}`,
    keptSeats: "Puestos guardados en este navegador",
    keptSeat: (title, n) => `${title}, puesto ${n}`,
    aGame: "una partida",
    newTable: "Nueva mesa",
    openTables: "Mesas abiertas",
    noOpen: "Ninguna mesa abierta: crea una.",
    beingPlayed: "En juego",
    nothingPlayed: "Ahora no se está jugando nada.",
    game: "Juego",
    seats: "Puestos",
    actions: "Acciones",
    seated: (taken, of) => `${taken} de ${of} sentados`,
    playersAndBots: (n, bots) => `${n} jugadores${bots ? `, ${bots} ${bots === 1 ? "bot" : "bots"}` : ""}`,
    play: (n) => `jugar (puesto ${n})`,
    join: "unirse",
    replay: "repetición",
    watch: "mirar",
    leaderboard: "clasificación",
    playersRange: (least, most) => `${least}–${most} jugadores`,
    players: "Jugadores ",
    playersLabel: "jugadores",
    options: "Opciones",
    turnClock: "Reloj ",
    turnClockLabel: "reloj",
    noClock: "sin reloj",
    botMoves: "sin tiempo, un bot hace la jugada",
    othersChoose: "durante días: sin tiempo, los demás eligen",
    clocks: {
      "move:60": "1 minuto por jugada",
      "move:300": "5 minutos por jugada",
      "game:900": "15 minutos por partida",
      live: "90 s por jugada, 5 minutos de reserva",
      "one-day": "un día por jugada, 2 días de reserva",
      "three-days": "3 días por jugada, 5 días de reserva",
    },
    ifLeaves: "Si un jugador se va, ",
    playsOn: " sigue jugando",
    takeoverLabel: "bot para un puesto que queda libre",
    casualBot: "un bot casual",
    levelBot: (label) => `un bot ${label}`,
    sitMyself: " sentarme yo también",
    rated: " puntuable: cuenta para la clasificación de los jugadores (solo jugadores, sin bots)",
    create: "Crear mesa",
    creating: "Creando la mesa",
    quickPlay: "Partida rápida",
    quickPlayHint: "un puesto en la mesa abierta más antigua como esta, o en una nueva",
    quickPlaying: "Buscando una mesa",
    tableLanguage: "Idioma de la mesa ",
    tableLanguageLabel: "el idioma que habla la mesa",
    anyLanguage: "cualquier idioma",
    show: "Mostrar",
    everyGame: "todos los juegos",
    anyClock: "cualquier reloj",
    filterGame: "juego que mostrar",
    filterLanguage: "idioma que mostrar",
    filterClock: "reloj que mostrar",
    clockNames: { live: "en vivo", "one-day": "un día por jugada", "three-days": "3 días por jugada", custom: "otro reloj", none: "sin reloj" },
    joining: "Uniéndose",
    listing: (status) => `Listando las partidas (${status})`,
    loading: "Cargando…",
    replays: "Repeticiones",
    openById: "Abrir una partida por su id: ",
    gameId: "id de la partida",
    open: "abrir",
    finishedNewest: "Partidas terminadas, las más recientes primero",
    columns: ["Terminada", "Juego", "Jugadores", "Ganador", "Puntuación"],
    calledOff: "cancelada",
    nobody: "nadie",
    noFinished: "Todavía no hay partidas terminadas.",
    older: (n) => `y ${n} partidas más antiguas`,
    and: " y ",
  },
});

// The turn clocks the form offers: a bot moves for a seat out of time, or, over days, the others choose.
const BOT_CLOCKS = ["move:60", "move:300", "game:900", "live"];
const DAY_CLOCKS = ["one-day", "three-days"];

// A table option's label: the game's catalog term (its rulebook's word for a module), else its code read out.
function optionInput(game, name, value, bounds) {
  const id = `opt-${name}`;
  const label = term(game, "option", name) || humanize(name);
  if (typeof value === "boolean") {
    return h("label", { class: "option" }, h("input", { type: "checkbox", name, id, "data-option": name, checked: value }), " ", label);
  }
  if (typeof value === "number") {
    return h("label", { class: "option" }, label, " ", h("input", { type: "number", name, id, "data-option": name, value: String(value), step: "1", min: bounds ? bounds[0] : null, max: bounds ? bounds[1] : null }));
  }
  return h("label", { class: "option" }, label, " ",
    h("input", { type: "text", name, id, "data-option": name, "data-json": typeof value === "string" ? null : "1", value: typeof value === "string" ? value : JSON.stringify(value) }));
}

function readOptions(form, defaults) {
  const options = {};
  for (const input of form.querySelectorAll("[data-option]")) {
    const name = input.getAttribute("data-option");
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") value = Number(input.value);
    else if (input.hasAttribute("data-json")) value = JSON.parse(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(defaults[name])) options[name] = value;
  }
  return options;
}

// A clock as POST /games takes it: a preset's name, or {per, seconds, on_timeout} (docs/table-services.md).
function clockOf(choice) {
  if (!choice) return null;
  if (!choice.includes(":")) return choice;
  const [per, seconds] = choice.split(":");
  return { per, seconds: Number(seconds), on_timeout: "bot_move" };
}

export async function createAndSit(game, players, options, name, seated, clock = null, takeover = null, rated = false, lang = null) {
  const body = { game, players, options };
  if (clock) body.clock = clock;
  if (takeover) body.takeover = takeover;
  if (rated) body.rated = true;
  if (lang) body.lang = lang;
  const created = await post("/games", body);
  // the creator may call the table off until it starts (docs/table-services.md)
  localStorage.setItem(`ludoteca.creator.${created.game_id}`, created.creator_token);
  if (seated) await sit(created.game_id, game, name);
  return created.game_id;
}

function gameForm(entry, typedName) {
  const players = h("input", { type: "number", min: entry.min_players, max: entry.max_players, value: String(entry.min_players), "data-field": "players", "aria-label": WORDS.playersLabel });
  const seated = h("input", { type: "checkbox", checked: true, "data-field": "sit" });
  const rated = h("input", { type: "checkbox", "data-field": "rated" });
  const lang = languageSelect("lang", WORDS.tableLanguageLabel, WORDS.anyLanguage);
  const clock = h("select", { "data-field": "clock", "aria-label": WORDS.turnClockLabel },
    h("option", { value: "" }, WORDS.noClock),
    h("optgroup", { label: WORDS.botMoves }, BOT_CLOCKS.map((c) => h("option", { value: c }, WORDS.clocks[c]))),
    h("optgroup", { label: WORDS.othersChoose }, DAY_CLOCKS.map((c) => h("option", { value: c }, WORDS.clocks[c]))));
  // who plays on for a seat whose player leaves (the server's default: greedy)
  const takeover = h("select", { "data-field": "takeover", "aria-label": WORDS.takeoverLabel },
    h("option", { value: "" }, WORDS.casualBot),
    BOT_LEVELS.filter(([value]) => value !== "casual").map(([value, label]) => h("option", { value }, WORDS.levelBot(levelName(label)))));
  const form = h("form", { class: "game-form panel", "data-game": entry.game },
    h("h3", {}, titleOf(entry.game, entry.title)),
    h("div", { class: "muted" }, WORDS.playersRange(entry.min_players, entry.max_players), " · ",
      h("a", { href: `#/leaderboard/${entry.game}` }, WORDS.leaderboard)),
    h("label", {}, WORDS.players, players),
    Object.keys(entry.options || {}).length ? h("fieldset", {}, h("legend", {}, WORDS.options),
      Object.entries(entry.options).map(([k, v]) => optionInput(entry.game, k, v, (entry.bounds || {})[k]))) : null,
    h("label", {}, WORDS.turnClock, clock),
    h("label", {}, WORDS.ifLeaves, takeover, WORDS.playsOn),
    h("label", {}, seated, WORDS.sitMyself),
    h("label", {}, rated, WORDS.rated),
    h("label", {}, WORDS.tableLanguage, lang),
    h("div", { class: "form-buttons" },
      h("button", { type: "submit", class: "primary", "data-testid": `create-${entry.game}` }, WORDS.create), " ",
      h("button", { type: "button", "data-testid": `quick-${entry.game}`, title: WORDS.quickPlayHint, onclick: async () => {
        try {
          // what the form says, as filters: a clock only when it is a preset (another clock: any)
          const wanted = { game: entry.game, players: Number(players.value), rated: rated.checked };
          if (lang.value) wanted.lang = lang.value;
          if (clock.value && !clock.value.includes(":")) wanted.clock = clock.value;
          const seat = await quickPlay(wanted, typedName());
          location.hash = `#/game/${seat.game_id}`;
        } catch (err) {
          errorMessage(err, WORDS.quickPlaying);
        }
      } }, WORDS.quickPlay)));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const options = readOptions(form, entry.options || {});
      const gameId = await createAndSit(entry.game, Number(players.value), options, typedName(), seated.checked,
        clockOf(clock.value), takeover.value, rated.checked, lang.value || null);
      location.hash = `#/game/${gameId}`;
    } catch (err) {
      errorMessage(err, WORDS.creating);
    }
  });
  return form;
}

// A language to choose, each by its own name; `none`: the first option's words (any).
function languageSelect(field, label, none) {
  return h("select", { "data-field": field, "aria-label": label },
    h("option", { value: "" }, none),
    Object.entries(WORDS.languages).map(([code, name]) => h("option", { value: code, lang: code }, name)));
}

// The open tables' filters (GET /games's game, lang and clock), kept for the visit.
const filters = { game: "", lang: "", clock: "" };

function filterBar(games, redraw) {
  const pick = (field, label, choices, none) => {
    const select = h("select", { "data-filter": field, "aria-label": label, onchange: () => { filters[field] = select.value; redraw(); } },
      h("option", { value: "" }, none), choices.map(([value, text]) => h("option", { value, selected: filters[field] === value }, text)));
    return select;
  };
  return h("div", { class: "filters", "data-testid": "filters" }, WORDS.show, " ",
    pick("game", WORDS.filterGame, games.map((g) => [g.game, titleOf(g.game, g.title)]), WORDS.everyGame), " ",
    pick("lang", WORDS.filterLanguage, Object.entries(WORDS.languages), WORDS.anyLanguage), " ",
    pick("clock", WORDS.filterClock, Object.entries(WORDS.clockNames), WORDS.anyClock));
}

function gameRow(g, titles, typedName, held) {
  const mine = held.get(g.game_id);
  return h("tr", { "data-game-id": g.game_id },
    h("td", {}, titles.get(g.game) || WORDS.aGame),
    h("td", {}, g.status === "open" ? WORDS.seated(g.seats_taken, g.players) : WORDS.playersAndBots(g.players, g.bots.length)),
    h("td", {},
      mine ? h("a", { href: `#/game/${g.game_id}`, class: "button" }, WORDS.play(mine.seat + 1)) : null,
      g.status === "open" && !mine ? h("button", {
        onclick: async () => {
          try {
            await sit(g.game_id, g.game, typedName());
            location.hash = `#/game/${g.game_id}`;
          } catch (err) { errorMessage(err, WORDS.joining); }
        },
      }, WORDS.join) : null, " ",
      g.status === "finished" ? h("a", { href: `#/replay/${g.game_id}`, class: "button" }, WORDS.replay) : null, " ",
      h("a", { href: `#/watch/${g.game_id}`, class: "button" }, WORDS.watch)));
}

async function listGames(status, pages = 1, wanted = {}) {
  try {
    let games = [];
    let cursor = null;
    const only = Object.fromEntries(Object.entries(wanted).filter(([, v]) => v));
    for (let i = 0; i < pages; i++) {
      const answer = await get("/games", { params: { status, limit: 200, cursor, ...only } });
      games = games.concat(answer.games);
      cursor = answer.next_cursor;
      if (cursor === null || cursor === undefined) break;
    }
    return games;
  } catch (err) {
    errorMessage(err, WORDS.listing(lang() === "en" ? status : WORDS.status[status] || status));
    return [];
  }
}

// The player's tables, those awaiting it first, each marked "your move" while it does.
function tablesList(tables, titles) {
  if (!tables.length) return h("p", { class: "muted" }, WORDS.noTables);
  return h("ul", { class: "my-tables", "data-testid": "my-tables" }, tables.map((t) =>
    h("li", { "data-game-id": t.game_id, "data-awaiting": t.awaiting || null },
      h("a", { href: `#/game/${t.game_id}` }, titles.get(t.game) || WORDS.aGame), " ",
      t.awaiting ? h("span", { class: "pill your-move", "data-testid": "your-move" }, WORDS.yourMove)
        : pill(WORDS.status[t.status] || t.status, `status-${t.status}`),
      h("span", { class: "muted" }, ` · ${WORDS.seatNumber(t.seat + 1)}`))));
}

// A newcomer: a name (a sensible one already there), and the player is made. Sitting down anywhere
// makes it too, with the name in this box.
function welcome(nameInput, again) {
  const start = async (e) => {
    e.preventDefault();
    try {
      await makePlayer(nameInput.value);
      again(); // the lobby again, as the player
    } catch (err) {
      errorMessage(err, WORDS.starting);
    }
  };
  return h("section", { class: "panel welcome", "data-testid": "welcome" },
    h("h2", {}, WORDS.welcome),
    h("p", {}, WORDS.welcomeText),
    h("form", { class: "welcome-form", onsubmit: start },
      h("label", {}, WORDS.yourName, " ", nameInput), " ",
      h("button", { type: "submit", class: "primary", "data-testid": "start" }, WORDS.start)),
    h("p", { class: "muted" }, WORDS.playedBefore, h("a", { href: "#/sign-in", "data-testid": "sign-in-link" }, WORDS.signIn)));
}

// The lobby; `again()` draws it again (the router's own). Answers {stop} while it reads my tables again.
export async function showLobby(root, again) {
  clear(root, h("p", {}, WORDS.loadingLobby));
  let games;
  try {
    games = await catalog();
  } catch (err) {
    clear(root, h("p", { class: "message error" }, WORDS.catalogUnreadable(err.message)));
    return null;
  }
  const me = player();
  const titles = new Map(games.map((g) => [g.game, titleOf(g.game, g.title)]));
  const nameInput = me ? null : h("input", { type: "text", maxlength: 40, value: defaultName(), "data-testid": "name",
    "aria-label": WORDS.yourName, autocomplete: "nickname" });
  const typedName = () => (nameInput ? nameInput.value.trim() : "");
  const [open, active, tables] = await Promise.all([listGames("open", 1, filters), listGames("active"),
    me ? myTables().catch((err) => { errorMessage(err, WORDS.myTables); return []; }) : []]);
  const held = new Map(mySeats().map((s) => [s.gameId, s]));
  for (const t of tables) if (!held.has(t.game_id)) held.set(t.game_id, { seat: t.seat, game: t.game });
  const kept = mySeats().filter((s) => !tables.some((t) => t.game_id === s.gameId));
  const table = (rows, empty) => (rows.length ? h("table", { class: "games" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, WORDS.game), h("th", { scope: "col" }, WORDS.seats), h("th", { scope: "col" }, h("span", { class: "sr-only" }, WORDS.actions)))),
    h("tbody", {}, rows.map((g) => gameRow(g, titles, typedName, held))))
    : h("p", { class: "muted" }, empty));
  const mine = h("div", { "data-testid": "my-tables-wrap" }, tablesList(tables, titles));
  clear(root, h("div", { class: "lobby" },
    h("div", { class: "lobby-head" }, h("h1", {}, WORDS.lobby),
      me ? h("span", { "data-testid": "playing-as" }, WORDS.playingAs, h("strong", {}, me.name), " · ", h("a", { href: "#/me" }, WORDS.settings)) : null,
      h("button", { onclick: () => again() }, WORDS.refresh)),
    me ? null : welcome(nameInput, again),
    me ? [h("h2", {}, WORDS.myTables), mine] : null,
    kept.length ? [h("h2", {}, WORDS.keptSeats), h("ul", { class: "my-seats" }, kept.slice(0, 12).map((s) =>
      h("li", {}, h("a", { href: `#/game/${s.gameId}` }, WORDS.keptSeat(titles.get(s.game) || WORDS.aGame, s.seat + 1)))))] : null,
    h("h2", {}, WORDS.newTable),
    h("div", { class: "game-forms" }, games.map((g) => gameForm(g, typedName))),
    h("h2", {}, WORDS.openTables), filterBar(games, async () => {
      const shown = root.querySelector('[data-testid="open-games"]');
      const rows = await listGames("open", 1, filters);
      if (shown && root.contains(shown)) clear(shown, table(rows, WORDS.noOpen));
    }), h("div", { "data-testid": "open-games" }, table(open, WORDS.noOpen)),
    h("h2", {}, WORDS.beingPlayed), h("div", { "data-testid": "active-games" }, table(active, WORDS.nothingPlayed))));
  if (!me) return null;
  // My tables, read again while the page is in front: a table that comes to await the player shows.
  const reread = async () => {
    if (document.visibilityState !== "visible" || !root.contains(mine)) return;
    const fresh = await myTables().catch(() => null);
    if (fresh && root.contains(mine)) clear(mine, tablesList(fresh, titles));
  };
  const timer = setInterval(reread, REFRESH_MS);
  document.addEventListener("visibilitychange", reread);
  return { stop() { clearInterval(timer); document.removeEventListener("visibilitychange", reread); } };
}

// When a game ended, in the player's own language and time zone ("1 Dec 2026, 12:40").
const ended = (ms) => date(ms, { dateStyle: "medium", timeStyle: "short" });

// The finished games, newest first: when, players, winner and scores (each game's table, read for it).
export async function showReplays(root) {
  clear(root, h("p", {}, WORDS.loading));
  const games = await catalog().catch(() => []);
  const titles = new Map(games.map((g) => [g.game, titleOf(g.game, g.title)]));
  const finished = (await listGames("finished", 10)).slice(-100).reverse();
  const shown = finished.slice(0, 25);
  const tables = await Promise.all(shown.map((g) => get(`/games/${g.game_id}`).catch(() => null)));
  const idInput = h("input", { type: "text", placeholder: WORDS.gameId, "aria-label": WORDS.gameId, pattern: "[0-9a-f]{16}" });
  const row = (g, t) => {
    const seats = (t && t.seats) || [];
    const name = seatNamer(seats);
    const o = t && t.outcome;
    const scored = o && o.scores;
    return h("tr", { "data-game-id": g.game_id },
      h("td", { "data-testid": "finished" }, g.finished_ms ? h("time", { datetime: new Date(g.finished_ms).toISOString() }, ended(g.finished_ms)) : ""),
      h("td", {}, titles.get(g.game) || WORDS.aGame),
      h("td", {}, seats.map((s, i) => name(i)).join(", ")),
      h("td", { "data-testid": "winner" }, scored ? (o.winners || []).map(name).join(WORDS.and) : o && o.reason === "cancelled" ? WORDS.calledOff : WORDS.nobody),
      h("td", { "data-testid": "scores" }, scored ? o.scores.map((s, i) => `${name(i)} ${s}`).join(", ") : ""),
      h("td", {}, h("a", { href: `#/replay/${g.game_id}`, class: "button" }, WORDS.replay)));
  };
  clear(root, h("div", { class: "lobby" },
    h("h1", {}, WORDS.replays),
    h("form", { onsubmit: (e) => { e.preventDefault(); location.hash = `#/replay/${idInput.value.trim()}`; } },
      WORDS.openById, idInput, " ", h("button", { type: "submit" }, WORDS.open)),
    h("h2", {}, WORDS.finishedNewest),
    shown.length ? h("table", { class: "games", "data-testid": "replays" },
      h("thead", {}, h("tr", {}, WORDS.columns.map((c) => h("th", { scope: "col" }, c)), h("th", { scope: "col" }, h("span", { class: "sr-only" }, WORDS.replay)))),
      h("tbody", {}, shown.map((g, i) => row(g, tables[i]))))
      : h("p", { class: "muted" }, WORDS.noFinished),
    finished.length > shown.length ? h("p", { class: "muted" }, WORDS.older(finished.length - shown.length)) : null));
}
