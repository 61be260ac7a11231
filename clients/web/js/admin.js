// The operator's console (#/admin; docs/API.md, "Admin"): tables by status with their seats and
// clocks, one table's log as the server keeps it, ending a table, removing a seat's player, the
// notifications' outbox in figures and the quotas hit. The admin token is kept in sessionStorage
// only: it goes when the tab closes, and never sits in localStorage beside the seats' tokens.

import { call, components, get } from "./api.js";
import { h, clear, errorMessage, message, announce } from "./ui.js";
import { byLanguage, date, number } from "./words.js";
import { describeEvent, nameIndex, seatNamer } from "./names.js";

const KEY = "ludoteca.admin";
const STATUSES = ["active", "open", "finished"];

// The words of the console a person reads, by language (kept together for translation).
const WORDS = byLanguage({
  en: {
    title: "Admin console",
    token: "Admin token",
    tokenNote: "The server's LUDOTECA_ADMIN_TOKEN. It is kept in this tab only, until it closes.",
    signIn: "Open the console",
    signOut: "Forget the token",
    refused: "That token is not the admin's",
    status: { active: "Under way", open: "Open", finished: "Finished" },
    statuses: "Tables by status",
    refresh: "Refresh",
    columns: ["Table", "Game", "Status", "Version", "Seats", "Turn", "Clocks", "Opened", "Actions"],
    none: "No tables.",
    free: "free",
    bot: (bot) => `bot ${bot}`,
    connected: "connected",
    away: "away",
    left: "left",
    log: "Log",
    cancel: "End the table",
    remove: (seat) => `Remove seat ${seat + 1}`,
    confirmCancel: (id) => `End table ${id}? It is finished, called off by the operator, for everyone.`,
    confirmRemove: (seat, id) => `Remove seat ${seat + 1}'s player from table ${id}? The table's bot plays on.`,
    yes: "Yes, do it",
    no: "Keep it as it is",
    done: "Done",
    cancelled: (id) => `Table ${id} is ended.`,
    removed: (seat, id) => `Seat ${seat + 1} of table ${id} is removed.`,
    logOf: (id) => `Log of table ${id}`,
    logColumns: ["Version", "Fact", "What happened"],
    closeLog: "Close the log",
    outbox: "Notifications' outbox",
    figures: { waiting: "Waiting", due: "Due now", tried: "Tried before" },
    replica: "On this replica since it started",
    results: { posted: "posted", sent: "sent", retried: "retried", failed: "given up", dropped: "dropped", deferred: "deferred", over_quota: "over quota" },
    quotas: "Quotas hit",
    quotaColumns: ["Quota", "Limit an hour", "Refused this hour", "Refused last hour", "Refused most this hour"],
    quota: { games: "Tables opened", seats: "Seats taken", players: "Players made", codes: "Sign-in codes tried", destinations: "Webhooks and email addresses set", sign_ins: "Sign-ins begun", passkeys: "Passkey registrations (a player)" },
    noLimit: "no limit",
    more: "Show more",
    reading: "Reading the console",
    acting: "The operator's action",
    clockLeft: (seat, left) => `seat ${seat + 1}: ${left}`,
    ended: (reason) => `ended (${reason})`,
  },
  pt: {
    title: "Consola de administração",
    token: "Token de administração",
    tokenNote: "O LUDOTECA_ADMIN_TOKEN do servidor. Fica só neste separador, até ser fechado.",
    signIn: "Abrir a consola",
    signOut: "Esquecer o token",
    refused: "Esse token não é o de administração",
    status: { active: "Em curso", open: "Abertas", finished: "Terminadas" },
    statuses: "Mesas por estado",
    refresh: "Atualizar",
    columns: ["Mesa", "Jogo", "Estado", "Versão", "Lugares", "Vez", "Relógios", "Aberta", "Ações"],
    none: "Nenhuma mesa.",
    free: "livre",
    bot: (bot) => `bot ${bot}`,
    connected: "ligado",
    away: "ausente",
    left: "saiu",
    log: "Registo",
    cancel: "Terminar a mesa",
    remove: (seat) => `Retirar o lugar ${seat + 1}`,
    confirmCancel: (id) => `Terminar a mesa ${id}? Fica terminada, cancelada pelo operador, para todos.`,
    confirmRemove: (seat, id) => `Retirar o jogador do lugar ${seat + 1} da mesa ${id}? O bot da mesa continua a jogar.`,
    yes: "Sim, fazer",
    no: "Deixar como está",
    done: "Feito",
    cancelled: (id) => `A mesa ${id} foi terminada.`,
    removed: (seat, id) => `O lugar ${seat + 1} da mesa ${id} foi retirado.`,
    logOf: (id) => `Registo da mesa ${id}`,
    logColumns: ["Versão", "Facto", "O que aconteceu"],
    closeLog: "Fechar o registo",
    outbox: "Caixa de saída das notificações",
    figures: { waiting: "À espera", due: "Para enviar já", tried: "Já tentadas" },
    replica: "Nesta réplica desde que arrancou",
    results: { posted: "publicadas", sent: "enviadas", retried: "repetidas", failed: "desistidas", dropped: "descartadas", deferred: "adiadas", over_quota: "acima da quota" },
    quotas: "Quotas atingidas",
    quotaColumns: ["Quota", "Limite por hora", "Recusados nesta hora", "Recusados na hora anterior", "Mais recusados nesta hora"],
    quota: { games: "Mesas abertas", seats: "Lugares ocupados", players: "Jogadores criados", codes: "Códigos de entrada tentados", destinations: "Webhooks e endereços de email definidos", sign_ins: "Entradas iniciadas", passkeys: "Registos de chaves de acesso (um jogador)" },
    noLimit: "sem limite",
    more: "Mostrar mais",
    reading: "A ler a consola",
    acting: "A ação do operador",
    clockLeft: (seat, left) => `lugar ${seat + 1}: ${left}`,
    ended: (reason) => `terminada (${reason})`,
  },
  gl: {
    title: "Consola de administración",
    token: "Token de administración",
    tokenNote: "O LUDOTECA_ADMIN_TOKEN do servidor. Queda só nesta lapela, ata que se peche.",
    signIn: "Abrir a consola",
    signOut: "Esquecer o token",
    refused: "Ese token non é o de administración",
    status: { active: "En curso", open: "Abertas", finished: "Rematadas" },
    statuses: "Mesas por estado",
    refresh: "Actualizar",
    columns: ["Mesa", "Xogo", "Estado", "Versión", "Postos", "Quenda", "Reloxos", "Aberta", "Accións"],
    none: "Ningunha mesa.",
    free: "libre",
    bot: (bot) => `bot ${bot}`,
    connected: "conectado",
    away: "ausente",
    left: "marchou",
    log: "Rexistro",
    cancel: "Rematar a mesa",
    remove: (seat) => `Retirar o posto ${seat + 1}`,
    confirmCancel: (id) => `Rematar a mesa ${id}? Queda rematada, cancelada polo operador, para todos.`,
    confirmRemove: (seat, id) => `Retirar o xogador do posto ${seat + 1} da mesa ${id}? O bot da mesa segue xogando.`,
    yes: "Si, facelo",
    no: "Deixalo como está",
    done: "Feito",
    cancelled: (id) => `A mesa ${id} está rematada.`,
    removed: (seat, id) => `O posto ${seat + 1} da mesa ${id} está retirado.`,
    logOf: (id) => `Rexistro da mesa ${id}`,
    logColumns: ["Versión", "Feito", "Que pasou"],
    closeLog: "Pechar o rexistro",
    outbox: "Caixa de saída das notificacións",
    figures: { waiting: "Agardando", due: "Para enviar xa", tried: "Xa tentadas" },
    replica: "Nesta réplica desde que arrancou",
    results: { posted: "publicadas", sent: "enviadas", retried: "repetidas", failed: "abandonadas", dropped: "descartadas", deferred: "adiadas", over_quota: "por riba da cota" },
    quotas: "Cotas alcanzadas",
    quotaColumns: ["Cota", "Límite por hora", "Rexeitados nesta hora", "Rexeitados na hora anterior", "Máis rexeitados nesta hora"],
    quota: { games: "Mesas abertas", seats: "Postos ocupados", players: "Xogadores creados", codes: "Códigos de acceso probados", destinations: "Webhooks e enderezos de correo definidos", sign_ins: "Accesos iniciados", passkeys: "Rexistros de chaves de acceso (un xogador)" },
    noLimit: "sen límite",
    more: "Amosar máis",
    reading: "Lendo a consola",
    acting: "A acción do operador",
    clockLeft: (seat, left) => `posto ${seat + 1}: ${left}`,
    ended: (reason) => `rematada (${reason})`,
  },
  es: {
    title: "Consola de administración",
    token: "Token de administración",
    tokenNote: "El LUDOTECA_ADMIN_TOKEN del servidor. Se guarda solo en esta pestaña, hasta que se cierre.",
    signIn: "Abrir la consola",
    signOut: "Olvidar el token",
    refused: "Ese token no es el de administración",
    status: { active: "En curso", open: "Abiertas", finished: "Terminadas" },
    statuses: "Mesas por estado",
    refresh: "Actualizar",
    columns: ["Mesa", "Juego", "Estado", "Versión", "Puestos", "Turno", "Relojes", "Abierta", "Acciones"],
    none: "Ninguna mesa.",
    free: "libre",
    bot: (bot) => `bot ${bot}`,
    connected: "conectado",
    away: "ausente",
    left: "se fue",
    log: "Registro",
    cancel: "Terminar la mesa",
    remove: (seat) => `Retirar el puesto ${seat + 1}`,
    confirmCancel: (id) => `¿Terminar la mesa ${id}? Queda terminada, cancelada por el operador, para todos.`,
    confirmRemove: (seat, id) => `¿Retirar al jugador del puesto ${seat + 1} de la mesa ${id}? El bot de la mesa sigue jugando.`,
    yes: "Sí, hacerlo",
    no: "Dejarlo como está",
    done: "Hecho",
    cancelled: (id) => `La mesa ${id} está terminada.`,
    removed: (seat, id) => `El puesto ${seat + 1} de la mesa ${id} está retirado.`,
    logOf: (id) => `Registro de la mesa ${id}`,
    logColumns: ["Versión", "Hecho", "Qué pasó"],
    closeLog: "Cerrar el registro",
    outbox: "Bandeja de salida de las notificaciones",
    figures: { waiting: "En espera", due: "Para enviar ya", tried: "Ya intentadas" },
    replica: "En esta réplica desde que arrancó",
    results: { posted: "publicadas", sent: "enviadas", retried: "repetidas", failed: "abandonadas", dropped: "descartadas", deferred: "aplazadas", over_quota: "por encima de la cuota" },
    quotas: "Cuotas alcanzadas",
    quotaColumns: ["Cuota", "Límite por hora", "Rechazadas esta hora", "Rechazadas la hora anterior", "Más rechazados esta hora"],
    quota: { games: "Mesas abiertas", seats: "Puestos ocupados", players: "Jugadores creados", codes: "Códigos de acceso probados", destinations: "Webhooks y direcciones de correo definidos", sign_ins: "Inicios de sesión empezados", passkeys: "Registros de llaves de acceso (un jugador)" },
    noLimit: "sin límite",
    more: "Mostrar más",
    reading: "Leyendo la consola",
    acting: "La acción del operador",
    clockLeft: (seat, left) => `puesto ${seat + 1}: ${left}`,
    ended: (reason) => `terminada (${reason})`,
  },
});

const tokenOf = () => sessionStorage.getItem(KEY);

// "1:05:09", "4:07": time left on a clock.
function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(s / 3600), minutes = Math.floor((s % 3600) / 60), seconds = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

export async function showAdmin(root) {
  if (!tokenOf()) return askToken(root);
  return new Console(root, tokenOf()).start();
}

function askToken(root) {
  const input = h("input", { id: "admin-token", type: "password", autocomplete: "off", required: true, "data-testid": "admin-token" });
  const form = h("form", { class: "welcome-form", "aria-label": WORDS.token },
    h("label", { for: "admin-token" }, WORDS.token), input,
    h("button", { type: "submit", class: "primary", "data-testid": "admin-open" }, WORDS.signIn));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const token = input.value.trim();
    try {
      await call("GET", "/admin/outbox", { token }); // a token that opens nothing is told so here
    } catch (err) {
      errorMessage(err, err.status === 401 || err.status === 403 ? WORDS.refused : WORDS.reading);
      return;
    }
    sessionStorage.setItem(KEY, token);
    await new Console(root, token).start();
  };
  clear(root, h("div", { class: "admin welcome", "data-testid": "admin-sign-in" },
    h("h1", {}, WORDS.title), h("p", { class: "muted" }, WORDS.tokenNote), form));
  input.focus();
}

class Console {
  constructor(root, token) {
    this.root = root;
    this.token = token;
    this.status = "active";
    this.rows = [];
    this.cursor = null;
    this.now = 0;
    this.confirm = h("div", { class: "confirm", "data-testid": "admin-confirm", hidden: true });
    this.outbox = h("section", { class: "panel", "data-testid": "admin-outbox", "aria-labelledby": "admin-outbox-title" });
    this.quotas = h("section", { class: "panel", "data-testid": "admin-quotas", "aria-labelledby": "admin-quotas-title" });
    this.tables = h("div", { "data-testid": "admin-tables" });
    this.log = h("section", { class: "panel", "data-testid": "admin-log", hidden: true, "aria-labelledby": "admin-log-title" });
    this.more = h("button", { type: "button", hidden: true, onclick: () => this.page(false) }, WORDS.more);
  }

  call(method, path, body = undefined) {
    return call(method, path, { token: this.token, body });
  }

  async start() {
    const tabs = h("div", { class: "filters", role: "group", "aria-label": WORDS.statuses },
      STATUSES.map((s) => h("button", {
        type: "button", "data-status": s, "aria-pressed": String(s === this.status),
        onclick: () => this.show(s),
      }, WORDS.status[s])),
      h("button", { type: "button", "data-testid": "admin-refresh", onclick: () => this.refresh() }, WORDS.refresh));
    this.tabs = tabs;
    const forget = h("button", { type: "button", onclick: () => { sessionStorage.removeItem(KEY); askToken(this.root); } }, WORDS.signOut);
    clear(this.root, h("div", { class: "admin", "data-testid": "admin" },
      h("div", { class: "lobby-head" }, h("h1", {}, WORDS.title), forget),
      this.outbox, this.quotas,
      h("h2", {}, WORDS.statuses), tabs, this.confirm, this.tables, this.more, this.log));
    await this.refresh();
  }

  async show(status) {
    this.status = status;
    for (const b of this.tabs.querySelectorAll("[data-status]")) b.setAttribute("aria-pressed", String(b.dataset.status === status));
    await this.page(true);
  }

  async refresh() {
    await Promise.all([this.page(true), this.figures(), this.quotaFigures()]);
  }

  async figures() {
    try {
      const f = await this.call("GET", "/admin/outbox");
      const results = Object.entries(f.this_replica || {});
      clear(this.outbox, h("h2", { id: "admin-outbox-title" }, WORDS.outbox),
        h("p", {}, ["waiting", "due", "tried"].map((k) => h("span", { class: "stat", "data-figure": k },
          h("span", { class: "stat-label" }, WORDS.figures[k] + ": "), number(f[k])))),
        h("p", {}, h("span", { class: "stat-label" }, WORDS.replica + ": "),
          results.map(([k, v]) => h("span", { class: "stat", "data-result": k }, `${WORDS.results[k] || k} ${number(v)}`))));
    } catch (err) {
      this.failed(err, WORDS.reading);
    }
  }

  // Each quota: its limit, its refusals this hour and the last (every replica's), who it refused most.
  async quotaFigures() {
    try {
      const f = await this.call("GET", "/admin/quotas");
      clear(this.quotas, h("h2", { id: "admin-quotas-title" }, WORDS.quotas),
        h("table", { class: "games admin-quotas" },
          h("thead", {}, h("tr", {}, WORDS.quotaColumns.map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, f.quotas.map((q) => h("tr", { "data-quota": q.quota },
            h("th", { scope: "row" }, WORDS.quota[q.quota] || q.quota),
            h("td", { class: "number" }, q.limit ? number(q.limit) : WORDS.noLimit),
            h("td", { class: "number", "data-figure": "refused" }, number(q.refused)),
            h("td", { class: "number", "data-figure": "refused_last_hour" }, number(q.refused_last_hour)),
            h("td", {}, q.top.map((t, i) => [i ? ", " : "", h("code", {}, t.client), ` (${number(t.refused)})`])))))));
    } catch (err) {
      this.failed(err, WORDS.reading);
    }
  }

  async page(first) {
    if (first) { this.rows = []; this.cursor = null; }
    try {
      const answer = await this.call("GET", `/admin/games?${new URLSearchParams({ status: this.status, ...(this.cursor !== null ? { cursor: this.cursor } : {}) })}`);
      this.rows = this.rows.concat(answer.games);
      this.cursor = answer.next_cursor ?? null;
      this.now = answer.now_ms;
      this.more.hidden = this.cursor === null;
      this.draw();
    } catch (err) {
      this.failed(err, WORDS.reading);
    }
  }

  failed(err, what) {
    if (err.status === 401 || err.status === 403) { // the token changed on the server: ask again
      sessionStorage.removeItem(KEY);
      errorMessage(err, WORDS.refused);
      askToken(this.root);
      return;
    }
    errorMessage(err, what);
  }

  draw() {
    if (!this.rows.length) {
      clear(this.tables, h("p", { class: "muted", "data-testid": "admin-empty" }, WORDS.none));
      return;
    }
    clear(this.tables, h("table", { class: "games admin-tables" },
      h("caption", { class: "sr-only" }, WORDS.status[this.status]),
      h("thead", {}, h("tr", {}, WORDS.columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, this.rows.map((t) => this.row(t)))));
  }

  row(t) {
    const name = seatNamer(t.seats.map((s) => (s.taken ? s : null)));
    const seats = h("ul", { class: "admin-seats" }, t.seats.map((s) => h("li", { "data-seat": s.seat },
      s.taken ? name(s.seat) : WORDS.free,
      s.bot ? ` (${WORDS.bot(s.bot)})` : "",
      s.taken && !s.bot ? ` · ${s.connected ? WORDS.connected : WORDS.away}` : "",
      s.left ? ` · ${WORDS.left}` : "",
      t.status === "active" && s.taken && !s.left
        ? [" ", h("button", { type: "button", class: "danger", "data-action": "remove", onclick: () => this.ask("remove", t, s.seat) }, WORDS.remove(s.seat))]
        : null)));
    const clocks = (t.clocks || []).map((c) => {
      const left = c.running_since_ms === null || c.running_since_ms === undefined ? c.left_ms : c.left_ms - (this.now - c.running_since_ms);
      return h("div", {}, WORDS.clockLeft(c.seat, duration(left)));
    });
    const ended = t.outcome && t.outcome.reason ? WORDS.ended(t.outcome.reason) : "";
    return h("tr", { "data-game-id": t.game_id, "data-status": t.status },
      h("td", {}, h("code", {}, t.game_id)),
      h("td", {}, t.game),
      h("td", { "data-testid": "admin-status" }, WORDS.status[t.status], ended ? [" ", h("span", { class: "muted" }, ended)] : null),
      h("td", { class: "number" }, String(t.version)),
      h("td", {}, seats),
      h("td", {}, t.awaiting.map((s) => name(s)).join(", ")),
      h("td", {}, clocks),
      h("td", {}, t.created_ms ? date(t.created_ms) : ""),
      h("td", {}, h("div", { class: "table-actions" },
        h("button", { type: "button", "data-action": "log", onclick: () => this.showLog(t) }, WORDS.log),
        t.status !== "finished"
          ? h("button", { type: "button", class: "danger", "data-action": "cancel", onclick: () => this.ask("cancel", t) }, WORDS.cancel)
          : null)));
  }

  // The confirm step: what is about to happen, in words, and the two ways out.
  ask(action, t, seat = null) {
    const text = action === "cancel" ? WORDS.confirmCancel(t.game_id) : WORDS.confirmRemove(seat, t.game_id);
    const yes = h("button", { type: "button", class: "primary", "data-testid": "admin-yes", onclick: () => this.act(action, t, seat) }, WORDS.yes);
    const no = h("button", { type: "button", "data-testid": "admin-no", onclick: () => { this.confirm.hidden = true; } }, WORDS.no);
    clear(this.confirm, h("div", { class: "late", role: "group", "aria-label": text }, h("p", {}, text), yes, no));
    this.confirm.hidden = false;
    yes.focus();
  }

  async act(action, t, seat) {
    this.confirm.hidden = true;
    try {
      if (action === "cancel") await this.call("POST", `/admin/games/${t.game_id}/cancel`, {});
      else await this.call("POST", `/admin/games/${t.game_id}/seats/${seat}/remove`);
    } catch (err) {
      this.failed(err, WORDS.acting);
      return;
    }
    const said = action === "cancel" ? WORDS.cancelled(t.game_id) : WORDS.removed(seat, t.game_id);
    message(said, "info");
    announce(said);
    await this.refresh();
  }

  async showLog(t) {
    let lines;
    try {
      const exported = await get(`/games/${encodeURIComponent(t.game_id)}/export`,
        { token: this.token, params: { as: "server" }, lines: true });
      lines = exported.filter((l) => l.event);
    } catch (err) {
      this.failed(err, WORDS.reading);
      return;
    }
    const names = nameIndex(await components(t.game).catch(() => ({})), t.game);
    const seatName = seatNamer(t.seats.map((s) => (s.taken ? s : null)));
    clear(this.log,
      h("div", { class: "lobby-head" }, h("h2", { id: "admin-log-title" }, WORDS.logOf(t.game_id)),
        h("button", { type: "button", onclick: () => { this.log.hidden = true; } }, WORDS.closeLog)),
      h("table", { class: "games admin-log" },
        h("thead", {}, h("tr", {}, WORDS.logColumns.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, lines.map((l) => h("tr", { "data-version": l.version, "data-type": l.event.type },
          h("td", { class: "number" }, String(l.version)),
          h("td", {}, h("code", {}, l.event.type)),
          h("td", {}, describeEvent(l.event, names, seatName, { game: t.game }) || ""))))));
    this.log.hidden = false;
    this.log.scrollIntoView({ block: "nearest" });
  }
}
