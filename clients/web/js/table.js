// The playing screen of one game: the table drawn from the view and kept up to date in place
// (morph.js: only what changed changes, what moved glides), the seat's moves built by picking on it
// (picks.js), live updates over the WebSocket, each seat's last move marked, a log in words, turns
// and results said to screen readers, refusals as messages, the final scores rule by rule. The seat
// is the player's (its cookie, docs/players.md), or one whose token this browser kept before players;
// the tab's title and icon say when the table awaits it (and a notification, when allowed and away).
// The table's chat stands beside it (chat.js).

import { call, get, post, catalog, components, commandId, seatOf, keepSeat, forgetSeat, ApiError } from "./api.js";
import { player, defaultName, sit } from "./player.js";
import { showTitle, tellAwaited, notificationsHere, permission, askPermission } from "./notify.js";
import { h, clear, message, errorMessage, setStatus, humanize, pill, announce, plural, colourOf } from "./ui.js";
import { Live } from "./live.js";
import { nameIndex, richNames, describeCommand, actorOf, listWords, seatNamer, botTitle, botNote, BOT_LEVELS, levelName } from "./names.js";
import { MoveBuilder, sameValue } from "./picks.js";
import { UndoTracker } from "./undo.js";
import { DealTracker, entropyFor } from "./deal.js";
import { drawView, outcomeTable, screenOf, context } from "./view.js";
import { morph, positions, glide } from "./morph.js";
import { Story } from "./story.js";
import { byLanguage, pluralOf, lang, term, localComponents, titleOf } from "./words.js";
import { TableChat, CHAT_FACTS } from "./chat.js";

const LOG_TURNS = 30; // turns the log shows
// The pace at which other seats' steps are shown: ms between two of them.
const PACES = { slow: 1500, normal: 700, fast: 300, instant: 0 };
// The words of this screen a person reads (kept together for translation).
const WORDS = byLanguage({
  en: {
    awaitedFor: (name, why) => `${name} ${why}`,
    moveGroup: "your move",
    loading: "Loading the table…",
    reset: "The server's history was reset; reloading the table.",
    reading: "Reading the table",
    over: (winners, scores) => `The game is over. ${winners} won. Scores: ${scores}.`,
    overNoScores: "The game is over.",
    yourTurn: "Your turn.",
    status: { open: "waiting for players", active: "in play", finished: "finished" },
    watching: "you are watching",
    youAre: (name) => `you are ${name}`,
    replay: "replay",
    watchLink: "watch link",
    spectators: (n) => (n ? `${plural(n, "spectator")} watching` : "no spectators"),
    yourName: "your name",
    botKind: "bot kind",
    bots: (label) => `${label} bots`,
    free: "free",
    sitHere: "Sit here",
    fillBots: "Fill the other seats with bots",
    callOff: "Call the table off",
    undo: "Undo my last step",
    resign: (bot) => `Resign (${bot} plays on)`,
    rematch: "Rematch",
    joinRematch: "Join the rematch",
    connected: " (connected)",
    standing: (n) => ` · ${n} now`,
    standingTitle: "The score if the game ended now",
    left: " · left",
    leave: (bot) => `Leave this game? ${bot.replace(/^a/, "A")} will play your seat.`,
    callingOff: "Calling the table off",
    joiningRematch: "Joining the rematch",
    refused: (move) => `${move} refused`,
    youSit: (seat) => `You sit at seat ${seat}.`,
    takingSeat: "Taking the seat",
    seatingBot: "Seating a bot",
    pace: "Others' moves",
    paces: { slow: "slowly", normal: "at a steady pace", fast: "quickly", instant: "at once" },
    thinking: (name) => `${name} is thinking`,
    waitingFor: (names) => `Waiting for ${names}.`,
    dealVerified: (n) => `Deal verified: ${plural(n, "card")} of yours checked against the deck sealed before it was dealt`,
    dealChecking: "Checking the deal…",
    dealFailed: (n) => `${plural(n, "card")} of yours did not match the deck sealed before it was dealt: keep this game's export as evidence`,
    wholeDealVerified: "Whole deal verified: the seed is the one the table committed to, and it sealed every card you were dealt",
    wholeDealFailed: "The revealed seed does not match what the table committed to: keep this game's export as evidence",
    exportForVerify: "export for ludoteca verify",
    cardVerified: "deal verified",
    showing: "Showing the moves as they were made…",
    yourMove: "Your move. ",
    howToPlay: (title) => `How to play ${title}`,
    goal: "The goal",
    turn: "A turn",
    end: "The end",
    score: "Scores",
    log: "What happened",
    lastMark: "last", // on what a seat's last move touched
    logLabel: "what happened, latest turn first",
    nothingYet: "Nothing yet.",
    rated: "rated",
    outOfTime: " · out of time",
    ranOut: (name) => `${name} ran out of time: `,
    youRanOut: "Your time ran out: move now to stay, or the others may let a bot play on.",
    keepWaiting: "Wait for them",
    letBotPlayOn: "Let a bot play on",
    invite: (name) => `Invite someone to take ${name}'s seat`,
    inviteLink: (name) => `Invitation to ${name}'s seat`,
    copy: "Copy the link",
    copied: "The invitation link is copied: send it to whoever should take the seat.",
    copyByHand: "Select the link and copy it.",
    inviting: "Inviting",
    notifyMe: "Notify me in this browser when it is my move",
    clock: (left, bank) => ` ⏱ ${left}${bank ? ` + ${bank} bank` : ""}`,
    days: (d, h) => `${d} d${h ? ` ${h} h` : ""}`,
    hours: (h, m) => `${h} h${m ? ` ${m} min` : ""}`,
    minutes: (m, s) => `${m} min${s ? ` ${s} s` : ""}`,
    seconds: (s) => `${s} s`,
  },
  pt: {
    awaitedFor: (name, why) => `${name} (${why})`,
    moveGroup: "a sua jogada",
    loading: "A carregar a mesa…",
    reset: "O histórico do servidor foi reposto; a mesa volta a ser carregada.",
    reading: "A ler a mesa",
    over: (winners, scores) => `O jogo terminou. Vitória de ${winners}. Pontuação: ${scores}.`,
    overNoScores: "O jogo terminou.",
    yourTurn: "É a sua vez.",
    status: { open: "à espera de jogadores", active: "em curso", finished: "terminada" },
    watching: "está a assistir",
    youAre: (name) => `é ${name}`,
    replay: "repetição",
    watchLink: "ligação para assistir",
    spectators: (n) => (n ? (one(n) ? `${n} espectador a assistir` : `${n} espectadores a assistir`) : "sem espectadores"),
    yourName: "o seu nome",
    botKind: "tipo de bot",
    bots: (label) => `bots: ${label}`,
    free: "livre",
    sitHere: "Sentar aqui",
    fillBots: "Preencher os outros lugares com bots",
    callOff: "Cancelar a mesa",
    undo: "Desfazer o meu último passo",
    resign: (bot) => `Sair do jogo (${bot} continua a jogar)`,
    rematch: "Desforra",
    joinRematch: "Entrar na desforra",
    connected: " (ligado)",
    standing: (n) => ` · ${n} agora`,
    standingTitle: "A pontuação se o jogo acabasse agora",
    left: " · saiu",
    leave: (bot) => `Sair deste jogo? ${capital(bot)} jogará no seu lugar.`,
    callingOff: "A cancelar a mesa",
    joiningRematch: "A entrar na desforra",
    refused: (move) => `${move}: recusado`,
    youSit: (seat) => `Está sentado no lugar ${seat}.`,
    takingSeat: "A ocupar o lugar",
    seatingBot: "A sentar um bot",
    pace: "Jogadas dos outros",
    paces: { slow: "devagar", normal: "a ritmo normal", fast: "depressa", instant: "de imediato" },
    thinking: (name) => `${name} está a pensar`,
    waitingFor: (names) => `À espera de ${names}.`,
    dealVerified: (n) => (one(n) ? `Distribuição verificada: ${n} carta sua conferida com o baralho selado antes de ser distribuído` : `Distribuição verificada: ${n} cartas suas conferidas com o baralho selado antes de ser distribuído`),
    dealChecking: "A verificar a distribuição…",
    dealFailed: (n) => (one(n) ? `${n} carta sua não corresponde ao baralho selado antes de ser distribuído: guarde a exportação deste jogo como prova` : `${n} cartas suas não correspondem ao baralho selado antes de ser distribuído: guarde a exportação deste jogo como prova`),
    wholeDealVerified: "Distribuição inteira verificada: a semente é a que a mesa selou, e selou todas as cartas que recebeu",
    wholeDealFailed: "A semente revelada não corresponde à que a mesa selou: guarde a exportação deste jogo como prova",
    exportForVerify: "exportação para ludoteca verify",
    cardVerified: "distribuição verificada",
    showing: "A mostrar as jogadas tal como foram feitas…",
    yourMove: "A sua jogada. ",
    howToPlay: (title) => `Como jogar ${title}`,
    goal: "O objetivo",
    turn: "Uma vez",
    end: "O fim",
    score: "Pontuação",
    log: "O que aconteceu",
    lastMark: "última", // on what a seat's last move touched
    logLabel: "o que aconteceu, a vez mais recente primeiro",
    nothingYet: "Ainda nada.",
    rated: "com classificação",
    outOfTime: " · sem tempo",
    ranOut: (name) => `${name} ficou sem tempo: `,
    youRanOut: "O seu tempo acabou: jogue agora para ficar, ou os outros podem deixar um bot continuar por si.",
    keepWaiting: "Esperar",
    letBotPlayOn: "Deixar um bot continuar",
    invite: (name) => `Convidar alguém para o lugar de ${name}`,
    inviteLink: (name) => `Convite para o lugar de ${name}`,
    copy: "Copiar a ligação",
    copied: "A ligação do convite foi copiada: envie-a a quem deve ocupar o lugar.",
    copyByHand: "Selecione a ligação e copie-a.",
    inviting: "A convidar",
    notifyMe: "Avisar-me neste navegador quando for a minha vez",
    clock: (left, bank) => ` ⏱ ${left}${bank ? ` + ${bank} de reserva` : ""}`,
  },
  gl: {
    awaitedFor: (name, why) => `${name} (${why})`,
    moveGroup: "a túa xogada",
    loading: "Cargando a mesa…",
    reset: "O historial do servidor foi restablecido; a mesa cárgase de novo.",
    reading: "Lendo a mesa",
    over: (winners, scores) => `A partida rematou. Vitoria de ${winners}. Puntuación: ${scores}.`,
    overNoScores: "A partida rematou.",
    yourTurn: "É a túa quenda.",
    status: { open: "agardando xogadores", active: "en xogo", finished: "rematada" },
    watching: "estás mirando",
    youAre: (name) => `es ${name}`,
    replay: "repetición",
    watchLink: "ligazón para mirar",
    spectators: (n) => (n ? (one(n) ? `${n} espectador mirando` : `${n} espectadores mirando`) : "sen espectadores"),
    yourName: "o teu nome",
    botKind: "tipo de bot",
    bots: (label) => `bots: ${label}`,
    free: "libre",
    sitHere: "Sentar aquí",
    fillBots: "Encher os outros postos con bots",
    callOff: "Cancelar a mesa",
    undo: "Desfacer o meu último paso",
    resign: (bot) => `Abandonar (${bot} segue xogando)`,
    rematch: "Revancha",
    joinRematch: "Entrar na revancha",
    connected: " (conectado)",
    standing: (n) => ` · ${n} agora`,
    standingTitle: "A puntuación se a partida rematase agora",
    left: " · marchou",
    leave: (bot) => `Deixar esta partida? ${capital(bot)} xogará no teu posto.`,
    callingOff: "Cancelando a mesa",
    joiningRematch: "Entrando na revancha",
    refused: (move) => `${move}: rexeitado`,
    youSit: (seat) => `Séntaste no posto ${seat}.`,
    takingSeat: "Ocupando o posto",
    seatingBot: "Sentando un bot",
    pace: "Xogadas dos outros",
    paces: { slow: "amodo", normal: "a ritmo normal", fast: "axiña", instant: "de vez" },
    thinking: (name) => `${name} está pensando`,
    waitingFor: (names) => `Agardando por ${names}.`,
    dealVerified: (n) => (one(n) ? `Reparto verificado: ${n} carta túa comprobada co mazo selado antes do reparto` : `Reparto verificado: ${n} cartas túas comprobadas co mazo selado antes do reparto`),
    dealChecking: "Comprobando o reparto…",
    dealFailed: (n) => (one(n) ? `${n} carta túa non coincide co mazo selado antes do reparto: garda a exportación desta partida como proba` : `${n} cartas túas non coinciden co mazo selado antes do reparto: garda a exportación desta partida como proba`),
    wholeDealVerified: "Reparto enteiro verificado: a semente é a que a mesa selou, e selou cada carta que recibiches",
    wholeDealFailed: "A semente revelada non coincide coa que a mesa selou: garda a exportación desta partida como proba",
    exportForVerify: "exportación para ludoteca verify",
    cardVerified: "reparto verificado",
    showing: "Amosando as xogadas tal como se fixeron…",
    yourMove: "A túa xogada. ",
    howToPlay: (title) => `Como se xoga a ${title}`,
    goal: "O obxectivo",
    turn: "Unha quenda",
    end: "O final",
    score: "Puntuación",
    log: "Que pasou",
    lastMark: "última", // on what a seat's last move touched
    logLabel: "que pasou, a quenda máis recente primeiro",
    nothingYet: "Aínda nada.",
    rated: "puntuable",
    outOfTime: " · sen tempo",
    ranOut: (name) => `${name} quedou sen tempo: `,
    youRanOut: "Acabouse o teu tempo: xoga agora para quedar, ou os demais poden deixar que un bot siga por ti.",
    keepWaiting: "Agardar",
    letBotPlayOn: "Deixar que un bot siga",
    invite: (name) => `Convidar a alguén ao posto de ${name}`,
    inviteLink: (name) => `Convite ao posto de ${name}`,
    copy: "Copiar a ligazón",
    copied: "A ligazón do convite está copiada: envíalla a quen deba ocupar o posto.",
    copyByHand: "Selecciona a ligazón e cópiaa.",
    inviting: "Convidando",
    notifyMe: "Avisarme neste navegador cando sexa a miña quenda",
    clock: (left, bank) => ` ⏱ ${left}${bank ? ` + ${bank} de reserva` : ""}`,
  },
  es: {
    awaitedFor: (name, why) => `${name} (${why})`,
    moveGroup: "tu jugada",
    loading: "Cargando la mesa…",
    reset: "El historial del servidor se ha restablecido; la mesa se vuelve a cargar.",
    reading: "Leyendo la mesa",
    over: (winners, scores) => `La partida ha terminado. Victoria de ${winners}. Puntuación: ${scores}.`,
    overNoScores: "La partida ha terminado.",
    yourTurn: "Es tu turno.",
    status: { open: "esperando jugadores", active: "en juego", finished: "terminada" },
    watching: "estás mirando",
    youAre: (name) => `eres ${name}`,
    replay: "repetición",
    watchLink: "enlace para mirar",
    spectators: (n) => (n ? (one(n) ? `${n} espectador mirando` : `${n} espectadores mirando`) : "sin espectadores"),
    yourName: "tu nombre",
    botKind: "tipo de bot",
    bots: (label) => `bots: ${label}`,
    free: "libre",
    sitHere: "Sentarse aquí",
    fillBots: "Llenar los otros puestos con bots",
    callOff: "Cancelar la mesa",
    undo: "Deshacer mi último paso",
    resign: (bot) => `Abandonar (${bot} sigue jugando)`,
    rematch: "Revancha",
    joinRematch: "Unirse a la revancha",
    connected: " (conectado)",
    standing: (n) => ` · ${n} ahora`,
    standingTitle: "La puntuación si la partida terminara ahora",
    left: " · se fue",
    leave: (bot) => `¿Dejar esta partida? ${capital(bot)} jugará en tu puesto.`,
    callingOff: "Cancelando la mesa",
    joiningRematch: "Uniéndose a la revancha",
    refused: (move) => `${move}: rechazado`,
    youSit: (seat) => `Te sientas en el puesto ${seat}.`,
    takingSeat: "Ocupando el puesto",
    seatingBot: "Sentando un bot",
    pace: "Jugadas de los demás",
    paces: { slow: "despacio", normal: "a ritmo normal", fast: "deprisa", instant: "de inmediato" },
    thinking: (name) => `${name} está pensando`,
    waitingFor: (names) => `Esperando a ${names}.`,
    dealVerified: (n) => (one(n) ? `Reparto verificado: ${n} carta tuya comprobada con la baraja sellada antes del reparto` : `Reparto verificado: ${n} cartas tuyas comprobadas con la baraja sellada antes del reparto`),
    dealChecking: "Comprobando el reparto…",
    dealFailed: (n) => (one(n) ? `${n} carta tuya no coincide con la baraja sellada antes del reparto: guarda la exportación de esta partida como prueba` : `${n} cartas tuyas no coinciden con la baraja sellada antes del reparto: guarda la exportación de esta partida como prueba`),
    wholeDealVerified: "Reparto completo verificado: la semilla es la que la mesa selló, y selló cada carta que recibiste",
    wholeDealFailed: "La semilla revelada no coincide con la que la mesa selló: guarda la exportación de esta partida como prueba",
    exportForVerify: "exportación para ludoteca verify",
    cardVerified: "reparto verificado",
    showing: "Mostrando las jugadas tal como se hicieron…",
    yourMove: "Tu jugada. ",
    howToPlay: (title) => `Cómo se juega a ${title}`,
    goal: "El objetivo",
    turn: "Un turno",
    end: "El final",
    score: "Puntuación",
    log: "Qué ha pasado",
    lastMark: "última", // on what a seat's last move touched
    logLabel: "qué ha pasado, el turno más reciente primero",
    nothingYet: "Nada todavía.",
    rated: "puntuable",
    outOfTime: " · sin tiempo",
    ranOut: (name) => `${name} se quedó sin tiempo: `,
    youRanOut: "Se te acabó el tiempo: juega ahora para seguir, o los demás pueden dejar que un bot siga por ti.",
    keepWaiting: "Esperar",
    letBotPlayOn: "Dejar que un bot siga",
    invite: (name) => `Invitar a alguien al puesto de ${name}`,
    inviteLink: (name) => `Invitación al puesto de ${name}`,
    copy: "Copiar el enlace",
    copied: "El enlace de invitación está copiado: envíaselo a quien deba ocupar el puesto.",
    copyByHand: "Selecciona el enlace y cópialo.",
    inviting: "Invitando",
    notifyMe: "Avisarme en este navegador cuando sea mi turno",
    clock: (left, bank) => ` ⏱ ${left}${bank ? ` + ${bank} de reserva` : ""}`,
  },
});
const one = (n) => pluralOf(n) === "one";
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A time left, in words: "1 d 4 h", "3 h 20 min", "4 min 30 s", "45 s".
function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return WORDS.days(d, h);
  if (h) return WORDS.hours(h, m);
  if (m) return WORDS.minutes(m, s % 60);
  return WORDS.seconds(s);
}

// Whether a key was typed into a field (the chat's box, a name): no shortcut of the table's.
const typedIn = (el) => !!(el && el.closest && el.closest("input, textarea, select, [contenteditable]"));
const chatOnly = (events) => events.length > 0 && events.every((e) => CHAT_FACTS.has(e.event.type));

// The table's own facts: seats, leaving, calling off, rematch, clocks (the table is read again).
const TABLE_FACTS = new Set(["TableOpened", "SeatTaken", "SeatResigned", "TableCancelled", "RematchOpened",
  "ClockTicked", "TimeRanOut", "TimeExtended", "SeatOffered", "SeatTakenOver"]);
export class TableScreen {
  constructor(root, gameId, { spectate = false } = {}) {
    this.root = root;
    this.gameId = gameId;
    this.spectate = spectate;
    const held = spectate ? null : seatOf(gameId);
    this.token = held ? held.token : null;
    this.table = null;
    this.comp = {};
    this.names = new Map();
    this.version = 0;
    this.story = null; // what happened, by turn, and each seat's last move (story.js)
    this.last = new Map(); // seat -> {text, keys}: each seat's last move, as the story last told it
    this.first = null; // the first step of the seat's move, from the last update (null: not awaited)
    this.firstVersion = 0;
    this.stepFresh = false; // an update brought a first step the builder has not seen
    this.undo = new UndoTracker();
    this.deal = new DealTracker(); // "deal verified" (deal.js)
    this.builder = null;
    this.sending = false;
    this.live = null;
    this.stopped = false;
    this.screenEl = null;
    this.wasMine = false;
    this.queue = []; // updates not yet shown (another seat's steps wait for the pace)
    this.playing = false;
    this.nextAt = 0;
    this.pace = PACES[localStorage.getItem("ludoteca.pace")] !== undefined ? localStorage.getItem("ludoteca.pace") : "normal";
    this.typedName = defaultName();
    this.rated = false; // the table counts on ratings (its TableOpened says so: the view does not)
    this.invites = new Map(); // seat -> the invitation link this page made for it
    this.botKind = "casual"; // the bots "fill the other seats" seats: a named level (docs/bots.md)
    this.onKey = (e) => { if (e.key === "Escape" && this.builder && !typedIn(e.target)) this.builder.cancel(); };
    this.chat = new TableChat({ // said on the same socket as moves, decided at no version
      send: (command) => this.deliver(command, commandId()),
      speak: (text) => post(`/games/${this.gameId}/spectators/chat`, { text }), // by the player's cookie
      seat: () => (this.table ? this.table.seat : null),
      signedIn: () => player() !== null,
      redraw: () => { if (this.screenEl) this.scheduleDraw(); },
    });
  }

  async start() {
    clear(this.root, h("p", {}, WORDS.loading));
    try {
      try {
        this.table = await this.fetchTable();
      } catch (err) {
        if (!(err instanceof ApiError && (err.code === "unknown_token" || err.code === "not_seated") && this.token)) throw err;
        forgetSeat(this.gameId); // a token this server no longer knows: the player's seat, or watch
        this.token = null;
        this.table = await this.fetchTable();
      }
    } catch (err) {
      clear(this.root, h("p", { class: "message error" }, err.message));
      return;
    }
    if (this.stopped) return;
    // The browser's player sits here: its socket sees the table as its seat (a hello cannot ask to
    // watch while the cookie signs a player in), so the watch link opens the seat.
    if (this.spectate && this.table.seat !== null) {
      location.replace(`#/game/${this.gameId}`);
      return;
    }
    this.comp = localComponents(this.table.game, await components(this.table.game).catch(() => ({})));
    this.screen = screenOf(this.table.game);
    this.names = richNames(nameIndex(this.comp, this.screen), this.screen, this.comp);
    this.story = new Story({ names: this.names, seatName: (s) => this.seatName(s), screen: this.screen, comp: this.comp });
    this.title = titleOf(this.table.game, (await catalog().catch(() => [])).find((g) => g.game === this.table.game)?.title || humanize(this.table.game));
    if (this.stopped) return;
    showTitle(this.title, this.awaitsMe());
    this.version = this.table.version;
    this.wasFinished = this.table.status === "finished";
    const seatName = (s) => this.seatName(s);
    this.builder = new MoveBuilder({
      ask: (picks) => this.ask(picks),
      send: (command, version, picks) => this.send(command, version, picks),
      refused: (err, what) => errorMessage(err, what),
      ctx: { screen: this.screen, names: this.names, comp: this.comp, seatName,
        describeCommand: (c) => describeCommand(c, this.names, seatName, this.table.game),
        // whether a command would land, asked without sending it (why a thing is not lit)
        check: (command) => post(`/games/${this.gameId}/check`, { command }, { token: this.token }) },
    });
    document.addEventListener("keydown", this.onKey);
    this.draw();
    this.connect();
  }

  fetchTable() {
    return get(`/games/${this.gameId}`, { token: this.token });
  }

  connect() {
    if (this.live) this.live.stop();
    this.story.reset();
    this.last = new Map();
    this.queue = [];
    this.undo.reset(); // the new socket's catch-up brings the whole log again
    this.deal.reset();
    this.chat.reset();
    const live = new Live(this.gameId, this.token, {
      update: (msg) => this.onUpdate(msg),
      reset: () => {
        this.story.reset();
        this.last = new Map();
        this.undo.reset();
        this.deal.reset();
        this.chat.reset();
        message(WORDS.reset, "info", "reset");
      },
      error: (msg) => message(msg.message, "error", msg.error),
      state: (text, kind, code) => setStatus(text, kind, code),
      presence: (msg) => { this.table.presence = msg; this.scheduleDraw(); },
    });
    this.live = live;
    live.start();
  }

  stop() {
    this.stopped = true;
    if (this.builder && this.builder.undrag) this.builder.undrag();
    document.removeEventListener("keydown", this.onKey);
    if (this.live) this.live.stop();
    this.chat.stop();
    showTitle();
  }

  seatName(seat) {
    return seatNamer(this.table && this.table.seats)(seat);
  }

  // Each event into the story (the log, each seat's last move); what others did is said aloud
  // once the catch-up is over (a live update, not the history).
  see(events, live) {
    const told = [];
    for (const ev of events) {
      if (CHAT_FACTS.has(ev.event.type)) continue; // the chat's (onUpdate): no move, no line of the log
      if (ev.event.type === "TableOpened") this.rated = !!ev.event.rated;
      this.undo.see(ev.version, ev.event);
      this.deal.see(ev.version, ev.event, this.table.seat, () => this.scheduleDraw());
      const line = this.story.see(ev.version, ev.event);
      if (line && !told.includes(line)) told.push(line);
    }
    this.last = this.story.last();
    const others = told.filter((l) => l.seat !== null && l.seat !== this.table.seat);
    if (live && others.length) announce(others.map((l) => l.text).join(". ") + ".");
  }

  // Updates are applied in order, one at a time. Another seat's move is shown step by step: after
  // an update that holds one, the next waits for the pace the person chose (the card glides, the
  // pawn walks, and it can be followed), however fast the updates came. What is said in the chat
  // is shown at once: it waits for no one's steps.
  onUpdate(msg) {
    if (this.stopped) return;
    if (this.chat.take(msg.events, msg.view !== null && msg.view !== undefined)) this.scheduleDraw();
    this.queue.push(msg);
    if (!this.playing) this.play();
  }

  async play() {
    this.playing = true;
    while (this.queue.length && !this.stopped) {
      const wait = this.nextAt - performance.now();
      if (wait > 0) {
        this.scheduleDraw(); // "showing …" while the step waits its turn
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      const msg = this.queue.shift();
      const live = !!(msg.view && this.greeted);
      await this.apply(msg);
      const others = live && msg.events.some((e) => {
        const a = CHAT_FACTS.has(e.event.type) ? null : actorOf(e.event);
        return a !== null && a !== this.table.seat;
      });
      if (others && PACES[this.pace]) {
        this.draw(); // this step now, not with the next
        this.nextAt = performance.now() + PACES[this.pace]; // held from when it is on screen
      }
    }
    this.playing = false;
    this.scheduleDraw();
  }

  async apply(msg) {
    if (this.stopped) return;
    const live = !!(msg.view && this.greeted);
    this.see(msg.events, live);
    if (msg.view !== null && msg.view !== undefined) { // the last chunk of a catch-up, or a live update
      // Chat alone changes no step: the move being built goes on as it was (its version still stands).
      if (!(this.greeted && chatOnly(msg.events))) {
        this.first = msg.step || null;
        this.firstVersion = msg.version;
        this.stepFresh = true;
      }
      this.greeted = true;
    }
    const tableLevel = msg.events.some((e) => TABLE_FACTS.has(e.event.type));
    const finished = msg.view && msg.view.finished;
    if (msg.view) this.table.view = msg.view;
    if (msg.version > this.version) this.version = msg.version;
    this.table.version = this.version;
    if (tableLevel || finished || this.table.status !== "active" || (msg.view && !this.table.view)) {
      try {
        const fresh = await this.fetchTable();
        if (fresh.version >= this.table.version) this.table = fresh;
        else this.table = { ...fresh, view: this.table.view, version: this.table.version };
      } catch (err) {
        errorMessage(err, WORDS.reading);
      }
    } else if (msg.view) {
      this.table.awaiting = msg.view.awaiting || this.table.awaiting;
    }
    this.sayTurn(live);
    this.scheduleDraw();
  }

  // Whether the table awaits this page's seat now.
  awaitsMe() {
    const t = this.table;
    if (!t || t.status !== "active" || t.seat === null) return false;
    return ((t.view && t.view.awaiting) || t.awaiting || []).some((a) => a.seat === t.seat);
  }

  // Turn changes and the result, for screen readers; the tab's title and icon say "your move" while
  // the table awaits the seat, and a notification says it when it comes to, the person being elsewhere.
  sayTurn(live = false) {
    const t = this.table;
    showTitle(this.title, this.awaitsMe());
    if (live && this.awaitsMe() && !this.wasMine) tellAwaited(this.title, this.gameId);
    if (t.status === "finished" && !this.wasFinished) {
      this.wasFinished = true;
      const o = t.outcome;
      if (o && o.scores) {
        announce(WORDS.over(listWords((o.winners || []).map((s) => this.seatName(s))), o.scores.map((s, i) => `${this.seatName(i)} ${s}`).join(", ")));
      } else announce(WORDS.overNoScores);
      return;
    }
    if (t.status !== "active") return;
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    const mine = t.seat !== null && awaiting.some((a) => a.seat === t.seat);
    const who = awaiting.map((a) => a.seat).join(",");
    if (mine && !this.wasMine) announce(WORDS.yourTurn);
    else if (!mine && who !== this.wasWho && awaiting.length) announce(WORDS.waitingFor(listWords(awaiting.map((a) => this.seatName(a.seat)))));
    this.wasMine = mine;
    this.wasWho = who;
  }

  // Updates that come in a burst are drawn once.
  scheduleDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    setTimeout(() => {
      this.drawPending = false;
      if (!this.stopped) this.draw();
    }, 30);
  }

  // --- drawing --------------------------------------------------------------------

  ctx() {
    return context(this.table.view, { game: this.table.game, comp: this.comp, names: this.names, seats: this.table.seats,
      seatName: (s) => this.seatName(s), last: this.last, thinking: this.thinking(),
      describeCommand: (c) => describeCommand(c, this.names, (s) => this.seatName(s), this.table.game) });
  }

  draw() {
    const t = this.table;
    const seat = t.seat;
    const ctx = this.ctx();
    const { board, hand } = drawView(t.view, ctx);
    // each seat's last move: what it touched is marked in the seat's colour
    for (const [s, m] of this.last) {
      for (const el of board.querySelectorAll("[data-key]")) {
        if (m.keys.has(el.getAttribute("data-key"))) {
          el.style.setProperty("--last", colourOf(ctx.seatColour(s)).fill);
          el.setAttribute("data-last-seat", String(s));
          el.setAttribute("data-last-label", WORDS.lastMark);
        }
      }
    }
    if (hand && seat !== null) this.markVerified(hand);
    const next = h("div", {
      class: ["table-screen", this.sending ? "sending" : null], "data-game": t.game, "data-game-id": this.gameId, "data-status": t.status,
      "data-version": String(this.version), "data-seat": seat === null ? "spectator" : String(seat),
    },
    h("div", { class: "table-head" },
      h("h1", {}, this.title || t.game),
      pill(WORDS.status[t.status] || t.status, "status-" + t.status),
      seat === null ? pill(WORDS.watching, "spectator") : pill(WORDS.youAre(this.seatName(seat)), "you"),
      this.rated ? pill(WORDS.rated, "rated") : null,
      this.watchers(),
      h("span", { class: "grow" }),
      h("a", { href: `#/replay/${this.gameId}` }, WORDS.replay), " · ",
      h("a", { href: `#/watch/${this.gameId}` }, WORDS.watchLink)),
    this.seatBar(),
    this.tableActions(),
    this.dealMark(),
    this.turnBar(),
    this.rulesCard(),
    t.status === "finished" ? outcomeTable(t.outcome, ctx) : null,
    h("div", { class: "play" },
      h("div", { class: "view-wrap" }, board),
      h("div", { class: ["dock", hand ? "with-hand" : null], "data-testid": "dock" },
        h("div", { class: "controls-wrap", "data-testid": "controls-wrap", "data-morph": "keep", role: "group", "aria-label": WORDS.moveGroup }),
        hand,
        this.chat.panel({ seat, status: t.status, seats: t.seats || [], seatName: (s) => this.seatName(s),
          colour: (s) => colourOf(ctx.seatColour(s)).fill }))),
    this.logPanel());
    if (!this.screenEl || !this.root.contains(this.screenEl)) {
      clear(this.root, next);
      this.screenEl = next;
      this.attachMoves();
      this.chat.attach(this.screenEl);
      return;
    }
    const before = positions(this.screenEl);
    const focused = document.activeElement;
    const focusKey = focused && this.screenEl.contains(focused) ? focused.getAttribute("data-key") : null;
    morph(this.screenEl, next);
    this.attachMoves();
    this.chat.attach(this.screenEl);
    glide(this.screenEl, before);
    // a focused element the update took away: the same thing where it is now, else the move panel
    if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
      const again = this.screenEl.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && again.tabIndex >= 0) again.focus({ preventScroll: true });
      else this.builder.focusFirst();
    }
  }

  watchers() {
    const p = this.table.presence;
    const n = p ? p.spectators : 0;
    return h("span", { class: "pill watchers", "data-testid": "spectators" }, WORDS.spectators(n));
  }

  // Whose move it is: yours; a bot thinking (the dots move); a person awaited; or the steps just
  // made being shown at the chosen pace.
  turnBar() {
    const t = this.table;
    if (t.status !== "active") return null;
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    const mine = awaiting.some((a) => a.seat === t.seat);
    const reason = this.ctx().reason;
    const others = awaiting.filter((a) => a.seat !== t.seat);
    const thinking = this.thinking();
    const people = others.filter((a) => !thinking.has(a.seat));
    return h("div", { class: ["turn-bar", mine ? "mine" : null], "data-testid": "turn-bar" },
      mine ? h("strong", {}, WORDS.yourMove) : null,
      this.queue.length ? h("span", { class: "showing" }, WORDS.showing) : [
        [...thinking].map((seat) => h("span", { class: "thinking", "data-testid": `thinking-${seat}` },
          WORDS.thinking(this.seatName(seat)), h("span", { class: "dots", "aria-hidden": "true" }, h("i", {}, "."), h("i", {}, "."), h("i", {}, ".")), " ")),
        people.length ? WORDS.waitingFor(listWords(people.map((a) => WORDS.awaitedFor(this.seatName(a.seat), reason(a.reason))))) : ""],
      h("label", { class: "pace" }, `${WORDS.pace} `,
        h("select", { "data-testid": "pace", "data-key": "pace", onchange: (e) => this.setPace(e.target.value) },
          Object.keys(PACES).map((p) => h("option", { value: p, selected: p === this.pace }, WORDS.paces[p])))));
  }

  // The game in a few lines, at the table (each screen's `rules`), folded until opened.
  rulesCard() {
    const r = this.screen && this.screen.rules;
    if (!r) return null;
    return h("details", { class: "rules panel", "data-key": "rules", "data-testid": "rules" },
      h("summary", {}, WORDS.howToPlay(this.title || "")),
      h("dl", {},
        h("dt", {}, WORDS.goal), h("dd", {}, r.goal),
        h("dt", {}, WORDS.turn), h("dd", {}, h("ul", {}, r.turn.map((line) => h("li", {}, line)))),
        h("dt", {}, WORDS.end), h("dd", {}, r.end),
        h("dt", {}, WORDS.score), h("dd", {}, r.score)));
  }

  // The other seats the table waits for that a bot plays, while nothing is left to show.
  thinking() {
    const t = this.table;
    if (t.status !== "active" || this.queue.length) return new Set();
    const awaiting = (t.view && t.view.awaiting) || t.awaiting || [];
    return new Set(awaiting.map((a) => a.seat).filter((s) => s !== t.seat && this.isBot(s)));
  }

  isBot(seat) {
    const s = (this.table.seats || [])[seat];
    return !!(s && s.bot) || (this.table.resigned || []).includes(seat);
  }

  setPace(pace) {
    if (PACES[pace] === undefined) return;
    this.pace = pace;
    localStorage.setItem("ludoteca.pace", pace);
    if (!PACES[pace]) this.nextAt = 0;
  }

  seatBar() {
    const t = this.table;
    if (t.status !== "open") return null;
    const seats = t.seats || [];
    const free = seats.filter((s) => s === null).length;
    // What the person typed and chose is kept here, not read from these elements: the page keeps
    // the elements it first drew (morph.js), and these are drawn afresh each time. A player sits
    // under its own name; a newcomer names the player it becomes.
    const nameInput = h("input", { type: "text", maxlength: 40, placeholder: WORDS.yourName, value: this.typedName, "aria-label": WORDS.yourName,
      "data-key": "name", oninput: (e) => { this.typedName = e.target.value; } });
    const botKind = h("select", { "aria-label": WORDS.botKind, "data-key": "bot-kind", "data-testid": "bot-kind",
      onchange: (e) => { this.botKind = e.target.value; } },
    BOT_LEVELS.map(([value, label]) => h("option", { value, selected: value === this.botKind }, WORDS.bots(label))));
    return h("div", { class: "seat-bar", "data-testid": "seats" },
      seats.map((s, i) => h("span", { class: ["seat-chip", s ? "taken" : "free"], "data-seat": i },
        `${i + 1}. `, s ? this.seatName(i) : WORDS.free, s && s.bot ? ` (${botNote(s.bot)})` : "",
        !s && t.seat === null ? h("button", { class: "take-seat", onclick: () => this.takeSeat(i, this.typedName) }, WORDS.sitHere) : null)),
      h("span", { class: "seat-actions" },
        t.seat === null && !player() ? nameInput : null,
        free && !this.rated ? [botKind, h("button", { class: "fill-bots", "data-testid": "fill-bots", onclick: () => this.fillBots(this.botKind) },
          WORDS.fillBots)] : null));
  }

  // The seat's fair-play checks (docs/fair-play.md): each of its cards against the deck sealed
  // before it was dealt, during play; the seed and every salt once the table is over.
  dealMark() {
    const t = this.table;
    const d = this.deal;
    if (t.seat === null || !d.sealed || (!d.openings.length && !d.ended)) return null;
    const exportLink = h("a", { href: `/api/v1/games/${this.gameId}/export?as=everyone`, download: `${this.gameId}.jsonl` }, WORDS.exportForVerify);
    if (d.failed.length) return h("p", { class: "deal deal-failed", role: "alert", "data-testid": "deal" }, "✗ ", WORDS.dealFailed(d.failed.length));
    if (d.ended) {
      const whole = d.ended.seed && d.ended.salts;
      return h("p", { class: ["deal", whole ? "deal-verified" : "deal-failed"], "data-testid": "deal", role: whole ? null : "alert" },
        whole ? "✓ " : "✗ ", whole ? WORDS.wholeDealVerified : WORDS.wholeDealFailed, " (", exportLink, ")");
    }
    if (d.verified.size < d.openings.length) return h("p", { class: "deal", "data-testid": "deal" }, WORDS.dealChecking);
    return h("p", { class: "deal deal-verified", "data-testid": "deal" }, "✓ ", WORDS.dealVerified(d.openings.length));
  }

  // Each card in the seat's hand whose opening checked carries the mark (a class and its words).
  markVerified(hand) {
    for (const el of hand.querySelectorAll("[data-key^='card:']")) {
      const id = el.getAttribute("data-key").slice("card:".length);
      if (!this.deal.verified.has(id)) continue;
      el.classList.add("deal-verified");
      el.setAttribute("title", WORDS.cardVerified);
    }
  }

  // Resign, undo, call off and rematch: the table's own commands (docs/table-services.md); a seat
  // out of time, for the others to choose; a vacated seat, offered to a newcomer by a link.
  tableActions() {
    const t = this.table;
    const seated = t.seat !== null;
    const inGame = t.status === "active" && seated && !(t.resigned || []).includes(t.seat);
    const creator = localStorage.getItem(`ludoteca.creator.${this.gameId}`);
    const buttons = [];
    if (t.status === "open" && creator) {
      buttons.push(h("button", { "data-testid": "call-off", onclick: () => this.callOff(creator) }, WORDS.callOff));
    }
    if (inGame) {
      buttons.push(h("button", { "data-testid": "undo", class: "undo", hidden: !this.undo.has(t.seat),
        onclick: () => this.send({ type: "Undo" }) }, WORDS.undo));
      buttons.push(h("button", { "data-testid": "resign", onclick: () => this.resign() }, WORDS.resign(botTitle(t.takeover))));
    }
    if (t.status === "finished" && seated && !t.outcome?.reason?.includes("cancelled")) {
      buttons.push(h("button", { "data-testid": "rematch", onclick: () => this.rematch() }, t.rematch ? WORDS.joinRematch : WORDS.rematch));
    }
    if (seated && t.status !== "finished" && notificationsHere() && permission() === "default") {
      buttons.push(h("button", { "data-testid": "allow-notifications", onclick: async () => { await askPermission(); this.draw(); } }, WORDS.notifyMe));
    }
    const late = new Set(t.out_of_time || []);
    const present = (t.seats || []).map((s, i) => (s ? h("span", { class: ["seat-chip", this.present(i) ? "present" : null], "data-seat": i },
      this.present(i) ? h("span", { class: "presence-dot", "aria-hidden": "true" }, "● ") : null,
      this.seatName(i), s.bot ? ` (${botNote(s.bot)})` : "", this.present(i) ? h("span", { class: "sr-only" }, WORDS.connected) : null,
      this.standingOf(i), (t.resigned || []).includes(i) ? WORDS.left : "", late.has(i) ? WORDS.outOfTime : "", this.clockOf(i)) : null));
    return h("div", { class: "table-actions" }, t.status !== "open" ? present : null, buttons,
      t.status === "active" ? [...late].map((s) => this.lateSeat(s, inGame)) : null,
      inGame ? this.vacated().map((s) => this.inviteRow(s)) : null);
  }

  // The seat's score if the game ended now, where this viewer may know it (the server sends null
  // where it rests on cards the viewer cannot see, and nothing for a game that says none).
  standingOf(seat) {
    const n = (this.table.standing || [])[seat];
    if (n === null || n === undefined) return null;
    return h("span", { class: "standing", title: WORDS.standingTitle, "data-testid": `standing-${seat}` }, WORDS.standing(n));
  }

  // A seat whose time ran out at a table over days (docs/table-services.md, "Turn clocks"): the
  // others choose between waiting for it and letting the table's bot play on; the seat itself is told.
  lateSeat(seat, inGame) {
    const t = this.table;
    if (seat === t.seat) return h("p", { class: "late", "data-testid": `late-${seat}` }, WORDS.youRanOut);
    return h("p", { class: "late", "data-testid": `late-${seat}`, "data-key": `late:${seat}` }, WORDS.ranOut(this.seatName(seat)),
      inGame ? [
        h("button", { "data-testid": "keep-waiting", onclick: () => this.send({ type: "KeepWaiting", seat }) }, WORDS.keepWaiting), " ",
        h("button", { "data-testid": "let-bot-play-on", onclick: () => this.send({ type: "LetBotPlayOn", seat }) }, WORDS.letBotPlayOn)] : null);
  }

  // The seats a bot plays on for since their person left: any seat still in the game may offer one.
  vacated() {
    const t = this.table;
    return (t.resigned || []).filter((s) => t.seats[s] && t.seats[s].bot);
  }

  inviteRow(seat) {
    const link = this.invites.get(seat);
    const name = this.seatName(seat);
    if (!link) {
      return h("p", { class: "invite", "data-key": `invite:${seat}` },
        h("button", { "data-testid": `invite-${seat}`, onclick: () => this.invite(seat) }, WORDS.invite(name)));
    }
    const field = h("input", { type: "text", readonly: true, value: link, size: 48, "aria-label": WORDS.inviteLink(name),
      "data-testid": `invite-link-${seat}`, "data-key": `invite-link:${seat}`, onfocus: (e) => e.target.select() });
    return h("p", { class: "invite", "data-key": `invite:${seat}` }, field, " ",
      h("button", { "data-testid": `copy-invite-${seat}`, onclick: () => this.copy(link, seat) }, WORDS.copy));
  }

  async invite(seat) {
    try {
      const answer = await post(`/games/${this.gameId}/invites`, { seat }, { token: this.token });
      this.invites.set(seat, `${location.origin}${location.pathname}#/invite/${answer.invite}`);
      this.draw();
    } catch (err) {
      errorMessage(err, WORDS.inviting);
    }
  }

  async copy(link, seat) {
    try {
      await navigator.clipboard.writeText(link);
      message(WORDS.copied, "info");
    } catch {
      const field = this.screenEl.querySelector(`[data-testid="invite-link-${seat}"]`);
      if (field) field.select();
      message(WORDS.copyByHand, "info");
    }
  }

  present(seat) {
    const p = this.table.presence;
    return !!(p && p.seats.some((s) => s.seat === seat));
  }

  // A seat's time left, and its bank: counted down from when its clock started, while it runs.
  clockOf(seat) {
    const c = (this.table.clocks || [])[seat];
    if (!c) return "";
    const running = c.running_since_ms !== null && c.running_since_ms !== undefined;
    const left = running ? c.left_ms - Math.max(0, Date.now() - c.running_since_ms) : c.left_ms;
    const bank = (c.bank_ms || 0) + Math.min(0, left);
    return h("span", { class: ["clock", running ? "running" : null] }, WORDS.clock(duration(left), bank > 0 ? duration(bank) : null));
  }

  async resign() {
    if (!window.confirm(WORDS.leave(botTitle(this.table.takeover)))) return;
    await this.send({ type: "Resign" });
  }

  async callOff(creator) {
    try {
      await call("DELETE", `/games/${this.gameId}`, { token: creator });
      localStorage.removeItem(`ludoteca.creator.${this.gameId}`);
      this.table = await this.fetchTable();
      this.draw();
    } catch (err) {
      errorMessage(err, WORDS.callingOff);
    }
  }

  async rematch() {
    try {
      const answer = await post(`/games/${this.gameId}/rematch`, { entropy: entropyFor(`rematch.${this.gameId}`) }, { token: this.token });
      // The rematch answers a seat token even to a player (its seat is not the player's): kept here.
      keepSeat(answer.game_id, { seat: answer.seat, token: answer.token, game: this.table.game });
      window.location.hash = `#/game/${answer.game_id}`;
    } catch (err) {
      errorMessage(err, WORDS.joiningRematch);
    }
  }

  // What happened, by turn, latest first: one line a move, a turn headed by its player.
  logPanel() {
    const groups = this.story.told(LOG_TURNS);
    const colour = this.ctx().seatColour;
    // the turn's player is its heading: their lines go without their name
    const shown = (g, line) => (g.seat !== null && line.seat === g.seat ? this.story.bare(line.text, g.seat) : line.text);
    // open at first; once the person folds it, it stays folded (morph.js keeps `open`)
    return h("details", { class: "log panel", "data-key": "log", open: true }, h("summary", {}, WORDS.log),
      groups.length ? h("ol", { class: "turns", tabindex: "0", "aria-label": WORDS.logLabel, "data-testid": "log" },
        groups.map((g) => h("li", { class: ["turn", g.seat === null ? "between" : null], "data-seat": g.seat === null ? null : String(g.seat),
          "data-key": `turn:${g.lines[0].first}`, style: g.seat === null ? null : { "--seat": colourOf(colour(g.seat)).fill } },
        g.seat === null ? null : h("strong", { class: "turn-who" }, this.seatName(g.seat)),
        h("ul", {}, g.lines.map((l) => h("li", { "data-version": String(l.version), "data-key": `line:${l.first}` }, shown(g, l)))))))
        : h("p", { class: "muted" }, WORDS.nothingYet));
  }

  // --- the seat's moves, built by picks ------------------------------------------

  // The builder marks the table's targets; a new first step (from an update) starts it again.
  attachMoves() {
    const wrap = this.screenEl.querySelector(".controls-wrap");
    this.builder.ctx.view = this.table.view;
    this.builder.attach(this.screenEl.querySelector(".play"), wrap);
    if (this.stepFresh) { // the server sends a step only to a seat it awaits in a game under way
      this.stepFresh = false;
      this.builder.restart(this.first, this.firstVersion);
    }
  }

  // The next step after `picks`: over the socket when it is up, else over REST.
  async ask(picks) {
    if (this.live && this.live.open()) {
      try {
        return await this.live.moves(picks);
      } catch (err) {
        if (!["socket_closed", "timeout", "too_many"].includes(err.code)) throw err;
      }
    }
    return post(`/games/${this.gameId}/moves`, { picks }, { token: this.token });
  }

  // One command on its way: over the socket when it is up, else (or when the socket went away
  // before the answer) over REST under the same command id, which lands once either way.
  async deliver(command, id, version) {
    if (this.live && this.live.open()) {
      try {
        return await this.live.command(command, id, version);
      } catch (err) {
        if (!["socket_closed", "timeout"].includes(err.code)) throw err;
      }
    }
    return post(`/games/${this.gameId}/commands`, { command, command_id: id, expected_version: version }, { token: this.token });
  }

  // Send one command, decided at `version` (expected_version: the version its step was computed
  // at). When another seat moved first (version_conflict), the same picks are walked again on the
  // table as it is now: a command they still make is sent again at the new version; otherwise the
  // person is told the table moved on. The version after it, or null when it was refused.
  async send(command, version = this.version, picks = null) {
    if (this.sending) return null;
    this.sending = true;
    this.screenEl.classList.add("sending");
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await this.deliver(command, commandId(), version);
          this.lastSent = { command, version: answer.version };
          return answer.version;
        } catch (err) {
          if (err.code !== "version_conflict" || attempt >= 2 || !picks) throw err;
          const again = await this.ask(picks).catch(() => null);
          const still = again && again.step && again.step.command !== undefined ? again.step.command : null;
          if (!sameValue(still, command)) throw err;
          version = again.version;
        }
      }
    } catch (err) {
      errorMessage(err, WORDS.refused((lang() !== "en" && term(this.table.game, "move", command.type)) || humanize(command.type)));
      return null;
    } finally {
      this.sending = false;
      if (this.screenEl) this.screenEl.classList.remove("sending");
    }
  }

  // --- seats -----------------------------------------------------------------------

  // Sit down as the browser's player (made first, with the name typed, for a newcomer).
  async takeSeat(seat, name) {
    try {
      const answer = await sit(this.gameId, this.table.game, name, { seat });
      this.token = seatOf(this.gameId)?.token || null; // a stranger's seat when no player could be made
      message(WORDS.youSit(answer.seat + 1), "info");
      this.table = await this.fetchTable();
      this.version = Math.max(this.version, this.table.version);
      this.draw();
      this.connect();
    } catch (err) {
      errorMessage(err, WORDS.takingSeat);
    }
  }

  // Bots the lobby seats get names of their own: "Random bot 2", "Strong bot 3" (by seat, the
  // server's default), so that the log and the scores tell them apart. "strong:4" is bot and level.
  async fillBots(kind) {
    const free = (this.table.seats || []).map((s, i) => (s ? null : i)).filter((i) => i !== null);
    const [bot, level] = kind.split(":");
    for (const seat of free) {
      try {
        await post(`/games/${this.gameId}/seats`, level ? { seat, bot, level: Number(level) } : { seat, bot });
      } catch (err) {
        errorMessage(err, WORDS.seatingBot);
        break;
      }
    }
  }
}
