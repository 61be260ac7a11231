// The replay viewer: a game at any version (GET /games/{id}/replay), stepped or scrubbed with a
// slider, seen as the caller, as any seat, or whole (`as`; others' views only once finished).

import { get, catalog, components, seatOf } from "./api.js";
import { h, clear, errorMessage, humanize, pill, colourOf } from "./ui.js";
import { nameIndex, richNames, describeEvent, describeCommand, seatNamer } from "./names.js";
import { drawView, outcomeTable, screenOf, context } from "./view.js";
import { morph } from "./morph.js";
import { TableChat } from "./chat.js";
import { byLanguage, titleOf, localComponents } from "./words.js";

const WORDS = byLanguage({
  en: {
    loading: "Loading the replay…", replay: "Replay", title: (t) => `Replay: ${t}`, play: "play", pause: "pause",
    spectator: "spectator", mySeat: (n) => `my seat (${n})`, as: (n) => `as ${n}`, full: "full view (everything)",
    version: "version", whose: "whose view", finished: "finished", inPlay: "in play", toTable: "to the table",
    unfinished: "The game is not finished: you may replay only your own view (or the spectator's) until it ends.",
    first: "first step", previous: "previous step", next: "next step", last: "last step",
    playTitle: "play the versions in turn", step: (v, n) => `step ${v} of ${n}`,
    bookkeeping: "bookkeeping (a shuffle or a marker)", thisView: "this view", fullView: "the full view",
    spectatorsView: "a spectator's view", seatsView: (n) => `${n}'s view`,
  },
  pt: {
    loading: "A carregar a repetição…", replay: "Repetição", title: (t) => `Repetição: ${t}`, play: "reproduzir",
    pause: "pausa", spectator: "espectador", mySeat: (n) => `o meu lugar (${n})`, as: (n) => `como ${n}`,
    full: "vista completa (tudo)", version: "versão", whose: "vista de quem", finished: "terminado",
    inPlay: "em jogo", toTable: "para a mesa",
    unfinished: "O jogo não terminou: até acabar só pode rever a sua própria vista (ou a do espectador).",
    first: "primeiro passo", previous: "passo anterior", next: "passo seguinte", last: "último passo",
    playTitle: "reproduzir as versões por ordem", step: (v, n) => `passo ${v} de ${n}`,
    bookkeeping: "registo (um baralhar ou uma marca)", thisView: "esta vista", fullView: "a vista completa",
    spectatorsView: "a vista de um espectador", seatsView: (n) => `a vista de ${n}`,
  },
  gl: {
    loading: "Cargando a repetición…", replay: "Repetición", title: (t) => `Repetición: ${t}`, play: "reproducir",
    pause: "pausa", spectator: "espectador", mySeat: (n) => `o meu posto (${n})`, as: (n) => `como ${n}`,
    full: "vista completa (todo)", version: "versión", whose: "vista de quen", finished: "rematada",
    inPlay: "en xogo", toTable: "á mesa",
    unfinished: "A partida non rematou: ata que remate só podes repetir a túa propia vista (ou a do espectador).",
    first: "primeiro paso", previous: "paso anterior", next: "paso seguinte", last: "último paso",
    playTitle: "reproducir as versións en orde", step: (v, n) => `paso ${v} de ${n}`,
    bookkeeping: "rexistro (unha baralladura ou unha marca)", thisView: "esta vista", fullView: "a vista completa",
    spectatorsView: "a vista dun espectador", seatsView: (n) => `a vista de ${n}`,
  },
  es: {
    loading: "Cargando la repetición…", replay: "Repetición", title: (t) => `Repetición: ${t}`, play: "reproducir",
    pause: "pausa", spectator: "espectador", mySeat: (n) => `mi asiento (${n})`, as: (n) => `como ${n}`,
    full: "vista completa (todo)", version: "versión", whose: "vista de quién", finished: "terminada",
    inPlay: "en juego", toTable: "a la mesa",
    unfinished: "La partida no ha terminado: hasta que termine solo puedes repetir tu propia vista (o la del espectador).",
    first: "primer paso", previous: "paso anterior", next: "paso siguiente", last: "último paso",
    playTitle: "reproducir las versiones en orden", step: (v, n) => `paso ${v} de ${n}`,
    bookkeeping: "registro (un barajado o una marca)", thisView: "esta vista", fullView: "la vista completa",
    spectatorsView: "la vista de un espectador", seatsView: (n) => `la vista de ${n}`,
  },
});

export class ReplayScreen {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    const held = seatOf(gameId);
    this.token = held ? held.token : null;
    this.as = ""; // "": the caller's own view; "full"; or a seat number
    this.version = 1;
    this.ask = 0;
    this.stopped = false;
    // The chat as the caller read it, shown up to the version replayed (nothing is said from here).
    this.chat = new TableChat({ send: null, speak: null, seat: () => this.table.seat, signedIn: () => false, redraw: () => {} });
  }

  // Every fact of the caller's feed once: the chat's messages, each shown from its version on.
  async readChat() {
    for (let after = 0; after < this.last; after += 1000) { // a page covers 1,000 versions, seen or not
      const page = await get(`/games/${this.gameId}/events`, { token: this.token, params: { after, limit: 1000 } });
      this.chat.take(page.events, false);
    }
  }

  async start() {
    clear(this.root, h("p", {}, WORDS.loading));
    try {
      this.table = await get(`/games/${this.gameId}`, { token: this.token });
    } catch (err) {
      clear(this.root, h("p", { class: "message error" }, err.message));
      return;
    }
    this.comp = localComponents(this.table.game, await components(this.table.game).catch(() => ({})));
    this.screen = screenOf(this.table.game);
    this.names = richNames(nameIndex(this.comp, this.screen), this.screen, this.comp);
    this.title = titleOf(this.table.game, (await catalog().catch(() => [])).find((g) => g.game === this.table.game)?.title || humanize(this.table.game));
    this.last = this.table.version;
    this.finished = this.table.status === "finished";
    if (this.finished) this.as = "full";
    this.version = this.last;
    await this.readChat().catch(() => {}); // a replay without its chat still shows the game
    this.build();
    await this.show(this.version);
  }

  stop() {
    this.stopped = true;
    this.chat.stop();
    clearInterval(this.playing);
  }

  toggle() {
    if (this.playing) {
      clearInterval(this.playing);
      this.playing = null;
      this.playButton.textContent = WORDS.play;
      return;
    }
    this.playButton.textContent = WORDS.pause;
    this.playing = setInterval(() => {
      if (this.version >= this.last) this.toggle();
      else this.show(this.version + 1);
    }, 500);
  }

  seatName(seat) {
    return seatNamer(this.table.seats)(seat);
  }

  build() {
    const t = this.table;
    this.slider = h("input", { type: "range", min: "1", max: String(this.last), value: String(this.version), "data-testid": "replay-slider", "aria-label": WORDS.version });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.number = h("span", { class: "replay-version", "data-testid": "replay-version" });
    const options = [h("option", { value: "" }, t.seat === null ? WORDS.spectator : WORDS.mySeat(this.seatName(t.seat)))];
    (t.seats || []).forEach((s, i) => options.push(h("option", { value: String(i), disabled: !this.finished && i !== t.seat }, WORDS.as(this.seatName(i)))));
    options.push(h("option", { value: "full", disabled: !this.finished }, WORDS.full));
    this.select = h("select", { "data-testid": "replay-as", "aria-label": WORDS.whose }, options);
    this.select.value = this.as;
    this.select.addEventListener("change", () => { this.as = this.select.value; this.show(this.version); });
    const step = (d) => () => this.show(Math.min(this.last, Math.max(1, this.version + d)));
    this.body = h("div", { class: "replay-body" });
    this.eventLine = h("div", { class: "replay-event", "data-testid": "replay-event" });
    clear(this.root, h("div", { class: "replay-screen", "data-game": t.game, "data-game-id": this.gameId },
      h("div", { class: "table-head" }, h("h1", {}, WORDS.title(this.title)), pill(t.status === "finished" ? WORDS.finished : WORDS.inPlay),
        h("span", { class: "grow" }), h("a", { href: `#/game/${this.gameId}` }, WORDS.toTable)),
      this.finished ? null : h("p", { class: "muted" }, WORDS.unfinished),
      h("div", { class: "replay-bar" },
        h("button", { onclick: () => this.show(1), "aria-label": WORDS.first }, "|◀"),
        h("button", { onclick: step(-1), "data-testid": "replay-prev", "aria-label": WORDS.previous }, "◀"),
        this.slider,
        h("button", { onclick: step(1), "data-testid": "replay-next", "aria-label": WORDS.next }, "▶"),
        h("button", { onclick: () => this.show(this.last), "aria-label": WORDS.last }, "▶|"),
        this.playButton = h("button", { onclick: () => this.toggle(), "data-testid": "replay-play", title: WORDS.playTitle }, WORDS.play),
        this.number, this.select),
      this.eventLine, this.body));
  }

  async show(version) {
    this.version = version;
    this.slider.value = String(version);
    this.number.textContent = WORDS.step(version, this.last);
    const ask = ++this.ask;
    const params = { version };
    if (this.as !== "") params.as = this.as;
    let answer, events;
    try {
      [answer, events] = await Promise.all([
        get(`/games/${this.gameId}/replay`, { token: this.token, params }),
        get(`/games/${this.gameId}/events`, { token: this.token, params: { after: version - 1, limit: 1 } }),
      ]);
    } catch (err) {
      if (ask === this.ask) errorMessage(err, WORDS.replay);
      return;
    }
    if (ask !== this.ask || this.stopped) return;
    const ev = events.events.find((e) => e.version === version);
    const seatName = (s) => this.seatName(s);
    this.eventLine.textContent = ev ? `${version}: ${describeEvent(ev.event, this.names, seatName, this.screen, this.comp) || WORDS.bookkeeping}` : String(version);
    const seats = answer.seats || this.table.seats;
    const ctx = context(answer.view, { game: this.table.game, comp: this.comp, names: this.names, seats, viewerLabel: WORDS.thisView,
      seatName: seatNamer(seats), describeCommand: (c) => describeCommand(c, this.names, seatName) });
    const { board, hand } = drawView(answer.view, ctx);
    const next = h("div", { class: "replay-body" }, h("div", { "data-version": String(answer.version), "data-as": this.as || "self", class: "replay-view" },
      h("p", {}, answer.seat === null ? pill(this.as === "full" ? WORDS.fullView : WORDS.spectatorsView) : pill(WORDS.seatsView(seatName(answer.seat)))),
      answer.status === "finished" ? outcomeTable(answer.outcome, ctx) : null,
      h("div", { class: "play" }, h("div", { class: "view-wrap" }, board), hand ? h("div", { class: "dock replay-dock" }, hand) : null),
      this.chat.transcript(answer.version, { seat: this.table.seat, seatName, colour: (s) => colourOf(ctx.seatColour(s)).fill })));
    morph(this.body, next);
    this.root.querySelector(".replay-screen").setAttribute("data-shown", String(answer.version));
  }
}
