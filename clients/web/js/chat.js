// The table's chat (docs/web.md, "The chat panel"): the messages of the game's stream in order, as
// the server lets this viewer read them (domain/chat.py), beside the table. A seat writes to the
// table or, on a private line, to one other seat; asks the others to hide a message (a majority of
// the people at the table hides it for everyone); mutes a seat for itself. Spectators read the
// table's channel and write nothing here. Chat facts are commands and facts like moves, sent on the
// same socket (`Say`, `HideMessage`, `Mute`), but they are no move: they wait for no one's steps,
// make no line of the log and no move stale.
//
// What is said is shown as text only (text nodes, never markup; a link stays words). The panel's
// own words are in the page's language (words.js `byLanguage`, the pseudo-locale too); a refusal is the server's
// sentence, which the server writes in that language too.

import { h, hidden } from "./ui.js";
import { onPlayerChange } from "./player.js";
import { byLanguage } from "./words.js";

export const CHAT_FACTS = new Set(["MessageSaid", "HidingAsked", "MessageHidden", "SeatMuted"]);
export const TEXT_MOST = 500; // characters a message may have (domain/chat.py TEXT_MOST)

const LOCALES = { en: "en", pt: "pt-PT", gl: "gl", es: "es" };
const one = (lang, n) => new Intl.PluralRules(LOCALES[lang] || lang).select(n) === "one";

// The words of the panel a person reads, in each language the server speaks (kept together for
// translation: a language added to the server's catalogs is added here too).
export const WORDS = {
  en: {
    title: "Table chat",
    unread: (n) => (one("en", n) ? `${n} unread message` : `${n} unread messages`),
    lines: "Messages, oldest first",
    none: "No messages yet.",
    spectator: "A spectator",
    privateTo: (name) => `privately to ${name}`,
    privateToYou: "privately to you",
    hidden: "message hidden",
    privateLine: "a private message",
    hide: "Hide",
    hideLabel: (name) => `Hide ${name}'s message`,
    asked: "you asked to hide it",
    to: "To",
    everyone: "everyone",
    message: (most) => `Your message, at most ${most} characters`,
    count: (n, most) => `${n}/${most}`,
    send: "Send",
    mute: (name) => `Mute ${name}`,
    watching: "Sign in to talk with the other spectators; the players read you once the game is over.",
    toSpectators: "To the spectators",
    over: "The game is over: nothing more can be said.",
  },
  pt: {
    title: "Chat da mesa",
    unread: (n) => (one("pt", n) ? `${n} mensagem por ler` : `${n} mensagens por ler`),
    lines: "Mensagens, da mais antiga à mais recente",
    none: "Ainda não há mensagens.",
    spectator: "Um espectador",
    privateTo: (name) => `em privado para ${name}`,
    privateToYou: "em privado para si",
    hidden: "mensagem escondida",
    privateLine: "uma mensagem privada",
    hide: "Esconder",
    hideLabel: (name) => `Esconder a mensagem de ${name}`,
    asked: "pediu para a esconder",
    to: "Para",
    everyone: "todos",
    message: (most) => `A sua mensagem, no máximo ${most} caracteres`,
    count: (n, most) => `${n}/${most}`,
    send: "Enviar",
    mute: (name) => `Silenciar ${name}`,
    watching: "Inicie sessão para falar com os outros espectadores; os jogadores leem-no quando o jogo acabar.",
    toSpectators: "Para os espectadores",
    over: "O jogo terminou: já não se pode dizer mais nada.",
  },
  gl: {
    title: "Chat da mesa",
    unread: (n) => (one("gl", n) ? `${n} mensaxe sen ler` : `${n} mensaxes sen ler`),
    lines: "Mensaxes, da máis antiga á máis recente",
    none: "Aínda non hai mensaxes.",
    spectator: "Un espectador",
    privateTo: (name) => `en privado para ${name}`,
    privateToYou: "en privado para ti",
    hidden: "mensaxe agochada",
    privateLine: "unha mensaxe privada",
    hide: "Agochar",
    hideLabel: (name) => `Agochar a mensaxe de ${name}`,
    asked: "pediches agochala",
    to: "Para",
    everyone: "todos",
    message: (most) => `A túa mensaxe, como moito ${most} caracteres`,
    count: (n, most) => `${n}/${most}`,
    send: "Enviar",
    mute: (name) => `Silenciar a ${name}`,
    watching: "Inicia sesión para falar cos outros espectadores; os xogadores lerante cando remate a partida.",
    toSpectators: "Para os espectadores",
    over: "A partida rematou: xa non se pode dicir nada máis.",
  },
  es: {
    title: "Chat de la mesa",
    unread: (n) => (one("es", n) ? `${n} mensaje sin leer` : `${n} mensajes sin leer`),
    lines: "Mensajes, del más antiguo al más reciente",
    none: "Todavía no hay mensajes.",
    spectator: "Un espectador",
    privateTo: (name) => `en privado para ${name}`,
    privateToYou: "en privado para ti",
    hidden: "mensaje oculto",
    privateLine: "un mensaje privado",
    hide: "Ocultar",
    hideLabel: (name) => `Ocultar el mensaje de ${name}`,
    asked: "pediste ocultarlo",
    to: "Para",
    everyone: "todos",
    message: (most) => `Tu mensaje, como mucho ${most} caracteres`,
    count: (n, most) => `${n}/${most}`,
    send: "Enviar",
    mute: (name) => `Silenciar a ${name}`,
    watching: "Inicia sesión para hablar con los demás espectadores; los jugadores te leerán cuando acabe la partida.",
    toSpectators: "Para los espectadores",
    over: "La partida terminó: ya no se puede decir nada más.",
  },
};

const SAID = byLanguage(WORDS);

// The panel's words in the page's language, and that language (the page's `lang`, set by words.js).
function words() {
  return { lang: document.documentElement.lang || "en", w: SAID };
}

const seatOf = (v) => (Number.isInteger(v) ? v : null);

export class TableChat {
  // send(command): the command delivered (resolves, or rejects with the ApiError of its refusal);
  // speak(text): a watching player's message on the spectators' channel (the same); seat(): this
  // page's seat (null: a spectator); signedIn(): a player is signed in on this page; redraw():
  // draw the table again, soon.
  constructor({ send, speak, seat, signedIn, redraw }) {
    this.send = send;
    this.speak = speak;
    this.seat = seat;
    this.signedIn = signedIn;
    this.redraw = redraw;
    this.top = 0; // the latest message this page has read a fact of (a catch-up again brings none new)
    this.primed = false; // the first catch-up is over: what comes now is new to the person
    this.unread = 0;
    this.open = !window.matchMedia("(max-width: 600px)").matches; // folded at first on a phone
    this.draft = ""; // what is typed, kept here (the page keeps the elements it first drew: morph.js)
    this.to = ""; // "" everyone, else the seat of a private line
    this.error = null; // the last refusal: {message, code}
    this.sending = false;
    this.stick = true; // the list follows the newest message (unless the person scrolled up)
    this.watched = new WeakSet();
    this.onFocus = () => this.read(true);
    this.onVisible = () => this.read(true);
    window.addEventListener("focus", this.onFocus);
    document.addEventListener("visibilitychange", this.onVisible);
    this.unlisten = onPlayerChange(() => this.redraw()); // signed in or out: a spectator's box comes or goes
    this.reset();
  }

  // The socket's catch-up brings every fact again: the chat is told from the start.
  reset() {
    this.said = []; // {version, seat, to, text, removed}, by version
    this.asked = new Set(); // versions this seat asked to hide
    this.muted = new Set(); // seats this seat no longer reads
  }

  stop() {
    this.unlisten();
    window.removeEventListener("focus", this.onFocus);
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  // The chat's facts of one update, at once; whether the panel changed. `greeting`: the update
  // has a view (the last of a catch-up, or a live one): what comes after it is new.
  take(events, greeting) {
    let changed = false;
    for (const { version, event } of events) {
      if (CHAT_FACTS.has(event.type)) changed = this.see(version, event) || changed;
    }
    if (greeting) this.primed = true;
    return changed;
  }

  see(version, ev) {
    if (ev.type === "MessageSaid") {
      const m = { version, seat: seatOf(ev.seat), to: seatOf(ev.to), text: ev.text || "", removed: ev.removed || null };
      if (this.said.some((x) => x.version === version)) return false;
      this.said.push(m);
      this.said.sort((a, b) => a.version - b.version);
      if (version > this.top) {
        this.top = version;
        const mine = m.seat !== null && m.seat === this.seat();
        if (this.primed && !mine && !this.muted.has(m.seat) && !this.reading()) this.unread += 1;
      }
      return true;
    }
    if (ev.type === "MessageHidden") {
      const m = this.said.find((x) => x.version === ev.version);
      if (m) Object.assign(m, { text: "", removed: "hidden" });
      return !!m;
    }
    if (ev.type === "HidingAsked") {
      this.asked.add(ev.version);
      return true;
    }
    if (ev.type === "SeatMuted") {
      if (ev.muted === false) this.muted.delete(ev.other);
      else this.muted.add(ev.other);
      return true;
    }
    return false;
  }

  // Whether the person reads the panel now: open, on a page in view that has the focus.
  reading() {
    return this.open && document.visibilityState === "visible" && document.hasFocus();
  }

  // The person is at the panel (opened it, came back to the page, touched it): all is read.
  read(focused = false) {
    if (!this.unread || !this.open || document.visibilityState !== "visible") return;
    if (!focused && !document.hasFocus()) return;
    this.unread = 0;
    this.redraw();
  }

  // --- commands ---------------------------------------------------------------------

  async command(command) {
    try {
      await (this.seat() === null ? this.speak(command.text) : this.send(command));
      this.error = null;
      return true;
    } catch (err) {
      this.error = { message: err.message || String(err), code: err.code || null };
      return false;
    } finally {
      this.redraw();
    }
  }

  async say(form) {
    const input = form.querySelector('[data-key="chat-text"]');
    const text = input ? input.value : this.draft;
    if (!text || this.sending) return;
    this.sending = true;
    const command = { type: "Say", text };
    if (this.to !== "") command.to = Number(this.to);
    const sent = await this.command(command);
    this.sending = false;
    if (sent) {
      this.draft = "";
      if (input) input.value = ""; // a focused field keeps its value through a redraw (morph.js)
      this.counted(form);
      this.unread = 0;
      this.stick = true;
    }
  }

  async mute(seat, muted, box) {
    if (!(await this.command({ type: "Mute", seat, muted }))) box.checked = !muted;
  }

  counted(form) {
    const count = form.querySelector(".chat-count");
    if (count) count.textContent = words().w.count(this.draft.length, TEXT_MOST);
  }

  // --- the panel ----------------------------------------------------------------------

  // {seat, status, seats, seatName(seat), colour(seat)}: the table as the screen holds it.
  panel({ seat, status, seats, seatName, colour }) {
    const { lang, w } = words();
    // a seat writes to the table; a signed-in player watching, to the spectators
    const writes = status !== "finished" && (seat !== null || this.signedIn());
    const shown = this.said.filter((m) => m.seat === null || !this.muted.has(m.seat));
    const people = seats.map((s, i) => (s && !s.bot && i !== seat ? i : null)).filter((i) => i !== null);
    const others = seats.map((s, i) => (s && i !== seat ? i : null)).filter((i) => i !== null);
    if (this.to !== "" && !others.includes(Number(this.to))) this.to = "";
    return h("details", { class: "chat panel", "data-key": "chat", "data-testid": "chat", lang, open: this.open,
      onkeydown: (e) => e.stopPropagation() }, // typing here is no shortcut of the table's
    h("summary", { "data-testid": "chat-toggle" }, w.title,
      this.unread ? h("span", { class: "unread", "data-testid": "chat-unread" },
        h("span", { "aria-hidden": "true" }, String(this.unread)), hidden(w.unread(this.unread))) : null),
    shown.length
      ? h("div", { class: "chat-lines", role: "log", tabindex: "0", "aria-label": w.lines, "data-testid": "chat-lines", "data-key": "chat-lines" },
        h("ol", {}, shown.map((m) => this.line(m, { seat, writes, seatName, colour, w }))))
      : h("p", { class: "muted", "data-key": "chat-none" }, w.none),
    this.error ? h("p", { class: "chat-error", role: "alert", "data-testid": "chat-error", "data-code": this.error.code, "data-key": "chat-error" },
      this.error.message) : null,
    writes ? this.form(seat === null ? null : others, seatName, w)
      : h("p", { class: "muted", "data-key": "chat-closed" }, status === "finished" ? w.over : w.watching),
    writes && seat !== null && people.length ? h("p", { class: "chat-mutes", "data-key": "chat-mutes" },
      people.map((s) => h("label", { class: "chat-mute", "data-key": `mute:${s}` },
        h("input", { type: "checkbox", checked: this.muted.has(s), "data-testid": `mute-${s}`,
          onchange: (e) => this.mute(s, e.target.checked, e.target) }), " ", w.mute(seatName(s))))) : null);
  }

  // The messages said up to `version`, as this page's viewer read them: the replay viewer's
  // transcript (nothing to write or hide there).
  transcript(version, { seat, seatName, colour }) {
    const { lang, w } = words();
    const shown = this.said.filter((m) => m.version <= version && (m.seat === null || !this.muted.has(m.seat)));
    return h("section", { class: "chat replay-chat", "data-testid": "replay-chat", lang, "aria-label": w.title },
      h("h2", {}, w.title),
      shown.length
        ? h("ol", { class: "chat-lines" }, shown.map((m) => this.line(m, { seat, writes: false, seatName, colour, w })))
        : h("p", { class: "muted" }, w.none));
  }

  line(m, { seat, writes, seatName, colour, w }) {
    const who = m.seat === null ? w.spectator : seatName(m.seat);
    const text = m.removed === "hidden" ? w.hidden : m.removed ? w.privateLine : m.text;
    const hideable = writes && m.to === null && m.seat !== null && m.seat !== seat && !m.removed;
    let hide = null;
    if (hideable && this.asked.has(m.version)) hide = h("span", { class: "chat-asked muted" }, w.asked);
    else if (hideable) {
      hide = h("button", { type: "button", class: "chat-hide", "data-testid": `hide-${m.version}`, "aria-label": w.hideLabel(who),
        onclick: () => this.command({ type: "HideMessage", version: m.version }) }, w.hide);
    }
    return h("li", {
      class: ["chat-line", m.to !== null ? "private" : null, m.removed ? "removed" : null, m.seat !== null && m.seat === seat ? "mine" : null],
      "data-key": `said:${m.version}`, "data-version": String(m.version), "data-seat": m.seat === null ? "spectator" : String(m.seat),
      "data-testid": `said-${m.version}`, style: m.seat === null ? null : { "--seat": colour(m.seat) },
    },
    h("strong", { class: "chat-who" }, who), " ",
    m.to !== null ? [h("span", { class: "chat-private" }, m.seat === seat ? w.privateTo(seatName(m.to)) : w.privateToYou), " "] : null,
    h("span", { class: "chat-text" }, text),
    hide ? [" ", hide] : null);
  }

  // others: the seats a private line may go to (null: a spectator's form, to the spectators alone)
  form(others, seatName, w) {
    return h("form", { class: "chat-form", "data-key": "chat-form", "data-testid": "chat-form",
      onsubmit: (e) => { e.preventDefault(); this.say(e.currentTarget); } },
    h("div", { class: "chat-form-head" },
      others === null ? h("span", { class: "chat-to", "data-testid": "chat-to-spectators" }, w.toSpectators) :
      h("label", { class: "chat-to" }, w.to, " ",
        h("select", { "data-key": "chat-to", "data-testid": "chat-to", onchange: (e) => { this.to = e.target.value; } },
          h("option", { value: "", selected: this.to === "" }, w.everyone),
          others.map((s) => h("option", { value: String(s), selected: this.to === String(s) }, seatName(s))))),
      h("span", { class: "chat-count", "aria-hidden": "true", "data-testid": "chat-count" }, w.count(this.draft.length, TEXT_MOST))),
    h("div", { class: "chat-form-row" },
      h("input", { type: "text", maxlength: TEXT_MOST, autocomplete: "off", value: this.draft, "aria-label": w.message(TEXT_MOST),
        "data-key": "chat-text", "data-testid": "chat-text",
        oninput: (e) => { this.draft = e.target.value; this.counted(e.target.form); } }),
      h("button", { type: "submit", "data-key": "chat-send", "data-testid": "chat-send" }, w.send)));
  }

  // After each draw: follow the panel's folding and the person's reading, and keep the newest
  // message in sight while the list is scrolled to its end.
  attach(root) {
    const panel = root.querySelector('[data-key="chat"]');
    if (!panel) return;
    if (!this.watched.has(panel)) {
      this.watched.add(panel);
      panel.addEventListener("toggle", () => { this.open = panel.open; this.read(true); });
      panel.addEventListener("focusin", () => this.read(true));
      panel.addEventListener("pointerdown", () => this.read(true));
    }
    this.open = panel.open;
    const list = panel.querySelector(".chat-lines");
    if (!list) return;
    if (!this.watched.has(list)) {
      this.watched.add(list);
      list.addEventListener("scroll", () => { this.stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 8; });
    }
    if (this.stick) list.scrollTop = list.scrollHeight;
  }
}
